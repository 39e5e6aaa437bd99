//! Reading the fields of one JSON line, each error naming the field and the cause.

use super::EngineId;
use super::item::PoseItem;
use super::numbers::number_text;
use serde_json::{Map, Value};

/// What is wrong with one field of a line.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    pub field: String,
    pub cause: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, cause: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            cause: cause.into(),
        }
    }
}

pub type Field<T> = Result<T, FieldError>;

/// A short description of a JSON value, for "expected a number, found …".
fn found(v: &Value) -> String {
    let text = v.to_string();
    let kind = match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    format!("{kind} ({})", crate::input::excerpt(&text))
}

/// The fields of one object, for reading with errors that name them.
pub struct Fields<'a> {
    obj: &'a Map<String, Value>,
    /// The path of this object in the line ("" at the top, "shape." inside `shape`).
    prefix: String,
}

impl<'a> Fields<'a> {
    pub fn of(value: &'a Value, prefix: &str) -> Field<Self> {
        match value {
            Value::Object(obj) => Ok(Self {
                obj,
                prefix: prefix.to_string(),
            }),
            other => Err(FieldError::new(
                prefix.trim_end_matches('.'),
                format!("expected an object, found {}", found(other)),
            )),
        }
    }

    pub fn name(&self, field: &str) -> String {
        format!("{}{field}", self.prefix)
    }

    pub fn err<T>(&self, field: &str, cause: impl Into<String>) -> Field<T> {
        Err(FieldError::new(self.name(field), cause))
    }

    pub fn get(&self, field: &str) -> Option<&'a Value> {
        self.obj.get(field).filter(|v| !v.is_null())
    }

    pub fn keys(&self) -> impl Iterator<Item = &'a String> {
        self.obj.keys()
    }

    pub fn required(&self, field: &str) -> Field<&'a Value> {
        self.get(field)
            .ok_or_else(|| FieldError::new(self.name(field), "missing"))
    }

    pub fn sub(&self, field: &str) -> Field<Fields<'a>> {
        Fields::of(self.required(field)?, &format!("{}.", self.name(field)))
    }

    pub fn text(&self, field: &str) -> Field<String> {
        match self.required(field)? {
            Value::String(s) => Ok(s.clone()),
            other => self.err(field, format!("expected text, found {}", found(other))),
        }
    }

    pub fn opt_text(&self, field: &str) -> Field<Option<String>> {
        self.get(field).map(|_| self.text(field)).transpose()
    }

    pub fn bool(&self, field: &str) -> Field<bool> {
        match self.required(field)? {
            Value::Bool(b) => Ok(*b),
            other => self.err(
                field,
                format!("expected true or false, found {}", found(other)),
            ),
        }
    }

    pub fn opt_bool(&self, field: &str) -> Field<Option<bool>> {
        self.get(field).map(|_| self.bool(field)).transpose()
    }

    pub fn id(&self, field: &str) -> Field<EngineId> {
        match self.required(field)? {
            Value::String(s) if s.is_empty() => self.err(field, "an id cannot be empty"),
            Value::String(s) => Ok(EngineId::Text(s.clone())),
            Value::Number(n) => n.as_u64().map(EngineId::Int).ok_or_else(|| {
                FieldError::new(
                    self.name(field),
                    format!("an id is a string or a non-negative integer, found {n}"),
                )
            }),
            other => self.err(
                field,
                format!(
                    "an id is a string or a non-negative integer, found {}",
                    found(other)
                ),
            ),
        }
    }

    pub fn ids(&self, field: &str) -> Field<Vec<EngineId>> {
        let Some(v) = self.get(field) else {
            return Ok(Vec::new());
        };
        let Value::Array(items) = v else {
            return self.err(field, format!("expected a list of ids, found {}", found(v)));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let wrapped = Value::Object(Map::from_iter([("id".to_string(), item.clone())]));
                Fields::of(&wrapped, "")?
                    .id("id")
                    .map_err(|e| FieldError::new(format!("{}[{i}]", self.name(field)), e.cause))
            })
            .collect()
    }

    /// A number, finite or not (`"NaN"`, `"inf"`, `"-inf"`).
    pub fn number(&self, field: &str) -> Field<f64> {
        number_value(self.required(field)?).map_err(|c| FieldError::new(self.name(field), c))
    }

    pub fn opt_number(&self, field: &str) -> Field<Option<f64>> {
        self.get(field).map(|_| self.number(field)).transpose()
    }

    /// A finite number: geometry, where NaN is an error and not a state to show.
    pub fn finite(&self, field: &str) -> Field<f64> {
        let x = self.number(field)?;
        if x.is_finite() {
            Ok(x)
        } else {
            self.err(field, format!("must be finite, found {}", number_text(x)))
        }
    }

    pub fn count(&self, field: &str) -> Field<u64> {
        match self.required(field)? {
            Value::Number(n) => n.as_u64().ok_or_else(|| {
                FieldError::new(
                    self.name(field),
                    format!("expected a non-negative integer, found {n}"),
                )
            }),
            other => self.err(
                field,
                format!("expected a non-negative integer, found {}", found(other)),
            ),
        }
    }

    pub fn opt_count(&self, field: &str) -> Field<Option<u64>> {
        self.get(field).map(|_| self.count(field)).transpose()
    }

    pub fn numbers<const N: usize>(&self, field: &str) -> Field<[f64; N]> {
        numbers_of(self.required(field)?, N)
            .and_then(|v| v.try_into().map_err(|_| format!("expected {N} numbers")))
            .map_err(|c| FieldError::new(self.name(field), c))
    }

    pub fn opt_numbers<const N: usize>(&self, field: &str) -> Field<Option<[f64; N]>> {
        self.get(field)
            .map(|_| self.numbers::<N>(field))
            .transpose()
    }

    pub fn finite_numbers<const N: usize>(&self, field: &str) -> Field<[f64; N]> {
        let v = self.numbers::<N>(field)?;
        match v.iter().position(|x| !x.is_finite()) {
            None => Ok(v),
            Some(i) => self.err(
                &format!("{field}[{i}]"),
                format!("must be finite, found {}", number_text(v[i])),
            ),
        }
    }

    /// A list of `[x, y, z]` points, all finite.
    pub fn points(&self, field: &str) -> Field<Vec<[f64; 3]>> {
        let v = self.required(field)?;
        let Value::Array(items) = v else {
            return self.err(
                field,
                format!("expected a list of [x, y, z], found {}", found(v)),
            );
        };
        items
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let name = format!("{field}[{i}]");
                let xs = numbers_of(p, 3).map_err(|c| FieldError::new(self.name(&name), c))?;
                let p: [f64; 3] = xs
                    .try_into()
                    .map_err(|_| FieldError::new(self.name(&name), "expected 3 numbers"))?;
                if p.iter().all(|x| x.is_finite()) {
                    Ok(p)
                } else {
                    self.err(&name, "must be finite")
                }
            })
            .collect()
    }

    /// `{"translation": [x, y, z], "rotation": [w, x, y, z]}`, the rotation normalised. A
    /// NaN survives (a body whose state became NaN is what a user must see); a zero
    /// quaternion is an error, as it names no rotation at all.
    pub fn pose(&self, field: &str) -> Field<PoseItem> {
        let p = self.sub(field)?;
        let translation = p.numbers::<3>("translation")?;
        let q = p.numbers::<4>("rotation")?;
        let Some(rotation) = unit_rotation(q) else {
            return p.err("rotation", ZERO_QUATERNION);
        };
        Ok(PoseItem {
            translation,
            rotation,
        })
    }

    pub fn opt_pose(&self, field: &str) -> Field<Option<PoseItem>> {
        self.get(field).map(|_| self.pose(field)).transpose()
    }
}

pub const ZERO_QUATERNION: &str = "a zero quaternion is no rotation";

/// A rotation as the stream reads it: normalised, a NaN or an infinity left as it is (what
/// the engine's state was); `None` for a zero quaternion. The Rust API's recording mode
/// normalises with this too, so that it holds the numbers its stream would read back as.
pub fn unit_rotation(q: [f64; 4]) -> Option<[f64; 4]> {
    let norm = q.iter().map(|x| x * x).sum::<f64>().sqrt();
    if norm == 0.0 {
        None
    } else if norm.is_finite() {
        Some(q.map(|x| x / norm))
    } else {
        Some(q)
    }
}

pub fn number_value(v: &Value) -> Result<f64, String> {
    match v {
        Value::Number(n) => n
            .as_f64()
            .ok_or_else(|| format!("{n} is not a number Collidoscope can hold")),
        Value::String(s) => match s.as_str() {
            "NaN" => Ok(f64::NAN),
            "inf" => Ok(f64::INFINITY),
            "-inf" => Ok(f64::NEG_INFINITY),
            _ => Err(format!(
                "expected a number (or \"NaN\", \"inf\", \"-inf\"), found {}",
                found(v)
            )),
        },
        other => Err(format!("expected a number, found {}", found(other))),
    }
}

fn numbers_of(v: &Value, expected: usize) -> Result<Vec<f64>, String> {
    let Value::Array(items) = v else {
        return Err(format!("expected {expected} numbers, found {}", found(v)));
    };
    if items.len() != expected {
        return Err(format!(
            "expected {expected} numbers, found {}",
            items.len()
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, x)| number_value(x).map_err(|c| format!("[{i}]: {c}")))
        .collect()
}

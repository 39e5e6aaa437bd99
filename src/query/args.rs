//! Reading op arguments from a request, with errors that name the field.

use crate::geom::{Point3, Pose, Quat, Real, TriMesh, Vec3};
use serde_json::{Map, Value};

#[derive(Debug, thiserror::Error)]
#[error("field \"{field}\": {cause}")]
pub struct ArgError {
    pub field: String,
    pub cause: String,
}

pub fn arg_error(field: &str, cause: impl Into<String>) -> ArgError {
    ArgError {
        field: field.to_string(),
        cause: cause.into(),
    }
}

/// A view of a request's fields (or of a nested object's, with a path prefix for errors).
pub struct Args<'a> {
    fields: &'a Map<String, Value>,
    prefix: String,
}

impl<'a> Args<'a> {
    pub fn new(fields: &'a Map<String, Value>) -> Self {
        Self {
            fields,
            prefix: String::new(),
        }
    }

    pub fn path(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    pub fn raw(&self, name: &str) -> Option<&'a Value> {
        self.fields.get(name).filter(|v| !v.is_null())
    }

    fn required(&self, name: &str) -> Result<&'a Value, ArgError> {
        self.raw(name)
            .ok_or_else(|| arg_error(&self.path(name), "missing"))
    }

    pub fn object(&self, name: &str) -> Result<Args<'a>, ArgError> {
        match self.required(name)? {
            Value::Object(m) => Ok(Args {
                fields: m,
                prefix: format!("{}.", self.path(name)),
            }),
            _ => Err(arg_error(&self.path(name), "must be an object")),
        }
    }

    pub fn number(&self, name: &str) -> Result<Real, ArgError> {
        number_at(self.required(name)?, &self.path(name))
    }

    pub fn number_or(&self, name: &str, default: Real) -> Result<Real, ArgError> {
        match self.raw(name) {
            None => Ok(default),
            Some(v) => number_at(v, &self.path(name)),
        }
    }

    /// A number that must be > 0 (radii, extents).
    pub fn positive(&self, name: &str) -> Result<Real, ArgError> {
        let v = self.number(name)?;
        if v > 0.0 {
            Ok(v)
        } else {
            Err(arg_error(&self.path(name), format!("must be > 0, got {v}")))
        }
    }

    pub fn non_negative(&self, name: &str) -> Result<Real, ArgError> {
        let v = self.number(name)?;
        if v >= 0.0 {
            Ok(v)
        } else {
            Err(arg_error(&self.path(name), format!("must be ≥ 0, got {v}")))
        }
    }

    pub fn string_or(&self, name: &str, default: &'a str) -> Result<&'a str, ArgError> {
        match self.raw(name) {
            None => Ok(default),
            Some(Value::String(s)) => Ok(s),
            Some(_) => Err(arg_error(&self.path(name), "must be a string")),
        }
    }

    pub fn point(&self, name: &str) -> Result<Point3, ArgError> {
        Ok(Point3::from(self.vector(name)?))
    }

    pub fn vector(&self, name: &str) -> Result<Vec3, ArgError> {
        vec3_at(self.required(name)?, &self.path(name))
    }

    pub fn points(&self, name: &str) -> Result<Vec<Point3>, ArgError> {
        let field = self.path(name);
        match self.required(name)? {
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| vec3_at(v, &format!("{field}[{i}]")).map(Point3::from))
                .collect(),
            _ => Err(arg_error(&field, "must be an array of [x, y, z] points")),
        }
    }

    /// `pose_<name>`: `{translation, rotation: [w, x, y, z]}`, identity by default; the
    /// quaternion is normalised.
    pub fn pose_of(&self, name: &str) -> Result<Pose, ArgError> {
        let key = format!("pose_{name}");
        let Some(v) = self.raw(&key) else {
            return Ok(Pose::identity());
        };
        let field = self.path(&key);
        let Value::Object(m) = v else {
            return Err(arg_error(
                &field,
                "must be an object {translation, rotation}",
            ));
        };
        let p = Args {
            fields: m,
            prefix: format!("{field}."),
        };
        let t = match p.raw("translation") {
            None => Vec3::zeros(),
            Some(v) => vec3_at(v, &p.path("translation"))?,
        };
        let q = match p.raw("rotation") {
            None => Quat::identity(),
            Some(v) => {
                let c = numbers_at(v, &p.path("rotation"), 4)?;
                // Scaled by its largest component first: the norm of [1e200, 0, 0, 0] would
                // overflow to ∞ and normalise to NaN, though the rotation is the identity.
                let largest = c.iter().fold(0.0, |m: f64, x| m.max(x.abs()));
                let q = nalgebra::Quaternion::new(c[0], c[1], c[2], c[3]);
                let q = if largest > 1.0 { q / largest } else { q };
                if q.norm() <= 1e-12 {
                    return Err(arg_error(
                        &p.path("rotation"),
                        "must be a non-zero quaternion [w, x, y, z]",
                    ));
                }
                Quat::from_quaternion(q)
            }
        };
        Ok(Pose::from_parts(t.into(), q))
    }

    /// `{"vertices": [[x,y,z], ...], "triangles": [[i,j,k], ...]}`, checked.
    pub fn mesh(&self, name: &str) -> Result<TriMesh, ArgError> {
        let m = self.object(name)?;
        let vertices = m.points("vertices")?;
        let field = m.path("triangles");
        let triangles = match m.required("triangles")? {
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let f = format!("{field}[{i}]");
                    let Value::Array(ix) = t else {
                        return Err(arg_error(&f, "must be [i, j, k]"));
                    };
                    if ix.len() != 3 {
                        return Err(arg_error(
                            &f,
                            format!("must have 3 indices, got {}", ix.len()),
                        ));
                    }
                    let mut out = [0u32; 3];
                    for (k, v) in ix.iter().enumerate() {
                        out[k] =
                            v.as_u64()
                                .and_then(|x| u32::try_from(x).ok())
                                .ok_or_else(|| {
                                    arg_error(
                                        &format!("{f}[{k}]"),
                                        "must be a vertex index (integer ≥ 0)",
                                    )
                                })?;
                    }
                    Ok(out)
                })
                .collect::<Result<Vec<_>, _>>()?,
            _ => return Err(arg_error(&field, "must be an array of [i, j, k]")),
        };
        TriMesh::new(vertices, triangles).map_err(|e| arg_error(&self.path(name), e.to_string()))
    }
}

pub fn number_at(v: &Value, field: &str) -> Result<Real, ArgError> {
    match v.as_f64() {
        Some(x) if x.is_finite() => Ok(x),
        Some(x) => Err(arg_error(field, format!("must be finite, got {x}"))),
        None => Err(arg_error(field, "must be a number")),
    }
}

fn numbers_at(v: &Value, field: &str, n: usize) -> Result<Vec<Real>, ArgError> {
    match v {
        Value::Array(items) if items.len() == n => items
            .iter()
            .enumerate()
            .map(|(i, x)| number_at(x, &format!("{field}[{i}]")))
            .collect(),
        Value::Array(items) => Err(arg_error(
            field,
            format!("must have {n} numbers, got {}", items.len()),
        )),
        _ => Err(arg_error(field, format!("must be an array of {n} numbers"))),
    }
}

fn vec3_at(v: &Value, field: &str) -> Result<Vec3, ArgError> {
    let c = numbers_at(v, field, 3)?;
    Ok(Vec3::new(c[0], c[1], c[2]))
}

/// JSON for a point or vector.
pub fn json_vec(v: &Vec3) -> Value {
    serde_json::json!([v.x, v.y, v.z])
}

pub fn json_point(p: &Point3) -> Value {
    json_vec(&p.coords)
}

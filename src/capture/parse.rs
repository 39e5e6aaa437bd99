//! One line of the capture stream, read into an [`Item`].

use super::fields::{FieldError, Fields, number_value};
use super::item::*;
use serde_json::Value;

/// What one line held.
#[derive(Debug, PartialEq)]
pub enum Parsed {
    Blank,
    Item {
        item: Item,
        /// Fields the contract does not name, `kind.field` (ignored; reported once each).
        unknown_fields: Vec<String>,
    },
    /// A kind the contract does not name (ignored; reported once).
    UnknownKind(String),
}

const KNOWN: &[(&str, &[&str])] = &[
    (
        "header",
        &[
            "format",
            "version",
            "engine",
            "dt_s",
            "gravity",
            "up",
            "length_unit_m",
            "captures",
            "penetration_tolerance_m",
            "prediction_distance_m",
            "contacts_at",
        ],
    ),
    ("shape", &["id", "shape", "approximates"]),
    ("body", &["id", "name", "motion"]),
    (
        "collider",
        &["id", "body", "shape", "pose", "sensor", "name"],
    ),
    ("remove", &["id", "what"]),
    ("frame", &["frame", "time_s"]),
    (
        "state",
        &["body", "pose", "linvel", "angvel", "sleeping", "ccd"],
    ),
    ("pair", &["a", "b", "touching"]),
    (
        "contact",
        &[
            "a",
            "b",
            "manifold",
            "point",
            "position",
            "normal",
            "distance",
            "normal_impulse",
            "tangent_impulse",
            "feature_a",
            "feature_b",
        ],
    ),
    ("event", &["stage", "label", "bodies", "values", "verdict"]),
    ("end_frame", &["state_hash"]),
];

/// Reads one line (without its line break).
pub fn parse_line(bytes: &[u8]) -> Result<Parsed, FieldError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        FieldError::new(
            "line",
            format!("not UTF-8 (byte {} is invalid)", e.valid_up_to()),
        )
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Ok(Parsed::Blank);
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| FieldError::new("line", format!("not JSON: {e}")))?;
    let f = Fields::of(&value, "")?;
    let kind = f.text("kind")?;
    let Some((_, known)) = KNOWN.iter().find(|(k, _)| *k == kind) else {
        return Ok(Parsed::UnknownKind(kind));
    };
    let unknown_fields = f
        .keys()
        .filter(|k| *k != "kind" && !known.contains(&k.as_str()))
        .map(|k| format!("{kind}.{k}"))
        .collect();
    let item = item_of(&kind, &f)?;
    Ok(Parsed::Item {
        item,
        unknown_fields,
    })
}

fn item_of(kind: &str, f: &Fields) -> Result<Item, FieldError> {
    Ok(match kind {
        "header" => Item::Header(header(f)?),
        "shape" => Item::Shape(ShapeItem {
            id: f.id("id")?,
            shape: shape(&f.sub("shape")?)?,
            approximates: f.opt_text("approximates")?,
        }),
        "body" => Item::Body(BodyItem {
            id: f.id("id")?,
            name: f.opt_text("name")?,
            motion: motion(f)?,
        }),
        "collider" => Item::Collider(ColliderItem {
            id: f.id("id")?,
            body: f.id("body")?,
            shape: f.id("shape")?,
            pose: finite_pose(f, "pose")?.unwrap_or_default(),
            sensor: f.opt_bool("sensor")?.unwrap_or(false),
            name: f.opt_text("name")?,
        }),
        "remove" => Item::Remove(RemoveItem {
            id: f.id("id")?,
            what: match f.opt_text("what")?.as_deref() {
                None => None,
                Some("body") => Some(Removed::Body),
                Some("collider") => Some(Removed::Collider),
                Some(other) => {
                    return f.err(
                        "what",
                        format!("expected \"body\" or \"collider\", found {other:?}"),
                    );
                }
            },
        }),
        "frame" => Item::Frame(FrameItem {
            frame: f.count("frame")?,
            time_s: f.opt_number("time_s")?,
        }),
        "state" => Item::State(StateItem {
            body: f.id("body")?,
            pose: f.pose("pose")?,
            linvel: f.opt_numbers::<3>("linvel")?,
            angvel: f.opt_numbers::<3>("angvel")?,
            sleeping: f.opt_bool("sleeping")?,
            ccd: f.opt_bool("ccd")?,
        }),
        "pair" => Item::Pair(PairItem {
            a: f.id("a")?,
            b: f.id("b")?,
            touching: f.opt_bool("touching")?,
        }),
        "contact" => Item::Contact(contact(f)?),
        "event" => Item::Event(event(f)?),
        "end_frame" => Item::EndFrame(EndFrameItem {
            state_hash: f.opt_text("state_hash")?,
        }),
        _ => unreachable!("kinds are checked against KNOWN"),
    })
}

fn header(f: &Fields) -> Result<Header, FieldError> {
    let format = f.text("format")?;
    if format != "collidoscope-capture" {
        return f.err(
            "format",
            format!("expected \"collidoscope-capture\", found {format:?}"),
        );
    }
    let version = f.count("version")?;
    if version != 1 {
        return f.err(
            "version",
            format!("this Collidoscope reads version 1 of the capture stream, found {version}"),
        );
    }
    let positive = |name: &str| -> Result<Option<f64>, FieldError> {
        match f.opt_number(name)? {
            Some(x) if !(x > 0.0) || !x.is_finite() => {
                f.err(name, format!("must be a positive number, found {x}"))
            }
            other => Ok(other),
        }
    };
    let contacts_at_start = match f.opt_text("contacts_at")?.as_deref() {
        None | Some("step_end") => false,
        Some("step_start") => true,
        Some(other) => {
            return f.err(
                "contacts_at",
                format!("expected \"step_start\" or \"step_end\", found {other:?}"),
            );
        }
    };
    let mut captures = Captured::default();
    for (i, name) in f.ids("captures")?.iter().enumerate() {
        let Some((_, c)) = Captured::NAMES.iter().find(|(n, _)| *n == name.to_string()) else {
            let known: Vec<&str> = Captured::NAMES.iter().map(|(n, _)| *n).collect();
            return f.err(
                &format!("captures[{i}]"),
                format!("unknown stage {name}; known: {}", known.join(", ")),
            );
        };
        captures = captures.with(*c);
    }
    Ok(Header {
        engine: f.text("engine")?,
        dt_s: positive("dt_s")?,
        gravity: f
            .get("gravity")
            .map(|_| f.finite_numbers::<3>("gravity"))
            .transpose()?,
        up: f
            .get("up")
            .map(|_| f.finite_numbers::<3>("up"))
            .transpose()?
            .unwrap_or([0.0, 1.0, 0.0]),
        length_unit_m: positive("length_unit_m")?.unwrap_or(1.0),
        captures,
        penetration_tolerance_m: positive("penetration_tolerance_m")?,
        prediction_distance_m: positive("prediction_distance_m")?,
        contacts_at_start,
    })
}

fn positive(f: &Fields, field: &str) -> Result<f64, FieldError> {
    let x = f.finite(field)?;
    if x > 0.0 {
        Ok(x)
    } else {
        f.err(field, format!("must be positive, found {x}"))
    }
}

fn non_negative(f: &Fields, field: &str) -> Result<f64, FieldError> {
    let x = f.finite(field)?;
    if x >= 0.0 {
        Ok(x)
    } else {
        f.err(field, format!("must not be negative, found {x}"))
    }
}

fn shape(f: &Fields) -> Result<CapturedShape, FieldError> {
    let kind = f.text("type")?;
    Ok(match kind.as_str() {
        "sphere" => CapturedShape::Sphere {
            radius: positive(f, "radius")?,
        },
        "cuboid" => {
            let h = f.finite_numbers::<3>("half_extents")?;
            if let Some(i) = h.iter().position(|x| *x < 0.0) {
                return f.err(&format!("half_extents[{i}]"), "must not be negative");
            }
            CapturedShape::Cuboid { half_extents: h }
        }
        "capsule" => CapturedShape::Capsule {
            radius: positive(f, "radius")?,
            half_height: non_negative(f, "half_height")?,
        },
        "cylinder" => CapturedShape::Cylinder {
            radius: positive(f, "radius")?,
            half_height: positive(f, "half_height")?,
        },
        "convex" => {
            let points = f.points("points")?;
            if points.len() < 4 {
                return f.err(
                    "points",
                    format!("a convex shape needs 4 points, found {}", points.len()),
                );
            }
            CapturedShape::Convex { points }
        }
        "trimesh" => trimesh(f)?,
        "heightfield" => heightfield(f)?,
        "plane" => {
            let normal = f.finite_numbers::<3>("normal")?;
            if normal.iter().all(|x| *x == 0.0) {
                return f.err("normal", "a zero normal names no plane");
            }
            CapturedShape::Plane {
                normal,
                d: f.finite("d")?,
            }
        }
        other => {
            return f.err(
                "type",
                format!(
                    "unknown shape type {other:?}; known: sphere, cuboid, capsule, cylinder, convex, trimesh, heightfield, plane"
                ),
            );
        }
    })
}

fn trimesh(f: &Fields) -> Result<CapturedShape, FieldError> {
    let vertices = f.points("vertices")?;
    let v = f.required("triangles")?;
    let Value::Array(items) = v else {
        return f.err("triangles", "expected a list of [i, j, k]");
    };
    let mut triangles = Vec::with_capacity(items.len());
    for (t, tri) in items.iter().enumerate() {
        let name = format!("triangles[{t}]");
        let Some(idx) = tri.as_array().filter(|a| a.len() == 3) else {
            return f.err(&name, "expected three vertex indices");
        };
        let mut out = [0u32; 3];
        for (k, i) in idx.iter().enumerate() {
            match i.as_u64() {
                Some(i) if (i as usize) < vertices.len() => out[k] = i as u32,
                _ => {
                    return f.err(
                        &name,
                        format!("{i} is not a vertex index (there are {})", vertices.len()),
                    );
                }
            }
        }
        triangles.push(out);
    }
    if triangles.is_empty() {
        return f.err("triangles", "a mesh needs at least one triangle");
    }
    Ok(CapturedShape::TriMesh {
        vertices,
        triangles,
    })
}

fn heightfield(f: &Fields) -> Result<CapturedShape, FieldError> {
    let v = f.required("heights")?;
    let Value::Array(rows) = v else {
        return f.err("heights", "expected rows of numbers");
    };
    let mut heights = Vec::with_capacity(rows.len());
    for (r, row) in rows.iter().enumerate() {
        let Some(cells) = row.as_array() else {
            return f.err(&format!("heights[{r}]"), "expected a row of numbers");
        };
        let row: Result<Vec<f64>, FieldError> = cells
            .iter()
            .enumerate()
            .map(|(c, x)| match number_value(x) {
                Ok(x) if x.is_finite() => Ok(x),
                Ok(x) => f.err(
                    &format!("heights[{r}][{c}]"),
                    format!("must be finite, found {x}"),
                ),
                Err(cause) => f.err(&format!("heights[{r}][{c}]"), cause),
            })
            .collect();
        heights.push(row?);
    }
    let cols = heights.first().map_or(0, Vec::len);
    if heights.len() < 2 || cols < 2 {
        return f.err(
            "heights",
            "a height field needs at least 2 rows of 2 heights",
        );
    }
    if let Some(r) = heights.iter().position(|row| row.len() != cols) {
        return f.err(
            &format!("heights[{r}]"),
            format!("has {} heights where row 0 has {cols}", heights[r].len()),
        );
    }
    let scale = f.finite_numbers::<3>("scale")?;
    if scale[0] <= 0.0 || scale[2] <= 0.0 {
        return f.err("scale", "the x and z scales must be positive");
    }
    Ok(CapturedShape::HeightField { heights, scale })
}

fn motion(f: &Fields) -> Result<Motion, FieldError> {
    match f.opt_text("motion")?.as_deref() {
        None | Some("dynamic") => Ok(Motion::Dynamic),
        Some("kinematic") => Ok(Motion::Kinematic),
        Some("fixed") => Ok(Motion::Fixed),
        Some(other) => f.err(
            "motion",
            format!("expected \"dynamic\", \"kinematic\" or \"fixed\", found {other:?}"),
        ),
    }
}

/// A collider's pose on its body is geometry: it must be finite.
fn finite_pose(f: &Fields, field: &str) -> Result<Option<PoseItem>, FieldError> {
    let Some(pose) = f.opt_pose(field)? else {
        return Ok(None);
    };
    let all = pose.translation.iter().chain(pose.rotation.iter());
    if all.clone().all(|x| x.is_finite()) {
        Ok(Some(pose))
    } else {
        f.err(field, "a collider's pose on its body must be finite")
    }
}

fn contact(f: &Fields) -> Result<ContactItem, FieldError> {
    let small = |name: &str| -> Result<u32, FieldError> {
        match f.opt_count(name)? {
            None => Ok(0),
            Some(n) => u32::try_from(n)
                .or_else(|_| f.err(name, format!("{n} is too large (at most {})", u32::MAX))),
        }
    };
    let feature = |name: &str| -> Result<Option<String>, FieldError> {
        Ok(match f.get(name) {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            Some(_) => return f.err(name, "expected a number or text"),
        })
    };
    Ok(ContactItem {
        a: f.id("a")?,
        b: f.id("b")?,
        manifold: small("manifold")?,
        point: small("point")?,
        position: f.numbers::<3>("position")?,
        normal: f.numbers::<3>("normal")?,
        distance: f.number("distance")?,
        normal_impulse: f.opt_number("normal_impulse")?,
        tangent_impulse: f.opt_numbers::<2>("tangent_impulse")?,
        feature_a: feature("feature_a")?,
        feature_b: feature("feature_b")?,
    })
}

fn event(f: &Fields) -> Result<EventItem, FieldError> {
    use crate::trace::Verdict;
    let verdict = match f.opt_text("verdict")?.as_deref() {
        None | Some("info") => Verdict::Info,
        Some("hit") => Verdict::Hit,
        Some("miss") => Verdict::Miss,
        Some("warning") => Verdict::Warning,
        Some(other) => {
            return f.err(
                "verdict",
                format!("expected \"hit\", \"miss\", \"info\" or \"warning\", found {other:?}"),
            );
        }
    };
    let mut values = Vec::new();
    if let Some(v) = f.get("values") {
        let obj = Fields::of(v, "values.")?;
        for key in obj.keys() {
            let x = obj.required(key)?;
            let value = match x {
                Value::String(s) => match number_value(x) {
                    Ok(n) => EventValue::Number(n),
                    Err(_) => EventValue::Text(s.clone()),
                },
                Value::Array(items) => EventValue::Vector(
                    items
                        .iter()
                        .map(number_value)
                        .collect::<Result<_, _>>()
                        .or_else(|c| obj.err(key, c))?,
                ),
                _ => EventValue::Number(number_value(x).or_else(|c| obj.err(key, c))?),
            };
            values.push((key.clone(), value));
        }
    }
    Ok(EventItem {
        stage: f.text("stage")?,
        label: f.text("label")?,
        bodies: f.ids("bodies")?,
        values,
        verdict,
    })
}

//! The NURBS surface JSON type of the query protocol (`docs/nurbs-format.md`):
//! `{"degree_u", "degree_v", "knots_u", "knots_v", "control_points": [[[x, y, z, w], ...], ...]}`
//! with rows along u. One reader for the query op and the surface files, so both name the
//! failing field the same way.

use super::input_limits::{check_coordinates, check_knots, check_weight, check_weight_ratio};
use super::surface::{MAX_DEGREE, NurbsSurface};
use serde_json::Value;

pub use super::field_error::FieldError;

fn fail(field: &str, cause: impl Into<String>) -> FieldError {
    FieldError {
        field: field.to_string(),
        cause: cause.into(),
    }
}

fn member<'v>(v: &'v Value, at: &str, name: &str) -> Result<&'v Value, FieldError> {
    let Value::Object(map) = v else {
        return Err(fail(at, "must be an object"));
    };
    map.get(name)
        .ok_or_else(|| fail(&format!("{at}.{name}"), "missing"))
}

fn number(v: &Value, at: &str) -> Result<f64, FieldError> {
    match v.as_f64() {
        Some(x) if x.is_finite() => Ok(x),
        _ => Err(fail(at, "must be a finite number")),
    }
}

/// A degree in 1..=MAX_DEGREE, checked here so that the knot checks that use it run on a
/// meaningful one.
fn degree(v: &Value, at: &str, name: &str) -> Result<usize, FieldError> {
    let at = format!("{at}.{name}");
    member(v, "", name)
        .map_err(|_| fail(&at, "missing"))?
        .as_u64()
        .and_then(|d| usize::try_from(d).ok())
        .filter(|d| (1..=MAX_DEGREE).contains(d))
        .ok_or_else(|| fail(&at, format!("must be an integer in 1..={MAX_DEGREE}")))
}

fn numbers(v: &Value, at: &str) -> Result<Vec<f64>, FieldError> {
    let Value::Array(list) = v else {
        return Err(fail(at, "must be an array of numbers"));
    };
    list.iter()
        .enumerate()
        .map(|(i, x)| number(x, &format!("{at}[{i}]")))
        .collect()
}

/// Reads one surface; `at` names the value in errors (`a`, `surfaces[2]`).
pub fn surface_from_json(v: &Value, at: &str) -> Result<NurbsSurface, FieldError> {
    if !v.is_object() {
        return Err(fail(at, "must be an object (a NURBS surface)"));
    }
    let degree_u = degree(v, at, "degree_u")?;
    let degree_v = degree(v, at, "degree_v")?;
    let knots_u = numbers(member(v, at, "knots_u")?, &format!("{at}.knots_u"))?;
    let knots_v = numbers(member(v, at, "knots_v")?, &format!("{at}.knots_v"))?;
    check_knots(&knots_u, degree_u, &format!("{at}.knots_u"))?;
    check_knots(&knots_v, degree_v, &format!("{at}.knots_v"))?;
    let net_at = format!("{at}.control_points");
    let Value::Array(rows) = member(v, at, "control_points")? else {
        return Err(fail(&net_at, "must be an array of rows"));
    };
    let count_u = rows.len();
    let mut count_v = 0;
    let mut cartesian = Vec::new();
    let mut weights = Vec::new();
    let mut weight_fields = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let row_at = format!("{net_at}[{i}]");
        let Value::Array(points) = row else {
            return Err(fail(&row_at, "must be an array of [x, y, z, w]"));
        };
        if i == 0 {
            count_v = points.len();
        } else if points.len() != count_v {
            return Err(fail(
                &row_at,
                format!("has {} points, row 0 has {count_v}", points.len()),
            ));
        }
        for (j, p) in points.iter().enumerate() {
            let p_at = format!("{row_at}[{j}]");
            let c = numbers(p, &p_at)?;
            if c.len() != 4 {
                return Err(fail(&p_at, "must be [x, y, z, w]"));
            }
            if c[3] <= 0.0 {
                return Err(fail(
                    &format!("{p_at}[3]"),
                    "the weight must be positive (the boxes rely on it)",
                ));
            }
            check_coordinates(&c[..3], &p_at)?;
            check_weight(c[3], &format!("{p_at}[3]"))?;
            cartesian.push([c[0], c[1], c[2]]);
            weights.push(c[3]);
            weight_fields.push((format!("{p_at}[3]"), c[3]));
        }
    }
    check_weight_ratio(&weight_fields)?;
    NurbsSurface::new(
        (degree_u, degree_v),
        (knots_u, knots_v),
        (count_u, count_v),
        &cartesian,
        &weights,
    )
    .map_err(|e| fail(at, e.to_string()))
}

/// The JSON value of a surface, in the same form (what `surface_from_json` reads back).
pub fn surface_to_json(s: &NurbsSurface) -> Value {
    let rows: Vec<Value> = (0..s.count_u)
        .map(|i| {
            Value::Array(
                (0..s.count_v)
                    .map(|j| {
                        let h = s.points[s.point_index(i, j)];
                        serde_json::json!([h.x / h.w, h.y / h.w, h.z / h.w, h.w])
                    })
                    .collect(),
            )
        })
        .collect();
    serde_json::json!({
        "degree_u": s.degree_u,
        "degree_v": s.degree_v,
        "knots_u": s.knots_u,
        "knots_v": s.knots_v,
        "control_points": rows,
    })
}

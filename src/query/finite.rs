//! The generic guard against non-finite answers. serde_json prints NaN and ±∞ as `null`, so a
//! result that overflowed would reach the user as `"distance": null` in an `"ok": true`
//! answer. Every op's reply is scanned before it is sent: a `null` where the op does not
//! document one is an error naming the request's most extreme number, the likeliest cause.

use super::args::{ArgError, arg_error};
use serde_json::{Map, Value};

/// The reply fields that may be null by the protocol: no hit (BSP), or a hit where neither
/// NURBS surface has a normal (a collapsed pole). A NaN vector there still shows as an array
/// holding nulls, which the scan catches.
const NULLABLE: &[(&str, &str)] = &[
    ("bsp_sweep", "normal"),
    ("bsp_sweep", "brush"),
    ("bsp_slide", "normal"),
    ("nurbs_intersect", "normal"),
];

/// Checks a successful reply of `op` to `request`: `Err` names the input behind the first
/// undocumented null.
pub fn check_reply(
    op: &str,
    request: &Map<String, Value>,
    reply: &Map<String, Value>,
) -> Result<(), ArgError> {
    let Some(path) = first_null_in_object(op, reply, "") else {
        return Ok(());
    };
    let cause = format!("the answer's {path} is not finite");
    Err(match most_extreme(request) {
        Some((field, x)) => arg_error(
            &field,
            format!(
                "{cause}: this input ({x:e}) is likely what overflowed the arithmetic; scale the input nearer to 1"
            ),
        ),
        None => arg_error(op, cause),
    })
}

fn first_null_in_object(op: &str, fields: &Map<String, Value>, at: &str) -> Option<String> {
    fields.iter().find_map(|(key, v)| {
        let path = if at.is_empty() {
            key.clone()
        } else {
            format!("{at}.{key}")
        };
        match v {
            Value::Null if NULLABLE.contains(&(op, key.as_str())) => None,
            _ => first_null(op, v, &path),
        }
    })
}

fn first_null(op: &str, v: &Value, at: &str) -> Option<String> {
    match v {
        Value::Null => Some(format!("\"{at}\"")),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, x)| first_null(op, x, &format!("{at}[{i}]"))),
        Value::Object(fields) => first_null_in_object(op, fields, at),
        _ => None,
    }
}

/// The request's number farthest from 1 in orders of magnitude (1e155 and 5e-324 alike), with
/// its field path; the id is not an input.
pub fn most_extreme(request: &Map<String, Value>) -> Option<(String, f64)> {
    let mut best: Option<(String, f64)> = None;
    for (key, v) in request.iter().filter(|(k, _)| *k != "id") {
        visit_numbers(v, key, &mut |path, x| {
            let better = best
                .as_ref()
                .is_none_or(|(_, b)| extremity(x) > extremity(*b));
            if better && x != 0.0 {
                best = Some((path.to_string(), x));
            }
        });
    }
    best
}

fn extremity(x: f64) -> f64 {
    x.abs().log10().abs()
}

fn visit_numbers(v: &Value, at: &str, f: &mut dyn FnMut(&str, f64)) {
    match v {
        Value::Number(n) => {
            if let Some(x) = n.as_f64() {
                f(at, x);
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                visit_numbers(x, &format!("{at}[{i}]"), f);
            }
        }
        Value::Object(fields) => {
            for (k, x) in fields {
                visit_numbers(x, &format!("{at}.{k}"), f);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn a_null_names_the_most_extreme_input() {
        let request = map(json!({"id": 1e300, "a": {"center": [0, 1e155, 2]}, "b": [5e-324, 1]}));
        let reply = map(json!({"distance": null}));
        let e = check_reply("sphere_sphere", &request, &reply).unwrap_err();
        assert_eq!(e.field, "b[0]");
        assert!(e.cause.contains("\"distance\""), "{e}");
    }

    #[test]
    fn documented_nulls_pass_but_nulls_inside_them_do_not() {
        let request = map(json!({"start": [0, 0, 1e200]}));
        assert!(
            check_reply(
                "bsp_sweep",
                &request,
                &map(json!({"normal": null, "brush": null}))
            )
            .is_ok()
        );
        let e =
            check_reply("bsp_sweep", &request, &map(json!({"normal": [null, 0, 1]}))).unwrap_err();
        assert_eq!(e.field, "start[2]");
        assert!(e.cause.contains("\"normal[0]\""), "{e}");
        assert!(check_reply("sphere_sphere", &request, &map(json!({"normal": null}))).is_err());
    }
}

//! Two frames, item by item in pipeline order: the first thing that differs.

use super::parts::{Key, Parts, STAGES, Value};
use super::tolerance::Tolerance;
use crate::frame::Frame;
use std::collections::HashMap;

/// The first difference inside a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// One of [`STAGES`].
    pub stage: &'static str,
    pub key: Key,
    /// What differs, in a sentence; bodies are named with `names`.
    pub what: String,
    /// The differing values, when both runs have the item.
    pub a: Option<serde_json::Value>,
    pub b: Option<serde_json::Value>,
    /// The largest absolute difference between them.
    pub delta: Option<f64>,
}

/// How the report names a body: the recording's name (with the engine's ids for a captured
/// run), else its index.
pub fn body_name(id: u32, names: &[String]) -> String {
    names
        .get(id as usize)
        .cloned()
        .unwrap_or_else(|| format!("body {id}"))
}

fn describe(key: &Key, names: &[String]) -> String {
    let n = |id: &u32| body_name(*id, names);
    match key {
        Key::Pair(a, b) => format!("the pair {} – {}", n(a), n(b)),
        Key::Contact(a, b, id) => format!("contact {}.{} of {} – {}", id[0], id[1], n(a), n(b)),
        Key::Impulse(a, b, id, k) => format!(
            "impulse {} on contact {}.{} of {} – {}",
            k + 1,
            id[0],
            id[1],
            n(a),
            n(b)
        ),
        Key::Event(kind, bodies, k) => {
            let who: Vec<String> = bodies.iter().map(n).collect();
            format!("{kind} event {} of [{}]", k + 1, who.join(", "))
        }
        Key::Body(b) => n(b),
    }
}

/// The first item of `a` and `b` that differs beyond `tol`, in pipeline order.
pub fn first_difference(
    a: &Frame,
    b: &Frame,
    tol: Tolerance,
    names: &[String],
) -> Option<Difference> {
    let (pa, pb) = (Parts::of(a), Parts::of(b));
    for (s, stage) in STAGES.iter().enumerate() {
        if let Some(d) = stage_difference(&pa.stages[s], &pb.stages[s], tol) {
            let what = match &d {
                StageDiff::OnlyIn(side, key) => {
                    format!("{} is in run {side} only", describe(key, names))
                }
                StageDiff::Values { key, field, .. } => {
                    format!("{}: {field} differs", describe(key, names))
                }
            };
            return Some(match d {
                StageDiff::OnlyIn(_, key) => Difference {
                    stage,
                    key,
                    what,
                    a: None,
                    b: None,
                    delta: None,
                },
                StageDiff::Values {
                    key, a, b, delta, ..
                } => Difference {
                    stage,
                    key,
                    what,
                    a: Some(a),
                    b: Some(b),
                    delta,
                },
            });
        }
    }
    None
}

/// The first body whose state differs, with the largest difference of its numbers.
pub fn body_difference(a: &Frame, b: &Frame, tol: Tolerance) -> Option<(u32, f64)> {
    let (pa, pb) = (Parts::of(a), Parts::of(b));
    match stage_difference(&pa.stages[4], &pb.stages[4], tol)? {
        StageDiff::OnlyIn(_, key) => Some((key.bodies()[0], f64::INFINITY)),
        StageDiff::Values { key, delta, .. } => {
            Some((key.bodies()[0], delta.unwrap_or(f64::INFINITY)))
        }
    }
}

enum StageDiff {
    OnlyIn(char, Key),
    Values {
        key: Key,
        field: String,
        a: serde_json::Value,
        b: serde_json::Value,
        delta: Option<f64>,
    },
}

fn stage_difference(a: &[(Key, Value)], b: &[(Key, Value)], tol: Tolerance) -> Option<StageDiff> {
    let in_b: HashMap<&Key, &Value> = b.iter().map(|(k, v)| (k, v)).collect();
    let in_a: HashMap<&Key, &Value> = a.iter().map(|(k, v)| (k, v)).collect();
    for (key, va) in a {
        let Some(vb) = in_b.get(key) else {
            return Some(StageDiff::OnlyIn('A', key.clone()));
        };
        if let Some((field, x, y, delta)) = value_difference(va, vb, tol) {
            return Some(StageDiff::Values {
                key: key.clone(),
                field,
                a: x,
                b: y,
                delta,
            });
        }
    }
    b.iter()
        .find(|(key, _)| !in_a.contains_key(key))
        .map(|(key, _)| StageDiff::OnlyIn('B', key.clone()))
}

type FieldDiff = (String, serde_json::Value, serde_json::Value, Option<f64>);

fn value_difference(a: &Value, b: &Value, tol: Tolerance) -> Option<FieldDiff> {
    match (a, b) {
        (Value::Numbers(x), Value::Numbers(y)) => {
            let differs =
                x.len() != y.len() || x.iter().zip(y).any(|((_, p), (_, q))| !tol.same(*p, *q));
            if !differs {
                return None;
            }
            let field = x
                .iter()
                .zip(y)
                .find(|((_, p), (_, q))| !tol.same(*p, *q))
                .map_or("the values", |((name, _), _)| name);
            let delta =
                x.iter()
                    .zip(y)
                    .map(|((_, p), (_, q))| (p - q).abs())
                    .fold(
                        0.0,
                        |m: f64, d| if d.is_nan() { f64::INFINITY } else { m.max(d) },
                    );
            let json = |v: &[(&str, f64)]| {
                serde_json::Value::Object(
                    v.iter()
                        .map(|(k, x)| (k.to_string(), crate::capture::number_json(*x)))
                        .collect(),
                )
            };
            Some((field.to_string(), json(x), json(y), Some(delta)))
        }
        (Value::Json(x), Value::Json(y)) => {
            let mut delta = 0.0f64;
            json_difference(x, y, tol, &mut delta, "")
                .map(|path| (path, x.clone(), y.clone(), Some(delta)))
        }
        _ => Some((
            "the kind".into(),
            serde_json::Value::Null,
            serde_json::Value::Null,
            None,
        )),
    }
}

/// The path of the first field where two JSON values differ beyond `tol` (numbers compared
/// with it, everything else exactly); `delta` gathers the largest numeric difference.
fn json_difference(
    a: &serde_json::Value,
    b: &serde_json::Value,
    tol: Tolerance,
    delta: &mut f64,
    path: &str,
) -> Option<String> {
    use serde_json::Value as J;
    let here = || {
        if path.is_empty() {
            "the event".to_string()
        } else {
            path.to_string()
        }
    };
    match (a, b) {
        (J::Number(x), J::Number(y)) => {
            let (p, q) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            *delta = delta.max((p - q).abs());
            (!tol.same(p, q)).then(here)
        }
        (J::Object(x), J::Object(y)) => {
            if x.len() != y.len() {
                return Some(here());
            }
            x.iter().find_map(|(k, v)| {
                let sub = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match y.get(k) {
                    Some(w) => json_difference(v, w, tol, delta, &sub),
                    None => Some(sub),
                }
            })
        }
        (J::Array(x), J::Array(y)) => {
            if x.len() != y.len() {
                return Some(here());
            }
            x.iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (v, w))| json_difference(v, w, tol, delta, &format!("{path}[{i}]")))
        }
        _ => (a != b).then(here),
    }
}

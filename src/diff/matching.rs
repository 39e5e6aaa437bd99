//! Matching two runs' items of one stage by key, and comparing the values matched: the one
//! place that decides what "differs" means, for the first difference and for the full list.

use super::parts::{Key, Value};
use super::tolerance::Tolerance;
use std::collections::{HashMap, HashSet};

pub enum StageDiff {
    OnlyIn(char, Key),
    Values {
        key: Key,
        field: String,
        a: serde_json::Value,
        b: serde_json::Value,
        delta: Option<f64>,
    },
}

/// Every difference of one stage, lazily (the first costs no more than finding it): A's
/// items in A's order, each missing from B or with other values, then B's items missing from A.
pub fn stage_differences<'a>(
    a: &'a [(Key, Value)],
    b: &'a [(Key, Value)],
    tol: Tolerance,
) -> impl Iterator<Item = StageDiff> + 'a {
    let in_b: HashMap<&Key, &Value> = b.iter().map(|(k, v)| (k, v)).collect();
    let in_a: HashSet<&Key> = a.iter().map(|(k, _)| k).collect();
    let from_a = a.iter().filter_map(move |(key, va)| {
        let Some(vb) = in_b.get(key) else {
            return Some(StageDiff::OnlyIn('A', key.clone()));
        };
        value_difference(va, vb, tol).map(|(field, x, y, delta)| StageDiff::Values {
            key: key.clone(),
            field,
            a: x,
            b: y,
            delta,
        })
    });
    let only_b = b
        .iter()
        .filter(move |(key, _)| !in_a.contains(key))
        .map(|(key, _)| StageDiff::OnlyIn('B', key.clone()));
    from_a.chain(only_b)
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

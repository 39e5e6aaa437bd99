//! Two frames, item by item in pipeline order: every difference, as the viewer's diff panel
//! lists them. The first of the list is what `diff` reports (see [`super::first_difference`]).

use super::matching::{StageDiff, stage_differences};
use super::parts::{Key, Parts, STAGES};
use super::tolerance::Tolerance;
use crate::frame::Frame;
use std::collections::HashSet;
use std::ops::ControlFlow;

/// One difference inside a frame.
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

fn difference(stage: &'static str, d: StageDiff, names: &[String]) -> Difference {
    match d {
        StageDiff::OnlyIn(side, key) => Difference {
            stage,
            what: format!("{} is in run {side} only", describe(&key, names)),
            key,
            a: None,
            b: None,
            delta: None,
        },
        StageDiff::Values {
            key,
            field,
            a,
            b,
            delta,
        } => Difference {
            stage,
            what: format!("{}: {field} differs", describe(&key, names)),
            key,
            a: Some(a),
            b: Some(b),
            delta,
        },
    }
}

/// Hands each difference of the two frames to `f`, in pipeline order, until it breaks. An
/// item a frame lists twice (a pair both as a family's part and as a trace event) is
/// handed over once.
pub(super) fn visit(
    a: &Frame,
    b: &Frame,
    tol: Tolerance,
    names: &[String],
    mut f: impl FnMut(Difference) -> ControlFlow<()>,
) {
    let (pa, pb) = (Parts::of(a), Parts::of(b));
    let mut seen: HashSet<(usize, Key)> = HashSet::new();
    for (s, stage) in STAGES.iter().enumerate() {
        for d in stage_differences(&pa.stages[s], &pb.stages[s], tol) {
            let key = match &d {
                StageDiff::OnlyIn(_, k) | StageDiff::Values { key: k, .. } => k,
            };
            if !seen.insert((s, key.clone())) {
                continue;
            }
            if f(difference(stage, d, names)).is_break() {
                return;
            }
        }
    }
}

/// Every item of `a` and `b` that differs beyond `tol`, in pipeline order (pairs, contacts,
/// impulses, other events, bodies), each stage in A's order and then B's items A lacks.
pub fn differences(a: &Frame, b: &Frame, tol: Tolerance, names: &[String]) -> Vec<Difference> {
    let mut out = Vec::new();
    visit(a, b, tol, names, |d| {
        out.push(d);
        ControlFlow::Continue(())
    });
    out
}

/// Where in the frame's trace the event an item was recorded as sits, by the item's key
/// (contacts and body states are not trace events: `None`).
pub fn trace_positions(frame: &Frame) -> std::collections::HashMap<Key, usize> {
    Parts::of(frame).trace
}

//! A frame as `diff` sees it: its pairs, contacts, impulses, other events and body states, in
//! pipeline order, each under a key that says what it is.

use crate::frame::Frame;
use crate::trace::{BodyId, DiffRole, FrameParts};
use std::collections::HashMap;

/// What a compared item is, for matching it across two runs and for saying which it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Pair(BodyId, BodyId),
    /// The pair, the contact's id (manifold and point, or its order within the pair).
    Contact(BodyId, BodyId, [u32; 2]),
    /// The pair, the contact's id, and which of its impulses (solver passes repeat them).
    Impulse(BodyId, BodyId, [u32; 2], u32),
    /// The family and kind, the bodies, and which of such events in the frame.
    Event(String, Vec<BodyId>, u32),
    Body(BodyId),
}

impl Key {
    pub fn bodies(&self) -> Vec<BodyId> {
        match self {
            Key::Pair(a, b) | Key::Contact(a, b, _) | Key::Impulse(a, b, _, _) => vec![*a, *b],
            Key::Event(_, bodies, _) => bodies.clone(),
            Key::Body(b) => vec![*b],
        }
    }
}

/// What is compared under a key.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Named numbers (a contact's point, normal and depth; a body's pose and velocities).
    Numbers(Vec<(&'static str, f64)>),
    /// An event as a whole.
    Json(serde_json::Value),
}

/// The stages of a step, in pipeline order, as the report names them.
pub const STAGES: [&str; 5] = ["pairs", "contacts", "impulses", "events", "bodies"];

/// The frame's items, stage by stage in pipeline order, each stage in the frame's own order.
pub struct Parts {
    pub stages: [Vec<(Key, Value)>; 5],
    /// Where an item recorded as a trace event sits in the frame's trace (the first such
    /// event for a key), so a viewer can step to it.
    pub trace: HashMap<Key, usize>,
}

impl Parts {
    pub fn of(frame: &Frame) -> Parts {
        let mut extra = FrameParts::default();
        for data in &frame.families {
            data.parts(frame, &mut extra);
        }
        let mut stages: [Vec<(Key, Value)>; 5] = Default::default();
        for &(a, b) in &extra.pairs {
            stages[0].push((pair_key(a, b), Value::Numbers(Vec::new())));
        }
        contacts(frame, extra.contact_ids.as_deref(), &mut stages[1]);
        let mut seen: HashMap<Key, u32> = HashMap::new();
        for (a, b, id, values) in extra.impulses {
            stages[2].push((impulse_key(a, b, id, &mut seen), impulse_value(&values)));
        }
        let trace = events(frame, &mut stages, &mut seen);
        for body in &frame.bodies {
            let n = |v: &[f64]| v.to_vec();
            let mut numbers = Vec::with_capacity(13);
            let names = ["x", "y", "z"];
            for (k, x) in n(body.position.coords.as_slice()).into_iter().enumerate() {
                numbers.push((names[k], x));
            }
            let q = body.rotation.coords;
            numbers.extend([("qx", q.x), ("qy", q.y), ("qz", q.z), ("qw", q.w)]);
            let v = body.linear_velocity;
            let w = body.angular_velocity;
            numbers.extend([("vx", v.x), ("vy", v.y), ("vz", v.z)]);
            numbers.extend([("wx", w.x), ("wy", w.y), ("wz", w.z)]);
            stages[4].push((Key::Body(body.id), Value::Numbers(numbers)));
        }
        Parts { stages, trace }
    }
}

fn pair_key(a: BodyId, b: BodyId) -> Key {
    Key::Pair(a.min(b), a.max(b))
}

fn impulse_key(a: BodyId, b: BodyId, id: [u32; 2], seen: &mut HashMap<Key, u32>) -> Key {
    let base = Key::Impulse(a, b, id, 0);
    let n = seen.entry(base).or_insert(0);
    *n += 1;
    Key::Impulse(a, b, id, *n - 1)
}

fn impulse_value(values: &[f64]) -> Value {
    const NAMES: [&str; 4] = [
        "normal impulse",
        "tangent impulse 1",
        "tangent impulse 2",
        "tangent impulse 3",
    ];
    Value::Numbers(NAMES.iter().copied().zip(values.iter().copied()).collect())
}

fn contacts(frame: &Frame, ids: Option<&[[u32; 2]]>, out: &mut Vec<(Key, Value)>) {
    let mut order: HashMap<(BodyId, BodyId), u32> = HashMap::new();
    for (i, c) in frame.contacts.iter().enumerate() {
        let id = match ids.and_then(|ids| ids.get(i)) {
            Some(id) => *id,
            None => {
                let n = order.entry((c.a, c.b)).or_insert(0);
                *n += 1;
                [*n - 1, 0]
            }
        };
        let p = c.point.coords;
        let m = c.normal;
        out.push((
            Key::Contact(c.a, c.b, id),
            Value::Numbers(vec![
                ("x", p.x),
                ("y", p.y),
                ("z", p.z),
                ("normal x", m.x),
                ("normal y", m.y),
                ("normal z", m.z),
                ("depth", c.depth),
            ]),
        ));
    }
}

/// Trace events: pairs and impulses by their role, the rest under their family and kind.
/// Returns where each key's first trace event sits.
fn events(
    frame: &Frame,
    stages: &mut [Vec<(Key, Value)>; 5],
    seen: &mut HashMap<Key, u32>,
) -> HashMap<Key, usize> {
    let mut counts: HashMap<(String, Vec<BodyId>), u32> = HashMap::new();
    let mut at = HashMap::new();
    for (i, e) in frame.trace.iter().enumerate() {
        let (stage, key, value) = match e.kind_diff_role() {
            DiffRole::Pair { a, b } => (0, pair_key(a, b), Value::Numbers(Vec::new())),
            DiffRole::Impulse {
                a,
                b,
                index,
                values,
            } => (2, impulse_key(a, b, index, seen), impulse_value(&values)),
            DiffRole::Event => {
                let json = serde_json::to_value(e).unwrap_or(serde_json::Value::Null);
                let kind = kind_name(json.get("kind"));
                let bodies = e.bodies();
                let n = counts.entry((kind.clone(), bodies.clone())).or_insert(0);
                *n += 1;
                (3, Key::Event(kind, bodies, *n - 1), Value::Json(json))
            }
        };
        at.entry(key.clone()).or_insert(i);
        stages[stage].push((key, value));
    }
    at
}

/// "Broad.SapSwap": the family and the event's variant, from its JSON form.
fn kind_name(value: Option<&serde_json::Value>) -> String {
    let mut name = Vec::new();
    let mut v = value;
    while let Some(serde_json::Value::Object(map)) = v {
        if map.len() != 1 {
            break;
        }
        let Some((k, inner)) = map.iter().next() else {
            break;
        };
        name.push(k.clone());
        v = Some(inner);
    }
    name.join(".")
}

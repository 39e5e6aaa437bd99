//! [`Item`]s written as lines of the capture stream: what [`Capture`](super::Capture) sends
//! to a file or a socket. Numbers round-trip exactly (shortest form), and the ones that are
//! not finite are written as `"NaN"`, `"inf"`, `"-inf"`.

use super::EngineId;
use super::item::*;
use std::fmt::Write as _;

/// Appends `item` as one line (with its `\n`) to `out`.
pub fn write_item(item: &Item, out: &mut String) {
    let mut w = line(out, item.kind());
    match item {
        Item::Header(h) => header(&mut w, h),
        Item::Shape(s) => {
            w.id("id", &s.id);
            w.key("shape");
            shape(w.out, &s.shape);
            if let Some(a) = &s.approximates {
                w.text("approximates", a);
            }
        }
        Item::Body(b) => {
            w.id("id", &b.id);
            if let Some(n) = &b.name {
                w.text("name", n);
            }
            w.text("motion", b.motion.name());
        }
        Item::Collider(c) => {
            w.id("id", &c.id);
            w.id("body", &c.body);
            w.id("shape", &c.shape);
            if !c.pose.is_identity() {
                w.pose("pose", &c.pose);
            }
            if c.sensor {
                w.raw("sensor", "true");
            }
            if let Some(n) = &c.name {
                w.text("name", n);
            }
        }
        Item::Remove(r) => {
            w.id("id", &r.id);
            match r.what {
                Some(Removed::Body) => w.text("what", "body"),
                Some(Removed::Collider) => w.text("what", "collider"),
                None => {}
            }
        }
        Item::Frame(f) => {
            w.raw("frame", &f.frame.to_string());
            if let Some(t) = f.time_s {
                w.number("time_s", t);
            }
        }
        Item::State(s) => state(&mut w, s),
        Item::Pair(p) => {
            w.id("a", &p.a);
            w.id("b", &p.b);
            if let Some(t) = p.touching {
                w.raw("touching", if t { "true" } else { "false" });
            }
        }
        Item::Contact(c) => contact(&mut w, c),
        Item::Event(e) => event(&mut w, e),
        Item::EndFrame(e) => {
            if let Some(h) = &e.state_hash {
                w.text("state_hash", h);
            }
        }
    }
    w.out.push_str("}\n");
}

fn header(w: &mut Inner, h: &Header) {
    w.text("format", "collidoscope-capture");
    w.raw("version", "1");
    w.text("engine", &h.engine);
    if let Some(dt) = h.dt_s {
        w.number("dt_s", dt);
    }
    if let Some(g) = h.gravity {
        w.numbers("gravity", &g);
    }
    if h.up != [0.0, 1.0, 0.0] {
        w.numbers("up", &h.up);
    }
    if h.length_unit_m != 1.0 {
        w.number("length_unit_m", h.length_unit_m);
    }
    if h.captures != Captured::default() {
        let names: Vec<String> = h.captures.names().iter().map(|n| quoted(n)).collect();
        w.raw("captures", &format!("[{}]", names.join(",")));
    }
    if let Some(t) = h.penetration_tolerance_m {
        w.number("penetration_tolerance_m", t);
    }
    if let Some(d) = h.prediction_distance_m {
        w.number("prediction_distance_m", d);
    }
    if h.contacts_at_start {
        w.raw("contacts_at", "\"step_start\"");
    }
}

fn state(w: &mut Inner, s: &StateItem) {
    w.id("body", &s.body);
    w.pose("pose", &s.pose);
    if let Some(v) = s.linvel {
        w.numbers("linvel", &v);
    }
    if let Some(v) = s.angvel {
        w.numbers("angvel", &v);
    }
    if let Some(b) = s.sleeping {
        w.raw("sleeping", if b { "true" } else { "false" });
    }
    if let Some(b) = s.ccd {
        w.raw("ccd", if b { "true" } else { "false" });
    }
}

fn contact(w: &mut Inner, c: &ContactItem) {
    w.id("a", &c.a);
    w.id("b", &c.b);
    if c.manifold != 0 {
        w.raw("manifold", &c.manifold.to_string());
    }
    if c.point != 0 {
        w.raw("point", &c.point.to_string());
    }
    w.numbers("position", &c.position);
    w.numbers("normal", &c.normal);
    w.number("distance", c.distance);
    if let Some(x) = c.normal_impulse {
        w.number("normal_impulse", x);
    }
    if let Some(t) = c.tangent_impulse {
        w.numbers("tangent_impulse", &t);
    }
    if let Some(f) = &c.feature_a {
        w.text("feature_a", f);
    }
    if let Some(f) = &c.feature_b {
        w.text("feature_b", f);
    }
}

fn event(w: &mut Inner, e: &EventItem) {
    use crate::trace::Verdict;
    w.text("stage", &e.stage);
    w.text("label", &e.label);
    if !e.bodies.is_empty() {
        let ids: Vec<String> = e.bodies.iter().map(id_text).collect();
        w.raw("bodies", &format!("[{}]", ids.join(",")));
    }
    if !e.values.is_empty() {
        w.key("values");
        w.out.push('{');
        for (i, (k, v)) in e.values.iter().enumerate() {
            if i > 0 {
                w.out.push(',');
            }
            w.out.push_str(&quoted(k));
            w.out.push(':');
            match v {
                EventValue::Number(x) => push_number(w.out, *x),
                EventValue::Text(s) => w.out.push_str(&quoted(s)),
                EventValue::Vector(xs) => push_numbers(w.out, xs),
            }
        }
        w.out.push('}');
    }
    let verdict = match e.verdict {
        Verdict::Info => None,
        Verdict::Hit => Some("hit"),
        Verdict::Miss => Some("miss"),
        Verdict::Warning => Some("warning"),
    };
    if let Some(v) = verdict {
        w.text("verdict", v);
    }
}

fn shape(out: &mut String, s: &CapturedShape) {
    let mut w = Inner { out, first: true };
    w.text("type", s.type_name());
    match s {
        CapturedShape::Sphere { radius } => w.number("radius", *radius),
        CapturedShape::Cuboid { half_extents } => w.numbers("half_extents", half_extents),
        CapturedShape::Capsule {
            radius,
            half_height,
        }
        | CapturedShape::Cylinder {
            radius,
            half_height,
        } => {
            w.number("radius", *radius);
            w.number("half_height", *half_height);
        }
        CapturedShape::Convex { points } => w.points("points", points),
        CapturedShape::TriMesh {
            vertices,
            triangles,
        } => {
            w.points("vertices", vertices);
            w.key("triangles");
            w.out.push('[');
            for (i, t) in triangles.iter().enumerate() {
                if i > 0 {
                    w.out.push(',');
                }
                let _ = write!(w.out, "[{},{},{}]", t[0], t[1], t[2]);
            }
            w.out.push(']');
        }
        CapturedShape::HeightField { heights, scale } => {
            w.key("heights");
            w.out.push('[');
            for (i, row) in heights.iter().enumerate() {
                if i > 0 {
                    w.out.push(',');
                }
                push_numbers(w.out, row);
            }
            w.out.push(']');
            w.numbers("scale", scale);
        }
        CapturedShape::Plane { normal, d } => {
            w.numbers("normal", normal);
            w.number("d", *d);
        }
    }
    w.out.push('}');
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn id_text(id: &EngineId) -> String {
    match id {
        EngineId::Int(n) => n.to_string(),
        EngineId::Text(s) => quoted(s),
    }
}

fn push_number(out: &mut String, x: f64) {
    if x.is_finite() {
        // `{:?}` is the shortest text that reads back to the same bits.
        let _ = write!(out, "{x:?}");
    } else {
        out.push('"');
        out.push_str(&super::numbers::number_text(x));
        out.push('"');
    }
}

fn push_numbers(out: &mut String, xs: &[f64]) {
    out.push('[');
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_number(out, *x);
    }
    out.push(']');
}

/// The fields of one JSON object, written in order.
struct Inner<'a> {
    out: &'a mut String,
    first: bool,
}

impl Inner<'_> {
    fn key(&mut self, k: &str) {
        if self.first {
            self.out.push('{');
            self.first = false;
        } else {
            self.out.push(',');
        }
        self.out.push('"');
        self.out.push_str(k);
        self.out.push_str("\":");
    }

    fn raw(&mut self, k: &str, v: &str) {
        self.key(k);
        self.out.push_str(v);
    }

    fn text(&mut self, k: &str, v: &str) {
        self.key(k);
        self.out.push_str(&quoted(v));
    }

    fn number(&mut self, k: &str, x: f64) {
        self.key(k);
        push_number(self.out, x);
    }

    fn numbers(&mut self, k: &str, xs: &[f64]) {
        self.key(k);
        push_numbers(self.out, xs);
    }

    fn points(&mut self, k: &str, ps: &[[f64; 3]]) {
        self.key(k);
        self.out.push('[');
        for (i, p) in ps.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            push_numbers(self.out, p);
        }
        self.out.push(']');
    }

    fn id(&mut self, k: &str, id: &EngineId) {
        self.key(k);
        self.out.push_str(&id_text(id));
    }

    fn pose(&mut self, k: &str, p: &PoseItem) {
        self.key(k);
        self.out.push_str("{\"translation\":");
        push_numbers(self.out, &p.translation);
        self.out.push_str(",\"rotation\":");
        push_numbers(self.out, &p.rotation);
        self.out.push('}');
    }
}

/// A line's object, its `kind` first.
fn line<'a>(out: &'a mut String, kind: &str) -> Inner<'a> {
    let mut w = Inner { out, first: true };
    w.text("kind", kind);
    w
}

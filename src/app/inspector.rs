//! The inspector: the current trace event field by field, then the selection (a body's pose,
//! velocity, mass, shape and contacts; a pair's contacts and tests), or the frame when
//! nothing is selected.

use crate::app::families::{FamilyViews, Measured, measured_or};
use crate::app::fields::grid;
use crate::app::state::catalog::BodyInfo;
use crate::app::state::{AppState, Command, Selection};
use crate::app::views::colors;
use crate::record::{BodyState, Frame};
use crate::trace::{BodyId, TraceEvent};
use egui::{RichText, Ui};

/// What the inspector asks of the rest of the app.
#[derive(Default)]
pub struct InspectorOutput {
    pub commands: Vec<Command>,
    pub frame_selected: bool,
}

/// Flattens an event's fields (via serde) into "name: value" rows, so every event variant,
/// including those later issues add, is shown without code here.
pub fn event_fields(e: &TraceEvent) -> Vec<(String, String)> {
    let mut rows = Vec::new();
    let value = serde_json::to_value(&e.kind).unwrap_or(serde_json::Value::Null);
    // Externally tagged twice: {"Family": {"Variant": {fields}}} or {"Family": "Variant"}.
    let untag = |v: serde_json::Value| match v {
        serde_json::Value::Object(m) if m.len() == 1 => {
            m.into_iter().next().map(|(_, x)| x).unwrap_or_default()
        }
        other => other,
    };
    let fields = untag(untag(value));
    flatten("", &fields, &mut rows);
    rows
}

/// How a `u32::MAX` id reads: the engine's "no such feature" (a GJK support point of a shape
/// without vertices, an unused simplex slot), not a number anyone should look up.
const NO_ID: &str = "none";

fn number(v: &serde_json::Value) -> Option<String> {
    if v.as_u64() == Some(u64::from(u32::MAX)) {
        return Some(NO_ID.into());
    }
    let f = v.as_f64()?;
    Some(if v.is_i64() || v.is_u64() {
        format!("{f}")
    } else {
        format!("{f:.5}")
    })
}

fn flatten(prefix: &str, v: &serde_json::Value, out: &mut Vec<(String, String)>) {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let name = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&name, x, out);
            }
        }
        Value::Array(a) if a.iter().all(|x| x.is_number()) && a.len() <= 9 => {
            let parts: Vec<String> = a.iter().filter_map(number).collect();
            out.push((prefix.to_string(), format!("({})", parts.join(", "))));
        }
        Value::Array(a) => {
            if a.len() > 16 {
                out.push((prefix.to_string(), format!("{} items", a.len())));
            } else {
                for (i, x) in a.iter().enumerate() {
                    flatten(&format!("{prefix}[{i}]"), x, out);
                }
            }
        }
        Value::Null => out.push((prefix.to_string(), "—".into())),
        Value::Number(_) => out.push((prefix.to_string(), number(v).unwrap_or_default())),
        Value::String(s) => out.push((prefix.to_string(), s.clone())),
        Value::Bool(b) => out.push((prefix.to_string(), b.to_string())),
    }
}

fn vec3(v: &nalgebra::Vector3<f64>) -> String {
    format!("({:.4}, {:.4}, {:.4})", v.x, v.y, v.z)
}

fn body_link(ui: &mut Ui, state: &AppState, id: BodyId, out: &mut InspectorOutput) {
    let name = state
        .session
        .as_ref()
        .map_or_else(|| format!("body {id}"), |s| s.catalog.name(id));
    if ui
        .link(format!("{name} (#{id})"))
        .on_hover_text("Select this body")
        .clicked()
    {
        out.commands.push(Command::Select(Selection::Body(id)));
    }
}

pub fn show(ui: &mut Ui, state: &AppState, families: &mut FamilyViews) -> InspectorOutput {
    let mut out = InspectorOutput::default();
    ui.heading("Inspector");
    let Some(frame) = state.current_frame() else {
        ui.weak("Nothing open.");
        return out;
    };
    // Scrolling both ways: a long value scrolls inside the panel instead of widening it (and
    // shrinking the 3D view) when an event is selected.
    egui::ScrollArea::both()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if let Some((i, e)) = state.current_event() {
                event_section(ui, state, families, frame, i, e, &mut out);
                ui.separator();
            }
            let measured = families.measured(state, frame);
            match state.selection {
                Selection::Body(id) => body_section(ui, state, frame, id, measured, &mut out),
                Selection::Pair(a, b) => pair_section(ui, state, frame, a, b, &mut out),
                Selection::None => {
                    let family =
                        crate::app::families::count_family_bodies(&families.family_bodies());
                    frame_section(ui, state, frame, measured, &family);
                }
            }
        });
    out
}

fn event_section(
    ui: &mut Ui,
    state: &AppState,
    families: &mut FamilyViews,
    frame: &Frame,
    i: usize,
    e: &TraceEvent,
    out: &mut InspectorOutput,
) {
    ui.label(
        RichText::new(format!(
            "Event {} of {} · {} · {}",
            i + 1,
            frame.trace.len(),
            e.family(),
            e.stage.name()
        ))
        .strong()
        .color(colors::egui(families.palette().event(e))),
    );
    ui.horizontal(|ui| {
        ui.label("verdict");
        ui.label(
            RichText::new(format!("{:?}", e.verdict))
                .strong()
                .color(colors::egui(colors::verdict(e.verdict))),
        );
    });
    ui.label(RichText::new(e.summary()).monospace());
    families.inspect_event(ui, state, i, e);
    let bodies = e.bodies();
    if !bodies.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.label("bodies:");
            for b in bodies.iter().take(12) {
                body_link(ui, state, *b, out);
            }
        });
    }
    egui::CollapsingHeader::new("Fields")
        .default_open(true)
        .show(ui, |ui| grid(ui, "event-fields", &event_fields(e)));
}

fn body_section(
    ui: &mut Ui,
    state: &AppState,
    frame: &Frame,
    id: BodyId,
    measured: Measured,
    out: &mut InspectorOutput,
) {
    let Some(session) = &state.session else {
        return;
    };
    let Some(info) = session.catalog.body(id) else {
        ui.label(format!("Body {id} is not in this session."));
        return;
    };
    ui.horizontal(|ui| {
        ui.label(
            RichText::new(&info.name)
                .heading()
                .color(colors::egui(colors::SELECTION)),
        );
        if ui
            .button("Frame")
            .on_hover_text("Point the camera at this body (F)")
            .clicked()
        {
            out.frame_selected = true;
        }
        if ui
            .button("Clear")
            .on_hover_text("Clear the selection (Esc)")
            .clicked()
        {
            out.commands.push(Command::Select(Selection::None));
        }
    });
    let mut rows = body_rows(info, measured);
    let mass_kg = info.mass_kg.filter(|_| measured.masses);
    match frame.body(id) {
        Some(b) => rows.extend(motion_rows(b, mass_kg)),
        None => rows.push(("state".to_string(), "not present in this frame".to_string())),
    }
    grid(ui, "body", &rows);
    ui.add_space(6.0);
    let tolerance = session.scene.solver.penetration_tolerance_m;
    body_contacts(ui, state, frame, id, tolerance, out);
    markers_here(ui, state, Some(id));
}

/// What the body is, whatever the frame. A run captured from another engine holds no
/// masses or materials: they are not captured, not those our engine would give.
fn body_rows(info: &BodyInfo, measured: Measured) -> Vec<(String, String)> {
    vec![
        ("id".to_string(), format!("{}", info.id)),
        ("shape".to_string(), info.shape_text.clone()),
        (
            "motion".to_string(),
            if info.fixed {
                "fixed".into()
            } else {
                "dynamic".into()
            },
        ),
        (
            "mass".to_string(),
            measured_or(measured.masses, || {
                info.mass_kg
                    .map_or("∞ (fixed)".into(), |m| format!("{m:.4} kg"))
            }),
        ),
        (
            "material".to_string(),
            measured_or(measured.masses, || info.material.clone()),
        ),
    ]
}

/// Where the body is and how it moves in this frame.
fn motion_rows(b: &BodyState, mass_kg: Option<f64>) -> Vec<(String, String)> {
    let (axis, angle) = b
        .rotation
        .axis_angle()
        .map_or((nalgebra::Vector3::y(), 0.0), |(a, t)| (a.into_inner(), t));
    let q = b.rotation.quaternion();
    let mut rows = vec![
        ("position (m)".to_string(), vec3(&b.position.coords)),
        (
            "rotation (w, x, y, z)".to_string(),
            format!("({:.4}, {:.4}, {:.4}, {:.4})", q.w, q.i, q.j, q.k),
        ),
        (
            "rotation axis, angle".to_string(),
            format!("{} {:.2}°", vec3(&axis), angle.to_degrees()),
        ),
        ("velocity (m/s)".to_string(), vec3(&b.linear_velocity)),
        (
            "speed (m/s)".to_string(),
            format!("{:.4}", b.linear_velocity.norm()),
        ),
        (
            "angular velocity (rad/s)".to_string(),
            vec3(&b.angular_velocity),
        ),
    ];
    if let Some(m) = mass_kg {
        rows.push((
            "linear KE (J)".to_string(),
            format!("{:.4}", 0.5 * m * b.linear_velocity.norm_squared()),
        ));
    }
    rows
}

/// The body's contacts in this frame, deeper than `tolerance` in the warning colour.
fn body_contacts(
    ui: &mut Ui,
    state: &AppState,
    frame: &Frame,
    id: BodyId,
    tolerance: f64,
    out: &mut InspectorOutput,
) {
    let contacts: Vec<_> = frame
        .contacts
        .iter()
        .filter(|c| c.a == id || c.b == id)
        .collect();
    egui::CollapsingHeader::new(format!("Contacts in this frame ({})", contacts.len()))
        .default_open(true)
        .show(ui, |ui| {
            if contacts.is_empty() {
                ui.weak("none");
            }
            for c in contacts.iter().take(64) {
                let other = if c.a == id { c.b } else { c.a };
                ui.horizontal(|ui| {
                    ui.label("with");
                    body_link(ui, state, other, out);
                    let deep = c.depth > tolerance;
                    let text = RichText::new(format!("depth {:.4} m", c.depth)).monospace();
                    ui.label(if deep {
                        text.color(colors::egui(colors::WARNING))
                    } else {
                        text
                    });
                });
                ui.label(
                    RichText::new(format!("   point  {}", vec3(&c.point.coords)))
                        .monospace()
                        .weak(),
                );
                ui.label(
                    RichText::new(format!("   normal {}", vec3(&c.normal)))
                        .monospace()
                        .weak(),
                );
            }
        });
}

fn pair_section(
    ui: &mut Ui,
    state: &AppState,
    frame: &Frame,
    a: BodyId,
    b: BodyId,
    out: &mut InspectorOutput,
) {
    ui.label(
        RichText::new("Pair")
            .heading()
            .color(colors::egui(colors::SELECTION)),
    );
    ui.horizontal(|ui| {
        body_link(ui, state, a, out);
        ui.label("–");
        body_link(ui, state, b, out);
        if ui
            .button("Frame")
            .on_hover_text("Point the camera at both bodies (F)")
            .clicked()
        {
            out.frame_selected = true;
        }
    });
    let same = |x: BodyId, y: BodyId| (x.min(y), x.max(y)) == (a, b);
    let contacts: Vec<_> = frame.contacts.iter().filter(|c| same(c.a, c.b)).collect();
    let mut rows = vec![("contacts".to_string(), contacts.len().to_string())];
    if let Some(d) = contacts.iter().map(|c| c.depth).reduce(f64::max) {
        rows.push(("deepest (m)".to_string(), format!("{d:.5}")));
    }
    for (k, c) in contacts.iter().enumerate().take(16) {
        rows.push((
            format!("contact {k}"),
            format!("{} depth {:.4}", vec3(&c.point.coords), c.depth),
        ));
    }
    let tests: Vec<(usize, &TraceEvent)> = frame
        .trace
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            let bs = e.bodies();
            bs.len() == 2 && same(bs[0], bs[1])
        })
        .collect();
    rows.push(("events in trace".to_string(), tests.len().to_string()));
    if let Some([hit, predicted, rejected, walked]) =
        crate::app::views::rigid_rays::pair_ray_counts(frame, a, b)
    {
        rows.push((
            "rays".to_string(),
            format!(
                "{hit} collision, {predicted} prediction, {rejected} rejected ({walked} walked)"
            ),
        ));
    }
    grid(ui, "pair", &rows);
    egui::CollapsingHeader::new(format!("Events of this pair ({})", tests.len()))
        .default_open(true)
        .show(ui, |ui| {
            for (i, e) in tests.iter().take(200) {
                if ui
                    .selectable_label(
                        state.playhead.event == Some(*i),
                        RichText::new(format!("{:>5} {}", i + 1, e.summary())).monospace(),
                    )
                    .on_hover_text("Step to this event")
                    .clicked()
                {
                    out.commands.push(Command::SeekEvent(Some(*i)));
                }
            }
        });
    markers_here(ui, state, Some(a));
}

/// The frame's counters and stage times, each "not captured" when the run's engine did not
/// send it.
fn counter_rows(frame: &Frame, m: Measured) -> Vec<(String, String)> {
    let c = &frame.counters;
    let t = &frame.timings;
    let ms = |s: f64| measured_or(m.stage_times, || format!("{:.3} ms", s * 1e3));
    let mut rows = vec![
        ("time (s)".to_string(), format!("{:.4}", frame.time_s)),
        ("bodies".to_string(), c.bodies.to_string()),
        (
            "broad-phase pairs".to_string(),
            measured_or(m.pairs, || c.broad_pairs.to_string()),
        ),
        (
            "narrow-phase tests".to_string(),
            measured_or(m.narrow_tests, || c.narrow_tests.to_string()),
        ),
        (
            "contacts".to_string(),
            measured_or(m.contacts, || c.contacts.to_string()),
        ),
        (
            "deepest penetration (m)".to_string(),
            measured_or(m.contacts, || format!("{:.5}", c.max_penetration_m)),
        ),
        (
            "kinetic energy (J)".to_string(),
            // + 0.0: older recordings hold -0.0 for a scene without bodies.
            measured_or(m.masses, || format!("{:.4}", c.kinetic_energy_j + 0.0)),
        ),
        (
            "trace events".to_string(),
            format!(
                "{} recorded, {} dropped",
                frame.trace.len(),
                c.trace_dropped
            ),
        ),
        ("integrate".to_string(), ms(t.integrate_s)),
        ("broad phase".to_string(), ms(t.broad_s)),
        ("narrow phase".to_string(), ms(t.narrow_s)),
        ("response".to_string(), ms(t.response_s)),
    ];
    for (label, stage_ms) in crate::app::state::summary::family_stages(frame) {
        rows.push((label.text(), format!("{stage_ms:.3} ms")));
    }
    rows.push((
        "state hash".to_string(),
        format!("{:016x}", frame.state_hash()),
    ));
    rows
}

/// `family`: the families' bodies counted ("1 BSP level, 1 walker"), empty when none.
fn frame_section(ui: &mut Ui, state: &AppState, frame: &Frame, measured: Measured, family: &str) {
    let Some(session) = &state.session else {
        return;
    };
    ui.label(RichText::new(format!("Frame {}", frame.index)).heading());
    let mut rows = counter_rows(frame, measured);
    if !family.is_empty() {
        rows.insert(2, ("family bodies".to_string(), family.to_string()));
    }
    rows.push(("".into(), "".into()));
    rows.push(("session".into(), session.origin.label()));
    rows.push(("scene".into(), session.scene.name.clone()));
    rows.push(("step (s)".into(), format!("{:.6}", session.dt_s())));
    rows.push((
        "gravity (m/s²)".into(),
        format!("{:?}", session.scene.gravity),
    ));
    rows.push((
        "frames".into(),
        format!(
            "{} ({} from the file, {} stepped here)",
            session.len(),
            session.store().recorded_len(),
            session.len() - session.store().recorded_len()
        ),
    ));
    grid(ui, "frame", &rows);
    if !session.scene.description.is_empty() {
        ui.add_space(4.0);
        ui.label(RichText::new(&session.scene.description).italics());
    }
    if let Some(p) = &session.catalog.problem {
        ui.colored_label(
            colors::egui(colors::WARNING),
            format!("bodies drawn as points: {p}"),
        );
    }
    ui.add_space(6.0);
    ui.weak("Click a body in the view or the outliner to inspect it.");
    markers_here(ui, state, None);
}

fn markers_here(ui: &mut Ui, state: &AppState, body: Option<BodyId>) {
    let Some(session) = &state.session else {
        return;
    };
    let here: Vec<_> = session
        .markers()
        .at(state.playhead.frame)
        .iter()
        .filter(|m| body.is_none_or(|b| m.bodies.contains(&b)))
        .collect();
    if here.is_empty() {
        return;
    }
    ui.add_space(6.0);
    ui.label(RichText::new("Markers at this frame").strong());
    for m in here {
        ui.colored_label(
            colors::egui(colors::marker(&m.kind)),
            format!("◆ {}: {}", m.kind.label(), m.text),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Aabb, Point3};
    use crate::trace::{EventKind, Stage, Verdict};

    #[test]
    fn every_field_of_an_event_is_listed() {
        let e = TraceEvent::staged(
            Stage::BroadPhase,
            Verdict::Hit,
            EventKind::Broad(crate::broad::BroadEvent::BroadPair {
                a: 3,
                b: 7,
                box_a: Aabb::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0)),
                box_b: Aabb::new(Point3::new(0.5, 0.0, 0.0), Point3::new(1.5, 1.0, 1.0)),
            }),
        );
        let rows = event_fields(&e);
        let names: Vec<&str> = rows.iter().map(|(k, _)| k.as_str()).collect();
        for want in ["a", "b", "box_a.min", "box_a.max", "box_b.min", "box_b.max"] {
            assert!(names.contains(&want), "{want} missing from {names:?}");
        }
        let a = rows.iter().find(|(k, _)| k == "a").map(|(_, v)| v.as_str());
        assert_eq!(a, Some("3"));
        let min = rows
            .iter()
            .find(|(k, _)| k == "box_b.min")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        assert!(min.starts_with("(0.50000"), "{min}");
    }

    #[test]
    fn sentinel_ids_read_as_none() {
        let row = |v: serde_json::Value| {
            let mut out = Vec::new();
            flatten("ids", &v, &mut out);
            out.remove(0).1
        };
        assert_eq!(row(serde_json::json!(u32::MAX)), NO_ID);
        assert_eq!(
            row(serde_json::json!([4, u32::MAX])),
            format!("(4, {NO_ID})")
        );
        assert_eq!(row(serde_json::json!(u32::MAX - 1)), "4294967294");
    }
}

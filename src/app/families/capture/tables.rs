//! The step's pairs, contacts and bodies as the engine sent them, in tables whose rows
//! select what they name.

use super::data::{self, ContactRow};
use crate::app::families::NOT_CAPTURED;
use crate::app::state::{Command, Selection};
use crate::capture::{CaptureFrame, CaptureScene, Captured, body_label};
use crate::record::Frame;
use egui::{RichText, Ui};

/// Rows a table lists at most; the rest are counted.
const ROWS: usize = 200;

fn collider_id(scene: &CaptureScene, id: u32) -> String {
    scene
        .collider(id)
        .map_or_else(|| format!("#{id}"), |c| c.id.to_string())
}

fn more(ui: &mut Ui, total: usize) {
    if total > ROWS {
        ui.weak(format!("… and {} more", total - ROWS));
    }
}

fn header_row(ui: &mut Ui, names: &[&str]) {
    for n in names {
        ui.label(RichText::new(*n).strong());
    }
    ui.end_row();
}

/// A cell naming a collider by its engine ids; a click selects it.
fn collider_cell(ui: &mut Ui, scene: &CaptureScene, id: u32, out: &mut Vec<Command>) {
    let label = scene.collider_label(id as usize);
    if ui
        .link(label)
        .on_hover_text(format!("Collider {}: select it", collider_id(scene, id)))
        .clicked()
    {
        out.push(Command::Select(Selection::Body(id)));
    }
}

pub fn pairs(
    ui: &mut Ui,
    scene: &CaptureScene,
    cf: &CaptureFrame,
    captured: Captured,
    out: &mut Vec<Command>,
) {
    let title = if captured.has(Captured::PAIRS) {
        format!("Pairs this step ({})", cf.pairs.len())
    } else {
        format!("Pairs this step: {NOT_CAPTURED}")
    };
    egui::CollapsingHeader::new(title)
        .id_salt("capture-pairs")
        .default_open(false)
        .show(ui, |ui| {
            egui::Grid::new("capture-pairs-grid")
                .striped(true)
                .num_columns(3)
                .show(ui, |ui| {
                    header_row(ui, &["a", "b", "touching"]);
                    for p in cf.pairs.iter().take(ROWS) {
                        collider_cell(ui, scene, p.a, out);
                        collider_cell(ui, scene, p.b, out);
                        ui.label(data::yes_no(p.touching));
                        ui.end_row();
                    }
                });
            more(ui, cf.pairs.len());
        });
}

fn impulse_text(row: &ContactRow, captured: Captured) -> (String, String) {
    if !captured.has(Captured::IMPULSES) {
        return (NOT_CAPTURED.into(), NOT_CAPTURED.into());
    }
    let d = row.detail;
    let normal = d
        .and_then(|d| d.normal_impulse)
        .map_or_else(|| "—".into(), |x| data::number(x, 4));
    let tangent = d.and_then(|d| d.tangent_impulse).map_or_else(
        || "—".into(),
        |[t1, t2]| format!("({}, {})", data::number(t1, 4), data::number(t2, 4)),
    );
    (normal, tangent)
}

fn features(row: &ContactRow) -> String {
    let Some(d) = row.detail else {
        return "—".into();
    };
    match (&d.feature_a, &d.feature_b) {
        (None, None) => "—".into(),
        (a, b) => format!(
            "{} / {}",
            a.as_deref().unwrap_or("—"),
            b.as_deref().unwrap_or("—")
        ),
    }
}

pub fn contacts(
    ui: &mut Ui,
    scene: &CaptureScene,
    rows: &[ContactRow],
    captured: Captured,
    out: &mut Vec<Command>,
) {
    let title = if captured.has(Captured::CONTACTS) {
        format!("Contacts this step ({})", rows.len())
    } else {
        format!("Contacts this step: {NOT_CAPTURED}")
    };
    egui::CollapsingHeader::new(title)
        .id_salt("capture-contacts")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("capture-contacts-grid")
                .striped(true)
                .num_columns(7)
                .show(ui, |ui| {
                    header_row(
                        ui,
                        &[
                            "pair",
                            "depth (m)",
                            "normal impulse",
                            "tangent impulse",
                            "manifold·point",
                            "normal",
                            "features a / b",
                        ],
                    );
                    for r in rows.iter().take(ROWS) {
                        contact_row(ui, scene, r, captured, out);
                    }
                });
            more(ui, rows.len());
        });
}

fn contact_row(
    ui: &mut Ui,
    scene: &CaptureScene,
    r: &ContactRow,
    captured: Captured,
    out: &mut Vec<Command>,
) {
    let c = r.contact;
    let pair = format!(
        "{} – {}",
        collider_id(scene, c.a),
        collider_id(scene, c.b)
    );
    if ui
        .link(RichText::new(pair).monospace())
        .on_hover_text(format!(
            "{} – {}: select the pair",
            scene.collider_label(c.a as usize),
            scene.collider_label(c.b as usize)
        ))
        .clicked()
    {
        out.push(Command::Select(Selection::pair(c.a, c.b)));
    }
    // Negative: a gap (a speculative contact).
    ui.monospace(data::number(c.depth, 4));
    let (normal, tangent) = impulse_text(r, captured);
    ui.monospace(normal);
    ui.monospace(tangent);
    let (m, p) = r.detail.map_or((0, 0), |d| (d.manifold, d.point));
    ui.monospace(format!("{m}·{p}"));
    ui.monospace(format!(
        "({}, {}, {})",
        data::number(c.normal.x, 3),
        data::number(c.normal.y, 3),
        data::number(c.normal.z, 3)
    ));
    ui.monospace(features(r));
    ui.end_row();
}

pub fn bodies(
    ui: &mut Ui,
    scene: &CaptureScene,
    frame: &Frame,
    cf: &CaptureFrame,
    out: &mut Vec<Command>,
) {
    let captured = data::captured(scene, Some(cf));
    let flag = |on: bool, v: Option<bool>| {
        if on {
            data::yes_no(v).to_string()
        } else {
            NOT_CAPTURED.to_string()
        }
    };
    egui::CollapsingHeader::new(format!("Bodies ({})", scene.bodies.len()))
        .id_salt("capture-bodies")
        .default_open(false)
        .show(ui, |ui| {
            egui::Grid::new("capture-bodies-grid")
                .striped(true)
                .num_columns(5)
                .show(ui, |ui| {
                    header_row(ui, &["body", "motion", "sleeping", "CCD active", "shape"]);
                    for (b, body) in scene.bodies.iter().enumerate().take(ROWS) {
                        let colliders = data::colliders_of(scene, b as u32);
                        let here = colliders.iter().any(|&c| frame.body(c).is_some());
                        let first = colliders.first().copied();
                        let name = body_label(body);
                        let link = ui.link(name).on_hover_text(if here {
                            "Select its collider".to_string()
                        } else {
                            "Not in this step (not declared yet, removed, or no state sent)"
                                .to_string()
                        });
                        if link.clicked()
                            && let Some(c) = first
                        {
                            out.push(Command::Select(Selection::Body(c)));
                        }
                        let f = cf.flags_of(b as u32);
                        ui.label(body.motion.name());
                        ui.label(flag(captured.has(Captured::SLEEPING), f.and_then(|f| f.sleeping)));
                        ui.label(flag(captured.has(Captured::CCD), f.and_then(|f| f.ccd)));
                        let shapes: Vec<String> = colliders
                            .iter()
                            .filter_map(|&c| data::shape_of(scene, c))
                            .map(data::shape_text)
                            .collect();
                        ui.label(shapes.join(", "));
                        ui.end_row();
                    }
                });
            more(ui, scene.bodies.len());
        });
}

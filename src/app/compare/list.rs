//! The diff panel's list: every difference of the frame shown, in pipeline order, each a
//! click away from what it names; the picked one's values in A and B side by side.

use crate::app::state::compare::{Compare, DiffRow};
use crate::app::state::comparing::CompareCommand;
use crate::app::state::{AppState, Command};
use crate::app::views::colors;
use egui::{RichText, Ui};

/// Rows listed at most: a frame where every body differs can have tens of thousands, and
/// the first ones are where to look.
const MAX_ROWS: usize = 500;

pub(super) fn frame_differences(
    ui: &mut Ui,
    state: &AppState,
    c: &Compare,
    out: &mut Vec<Command>,
) {
    let Some(shown) = c.shown.as_ref().filter(|s| s.a_pos == state.playhead.frame) else {
        ui.weak("…");
        return;
    };
    if let Some(p) = &shown.problem {
        ui.label(RichText::new(format!("⚠ {p}")).color(colors::egui(colors::WARNING)));
        return;
    }
    if shown.rows.is_empty() {
        ui.label(
            RichText::new(format!("Frame {}: the runs agree here", shown.index))
                .color(colors::egui(colors::NORMAL)),
        );
        return;
    }
    ui.label(
        RichText::new(format!(
            "Frame {}: {} difference(s), in pipeline order",
            shown.index,
            shown.rows.len()
        ))
        .strong(),
    )
    .on_hover_text(
        "Pairs, contacts, impulses, other events, bodies; click a row to select what it names",
    );
    let height = (ui.available_height() * 0.5).max(120.0);
    egui::ScrollArea::vertical()
        .id_salt("compare-rows")
        .max_height(height)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            for (i, row) in shown.rows.iter().enumerate().take(MAX_ROWS) {
                let focused = c.focus == Some(i);
                let text = RichText::new(format!(
                    "{:<9} {}",
                    row.difference.stage, row.difference.what
                ))
                .monospace();
                if ui
                    .selectable_label(focused, text)
                    .on_hover_text("Select what this names, in both runs, and show its values")
                    .clicked()
                {
                    out.push(Command::Compare(CompareCommand::Focus(i)));
                }
            }
            if shown.rows.len() > MAX_ROWS {
                ui.weak(format!("… and {} more", shown.rows.len() - MAX_ROWS));
            }
        });
    if let Some(row) = c.focus.and_then(|i| shown.rows.get(i)) {
        ui.separator();
        side_by_side(ui, row);
    }
}

/// The picked difference: where its event sits in each run, and its values in A and B.
fn side_by_side(ui: &mut Ui, row: &DiffRow) {
    let d = &row.difference;
    ui.label(RichText::new(&d.what).strong());
    let at = |e: Option<usize>| e.map_or_else(|| "—".to_string(), |i| format!("event {}", i + 1));
    ui.label(format!("A: {}   B: {}", at(row.a_event), at(row.b_event)))
        .on_hover_text("Where this sits in each run's trace (a contact or a body is no event)");
    if let Some(delta) = d.delta {
        ui.label(format!("largest difference: {delta:e}"));
    }
    let (a, b) = (fields(d.a.as_ref()), fields(d.b.as_ref()));
    if a.is_empty() && b.is_empty() {
        return;
    }
    let mut names: Vec<&String> = a.iter().map(|(k, _)| k).collect();
    names.extend(
        b.iter()
            .map(|(k, _)| k)
            .filter(|k| !a.iter().any(|(x, _)| x == *k)),
    );
    let value = |list: &[(String, String)], k: &str| {
        list.iter()
            .find(|(x, _)| x == k)
            .map_or_else(|| "—".to_string(), |(_, v)| v.clone())
    };
    egui::ScrollArea::both()
        .id_salt("compare-values")
        .auto_shrink([false, true])
        .show(ui, |ui| {
            egui::Grid::new("compare-values-grid")
                .num_columns(3)
                .striped(true)
                .spacing([10.0, 2.0])
                .show(ui, |ui| {
                    ui.label(RichText::new("field").weak());
                    ui.label(RichText::new("A").strong());
                    ui.label(
                        RichText::new("B")
                            .strong()
                            .color(colors::egui(colors::RUN_B)),
                    );
                    ui.end_row();
                    for k in names {
                        let (x, y) = (value(&a, k), value(&b, k));
                        let differs = x != y;
                        let tint = |t: String| {
                            // Small: two full-precision numbers side by side fit the panel.
                            let r = RichText::new(t).monospace().small();
                            if differs {
                                r.color(colors::egui(colors::DIFFERS))
                            } else {
                                r
                            }
                        };
                        ui.label(RichText::new(k.as_str()).weak().small());
                        ui.label(tint(x));
                        ui.label(tint(y));
                        ui.end_row();
                    }
                });
        });
}

/// A value's fields as (path, text), numbers in full (two runs may differ in the last bit).
fn fields(v: Option<&serde_json::Value>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(v) = v {
        flatten("", v, &mut out);
    }
    out
}

fn flatten(prefix: &str, v: &serde_json::Value, out: &mut Vec<(String, String)>) {
    use serde_json::Value as J;
    let join = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match v {
        J::Object(m) => m.iter().for_each(|(k, x)| flatten(&join(k), x, out)),
        J::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| flatten(&format!("{prefix}[{i}]"), x, out)),
        J::Number(n) => out.push((prefix.to_string(), n.to_string())),
        J::String(s) => out.push((prefix.to_string(), s.clone())),
        J::Bool(b) => out.push((prefix.to_string(), b.to_string())),
        J::Null => out.push((prefix.to_string(), "—".into())),
    }
}

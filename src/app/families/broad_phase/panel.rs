//! The broad-phase panel: the bodies' intervals on x, y and z for the current frame (as sweep
//! and prune sorts them), the overlapping pairs, and what the recorded trace says the
//! algorithm did. Clicking a pair selects it and highlights its two boxes in the viewport.

use super::snapshot::{self, BroadSnapshot, axis_intervals, pack_lanes};
use crate::app::state::{AppState, Command, Selection};
use crate::app::viewport::draw_list::DrawList;
use crate::app::views::colors;
use crate::app::widgets::grid::grid;
use crate::trace::{BodyId, EventKind};
use egui::{Color32, Rect, RichText, Sense, Ui, Vec2};

#[derive(Default)]
pub struct BroadPanel {
    /// (session generation, frame position) the snapshot is of.
    cached: Option<((u64, usize), BroadSnapshot)>,
    /// Hide fixed bodies' intervals (a floor spans everything).
    pub hide_fixed: bool,
}

impl BroadPanel {
    fn snapshot(&mut self, state: &AppState) -> Option<&BroadSnapshot> {
        let key = (state.session_generation, state.playhead.frame);
        if self.cached.as_ref().map(|(k, _)| *k) != Some(key) {
            let (session, frame) = (state.session.as_ref()?, state.current_frame()?);
            self.cached = Some((key, BroadSnapshot::of(frame, &session.catalog)));
        }
        self.cached.as_ref().map(|(_, s)| s)
    }

    /// What the overlay depends on beyond the playhead and selection.
    pub fn key(&self) -> bool {
        self.hide_fixed
    }

    pub fn draw(&mut self, state: &AppState, out: &mut DrawList) {
        let highlight = match state.selection {
            Selection::Pair(a, b) => Some((a, b)),
            _ => None,
        };
        if let Some(s) = self.snapshot(state) {
            snapshot::draw(s, highlight, out);
        }
    }

    pub fn show(&mut self, ui: &mut Ui, state: &AppState, out: &mut Vec<Command>) {
        let Some(session) = &state.session else {
            ui.weak("Nothing open.");
            return;
        };
        let catalog = session.catalog.clone();
        let algorithm = session.scene.broad_phase;
        let (swaps, tests, changes) = state.current_frame().map_or((0, 0, 0), |f| {
            f.trace.iter().fold((0, 0, 0), |(s, t, c), e| match e.kind {
                EventKind::Broad(crate::broad::BroadEvent::SapSwap { .. }) => (s + 1, t, c),
                EventKind::Broad(crate::broad::BroadEvent::BroadPair { .. }) => (s, t + 1, c),
                EventKind::Broad(crate::broad::BroadEvent::PairChanged { .. }) => (s, t, c + 1),
                _ => (s, t, c),
            })
        });
        ui.checkbox(&mut self.hide_fixed, "Hide fixed bodies")
            .on_hover_text("Leave out the floor and walls, whose intervals span the whole strip");
        let hide_fixed = self.hide_fixed;
        let selection = state.selection;
        let Some(snapshot) = self.snapshot(state) else {
            return;
        };
        let shown = |id: BodyId| !hide_fixed || !catalog.body(id).is_some_and(|b| b.fixed);
        let rows = [
            ("algorithm", format!("{algorithm:?}")),
            ("boxes", snapshot.boxes.iter().flatten().count().to_string()),
            (
                "overlapping boxes",
                format!("{} pairs at the frame's final poses", snapshot.pairs.len()),
            ),
            (
                "engine's pairs",
                format!(
                    "{} (on the poses the step saw, fixed–fixed left out)",
                    state.current_frame().map_or(0, |f| f.counters.broad_pairs)
                ),
            ),
            (
                "recorded this frame",
                format!("{tests} box tests, {swaps} swaps, {changes} pair changes"),
            ),
        ];
        grid(ui, "broad-summary", &rows);
        let paired = snapshot.paired();
        let highlight: Vec<BodyId> = selection.bodies();
        for (axis, name) in ["x", "y", "z"].iter().enumerate() {
            let intervals: Vec<_> = axis_intervals(&snapshot.boxes, axis)
                .into_iter()
                .filter(|(id, _, _)| shown(*id))
                .collect();
            strip(ui, name, &intervals, &paired, &highlight);
        }
        ui.separator();
        ui.label(RichText::new(format!("Overlapping pairs ({})", snapshot.pairs.len())).strong());
        let pairs = snapshot.pairs.clone();
        let recorded = snapshot.recorded.clone();
        egui::ScrollArea::vertical()
            .id_salt("broad-pairs")
            .max_height(260.0)
            .auto_shrink([false, true])
            .show_rows(ui, 18.0, pairs.len(), |ui, rows| {
                for &(a, b) in &pairs[rows] {
                    let mark = if recorded.contains(&(a, b)) {
                        "●"
                    } else {
                        "○"
                    };
                    let text = format!(
                        "{mark} {} (#{a}) – {} (#{b})",
                        catalog.name(a),
                        catalog.name(b)
                    );
                    let selected = selection == Selection::Pair(a, b);
                    if ui
                        .selectable_label(selected, text)
                        .on_hover_text(
                            "Select this pair (● reported by the recorded trace this frame)",
                        )
                        .clicked()
                    {
                        out.push(Command::Select(Selection::pair(a, b)));
                    }
                }
            });
    }
}

/// One axis: each body's interval as a bar, in lanes so that overlapping bars stack.
fn strip(
    ui: &mut Ui,
    name: &str,
    intervals: &[(BodyId, f64, f64)],
    paired: &std::collections::BTreeSet<BodyId>,
    highlight: &[BodyId],
) {
    let lanes = pack_lanes(intervals);
    let lane_count = lanes.iter().max().map_or(1, |m| m + 1);
    let lo = intervals.iter().map(|i| i.1).fold(f64::INFINITY, f64::min);
    let hi = intervals
        .iter()
        .map(|i| i.2)
        .fold(f64::NEG_INFINITY, f64::max);
    ui.label(
        RichText::new(format!(
            "{name} intervals ({} bodies, {lane_count} lanes)",
            intervals.len()
        ))
        .small(),
    );
    let width = ui.available_width().max(100.0);
    let height = 70.0;
    let (rect, resp) = ui.allocate_exact_size(Vec2::new(width, height), Sense::hover());
    resp.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Canvas, true, format!("{name} intervals"))
    });
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    if !(hi > lo) {
        return;
    }
    let x_of = |v: f64| rect.left() + 4.0 + ((v - lo) / (hi - lo)) as f32 * (rect.width() - 8.0);
    let lane_h = ((height - 6.0) / lane_count as f32).clamp(1.0, 8.0);
    let paired_color = colors::egui(super::COLOR);
    for (&(id, a, b), &lane) in intervals.iter().zip(&lanes) {
        let color = match highlight.iter().position(|&h| h == id) {
            Some(0) => colors::egui(colors::FIRST),
            Some(_) => colors::egui(colors::SECOND),
            None if paired.contains(&id) => paired_color,
            None => Color32::from_gray(120),
        };
        let y = rect.top() + 3.0 + lane as f32 * lane_h;
        let r = Rect::from_min_max(
            egui::pos2(x_of(a), y),
            egui::pos2(x_of(b).max(x_of(a) + 1.0), y + (lane_h - 1.0).max(1.0)),
        );
        painter.rect_filled(r, 0.0, color);
    }
    painter.text(
        rect.left_bottom() + Vec2::new(4.0, -2.0),
        egui::Align2::LEFT_BOTTOM,
        format!("{lo:.2} m"),
        egui::FontId::monospace(10.0),
        ui.visuals().weak_text_color(),
    );
    painter.text(
        rect.right_bottom() + Vec2::new(-4.0, -2.0),
        egui::Align2::RIGHT_BOTTOM,
        format!("{hi:.2} m"),
        egui::FontId::monospace(10.0),
        ui.visuals().weak_text_color(),
    );
}

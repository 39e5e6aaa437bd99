//! The two-level timeline: transport controls, the frame scrubber with its markers and a
//! contact-density strip, and under it the step scrubber through the current frame's trace,
//! with the marks the open family views put on it.

use crate::app::families::EventMark;
use crate::app::state::playback::SPEEDS;
use crate::app::state::session::SceneEdits;
use crate::app::state::{AppState, Command};
use crate::app::views::colors;
use egui::accesskit::{Action, ActionData};
use egui::{Pos2, Rect, Sense, Stroke, Ui, Vec2};

#[derive(Default)]
pub struct TimelineUi {
    /// The "Resume from this frame" dialog, with the parameters being edited.
    fork_dialog: Option<SceneEdits>,
}

/// A scrubber's value asked for by assistive technology (or a test) this frame.
fn accesskit_value(ui: &Ui, id: egui::Id) -> Option<f64> {
    ui.input(|i| {
        i.accesskit_action_requests(id, Action::SetValue)
            .filter_map(|r| match r.data {
                Some(ActionData::NumericValue(v)) => Some(v),
                _ => None,
            })
            .last()
    })
}

fn declare_slider(ui: &Ui, id: egui::Id, max: f64) {
    ui.ctx().accesskit_node_builder(id, |b| {
        b.set_min_numeric_value(0.0);
        b.set_max_numeric_value(max);
        b.set_numeric_value_step(1.0);
        b.add_action(Action::SetValue);
    });
}

fn x_of(rect: Rect, i: usize, n: usize) -> f32 {
    if n <= 1 {
        return rect.left();
    }
    rect.left() + rect.width() * i as f32 / (n - 1) as f32
}

fn index_at(rect: Rect, x: f32, n: usize) -> usize {
    if n <= 1 {
        return 0;
    }
    let t = ((x - rect.left()) / rect.width()).clamp(0.0, 1.0);
    (t * (n - 1) as f32).round() as usize
}

impl TimelineUi {
    pub fn open_fork_dialog(&mut self, state: &AppState) {
        if let Some(s) = &state.session {
            self.fork_dialog = Some(SceneEdits::of(&s.scene));
        }
    }

    pub fn show(&mut self, ui: &mut Ui, state: &AppState, marks: &[EventMark]) -> Vec<Command> {
        let mut out = Vec::new();
        self.transport(ui, state, &mut out);
        ui.add_space(2.0);
        frame_scrubber(ui, state, &mut out);
        ui.add_space(2.0);
        event_scrubber(ui, state, marks, &mut out);
        self.fork_window(ui, state, &mut out);
        out
    }

    fn transport(&mut self, ui: &mut Ui, state: &AppState, out: &mut Vec<Command>) {
        let has = state.session.is_some();
        ui.horizontal(|ui| {
            ui.add_enabled_ui(has, |ui| {
                if ui.button("⏮ First").on_hover_text("First frame (Home)").clicked() {
                    out.push(Command::FirstFrame);
                }
                if ui.button("◀ Back").on_hover_text("One frame back (←)").clicked() {
                    out.push(Command::StepFrames(-1));
                }
                let (label, tip) = if state.playback.playing {
                    ("⏸ Pause", "Pause playback (Space)")
                } else {
                    ("⏵ Play", "Play: replays the history, then steps the engine when live (Space)")
                };
                if ui.button(label).on_hover_text(tip).clicked() {
                    out.push(Command::TogglePlay);
                }
                if ui
                    .button("Step ▶")
                    .on_hover_text("One frame forward (→); at the last frame of a live session this steps the engine")
                    .clicked()
                {
                    out.push(Command::StepFrames(1));
                }
                if ui.button("Last ⏭").on_hover_text("Last frame (End)").clicked() {
                    out.push(Command::LastFrame);
                }
                ui.separator();
                let mut speed = state.playback.speed;
                egui::ComboBox::from_id_salt("speed")
                    .selected_text(format!("{speed}×"))
                    .width(64.0)
                    .show_ui(ui, |ui| {
                        for s in SPEEDS {
                            ui.selectable_value(&mut speed, s, format!("{s}×"));
                        }
                    })
                    .response
                    .on_hover_text("Playback speed: simulated time per wall-clock time");
                if speed != state.playback.speed {
                    out.push(Command::SetSpeed(speed));
                }
                let mut looping = state.playback.looping;
                if ui
                    .checkbox(&mut looping, "Loop")
                    .on_hover_text("At the last frame, start again from the first (when not stepping live)")
                    .changed()
                {
                    out.push(Command::SetLoop(looping));
                }
                let can_step = state.session.as_ref().is_some_and(|s| s.can_step());
                let mut live = state.live;
                ui.add_enabled_ui(can_step, |ui| {
                    if ui
                        .checkbox(&mut live, "Live")
                        .on_hover_text("Playing past the last frame steps the engine and appends frames")
                        .on_disabled_hover_text("A recording replays as recorded: use “Resume from here” to step it")
                        .changed()
                    {
                        out.push(Command::SetLive(live));
                    }
                });
                ui.separator();
                if ui.button("◆◀").on_hover_text("Previous marker ([)").clicked() {
                    out.push(Command::PreviousMarker);
                }
                if ui.button("▶◆").on_hover_text("Next marker (])").clicked() {
                    out.push(Command::NextMarker);
                }
                ui.separator();
                if ui
                    .button("⤴ Resume from here…")
                    .on_hover_text(
                        "Fork: drop the frames after this one and step the engine from here, optionally with other scene parameters",
                    )
                    .clicked()
                    && let Some(s) = &state.session
                {
                    self.fork_dialog = Some(SceneEdits::of(&s.scene));
                }
            });
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if let Some(f) = state.current_frame() {
                    ui.monospace(format!(
                        "frame {} / {}   t = {:.3} s",
                        state.playhead.frame,
                        state.frame_count().saturating_sub(1),
                        f.time_s
                    ))
                    .on_hover_text("Position in the session / last position, and simulated time");
                }
            });
        });
    }

    fn fork_window(&mut self, ui: &mut Ui, state: &AppState, out: &mut Vec<Command>) {
        let Some(edits) = &mut self.fork_dialog else {
            return;
        };
        let mut open = true;
        let mut close = false;
        egui::Window::new(format!("Resume from frame {}", state.playhead.frame))
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .pivot(egui::Align2::CENTER_CENTER)
            .default_pos(ui.ctx().content_rect().center())
            .show(ui.ctx(), |ui| {
                ui.label(format!(
                    "Frames after {} ({} of them) will be dropped, then the engine steps from this frame's state.",
                    state.playhead.frame,
                    state.frame_count().saturating_sub(state.playhead.frame + 1)
                ));
                ui.add_space(4.0);
                egui::Grid::new("fork-params").num_columns(2).show(ui, |ui| {
                    ui.label("gravity (m/s²)");
                    ui.horizontal(|ui| {
                        for (g, axis) in edits.gravity.iter_mut().zip(["x", "y", "z"]) {
                            ui.add(egui::DragValue::new(g).speed(0.1).prefix(format!("{axis} ")))
                                .on_hover_text(format!("Gravity along {axis}"));
                        }
                    });
                    ui.end_row();
                    ui.label("time step (s)");
                    ui.add(egui::DragValue::new(&mut edits.dt_s).speed(0.0005).range(1e-5..=1.0).max_decimals(5))
                        .on_hover_text("Seconds per step");
                    ui.end_row();
                    ui.label("solver iterations");
                    ui.add(egui::DragValue::new(&mut edits.iterations).range(1..=1000))
                        .on_hover_text("Sequential-impulse passes per step");
                    ui.end_row();
                    ui.label("Baumgarte factor");
                    ui.add(egui::DragValue::new(&mut edits.baumgarte).speed(0.01).range(0.0..=1.0))
                        .on_hover_text("Fraction of the penetration corrected per step");
                    ui.end_row();
                    ui.label("slop (m)");
                    ui.add(egui::DragValue::new(&mut edits.slop_m).speed(0.001).range(0.0..=1.0))
                        .on_hover_text("Penetration allowed without correction");
                    ui.end_row();
                    ui.label("penetration tolerance (m)");
                    ui.add(egui::DragValue::new(&mut edits.penetration_tolerance_m).speed(0.005).range(0.0..=10.0))
                        .on_hover_text("Deeper contacts are marked on the timeline");
                    ui.end_row();
                    ui.label("continuous collision");
                    crate::app::views::ccd_mode::picker(ui, &mut edits.ccd);
                    ui.end_row();
                });
                ui.add_space(6.0);
                ui.horizontal(|ui| {
                    if ui
                        .button("Resume")
                        .on_hover_text("Keep the scene's parameters")
                        .clicked()
                    {
                        out.push(Command::Fork(None));
                        close = true;
                    }
                    if ui
                        .button("Resume with these parameters")
                        .on_hover_text("Step on with the parameters above")
                        .clicked()
                    {
                        out.push(Command::Fork(Some(edits.clone())));
                        close = true;
                    }
                    if ui.button("Cancel").on_hover_text("Keep every frame").clicked() {
                        close = true;
                    }
                });
            });
        if !open || close {
            self.fork_dialog = None;
        }
    }
}

fn frame_scrubber(ui: &mut Ui, state: &AppState, out: &mut Vec<Command>) {
    let n = state.frame_count();
    let height = 34.0;
    let (rect, response) = ui.allocate_exact_size(
        Vec2::new(ui.available_width(), height),
        Sense::click_and_drag(),
    );
    let id = response.id;
    response.widget_info(|| {
        egui::WidgetInfo::slider(n > 0, state.playhead.frame as f64, "Frame scrubber")
    });
    declare_slider(ui, id, n.saturating_sub(1) as f64);
    if let Some(v) = accesskit_value(ui, id) {
        out.push(Command::SeekFrame(v.max(0.0).round() as usize));
    }
    let track = rect.shrink2(Vec2::new(6.0, 4.0));
    if (response.clicked() || response.dragged())
        && let Some(p) = response.interact_pointer_pos()
        && n > 0
    {
        let f = index_at(track, p.x, n);
        if f != state.playhead.frame || state.playhead.event.is_some() {
            out.push(Command::SeekFrame(f));
        }
    }
    let visuals = ui.visuals();
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 4.0, visuals.extreme_bg_color);
    let Some(session) = &state.session else {
        return;
    };
    // Contacts per frame as a faint histogram: where things happen, at a glance.
    let summaries = session.summaries();
    let columns = track.width().max(1.0) as usize;
    if !summaries.is_empty() && n > 1 {
        let max = summaries
            .iter()
            .map(|s| s.contacts)
            .max()
            .unwrap_or(0)
            .max(1) as f32;
        let mut col_max = vec![0u32; columns + 1];
        for (i, s) in summaries.iter().enumerate() {
            let c = ((i as f32 / (n - 1) as f32) * columns as f32) as usize;
            if let Some(m) = col_max.get_mut(c) {
                *m = (*m).max(s.contacts);
            }
        }
        let fill = visuals.selection.bg_fill.gamma_multiply(0.45);
        for (c, &v) in col_max.iter().enumerate() {
            if v > 0 {
                let h = (v as f32 / max) * (track.height() - 4.0);
                let x = track.left() + c as f32;
                painter.line_segment(
                    [
                        Pos2::new(x, track.bottom()),
                        Pos2::new(x, track.bottom() - h),
                    ],
                    Stroke::new(1.0, fill),
                );
            }
        }
        // Frames not yet summarised (a recording still being read) stay hatched.
        if summaries.len() < n {
            let x = x_of(track, summaries.len(), n);
            painter.rect_filled(
                Rect::from_min_max(Pos2::new(x, track.top()), track.right_bottom()),
                0.0,
                visuals.faint_bg_color.gamma_multiply(1.5),
            );
        }
    }
    // Recorded part versus stepped-in-app part.
    let recorded = session.store().recorded_len();
    if recorded > 0 && recorded < n {
        let x = x_of(track, recorded, n);
        painter.line_segment(
            [Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom())],
            Stroke::new(1.0, visuals.weak_text_color()),
        );
    }
    if let Some(f) = session.forked_at {
        let x = x_of(track, f, n);
        painter.text(
            Pos2::new(x, rect.top()),
            egui::Align2::CENTER_TOP,
            "⤴",
            egui::FontId::proportional(11.0),
            visuals.weak_text_color(),
        );
    }
    // Markers: one tick per pixel column, the most severe kind wins.
    let mut last_x = f32::NEG_INFINITY;
    for m in session.markers().all() {
        let x = x_of(track, m.frame, n).round();
        if x == last_x && !matches!(m.kind, crate::record::MarkerKind::Divergence) {
            continue;
        }
        last_x = x;
        let c = colors::egui(colors::marker(&m.kind));
        painter.line_segment(
            [Pos2::new(x, track.top()), Pos2::new(x, track.top() + 9.0)],
            Stroke::new(2.0, c),
        );
        painter.circle_filled(Pos2::new(x, track.top() + 2.0), 2.5, c);
    }
    // The playhead.
    if n > 0 {
        let x = x_of(track, state.playhead.frame, n);
        let c = colors::egui(colors::SELECTION);
        painter.line_segment(
            [Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom())],
            Stroke::new(2.0, c),
        );
        painter.add(egui::Shape::convex_polygon(
            vec![
                Pos2::new(x - 5.0, rect.bottom()),
                Pos2::new(x + 5.0, rect.bottom()),
                Pos2::new(x, rect.bottom() - 7.0),
            ],
            c,
            Stroke::NONE,
        ));
    }
    if let Some(hover) = response.hover_pos() {
        let f = index_at(track, hover.x, n);
        let near: Vec<String> = session
            .markers()
            .all()
            .iter()
            .filter(|m| (x_of(track, m.frame, n) - hover.x).abs() <= 4.0)
            .take(6)
            .map(|m| format!("● frame {}: {}", m.frame, m.text))
            .collect();
        let mut tip = format!("frame {f} — click or drag to seek");
        if !near.is_empty() {
            tip.push('\n');
            tip.push_str(&near.join("\n"));
        }
        response.on_hover_text_at_pointer(tip);
    }
}

fn event_scrubber(ui: &mut Ui, state: &AppState, marks: &[EventMark], out: &mut Vec<Command>) {
    let frame = state.current_frame();
    let n = frame.map_or(0, |f| f.trace.len());
    ui.horizontal(|ui| {
        if ui
            .button("◀ Event")
            .on_hover_text("Previous event of the trace (Shift+←)")
            .clicked()
        {
            out.push(Command::StepEvents(-1));
        }
        if ui
            .button("Event ▶")
            .on_hover_text("Next event of the trace (Shift+→)")
            .clicked()
        {
            out.push(Command::StepEvents(1));
        }
        let text = match (state.current_event(), frame) {
            (Some((i, e)), _) => format!(
                "event {} / {n} · {} · {}",
                i + 1,
                e.stage.name(),
                e.summary()
            ),
            (None, Some(f)) if n > 0 => {
                let dropped = if f.counters.trace_dropped > 0 {
                    format!(" (+{} not recorded: trace limit)", f.counters.trace_dropped)
                } else {
                    String::new()
                };
                format!("{n} events in this frame{dropped} — step with Shift+→ or click the strip")
            }
            _ => "no trace recorded for this frame".to_string(),
        };
        ui.add(egui::Label::new(egui::RichText::new(text).monospace()).truncate())
            .on_hover_text("The step inside the frame the viewport and inspector show");
    });
    let (rect, response) = ui.allocate_exact_size(
        Vec2::new(ui.available_width(), 18.0),
        Sense::click_and_drag(),
    );
    let id = response.id;
    response.widget_info(|| {
        egui::WidgetInfo::slider(
            n > 0,
            state.playhead.event.map_or(-1.0, |e| e as f64),
            "Event scrubber",
        )
    });
    declare_slider(ui, id, n.saturating_sub(1) as f64);
    if let Some(v) = accesskit_value(ui, id) {
        out.push(Command::SeekEvent((v >= 0.0).then(|| v.round() as usize)));
    }
    let track = rect.shrink2(Vec2::new(6.0, 2.0));
    if (response.clicked() || response.dragged())
        && let Some(p) = response.interact_pointer_pos()
        && n > 0
    {
        let e = index_at(track, p.x, n);
        if Some(e) != state.playhead.event {
            out.push(Command::SeekEvent(Some(e)));
        }
    }
    let visuals = ui.visuals();
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 3.0, visuals.extreme_bg_color);
    let Some(frame) = frame else {
        return;
    };
    if n == 0 {
        return;
    }
    // One colour per pixel column: the stage of its events, red when one is a warning.
    let columns = track.width().max(1.0) as usize;
    let mut col: Vec<Option<(crate::trace::Stage, bool)>> = vec![None; columns + 1];
    for (i, e) in frame.trace.iter().enumerate() {
        let c = if n > 1 {
            (i as f32 / (n - 1) as f32 * columns as f32) as usize
        } else {
            0
        };
        if let Some(slot) = col.get_mut(c) {
            let warn = e.verdict == crate::trace::Verdict::Warning || slot.is_some_and(|s| s.1);
            *slot = Some((e.stage, warn));
        }
    }
    for (c, slot) in col.iter().enumerate() {
        if let Some((stage, warn)) = slot {
            let color = if *warn {
                colors::WARNING
            } else {
                colors::with_alpha(colors::stage(*stage), 0.8)
            };
            let x = track.left() + c as f32;
            painter.line_segment(
                [Pos2::new(x, track.top()), Pos2::new(x, track.bottom())],
                Stroke::new(1.0, colors::egui(color)),
            );
        }
    }
    // The family views' marks: a notch at the top of the strip.
    for m in marks.iter().filter(|m| m.event < n) {
        let x = x_of(track, m.event, n);
        painter.rect_filled(
            Rect::from_min_size(Pos2::new(x - 1.5, rect.top()), Vec2::new(3.0, 6.0)),
            0.0,
            colors::egui(m.color),
        );
    }
    if let Some(e) = state.playhead.event {
        let x = x_of(track, e, n);
        let c = colors::egui(colors::SELECTION);
        painter.rect_filled(
            Rect::from_center_size(Pos2::new(x, rect.center().y), Vec2::new(4.0, rect.height())),
            1.0,
            c,
        );
    }
    if let Some(hover) = response.hover_pos() {
        let i = index_at(track, hover.x, n);
        if let Some(e) = frame.trace.get(i) {
            let mark = marks
                .iter()
                .find(|m| m.event == i)
                .map_or_else(String::new, |m| format!("\n◆ {}", m.text));
            response.on_hover_text_at_pointer(format!(
                "event {} ({}): {}{mark}",
                i + 1,
                e.stage.name(),
                e.summary()
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_indices_round_trip() {
        let r = Rect::from_min_size(Pos2::new(10.0, 0.0), Vec2::new(100.0, 10.0));
        for n in [1, 2, 7, 101, 100_000] {
            for i in [0, n / 3, n - 1] {
                // f32 pixels: exact for small n, within a hair for huge ones.
                assert!(
                    index_at(r, x_of(r, i, n), n).abs_diff(i) <= n / 10_000,
                    "n {n} i {i}"
                );
            }
        }
        assert_eq!(index_at(r, -50.0, 10), 0);
        assert_eq!(index_at(r, 500.0, 10), 9);
    }
}

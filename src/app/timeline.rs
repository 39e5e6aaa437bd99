//! The two-level timeline: transport controls, the frame scrubber with its markers and a
//! contact-density strip, and under it the step scrubber through the current frame's trace,
//! with the marks the open family views put on it.

mod audit_row;
mod event_scrubber;
mod frame_scrubber;

use crate::app::families::EventMark;
use crate::app::state::playback::SPEEDS;
use crate::app::state::session::{REPLAY_ONLY_WHY, SceneEdits};
use crate::app::state::{AppState, Command};
use crate::app::views::colors::EventPalette;
use egui::accesskit::{Action, ActionData};
use egui::{Rect, Sense, Ui, Vec2};

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

/// A scrubber: a strip across the panel that a click or drag seeks along, and a slider for
/// assistive technology.
struct Strip {
    rect: Rect,
    /// Where index 0 and the last index sit: the strip less a margin.
    track: Rect,
    response: egui::Response,
}

impl Strip {
    /// `n` positions, `value` the current one (as the slider reads it).
    fn new(ui: &mut Ui, height: f32, margin: Vec2, n: usize, value: f64, label: &str) -> Self {
        let (rect, response) = ui.allocate_exact_size(
            Vec2::new(ui.available_width(), height),
            Sense::click_and_drag(),
        );
        response.widget_info(|| egui::WidgetInfo::slider(n > 0, value, label));
        declare_slider(ui, response.id, n.saturating_sub(1) as f64);
        Self {
            rect,
            track: rect.shrink2(margin),
            response,
        }
    }

    /// The value assistive technology (or a test) set this frame.
    fn requested_value(&self, ui: &Ui) -> Option<f64> {
        accesskit_value(ui, self.response.id)
    }

    /// The index under the pointer while it clicks or drags the strip.
    fn pointed_index(&self, n: usize) -> Option<usize> {
        if (self.response.clicked() || self.response.dragged())
            && let Some(p) = self.response.interact_pointer_pos()
            && n > 0
        {
            return Some(index_at(self.track, p.x, n));
        }
        None
    }
}

impl TimelineUi {
    pub fn open_fork_dialog(&mut self, state: &AppState) {
        if let Some(s) = &state.session {
            self.fork_dialog = Some(SceneEdits::of(&s.scene));
        }
    }

    pub fn show(
        &mut self,
        ui: &mut Ui,
        state: &AppState,
        marks: &[EventMark],
        palette: &EventPalette,
    ) -> Vec<Command> {
        let mut out = Vec::new();
        self.transport(ui, state, &mut out);
        ui.add_space(2.0);
        frame_scrubber::show(ui, state, &mut out);
        ui.add_space(2.0);
        event_scrubber::show(ui, state, marks, palette, &mut out);
        audit_row::show(ui, state, palette);
        self.fork_window(ui, state, &mut out);
        out
    }

    fn transport(&mut self, ui: &mut Ui, state: &AppState, out: &mut Vec<Command>) {
        let has = state.session.is_some();
        ui.horizontal(|ui| {
            ui.add_enabled_ui(has, |ui| {
                frame_buttons(ui, state, out);
                ui.separator();
                playback_modes(ui, state, out);
                ui.separator();
                if ui.button("◆◀").on_hover_text("Previous marker ([)").clicked() {
                    out.push(Command::PreviousMarker);
                }
                if ui.button("▶◆").on_hover_text("Next marker (])").clicked() {
                    out.push(Command::NextMarker);
                }
                ui.separator();
                let replay_only = state.session.as_ref().is_some_and(|s| s.replay_only());
                if ui
                    .add_enabled(!replay_only, egui::Button::new("⤴ Resume from here…"))
                    .on_hover_text(
                        "Fork: drop the frames after this one and step the engine from here, optionally with other scene parameters",
                    )
                    .on_disabled_hover_text(format!(
                        "Not for this run: {REPLAY_ONLY_WHY} (Collidoscope does not know how its engine would step it)"
                    ))
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

/// First, back, play or pause, step, last.
fn frame_buttons(ui: &mut Ui, state: &AppState, out: &mut Vec<Command>) {
    if ui
        .button("⏮ First")
        .on_hover_text("First frame (Home)")
        .clicked()
    {
        out.push(Command::FirstFrame);
    }
    if ui
        .button("◀ Back")
        .on_hover_text("One frame back (←)")
        .clicked()
    {
        out.push(Command::StepFrames(-1));
    }
    let (label, tip) = if state.playback.playing {
        ("⏸ Pause", "Pause playback (Space)")
    } else {
        (
            "⏵ Play",
            "Play: replays the history, then steps the engine when live (Space)",
        )
    };
    if ui.button(label).on_hover_text(tip).clicked() {
        out.push(Command::TogglePlay);
    }
    // A captured run has no step after its last one: nothing here can make one.
    let replay_only = state.session.as_ref().is_some_and(|s| s.replay_only());
    let at_last = state.playhead.frame + 1 >= state.frame_count();
    if ui
        .add_enabled(!(replay_only && at_last), egui::Button::new("Step ▶"))
        .on_hover_text(
            "One frame forward (→); at the last frame of a live session this steps the engine",
        )
        .on_disabled_hover_text(format!(
            "The last step received: {REPLAY_ONLY_WHY}, so there is no step to make here"
        ))
        .clicked()
    {
        out.push(Command::StepFrames(1));
    }
    if ui
        .button("Last ⏭")
        .on_hover_text("Last frame (End)")
        .clicked()
    {
        out.push(Command::LastFrame);
    }
}

/// Speed, loop and live stepping.
fn playback_modes(ui: &mut Ui, state: &AppState, out: &mut Vec<Command>) {
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
    let replay_only = state.session.as_ref().is_some_and(|s| s.replay_only());
    let mut live = state.live;
    ui.add_enabled_ui(can_step, |ui| {
        let why = if replay_only {
            format!("{REPLAY_ONLY_WHY}: its steps are the engine's, as they arrived")
        } else {
            "A recording replays as recorded: use “Resume from here” to step it".to_string()
        };
        if ui
            .checkbox(&mut live, "Live")
            .on_hover_text("Playing past the last frame steps the engine and appends frames")
            .on_disabled_hover_text(why)
            .changed()
        {
            out.push(Command::SetLive(live));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::Pos2;

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

//! The viewer side of `diff`: the "Compare with…" window (a typed path, or the file dialog)
//! and the diff panel (where the runs part, the tolerance, every difference of the frame
//! shown, and the picked one's values in A and in B side by side).

mod list;

use crate::app::state::compare::{Compare, tolerance_label};
use crate::app::state::comparing::CompareCommand;
use crate::app::state::{AppState, Command};
use crate::app::views::colors;
use crate::diff::Tolerance;
use egui::{RichText, Ui};
use std::path::PathBuf;

/// What the compare window and panel ask of the app besides state commands.
#[derive(Clone, Debug, PartialEq)]
pub enum CompareAction {
    Cmd(Command),
    /// Pick run B in the native file dialog.
    Browse,
}

/// The tolerance as edited in the panel: a kind and its number.
#[derive(Clone, Copy, Debug, PartialEq)]
enum ToleranceKind {
    Bitwise,
    Ulps,
    Abs,
}

pub struct CompareUi {
    /// The "Compare with…" window is open.
    pub window_open: bool,
    /// Run B's path as typed.
    pub path_text: String,
    kind: ToleranceKind,
    ulps: u64,
    abs: f64,
}

impl Default for CompareUi {
    fn default() -> Self {
        Self {
            window_open: false,
            path_text: String::new(),
            kind: ToleranceKind::Bitwise,
            ulps: 4,
            abs: 1e-9,
        }
    }
}

impl CompareUi {
    fn tolerance(&self) -> Tolerance {
        match self.kind {
            ToleranceKind::Bitwise => Tolerance::Bitwise,
            ToleranceKind::Ulps => Tolerance::Ulps(self.ulps),
            ToleranceKind::Abs => Tolerance::Abs {
                abs: self.abs,
                rel: 0.0,
            },
        }
    }

    /// The "Compare with…" window: run B's path typed or browsed for.
    pub fn window(&mut self, ctx: &egui::Context, state: &AppState) -> Vec<CompareAction> {
        let mut out = Vec::new();
        if !self.window_open {
            return out;
        }
        let mut open = true;
        egui::Window::new("Compare with…")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .pivot(egui::Align2::CENTER_CENTER)
            .default_pos(ctx.content_rect().center())
            .show(ctx, |ui| {
                let a = state
                    .session
                    .as_ref()
                    .map_or_else(|| "nothing".into(), |s| s.origin.label());
                ui.label(format!("Run A is the open recording: {a}"));
                ui.label("Run B (a recording .cdrec or a capture stream .jsonl):");
                let edit = ui.add(
                    egui::TextEdit::singleline(&mut self.path_text)
                        .hint_text("path of run B")
                        .desired_width(420.0),
                );
                let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                ui.horizontal(|ui| {
                    let typed = !self.path_text.trim().is_empty();
                    let go = ui
                        .add_enabled(typed, egui::Button::new("Compare"))
                        .on_hover_text("Open run B beside run A and go to where they part");
                    if typed && (go.clicked() || entered) {
                        let path = PathBuf::from(self.path_text.trim());
                        out.push(CompareAction::Cmd(Command::Compare(CompareCommand::Open(
                            path,
                        ))));
                        self.window_open = false;
                    }
                    if ui
                        .button("Browse…")
                        .on_hover_text("Pick run B in a file dialog")
                        .clicked()
                    {
                        out.push(CompareAction::Browse);
                        self.window_open = false;
                    }
                });
            });
        if !open {
            self.window_open = false;
        }
        out
    }

    /// The diff panel (when a comparison is open or opening).
    pub fn panel(&mut self, ui: &mut Ui, state: &AppState) -> Vec<Command> {
        let mut out = Vec::new();
        ui.heading("Compare runs");
        if let Some(job) = &state.comparing {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("comparing with {}…", job.path.display()));
            });
        }
        let Some(c) = &state.compare else {
            return out;
        };
        self.header(ui, state, c, &mut out);
        ui.separator();
        list::frame_differences(ui, state, c, &mut out);
        out
    }

    fn header(&mut self, ui: &mut Ui, state: &AppState, c: &Compare, out: &mut Vec<Command>) {
        let a = state
            .session
            .as_ref()
            .map_or_else(String::new, |s| s.origin.label());
        ui.label(RichText::new(format!("A  {a}")).strong())
            .on_hover_text("Run A: the open recording, drawn as usual");
        ui.label(
            RichText::new(format!("B  {}", c.label()))
                .strong()
                .color(colors::egui(colors::RUN_B)),
        )
        .on_hover_text("Run B: drawn as a violet ghost over A");
        let color = if c.report.same() {
            colors::NORMAL
        } else {
            colors::DIFFERS
        };
        ui.label(RichText::new(c.summary()).color(colors::egui(color)));
        for note in &c.report.notes {
            ui.label(RichText::new(format!("⚠ {note}")).color(colors::egui(colors::WARNING)));
        }
        if c.report.frames_a != c.report.frames_b {
            ui.weak(format!(
                "A holds {} frames, B {}: frames only one run has are not compared",
                c.report.frames_a, c.report.frames_b
            ));
        }
        ui.horizontal(|ui| {
            let label = match c.divergence {
                Some(f) => format!("≠ Go to the divergence (frame {f})"),
                None => "≠ Go to the divergence".into(),
            };
            if ui
                .add_enabled(c.divergence.is_some(), egui::Button::new(label))
                .on_hover_text("The first frame where the runs differ")
                .clicked()
            {
                out.push(Command::Compare(CompareCommand::SeekDivergence));
            }
            if ui
                .button("Close")
                .on_hover_text("Stop comparing: drop run B")
                .clicked()
            {
                out.push(Command::Compare(CompareCommand::Close));
            }
        });
        self.tolerance_row(ui, c, out);
    }

    fn tolerance_row(&mut self, ui: &mut Ui, c: &Compare, out: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            ui.label("tolerance");
            egui::ComboBox::from_id_salt("compare-tolerance")
                .selected_text(match self.kind {
                    ToleranceKind::Bitwise => "bitwise",
                    ToleranceKind::Ulps => "ulps:N",
                    ToleranceKind::Abs => "abs:E",
                })
                .width(80.0)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.kind, ToleranceKind::Bitwise, "bitwise");
                    ui.selectable_value(&mut self.kind, ToleranceKind::Ulps, "ulps:N");
                    ui.selectable_value(&mut self.kind, ToleranceKind::Abs, "abs:E");
                })
                .response
                .on_hover_text(
                    "bitwise: a determinism check; ulps:N: another machine or compiler; abs:E: runs that change a setting on purpose",
                );
            match self.kind {
                ToleranceKind::Bitwise => {}
                ToleranceKind::Ulps => {
                    ui.add(egui::DragValue::new(&mut self.ulps).range(0..=1_000_000))
                        .on_hover_text("Units in the last place two numbers may be apart");
                }
                ToleranceKind::Abs => {
                    ui.add(
                        egui::DragValue::new(&mut self.abs)
                            .speed(1e-6)
                            .range(0.0..=1e6)
                            .max_decimals(12),
                    )
                    .on_hover_text("How far apart two numbers may be");
                }
            }
            let wanted = self.tolerance();
            if ui
                .add_enabled(wanted != c.tolerance, egui::Button::new("Apply"))
                .on_hover_text(format!(
                    "Compare again with {} (now {})",
                    tolerance_label(wanted),
                    tolerance_label(c.tolerance)
                ))
                .clicked()
            {
                out.push(Command::Compare(CompareCommand::Tolerance(wanted)));
            }
        });
    }
}

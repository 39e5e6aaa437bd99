//! The status bar: what is open, where the playhead is, history memory against its budget,
//! background work with its progress, the last message and the viewer's own frame time.

use crate::app::state::scan::ScanPhase;
use crate::app::state::{AppState, Level};
use crate::app::views::colors;
use egui::{RichText, Ui};
use std::time::Duration;

/// How long an information message stays; errors stay until the next message.
const INFO_SECONDS: u64 = 8;

pub fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}

pub fn show(ui: &mut Ui, state: &AppState, ui_ms: f32) {
    ui.horizontal(|ui| {
        listening(ui, state);
        let Some(session) = &state.session else {
            ui.label("No session");
            message(ui, state);
            return;
        };
        let mode = if session.replay_only() {
            captured_mode(state)
        } else if session.can_step() && state.live {
            ("● LIVE", colors::egui([0.35, 0.85, 0.4, 1.0]), "The engine steps when playback passes the last frame")
        } else if session.is_recording_replay() && !session.can_step() {
            ("▶ REPLAY", colors::egui(colors::FIRST), "Replaying a recording as it was recorded")
        } else {
            ("■ HISTORY", ui.visuals().text_color(), "Scrubbing the history; live stepping is off")
        };
        ui.label(RichText::new(mode.0).strong().color(mode.1)).on_hover_text(mode.2);
        ui.separator();
        ui.label(session.origin.label()).on_hover_text("What is open");
        ui.separator();
        let time = state.current_frame().map_or(0.0, |f| f.time_s);
        ui.monospace(format!("frame {} / {}", state.playhead.frame, state.frame_count().saturating_sub(1)))
            .on_hover_text("Playhead position / last frame");
        ui.monospace(format!("t = {time:.3} s")).on_hover_text("Simulated time at the playhead");
        // A captured run's trace is what its engine sent: no limit of ours applies.
        if !session.replay_only() {
            trace_limit(ui, state, session.trace_limit);
        }
        ui.separator();
        let used = session.memory_bytes();
        let budget = session.budget_bytes().max(1);
        let spilled = session.store().spilled_len();
        let fraction = used as f32 / budget as f32;
        ui.add(
            egui::ProgressBar::new(fraction.min(1.0))
                .desired_width(160.0)
                .desired_height(12.0)
                .text(RichText::new(format!("{} / {}", mib(used), mib(budget))).small()),
        )
        .on_hover_text(format!(
            "History memory against its budget; {spilled} older frame(s) spilled to disk and read back on demand"
        ));
        if let Some(job) = &state.loading {
            ui.separator();
            ui.spinner();
            ui.label(format!("opening {}…", job.request.label()));
        }
        if let Some(scan) = &session.scan {
            match &scan.phase {
                ScanPhase::Reading => {
                    ui.separator();
                    ui.add(
                        egui::ProgressBar::new(scan.fraction())
                            .desired_width(140.0)
                            .desired_height(12.0)
                            .text(RichText::new(format!("reading {} / {}", scan.done, scan.total)).small()),
                    )
                    .on_hover_text("Reading every frame in the background for the plots and markers");
                }
                ScanPhase::Validating if session.replay_only() => {
                    ui.separator();
                    ui.spinner();
                    ui.label("checking the captured steps…")
                        .on_hover_text("A captured run is checked, not re-simulated: a marker appears at a non-finite state");
                }
                ScanPhase::Validating => {
                    ui.separator();
                    ui.spinner();
                    ui.label("re-simulating to check determinism…")
                        .on_hover_text("A divergence marker appears where the replay differs");
                }
                ScanPhase::Failed(why) => {
                    ui.separator();
                    ui.colored_label(colors::egui(colors::WARNING), "scan incomplete").on_hover_text(why.as_str());
                }
                ScanPhase::Done => {}
            }
        }
        if let Some(c) = &state.compare {
            ui.separator();
            let (text, color) = match c.divergence {
                Some(f) => (format!("⟷ B ≠ at frame {f}"), colors::DIFFERS),
                None => ("⟷ B same".to_string(), colors::NORMAL),
            };
            ui.label(RichText::new(text).strong().color(colors::egui(color)))
                .on_hover_text(format!("Comparing with {}: {}", c.label(), c.summary()));
        }
        if let Some(job) = &state.saving {
            ui.separator();
            ui.add(
                egui::ProgressBar::new(job.fraction())
                    .desired_width(140.0)
                    .desired_height(12.0)
                    .text(RichText::new(format!("saving {}", job.path.display())).small()),
            );
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.monospace(format!("UI {ui_ms:.1} ms"))
                .on_hover_text("CPU time the viewer spent on its last frame (layout and draw lists)");
            ui.separator();
            message(ui, state);
        });
    });
}

/// A captured run: arriving from a connected engine, or replayed.
fn captured_mode(state: &AppState) -> (&'static str, egui::Color32, &'static str) {
    let streaming = state
        .session
        .as_ref()
        .and_then(|s| s.live_run)
        .is_some_and(|run| {
            state
                .listening
                .as_ref()
                .is_some_and(|l| l.run == run && l.peer.is_some())
        });
    if streaming {
        (
            "● CAPTURE LIVE",
            colors::egui([0.35, 0.85, 0.4, 1.0]),
            "Steps arrive from the connected engine; a captured run is replayed, not re-simulated",
        )
    } else {
        (
            "▶ CAPTURED",
            colors::egui(colors::FIRST),
            "Another engine's run, replayed as captured: a captured run is replayed, not re-simulated",
        )
    }
}

/// The address listened on and the engine connected, when listening.
fn listening(ui: &mut Ui, state: &AppState) {
    let Some(l) = &state.listening else {
        return;
    };
    let text = match l.peer {
        Some(peer) => format!("listening on {} · engine {peer} connected", l.addr),
        None => format!("listening on {} · waiting for an engine", l.addr),
    };
    let tip = l.last_drop.clone().unwrap_or_else(|| {
        "Engines stream their runs here as capture-stream lines (docs/capture-stream.md), one at a time".into()
    });
    ui.monospace(text).on_hover_text(tip);
    ui.separator();
}

/// The trace limit stepped frames get, and a warning when the frame under the playhead was
/// cut by it (in a recording, by the limit it was recorded with).
fn trace_limit(ui: &mut Ui, state: &AppState, limit: usize) {
    ui.separator();
    let dropped = state
        .current_frame()
        .map_or(0, |f| f.counters.trace_dropped);
    if dropped > 0 {
        let held = state.current_frame().map_or(0, |f| f.trace.len());
        ui.colored_label(colors::egui(colors::WARNING), format!("⚠ trace cut: {dropped} events dropped"))
            .on_hover_text(format!(
                "This frame kept its first {held} trace events and dropped {dropped}: the trace limit \
                 cut it. Raise the limit in Settings (stepped frames) or record with a larger --trace-limit."
            ));
    } else {
        ui.monospace(format!("trace ≤ {limit}/frame")).on_hover_text(
            "Most trace events a stepped frame keeps (Settings → Trace limit); a frame that reaches it says so here",
        );
    }
}

fn message(ui: &mut Ui, state: &AppState) {
    let Some(m) = state.last_message() else {
        return;
    };
    match m.level {
        Level::Error => {
            ui.add(
                egui::Label::new(
                    RichText::new(format!("⚠ {}", m.text)).color(colors::egui(colors::WARNING)),
                )
                .truncate(),
            )
            .on_hover_text(m.text.as_str());
        }
        Level::Info if m.at.elapsed() < Duration::from_secs(INFO_SECONDS) => {
            ui.add(egui::Label::new(RichText::new(&m.text).weak()).truncate())
                .on_hover_text(m.text.as_str());
        }
        Level::Info => {}
    }
}

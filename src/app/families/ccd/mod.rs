//! The continuous-collision view: what happened between the previous frame and this one.
//! Each fast body's swept path (the ray between its two positions), its ghosts at the
//! conservative-advancement steps, the pose where it met its first impact, the supersampled
//! positions, and the bodies that tunnelled (passed through a solid with no contact).
//!
//! Events carry ids and fractions of the step only; the poses are rebuilt here by the
//! engine's own functions from the recorded states of the two frames (`ccd::recorded_motion::ghost_pose`,
//! `ccd::recorded_motion::integrated_motion`).

mod draw;

use super::{EventMark, FamilyContext, FamilyView, Overlay};
use crate::app::state::Command;
use crate::app::views::ccd_mode;
use crate::app::views::colors;
use crate::ccd::CcdEvent;
use crate::scene::CcdMode;
use crate::trace::EventKind;

#[derive(Default)]
pub struct CcdView {
    /// A mode picked whose substep count is still being edited: re-simulated on request, not
    /// on every tick of the drag.
    pending: Option<CcdMode>,
}

impl CcdView {
    /// The switch the lesson is about: flip the mode and the same scene is simulated again
    /// from its first frame up to the frame shown, so the miss in `Off` and the impact in
    /// `Toi` can be compared on the same frame.
    fn mode_switch(
        &mut self,
        ui: &mut egui::Ui,
        cx: &FamilyContext,
        recorded: CcdMode,
        out: &mut Vec<Command>,
    ) {
        let frame = cx.state.playhead.frame;
        ui.label(format!("Mode: ccd: {}", recorded.label()))
            .on_hover_text(ccd_mode::explain(&recorded));
        let mut mode = self.pending.unwrap_or(recorded);
        if ccd_mode::picker(ui, &mut mode) {
            let same_kind = std::mem::discriminant(&mode) == std::mem::discriminant(&recorded);
            if same_kind && mode != recorded {
                self.pending = Some(mode);
            } else {
                self.pending = None;
                if mode != recorded {
                    out.extend(resimulate(cx, mode));
                }
            }
        }
        if let Some(mode) = self.pending
            && ui
                .button(format!("Re-simulate in {}", mode.label()))
                .on_hover_text("From the first frame up to the frame shown")
                .clicked()
        {
            self.pending = None;
            out.extend(resimulate(cx, mode));
        }
        ui.weak(format!(
            "Picking a mode re-simulates the scene from frame 0 up to frame {frame} (later \
             frames are dropped)."
        ));
    }
}

/// Back to the first frame, resumed there with the other mode, stepped up to the frame shown.
fn resimulate(cx: &FamilyContext, mode: CcdMode) -> Vec<Command> {
    cx.resimulate_with(|edits| {
        edits.ccd = mode;
        true
    })
}

/// The frame's continuous-collision events, with their index in the trace.
fn events<'a>(cx: &FamilyContext<'a>) -> Vec<(usize, &'a CcdEvent)> {
    let Some(frame) = cx.frame() else {
        return Vec::new();
    };
    frame
        .trace
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.kind {
            EventKind::Ccd(c) => Some((i, c)),
            _ => None,
        })
        .collect()
}

impl FamilyView for CcdView {
    fn family(&self) -> &'static str {
        <crate::ccd::family::CcdFamily as crate::family::EngineFamily>::NAME
    }

    fn title(&self) -> &'static str {
        "Continuous collision"
    }

    fn about(&self) -> &'static str {
        "Swept paths, advancement steps, impacts and tunnelled bodies between two frames"
    }

    fn color(&self) -> crate::app::viewport::draw_list::Rgba {
        [0.95, 0.55, 0.2, 1.0]
    }

    fn panel(&mut self, ui: &mut egui::Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
        if let Some(scene) = cx.scene() {
            self.mode_switch(ui, cx, scene.solver.ccd, out);
        }
        ui.separator();
        let all = events(cx);
        let count = |f: fn(&CcdEvent) -> bool| all.iter().filter(|(_, e)| f(e)).count();
        ui.label(format!(
            "This frame: {} rays between positions, {} advancement steps, {} impacts, {} \
             supersampled positions, {} tunnelled",
            count(|e| matches!(e, CcdEvent::Ray { .. })),
            count(|e| matches!(e, CcdEvent::Advance { .. })),
            count(|e| matches!(e, CcdEvent::Impact { .. })),
            count(|e| matches!(e, CcdEvent::Substep { .. })),
            count(|e| matches!(e, CcdEvent::Tunnelled { .. })),
        ));
        for (i, e) in &all {
            if matches!(e, CcdEvent::Impact { .. } | CcdEvent::Tunnelled { .. }) {
                let text = crate::family::FamilyEvent::summary(*e, crate::trace::Verdict::Info);
                if ui.link(format!("#{i} {text}")).clicked() {
                    out.push(Command::SeekEvent(Some(*i)));
                }
            }
        }
    }

    fn overlay(&mut self, cx: &FamilyContext, out: &mut Overlay) {
        draw::overlay(cx, &events(cx), &mut out.list);
    }

    fn event_marks(&mut self, cx: &FamilyContext, out: &mut Vec<EventMark>) {
        for (i, e) in events(cx) {
            let (color, text) = match e {
                CcdEvent::Tunnelled { body, other, .. } => (
                    colors::WARNING,
                    format!(
                        "{} tunnelled through {}",
                        cx.body_name(*body),
                        cx.body_name(*other)
                    ),
                ),
                CcdEvent::Impact { body, other, .. } => (
                    colors::RESULT,
                    format!("{} impact on {}", cx.body_name(*body), cx.body_name(*other)),
                ),
                _ => continue,
            };
            out.push(EventMark {
                event: i,
                color,
                text,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::families::SceneStatics;
    use crate::app::state::AppState;
    use crate::app::state::loader::{LoadOptions, LoadRequest};

    fn tunnelling() -> AppState {
        let mut st = AppState::new(LoadOptions {
            trace_limit: crate::trace::TraceRecorder::DEFAULT_LIMIT,
            budget_bytes: 64 << 20,
        });
        assert!(st.open_blocking(LoadRequest::Builtin("tunnelling".into())));
        st
    }

    /// Frames (up to the last) whose trace says a body tunnelled.
    fn tunnelled_frames(st: &AppState) -> Vec<usize> {
        let s = st.session.as_ref().expect("session");
        (0..st.frame_count())
            .filter(|&i| {
                s.frame(i)
                    .expect("frame")
                    .trace
                    .iter()
                    .any(|e| matches!(&e.kind, EventKind::Ccd(CcdEvent::Tunnelled { .. })))
            })
            .collect()
    }

    fn flip(st: &mut AppState, mode: CcdMode) {
        let statics = SceneStatics::default();
        let commands = resimulate(&FamilyContext::new(st, &statics), mode);
        for c in commands {
            st.apply(c);
        }
    }

    #[test]
    fn flipping_the_mode_resimulates_up_to_the_frame_shown() {
        let mut st = tunnelling();
        st.apply(Command::StepFrames(12));
        assert_eq!(
            tunnelled_frames(&st),
            Vec::<usize>::new(),
            "Toi stops the bullet"
        );

        flip(&mut st, CcdMode::Off);
        let scene = &st.session.as_ref().expect("session").scene;
        assert_eq!(scene.solver.ccd, CcdMode::Off);
        assert_eq!((st.frame_count(), st.playhead.frame), (13, 12));
        assert_eq!(
            tunnelled_frames(&st),
            vec![7],
            "the bullet passes the wall at frame 7"
        );

        flip(&mut st, CcdMode::Toi);
        assert_eq!((st.frame_count(), st.playhead.frame), (13, 12));
        assert!(tunnelled_frames(&st).is_empty());
    }
}

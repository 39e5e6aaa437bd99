//! The continuous-collision view: what happened between the previous frame and this one.
//! Each fast body's swept path (the ray between its two positions), its ghosts at the
//! conservative-advancement steps, the pose where it met its first impact, the supersampled
//! positions, and the bodies that tunnelled (passed through a solid with no contact).
//!
//! Events carry ids and fractions of the step only; the poses are rebuilt here by the
//! engine's own functions from the recorded states of the two frames (`ccd::ghost_pose`,
//! `ccd::integrated_motion`).

mod draw;

use super::{EventMark, FamilyContext, FamilyView, Overlay};
use crate::app::state::Command;
use crate::app::views::colors;
use crate::ccd::CcdEvent;
use crate::trace::EventKind;

#[derive(Default)]
pub struct CcdView;

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
        <crate::ccd::CcdFamily as crate::family::EngineFamily>::NAME
    }

    fn title(&self) -> &'static str {
        "Continuous collision"
    }

    fn about(&self) -> &'static str {
        "Swept paths, advancement steps, impacts and tunnelled bodies between two frames"
    }

    fn panel(&mut self, ui: &mut egui::Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
        let mode = cx.scene().map_or("?".to_string(), |s| s.solver.ccd.label());
        ui.label(format!("Mode: ccd: {mode}"));
        ui.label(
            "Off: discrete steps. Speculative: contacts within the distance a pair can \
             close in one step. Substep(n): the step run n times (supersampling). Toi: fast \
             bodies stop at their first time of impact.",
        );
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

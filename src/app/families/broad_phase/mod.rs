//! The broad-phase family's viewer: each body's interval on x, y and z as sweep and prune
//! sorts them, the overlapping pairs, and the boxes in the 3D view.
//!
//! - [`snapshot`]: the frame's boxes and overlapping pairs, from the engine;
//! - [`panel`]: the side panel (interval strips, pair list).

pub mod panel;
pub mod snapshot;

use super::{EventMark, FamilyContext, FamilyView, Overlay};
use crate::app::state::Command;
use crate::trace::{EventKind, Verdict};
use panel::BroadPanel;

/// The colour of the family's events and of its marks.
pub(super) const COLOR: crate::app::viewport::draw_list::Rgba = [0.3, 0.7, 1.0, 1.0];

#[derive(Default)]
pub struct BroadPhaseView {
    pub panel: BroadPanel,
}

impl FamilyView for BroadPhaseView {
    fn family(&self) -> &'static str {
        <crate::broad::family::BroadFamily as crate::family::EngineFamily>::NAME
    }

    fn title(&self) -> &'static str {
        "Broad phase"
    }

    fn about(&self) -> &'static str {
        "The bodies' boxes on each axis and the overlapping pairs"
    }

    fn color(&self) -> crate::app::viewport::draw_list::Rgba {
        COLOR
    }

    fn panel(&mut self, ui: &mut egui::Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
        self.panel.show(ui, cx.state, out);
    }

    fn overlay_key(&self) -> u64 {
        self.panel.key() as u64
    }

    fn overlay(&mut self, cx: &FamilyContext, out: &mut Overlay) {
        self.panel.draw(cx.state, &mut out.list);
    }

    fn event_marks(&mut self, cx: &FamilyContext, out: &mut Vec<EventMark>) {
        let Some(frame) = cx.frame() else {
            return;
        };
        for (i, e) in frame.trace.iter().enumerate() {
            if let EventKind::Broad(crate::broad::BroadEvent::PairChanged { a, b }) = e.kind
                && e.verdict == Verdict::Hit
            {
                out.push(EventMark {
                    event: i,
                    color: COLOR,
                    text: format!("pair {a}–{b} added"),
                });
            }
        }
    }

    fn save_settings(&self) -> Option<String> {
        ron::to_string(&self.panel.hide_fixed).ok()
    }

    fn load_settings(&mut self, text: &str) {
        if let Ok(hide) = ron::from_str::<bool>(text) {
            self.panel.hide_fixed = hide;
        }
    }
}

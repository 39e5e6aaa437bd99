//! Screenshot mode for the BSP view (see `scripts/screenshots.sh`), with
//! `COLLIDOSCOPE_SCREENSHOT_PANEL=bsp`:
//! - `COLLIDOSCOPE_SCREENSHOT_BSP` `slide`: from the frame shown on, the frame whose slide hit
//!   the most walls (the first of equals), the step scrubber on its last hit iteration;
//!   `node`: the same frame, the scrubber on the first node visit of its sweep; `faces`: the
//!   face-insertion tree open and its faces labelled in the 3D view.

use super::BspView;
use crate::app::families::ScreenshotSetup;
use crate::app::state::Command;
use crate::bsp::BspEvent;
use crate::trace::EventKind;

impl BspView {
    pub(super) fn screenshot(&mut self, setup: &mut ScreenshotSetup<'_>) {
        setup.settings.view.xray_selection = false;
        let Some(which) = setup.var("COLLIDOSCOPE_SCREENSHOT_BSP") else {
            return;
        };
        if which == "faces" {
            self.show_face_tree = true;
            self.face_tree_open = true;
            return;
        }
        let start = setup.state.playhead.frame;
        let hits = |e: &crate::trace::TraceEvent| {
            matches!(
                e.kind,
                EventKind::Bsp(BspEvent::Iteration { hit: Some(_), .. })
            )
        };
        let found = setup.state.session.as_ref().and_then(|s| {
            let mut best: Option<(usize, usize, usize)> = None;
            for f in start..s.len() {
                let Ok(frame) = s.frame(f) else {
                    continue;
                };
                let count = frame.trace.iter().filter(|e| hits(e)).count();
                let Some(last) = frame.trace.iter().rposition(hits) else {
                    continue;
                };
                let node = frame
                    .trace
                    .iter()
                    .position(|e| matches!(e.kind, EventKind::Bsp(BspEvent::Node { .. })));
                let at = if which == "node" {
                    node.unwrap_or(last)
                } else {
                    last
                };
                if best.is_none_or(|(c, ..)| count > c) {
                    best = Some((count, f, at));
                }
            }
            best.map(|(_, f, i)| (f, i))
        });
        if let Some((f, i)) = found {
            setup.settings.view.contacts = false;
            setup.settings.view.normals = false;
            setup.state.apply(Command::SeekFrame(f));
            setup.state.apply(Command::SeekEvent(Some(i)));
        }
    }
}

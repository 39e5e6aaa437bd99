//! Screenshot mode for the BSP view (see `scripts/screenshots.sh`), with
//! `COLLIDOSCOPE_SCREENSHOT_PANEL=bsp`:
//! - `COLLIDOSCOPE_SCREENSHOT_BSP` `slide`: the first frame from the one shown whose slide hit
//!   a wall, the step scrubber on its first hit iteration (the view frames that iteration);
//!   `node`: the same frame, the scrubber on the first node visit of that sweep.

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
        let start = setup.state.playhead.frame;
        let found = setup.state.session.as_ref().and_then(|s| {
            (start..s.len()).find_map(|f| {
                let frame = s.frame(f).ok()?;
                let hit = frame.trace.iter().position(|e| {
                    matches!(
                        e.kind,
                        EventKind::Bsp(BspEvent::Iteration { hit: Some(_), .. })
                    )
                })?;
                let node = frame
                    .trace
                    .iter()
                    .position(|e| matches!(e.kind, EventKind::Bsp(BspEvent::Node { .. })));
                Some((
                    f,
                    if which == "node" {
                        node.unwrap_or(hit)
                    } else {
                        hit
                    },
                ))
            })
        });
        if let Some((f, i)) = found {
            setup.settings.view.contacts = false;
            setup.settings.view.normals = false;
            setup.state.apply(Command::SeekFrame(f));
            setup.state.apply(Command::SeekEvent(Some(i)));
        }
    }
}

//! Screenshot mode for the convex view (see `scripts/screenshots.sh`), with
//! `COLLIDOSCOPE_SCREENSHOT_PANEL=convex`:
//! - `COLLIDOSCOPE_SCREENSHOT_REGION`  a feature (`V3`, `E7`, `F1`) of body A whose region to
//!   draw, `closest` for A's closest feature in the frame shown, `pair` for the regions of
//!   both closest features, or `all` for every region of A;
//! - `COLLIDOSCOPE_SCREENSHOT_WALK`    `longest`: from the frame shown on, the first frame with
//!   the longest walk of the first few seconds, the step scrubber on its middle move.
//!
//! Either way the camera frames the pair.

use super::{ConvexView, Picked, shapes};
use crate::app::families::ScreenshotSetup;
use crate::app::state::Command;
use crate::convex::Feature;

impl ConvexView {
    pub(super) fn screenshot(&mut self, setup: &mut ScreenshotSetup<'_>) {
        setup.settings.view.xray_selection = false;
        setup.settings.view.contacts = false;
        setup.settings.view.normals = false;
        if let Some(w) = setup.var("COLLIDOSCOPE_SCREENSHOT_WALK")
            && w == "longest"
        {
            step_onto_longest_walk(setup);
        }
        if let Some(r) = setup.var("COLLIDOSCOPE_SCREENSHOT_REGION") {
            let cx = setup.context();
            let body = self
                .pair_index(&cx)
                .and_then(|k| shapes::pairs(&cx).get(k).copied())
                .map(|p| p[0]);
            let closest = self
                .pair_index(&cx)
                .and_then(|k| shapes::record(&cx, k))
                .map(|w| w.features[0]);
            if let Some(body) = body {
                match r.trim() {
                    "all" => self.all_regions_of = Some(body),
                    "pair" => self.pair_regions = true,
                    "closest" => {
                        self.picked = closest.map(|feature| Picked { body, feature });
                    }
                    name => {
                        self.picked = Feature::parse(name).map(|feature| Picked { body, feature });
                    }
                }
            }
        }
        self.frame_request = true;
    }
}

/// Looks at up to 240 frames from the one shown and seeks the middle move of the longest walk.
fn step_onto_longest_walk(setup: &mut ScreenshotSetup<'_>) {
    let start = setup.state.playhead.frame;
    let found = setup.state.session.as_ref().and_then(|s| {
        (start..s.len().min(start + 240))
            .filter_map(|f| {
                let frame = s.frame(f).ok()?;
                let moves: Vec<usize> = frame
                    .trace
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| {
                        matches!(
                            e.kind,
                            crate::trace::EventKind::Convex(
                                crate::convex::ConvexEvent::Step { .. }
                            )
                        )
                    })
                    .map(|(i, _)| i)
                    .collect();
                let middle = *moves.get(moves.len() / 2)?;
                Some((moves.len(), std::cmp::Reverse(f), f, middle))
            })
            .max()
    });
    if let Some((_, _, f, i)) = found {
        setup.state.apply(Command::SeekFrame(f));
        setup.state.apply(Command::SeekEvent(Some(i)));
    }
}

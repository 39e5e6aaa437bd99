//! Screenshot mode for the convex view (see `scripts/screenshots.sh`), with
//! `COLLIDOSCOPE_SCREENSHOT_PANEL=convex`:
//! - `COLLIDOSCOPE_SCREENSHOT_REGION`  a feature (`V3`, `E7`, `F1`) of body A whose region to
//!   draw, `closest` for A's closest feature in the frame shown, `pair` for the regions of
//!   both closest features, or `all` for every region of A;
//! - `COLLIDOSCOPE_SCREENSHOT_WALK`    `longest`: from the frame shown on, the first frame with
//!   the longest walk of the first few seconds, the step scrubber on its middle move.
//!
//! - `COLLIDOSCOPE_SCREENSHOT_GJK`     `simplex`: from the frame shown on, the first frame whose
//!   GJK query reaches its largest simplex, the step scrubber on that iteration; `epa`: the
//!   first frame with EPA expansions, on its last one; the panel scrolled to the GJK section.
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
        if let Some(g) = setup.var("COLLIDOSCOPE_SCREENSHOT_GJK") {
            step_onto_gjk(setup, g.trim() == "epa");
            self.scroll_to_gjk = true;
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

/// Looks at up to 240 frames from the one shown for a GJK step worth showing: the iteration
/// with the largest simplex (the earliest such frame), or EPA's last expansion.
fn step_onto_gjk(setup: &mut ScreenshotSetup<'_>, epa: bool) {
    use crate::convex::gjk::GjkStep;
    let start = setup.state.playhead.frame;
    let found = setup.state.session.as_ref().and_then(|s| {
        let frames = (start..s.len().min(start + 240)).filter_map(|f| {
            let frame = s.frame(f).ok()?;
            let steps: Vec<(usize, GjkStep)> = frame
                .trace
                .iter()
                .enumerate()
                .filter_map(|(i, e)| match &e.kind {
                    crate::trace::EventKind::Convex(crate::convex::ConvexEvent::Gjk(g)) => {
                        Some((i, g.step.clone()))
                    }
                    _ => None,
                })
                .collect();
            Some((f, steps))
        });
        if epa {
            // The deepest overlap: its EPA's last expansion.
            frames
                .filter_map(|(f, steps)| {
                    let depth = steps.iter().find_map(|(_, s)| match s {
                        GjkStep::End { depth, .. } => Some(*depth),
                        _ => None,
                    })?;
                    let (i, _) = steps
                        .iter()
                        .rfind(|(_, s)| matches!(s, GjkStep::Expand { .. }))?;
                    Some((depth, f, *i))
                })
                .max_by(|x, y| x.0.total_cmp(&y.0))
                .map(|(_, f, i)| (f, i))
        } else {
            frames
                .filter_map(|(f, steps)| {
                    steps.iter().find_map(|(i, s)| match s {
                        GjkStep::Simplex { len, .. } if *len >= 3 => Some((f, *i)),
                        _ => None,
                    })
                })
                .next()
        }
    });
    if let Some((f, i)) = found {
        setup.state.apply(Command::SeekFrame(f));
        setup.state.apply(Command::SeekEvent(Some(i)));
    }
}

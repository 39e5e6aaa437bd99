//! Screenshot mode for the NURBS view (see `scripts/screenshots.sh`), with
//! `COLLIDOSCOPE_SCREENSHOT_PANEL=nurbs`:
//! - `COLLIDOSCOPE_SCREENSHOT_NURBS` `tree`: from the frame shown on, the first frame with a
//!   hit, its query with the most tests shown at `COLLIDOSCOPE_SCREENSHOT_NURBS_LEVEL`
//!   (default: a third of its deepest level) with the recursion tree open; `uv`: the same
//!   query, the step scrubber on its first hit's box test, the (u, v) panels and the
//!   separating-axis inspector open; `curve`: the same query with no step and no level boxes,
//!   framed on its intersection curve; `bench`: the bench's timing curves; `thesis`: the
//!   thesis' experiments (Figs 3.2–3.8) from `bench-results/nurbs-thesis.csv` and
//!   `nurbs-precision.csv`.

use super::NurbsView;
use super::panel::Sections;
use crate::app::families::ScreenshotSetup;
use crate::app::state::Command;
use crate::trace::EventKind;

impl NurbsView {
    pub(super) fn screenshot(&mut self, setup: &mut ScreenshotSetup<'_>) {
        setup.settings.view.xray_selection = false;
        setup.settings.view.contacts = false;
        setup.settings.view.normals = false;
        let Some(which) = setup.var("COLLIDOSCOPE_SCREENSHOT_NURBS") else {
            return;
        };
        let Some((frame, first, hit_test)) = find_hit_frame(setup) else {
            return;
        };
        setup.state.apply(Command::SeekFrame(frame));
        let cx = setup.context();
        self.geometry.sync(&cx);
        let Some(q) = self.geometry.query_of_event(first) else {
            return;
        };
        let query = &self.geometry.queries[q];
        self.chosen = Some((query.surface_a, query.surface_b));
        let max = query.max_level();
        self.level = setup
            .var("COLLIDOSCOPE_SCREENSHOT_NURBS_LEVEL")
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(max.div_ceil(3));
        if which == "thesis" {
            // The thesis' experiments, each plot beside the thesis' claim.
            setup.state.apply(Command::SeekEvent(None));
            self.force_sections = Some(Sections {
                thesis: true,
                ..Sections::closed()
            });
        } else if which == "bench" {
            // The thesis' timing curves, every method side by side.
            setup.state.apply(Command::SeekEvent(None));
            self.force_sections = Some(Sections {
                bench: true,
                ..Sections::closed()
            });
        } else if which == "uv" {
            setup.state.apply(Command::SeekEvent(Some(hit_test)));
            self.force_sections = Some(Sections {
                uv: true,
                sat: true,
                ..Sections::closed()
            });
        } else if which == "curve" {
            // The whole intersection curve framed, no boxes in front of it.
            setup.state.apply(Command::SeekEvent(None));
            self.show_level = false;
            self.force_sections = Some(Sections {
                uv: true,
                ..Sections::closed()
            });
        } else {
            setup.state.apply(Command::SeekEvent(None));
            self.force_sections = Some(Sections {
                levels: true,
                tree: true,
                ..Sections::closed()
            });
        }
    }
}

/// From the frame shown on (up to 600 frames), the first frame with a hit: its index, the
/// first event of the hit's query with the most tests, and that query's hit test.
fn find_hit_frame(setup: &ScreenshotSetup<'_>) -> Option<(usize, usize, usize)> {
    let s = setup.state.session.as_ref()?;
    let start = setup.state.playhead.frame;
    for f in start..s.len().min(start + 600) {
        let Ok(frame) = s.frame(f) else {
            continue;
        };
        let has_hit = frame.trace.iter().any(|e| {
            matches!(
                e.kind,
                EventKind::Nurbs(crate::nurbs::NurbsEvent::Hit { .. })
            )
        });
        if !has_hit {
            continue;
        }
        let queries = super::queries::read(&frame.trace);
        let best = queries
            .iter()
            .filter(|q| !q.hits.is_empty())
            .max_by_key(|q| q.tests.len())?;
        let hit = best.hits.first().map(|&k| best.tests[k].event)?;
        return Some((f, best.first_event(), hit));
    }
    None
}

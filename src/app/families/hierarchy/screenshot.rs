//! Screenshot mode for the hierarchy view (see `scripts/screenshots.sh`), with
//! `COLLIDOSCOPE_SCREENSHOT_PANEL=hierarchy`:
//! - `COLLIDOSCOPE_SCREENSHOT_COLOR`  `depth`, `sah`, `overlap` or `tested`
//! - `COLLIDOSCOPE_SCREENSHOT_DEPTH`  `LO,HI`: the depth range
//! - `COLLIDOSCOPE_SCREENSHOT_NODE`   a node id to inspect
//! - `COLLIDOSCOPE_SCREENSHOT_TRAVERSAL` `node` (first overlapping node pair) or `triangle`
//!   (the triangle pair with the longest intersection segment) of the first frame from the
//!   one shown that has one: puts the step scrubber on it (the step view frames it)

use super::HierarchyView;
use super::draw::{ColorMode, DepthRange};
use crate::app::families::ScreenshotSetup;
use crate::app::state::Command;
use crate::trace::{EventKind, TraceEvent, Verdict};

impl HierarchyView {
    pub(super) fn screenshot(&mut self, setup: &mut ScreenshotSetup<'_>) {
        // The volumes are the subject: the selection's x-ray edges would cross them.
        setup.settings.view.xray_selection = false;
        {
            let cx = setup.context();
            self.panel.follow_selection(&cx, &mut self.trees);
        }
        if let Some(m) = setup.var("COLLIDOSCOPE_SCREENSHOT_COLOR") {
            self.panel.mode = match m.as_str() {
                "sah" => ColorMode::Sah,
                "overlap" => ColorMode::SiblingOverlap,
                "tested" => ColorMode::Tested,
                _ => ColorMode::Depth,
            };
        }
        if let Some(d) = setup.var("COLLIDOSCOPE_SCREENSHOT_DEPTH")
            && let Some((lo, hi)) = d.split_once(',')
            && let (Ok(lo), Ok(hi)) = (lo.trim().parse(), hi.trim().parse())
        {
            self.panel.range = DepthRange { lo, hi };
        }
        if let Some(n) = setup
            .var("COLLIDOSCOPE_SCREENSHOT_NODE")
            .and_then(|n| n.parse().ok())
        {
            self.panel.selected_node = Some(n);
        }
        if let Some(t) = setup.var("COLLIDOSCOPE_SCREENSHOT_TRAVERSAL") {
            step_onto_traversal(setup, &t);
        }
    }
}

fn step_onto_traversal(setup: &mut ScreenshotSetup<'_>, which: &str) {
    let pick = |e: &TraceEvent| match (&e.kind, which) {
        (EventKind::Bvh(crate::bvh::BvhEvent::NodePair { .. }), "node") => {
            e.verdict == Verdict::Hit
        }
        (EventKind::Bvh(crate::bvh::BvhEvent::TrianglePair { segment, .. }), "triangle") => {
            segment.is_some()
        }
        _ => false,
    };
    // Within a frame, the longest intersection segment (the clearest to see).
    let length = |e: &TraceEvent| match &e.kind {
        EventKind::Bvh(crate::bvh::BvhEvent::TrianglePair {
            segment: Some(s), ..
        }) => (s.b - s.a).norm(),
        _ => 0.0,
    };
    let start = setup.state.playhead.frame;
    let found = setup.state.session.as_ref().and_then(|s| {
        (start..s.len()).find_map(|f| {
            let frame = s.frame(f).ok()?;
            let best = frame
                .trace
                .iter()
                .enumerate()
                .filter(|(_, e)| pick(e))
                .max_by(|a, b| length(a.1).total_cmp(&length(b.1)).then(b.0.cmp(&a.0)))?;
            Some((f, best.0))
        })
    });
    if let Some((f, i)) = found {
        // The step alone: contact points and normals would hide its triangles.
        setup.settings.view.contacts = false;
        setup.settings.view.normals = false;
        setup.state.apply(Command::SeekFrame(f));
        setup.state.apply(Command::SeekEvent(Some(i)));
    }
}

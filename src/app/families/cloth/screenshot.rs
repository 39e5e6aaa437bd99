//! Screenshot mode for the cloth view (see `scripts/screenshots.sh`), with
//! `COLLIDOSCOPE_SCREENSHOT_PANEL=cloth` and `COLLIDOSCOPE_SCREENSHOT_CLOTH`:
//! - `inversions`: from the frame shown on (240 frames at most), the frame with the most
//!   uncorrected, then the most inverted vertices (the first of equals); the step scrubber on
//!   its first inversion (an uncorrected one if any), that vertex picked;
//! - `rays`: the same frame, every kind of ray drawn, the scrubber on its first collision ray
//!   of an inverted vertex (else its first collision ray).

use super::ClothView;
use super::recorded::{self, cloth_event};
use crate::app::families::ScreenshotSetup;
use crate::app::state::Command;
use crate::cloth::{ClothEvent, RayKind};
use crate::families::FamilyFrameData;

impl ClothView {
    pub(super) fn screenshot(&mut self, setup: &mut ScreenshotSetup<'_>) {
        setup.settings.view.xray_selection = false;
        setup.settings.view.contacts = false;
        setup.settings.view.normals = false;
        let Some(which) = setup.var("COLLIDOSCOPE_SCREENSHOT_CLOTH") else {
            return;
        };
        let Some(f) = busiest_frame(setup) else {
            return;
        };
        setup.state.apply(Command::SeekFrame(f));
        let Some(frame) = setup.state.current_frame().cloned() else {
            return;
        };
        let Some(cloth) = frame.families.iter().find_map(|d| match d {
            FamilyFrameData::Cloth(c) => Some(c),
            _ => None,
        }) else {
            return;
        };
        let rows = recorded::inversions(cloth, &frame.trace);
        let shown = rows.iter().find(|r| !r.corrected).or(rows.first()).copied();
        if which == "rays" {
            self.toggles.rejected = true;
            let inverted = |v: u32| rows.iter().any(|r| r.vertex == v);
            let collision = |e: &crate::trace::TraceEvent, only_inverted: bool| {
                matches!(cloth_event(e), Some(ClothEvent::Ray { kind: RayKind::Collision, vertex, .. })
                    if !only_inverted || inverted(*vertex))
            };
            let at = frame
                .trace
                .iter()
                .position(|e| collision(e, true))
                .or_else(|| frame.trace.iter().position(|e| collision(e, false)));
            if let Some(i) = at {
                setup.state.apply(Command::SeekEvent(Some(i)));
            }
        } else if let Some(r) = shown {
            self.picked = Some(r.vertex);
            if let Some(e) = r.event {
                setup.state.apply(Command::SeekEvent(Some(e)));
            }
        }
    }
}

fn busiest_frame(setup: &ScreenshotSetup<'_>) -> Option<usize> {
    let start = setup.state.playhead.frame;
    let session = setup.state.session.as_ref()?;
    (start..session.len().min(start + 240))
        .filter_map(|f| {
            let frame = session.frame(f).ok()?;
            let cloth = frame.families.iter().find_map(|d| match d {
                FamilyFrameData::Cloth(c) => Some(c.clone()),
                _ => None,
            })?;
            let uncorrected = cloth.inversions.iter().filter(|i| !i.corrected).count();
            Some((uncorrected, cloth.inversions.len(), std::cmp::Reverse(f), f))
        })
        .filter(|(_, n, ..)| *n > 0)
        .max()
        .map(|(.., f)| f)
}

//! Screenshot mode for the cloth view (see `scripts/screenshots.sh`), with
//! `COLLIDOSCOPE_SCREENSHOT_PANEL=cloth` and `COLLIDOSCOPE_SCREENSHOT_CLOTH`:
//! - `inversions`: from the frame shown on (240 frames at most), the frame that left an
//!   inversion uncorrected with the fewest inverted vertices (readable), else the first frame
//!   with inverted vertices;
//!   the step scrubber on its first inversion (an uncorrected one if any), that vertex picked;
//! - `sheets`: the frame given, the sheets alone in their tints (no rays, no depth, no marks);
//! - `gate`: the frame given, the sheet coloured by its clusters' gate fill (no rays);
//! - `rays`: the frame with the most collision rays (the sheet draped), every kind of ray
//!   drawn and no inversion marked, the scrubber on its first collision ray of an inverted
//!   vertex (else its first collision ray).

use super::ClothView;
use super::recorded::{self, cloth_event};
use crate::app::families::ScreenshotSetup;
use crate::app::state::Command;
use crate::cloth::RayKind;
use crate::families::FamilyFrameData;

impl ClothView {
    pub(super) fn screenshot(&mut self, setup: &mut ScreenshotSetup<'_>) {
        setup.settings.view.xray_selection = false;
        setup.settings.view.contacts = false;
        setup.settings.view.normals = false;
        let Some(which) = setup.var("COLLIDOSCOPE_SCREENSHOT_CLOTH") else {
            return;
        };
        if which == "gate" || which == "sheets" {
            // The sheets themselves (each in its tint) or their gates' fill: no rays, no
            // depth colours, no marks.
            self.toggles.collision = false;
            self.toggles.prediction = false;
            self.toggles.rejected = false;
            self.toggles.heatmap = false;
            self.toggles.inversions = false;
            self.toggles.gate_map = which == "gate";
            return;
        }
        let Some(f) = frame_to_show(setup, which == "rays") else {
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
            self.toggles.inversions = false;
            let inverted = |v: u32| rows.iter().any(|r| r.vertex == v);
            let collision = |e: &crate::trace::TraceEvent, only_inverted: bool| {
                cloth_event(e)
                    .and_then(|c| recorded::ray_row(0, c))
                    .is_some_and(|r| {
                        r.kind == RayKind::Collision && (!only_inverted || inverted(r.vertex))
                    })
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

fn frame_to_show(setup: &ScreenshotSetup<'_>, rays: bool) -> Option<usize> {
    let start = setup.state.playhead.frame;
    let session = setup.state.session.as_ref()?;
    let mut most_collisions: Option<(usize, usize)> = None;
    let counts: Vec<(usize, usize, usize)> = (start..session.len().min(start + 240))
        .filter_map(|f| {
            let frame = session.frame(f).ok()?;
            let collisions = frame
                .trace
                .iter()
                .filter(|e| {
                    cloth_event(e)
                        .and_then(|c| recorded::ray_row(0, c))
                        .is_some_and(|r| r.kind == RayKind::Collision)
                })
                .count();
            if most_collisions.is_none_or(|(n, _)| collisions > n) {
                most_collisions = Some((collisions, f));
            }
            frame.families.iter().find_map(|d| match d {
                FamilyFrameData::Cloth(c) => Some((
                    f,
                    c.inversions.iter().filter(|i| !i.corrected).count(),
                    c.inversions.len(),
                )),
                _ => None,
            })
        })
        .collect();
    let first_inverted = counts.iter().find(|(.., n)| *n > 0).map(|(f, ..)| *f);
    if rays {
        return most_collisions.map(|(_, f)| f);
    }
    counts
        .iter()
        .filter(|(_, uncorrected, _)| *uncorrected > 0)
        .min_by_key(|(f, _, n)| (*n, *f))
        .map(|(f, ..)| *f)
        .or(first_inverted)
}

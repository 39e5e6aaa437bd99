//! What the hooks of [`FamilyView`](super::FamilyView) hand back to the shell.

use super::FamilyContext;
use super::SceneStatics;
use crate::app::settings::Settings;
use crate::app::state::{AppState, Command};
use crate::app::viewport::camera::OrbitCamera;
use crate::app::viewport::draw_list::{DrawList, Rgba};

/// A family's contribution to the 3D view.
#[derive(Default)]
pub struct Overlay {
    pub list: DrawList,
    /// Fade every body (even those of the current event): the family's own drawing is the
    /// subject, as when a traversal step shows its two triangles.
    pub ghost_bodies: bool,
    /// Where the camera should look; the shell frames it once each time it changes.
    pub focus: Option<Focus>,
}

/// A sphere for the camera to frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Focus {
    pub center: [f64; 3],
    pub radius: f64,
}

impl Focus {
    /// The smallest sphere about the points' centroid holding them all (with a floor on the
    /// radius, so a degenerate set still frames something).
    pub fn around(points: &[[f64; 3]], min_radius: f64) -> Option<Focus> {
        let finite: Vec<&[f64; 3]> = points
            .iter()
            .filter(|p| p.iter().all(|c| c.is_finite()))
            .collect();
        if finite.is_empty() {
            return None;
        }
        let n = finite.len() as f64;
        let center = [0, 1, 2].map(|k| finite.iter().map(|p| p[k]).sum::<f64>() / n);
        let radius = finite
            .iter()
            .map(|p| {
                (0..3)
                    .map(|k| (p[k] - center[k]).powi(2))
                    .sum::<f64>()
                    .sqrt()
            })
            .fold(min_radius, f64::max);
        Some(Focus { center, radius })
    }
}

/// A body a family simulates beside the pipeline's rigid bodies (a BSP level, its walker, a
/// cloth sheet, a NURBS surface), as the camera frames it and the frame header counts it.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyBody {
    /// What it is, as the header counts it ("walker", "cloth sheet").
    pub kind: &'static str,
    pub focus: Focus,
}

impl FamilyBody {
    /// The body around `points` (none finite: no body).
    pub fn around(
        kind: &'static str,
        points: impl IntoIterator<Item = crate::geom::Point3>,
    ) -> Option<Self> {
        let points: Vec<[f64; 3]> = points.into_iter().map(|p| [p.x, p.y, p.z]).collect();
        Focus::around(&points, 0.05).map(|focus| Self { kind, focus })
    }
}

/// "1 BSP level, 1 walker": the kinds counted, in the order first met.
pub fn count_family_bodies(bodies: &[FamilyBody]) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for b in bodies {
        match counts.iter_mut().find(|(k, _)| *k == b.kind) {
            Some((_, n)) => *n += 1,
            None => counts.push((b.kind, 1)),
        }
    }
    counts
        .iter()
        .map(|(k, n)| {
            let s = if *n == 1 { "" } else { "s" };
            format!("{n} {k}{s}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One frame of a Ctrl + drag in the 3D view: the pointer's pick ray at the previous frame
/// and at this one (equal on the drag's first frame, `start`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drag {
    pub previous: crate::geom::Ray,
    pub now: crate::geom::Ray,
    pub start: bool,
}

/// A group of rows in the outliner.
#[derive(Clone, Debug, PartialEq)]
pub struct OutlinerGroup {
    pub title: String,
    pub rows: Vec<OutlinerRow>,
}

impl OutlinerGroup {
    /// Changes when anything shown changes (the outliner rebuilds its rows then).
    pub fn key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.title.hash(&mut h);
        for r in &self.rows {
            (&r.text, &r.hover, r.selected).hash(&mut h);
        }
        h.finish()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct OutlinerRow {
    pub text: String,
    pub hover: String,
    pub selected: bool,
    /// What clicking the row does.
    pub command: Command,
}

/// A mark on the timeline's event strip.
#[derive(Clone, Debug, PartialEq)]
pub struct EventMark {
    /// Index of the event in the frame's trace.
    pub event: usize,
    pub color: Rgba,
    pub text: String,
}

/// A View-menu entry.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewEntry {
    pub family: &'static str,
    pub title: &'static str,
    pub about: &'static str,
}

/// What a family may change to set up a screenshot.
pub struct ScreenshotSetup<'a> {
    pub state: &'a mut AppState,
    pub statics: &'a SceneStatics,
    pub settings: &'a mut Settings,
    pub camera: &'a mut OrbitCamera,
}

impl ScreenshotSetup<'_> {
    /// A `COLLIDOSCOPE_SCREENSHOT_*` variable, `None` when unset or empty.
    pub fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|v| !v.trim().is_empty())
    }

    /// The hooks' usual context, for reading.
    pub fn context(&self) -> FamilyContext<'_> {
        FamilyContext::new(self.state, self.statics)
    }
}

/// Which of the shell's per-frame measures a session's frames hold. A measure a family's
/// frames do not hold (a run captured from another engine sends no stage timings) is shown
/// as "not captured", never as zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Measured {
    /// Wall-clock time of each pipeline stage.
    pub stage_times: bool,
    /// Shape tests run by the narrow phase.
    pub narrow_tests: bool,
    /// Candidate pairs out of the broad phase.
    pub pairs: bool,
    pub contacts: bool,
    /// Masses, and so kinetic energy.
    pub masses: bool,
}

impl Measured {
    pub const ALL: Measured = Measured {
        stage_times: true,
        narrow_tests: true,
        pairs: true,
        contacts: true,
        masses: true,
    };

    /// Held by both.
    pub fn and(self, other: Measured) -> Measured {
        Measured {
            stage_times: self.stage_times && other.stage_times,
            narrow_tests: self.narrow_tests && other.narrow_tests,
            pairs: self.pairs && other.pairs,
            contacts: self.contacts && other.contacts,
            masses: self.masses && other.masses,
        }
    }
}

impl Default for Measured {
    fn default() -> Self {
        Self::ALL
    }
}

/// What a measure reads as: its value, or "not captured".
pub fn measured_or(held: bool, value: impl FnOnce() -> String) -> String {
    if held {
        value()
    } else {
        NOT_CAPTURED.to_string()
    }
}

/// How a measure the run's engine did not send reads, wherever it would be shown.
pub const NOT_CAPTURED: &str = "not captured";

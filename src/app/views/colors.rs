//! The viewer's colour language, the same in the viewport, the timeline and the panels.

use crate::app::viewport::draw_list::Rgba;
use crate::record::MarkerKind;
use crate::trace::{ShapeRole, Stage, TraceEvent, Verdict};

pub const SELECTION: Rgba = [1.0, 0.62, 0.1, 1.0];
pub const FIRST: Rgba = [0.25, 0.8, 1.0, 1.0];
pub const SECOND: Rgba = [1.0, 0.4, 0.85, 1.0];
pub const RESULT: Rgba = [1.0, 0.9, 0.25, 1.0];
pub const WARNING: Rgba = [1.0, 0.28, 0.22, 1.0];
pub const CONTACT: Rgba = [1.0, 0.85, 0.2, 1.0];
pub const NORMAL: Rgba = [0.35, 0.95, 0.45, 1.0];
/// Run B of a comparison: its ghost, its column, its marker.
pub const RUN_B: Rgba = [0.72, 0.45, 1.0, 1.0];
/// What differs between two compared runs: the bodies, the divergence marker.
pub const DIFFERS: Rgba = [1.0, 0.2, 0.3, 1.0];

pub fn role(role: ShapeRole) -> Rgba {
    match role {
        ShapeRole::First => FIRST,
        ShapeRole::Second => SECOND,
        ShapeRole::Result => RESULT,
    }
}

/// A role's colour as the verdict tints it: misses are muted, warnings red.
pub fn shape(role_: ShapeRole, verdict: Verdict) -> Rgba {
    match verdict {
        Verdict::Warning if role_ == ShapeRole::Result => WARNING,
        Verdict::Miss => mix(role(role_), [0.55, 0.55, 0.6, 1.0], 0.55),
        _ => role(role_),
    }
}

pub fn verdict(v: Verdict) -> Rgba {
    match v {
        Verdict::Hit => [0.3, 0.85, 0.4, 1.0],
        Verdict::Miss => [0.55, 0.57, 0.62, 1.0],
        Verdict::Info => [0.4, 0.6, 0.95, 1.0],
        Verdict::Warning => WARNING,
    }
}

pub fn stage(s: Stage) -> Rgba {
    match s {
        Stage::Integrate => [0.55, 0.6, 0.7, 1.0],
        Stage::BroadPhase => [0.3, 0.7, 1.0, 1.0],
        Stage::NarrowPhase => [1.0, 0.7, 0.25, 1.0],
        Stage::Response => [0.5, 0.9, 0.45, 1.0],
        Stage::FamilyStep => [0.7, 0.72, 0.78, 1.0],
    }
}

/// The colour of each family's events, as its view gives it
/// ([`FamilyView::color`](crate::app::families::FamilyView::color)); the events of a
/// family without a view (the pipeline's own) take their stage's colour.
#[derive(Clone, Debug, Default)]
pub struct EventPalette {
    families: Vec<(&'static str, Rgba)>,
}

impl EventPalette {
    pub fn new(families: Vec<(&'static str, Rgba)>) -> Self {
        Self { families }
    }

    pub fn event(&self, e: &TraceEvent) -> Rgba {
        let family = e.family();
        self.families
            .iter()
            .find(|(name, _)| *name == family)
            .map_or_else(|| stage(e.stage), |(_, c)| *c)
    }
}

/// A light, saturated colour that a name always gets (FNV-1a of its bytes picks the hue).
pub fn from_name(name: &str) -> Rgba {
    let hash = name.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    let hue = (hash % 360) as f32 / 60.0;
    let x = 1.0 - (hue % 2.0 - 1.0).abs();
    let (r, g, b) = match hue as u32 {
        0 => (1.0, x, 0.0),
        1 => (x, 1.0, 0.0),
        2 => (0.0, 1.0, x),
        3 => (0.0, x, 1.0),
        4 => (x, 0.0, 1.0),
        _ => (1.0, 0.0, x),
    };
    mix([r, g, b, 1.0], [1.0, 1.0, 1.0, 1.0], 0.35)
}

pub fn marker(kind: &MarkerKind) -> Rgba {
    match kind {
        MarkerKind::FirstContact => [0.3, 0.8, 1.0, 1.0],
        MarkerKind::DeepPenetration => [1.0, 0.55, 0.15, 1.0],
        MarkerKind::Divergence => [1.0, 0.2, 0.2, 1.0],
        MarkerKind::Other(_) => [0.85, 0.45, 1.0, 1.0],
    }
}

/// An audit check's colour: its markers on the timeline and its rows in the panel.
pub fn audit(check: crate::audit::Check) -> Rgba {
    use crate::audit::Check;
    match check {
        Check::MissedContact => [1.0, 0.25, 0.25, 1.0],
        Check::ApartContact => [0.45, 0.7, 1.0, 1.0],
        Check::Depth => [1.0, 0.6, 0.1, 1.0],
        Check::Normal => [1.0, 0.35, 0.9, 1.0],
        Check::Tunnelling => [0.7, 0.45, 1.0, 1.0],
        Check::NonFinite => [1.0, 0.1, 0.1, 1.0],
        Check::Exploding => [1.0, 0.95, 0.3, 1.0],
        Check::BroadMiss => [0.6, 0.85, 0.85, 1.0],
        Check::DeepPenetration => [0.95, 0.4, 0.2, 1.0],
    }
}

/// Our contact beside the engine's, in an audit finding.
pub const OURS: Rgba = [0.2, 0.9, 1.0, 1.0];
pub const ENGINE: Rgba = [1.0, 0.45, 0.1, 1.0];

pub fn mix(a: Rgba, b: Rgba, t: f32) -> Rgba {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
        a[3] + (b[3] - a[3]) * t,
    ]
}

pub fn with_alpha(c: Rgba, a: f32) -> Rgba {
    [c[0], c[1], c[2], a]
}

pub fn egui(c: Rgba) -> egui::Color32 {
    let u = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    egui::Color32::from_rgba_unmultiplied(u(c[0]), u(c[1]), u(c[2]), u(c[3]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::BroadEvent;
    use crate::frame::PipelineEvent;
    use crate::geom::{Aabb, Point3};

    fn pair() -> TraceEvent {
        let b = Aabb::new(Point3::origin(), Point3::new(1.0, 1.0, 1.0));
        TraceEvent::staged(
            Stage::NarrowPhase,
            Verdict::Hit,
            BroadEvent::BroadPair {
                a: 0,
                b: 1,
                box_a: b,
                box_b: b,
            },
        )
    }

    #[test]
    fn an_event_takes_its_family_colour_else_its_stage_colour() {
        let palette = EventPalette::new(vec![("broad phase", [0.1, 0.2, 0.3, 1.0])]);
        assert_eq!(pair().family(), "broad phase");
        assert_eq!(palette.event(&pair()), [0.1, 0.2, 0.3, 1.0]);
        let note = TraceEvent::staged(
            Stage::Response,
            Verdict::Info,
            PipelineEvent::Note {
                text: String::new(),
                points: vec![],
            },
        );
        assert_eq!(palette.event(&note), stage(Stage::Response));
    }

    #[test]
    fn a_name_always_gets_the_same_light_colour() {
        for name in ["bvh", "convex", "a family", ""] {
            let c = from_name(name);
            assert_eq!(c, from_name(name));
            assert!(c.iter().all(|v| (0.35..=1.0).contains(v)), "{name}: {c:?}");
        }
        assert_ne!(from_name("bvh"), from_name("bsp"));
    }
}

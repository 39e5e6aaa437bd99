//! The viewer's colour language, the same in the viewport, the timeline and the panels.

use crate::app::viewport::draw_list::Rgba;
use crate::record::MarkerKind;
use crate::trace::{ShapeRole, Stage, Verdict};

pub const SELECTION: Rgba = [1.0, 0.62, 0.1, 1.0];
pub const FIRST: Rgba = [0.25, 0.8, 1.0, 1.0];
pub const SECOND: Rgba = [1.0, 0.4, 0.85, 1.0];
pub const RESULT: Rgba = [1.0, 0.9, 0.25, 1.0];
pub const WARNING: Rgba = [1.0, 0.28, 0.22, 1.0];
pub const CONTACT: Rgba = [1.0, 0.85, 0.2, 1.0];
pub const NORMAL: Rgba = [0.35, 0.95, 0.45, 1.0];

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
        Stage::Bvh => [0.75, 0.5, 1.0, 1.0],
        Stage::Convex => [1.0, 0.45, 0.6, 1.0],
        Stage::Bsp => [0.35, 0.9, 0.85, 1.0],
        Stage::Nurbs => [0.95, 0.9, 0.35, 1.0],
        Stage::Cloth => [0.9, 0.55, 0.35, 1.0],
        Stage::Raycast => [0.6, 0.85, 0.3, 1.0],
    }
}

pub fn marker(kind: &MarkerKind) -> Rgba {
    match kind {
        MarkerKind::FirstContact => [0.3, 0.8, 1.0, 1.0],
        MarkerKind::DeepPenetration => [1.0, 0.55, 0.15, 1.0],
        MarkerKind::Divergence => [1.0, 0.2, 0.2, 1.0],
        MarkerKind::Other(_) => [0.85, 0.45, 1.0, 1.0],
    }
}

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

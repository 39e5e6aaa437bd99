//! The penetration-depth heatmap: each vertex's deepest collision ray, sized by the engine's
//! rule (`cloth::depth`), on a colour scale from "clear" to the frame's deepest vertex.

use super::recorded::{RayRow, Sheet};
use crate::app::families::FamilyContext;
use crate::app::viewport::draw_list::Rgba;
use crate::app::views::colors::mix;
use crate::cloth::classify::RayHitInfo;
use crate::cloth::depth::collision_depth_m;
use crate::cloth::{RayKind, Target};
use crate::geom::triangle::scaled_normal;

/// Per vertex, the deepest penetration its collision rays measured (0: none).
pub fn depths(cx: &FamilyContext, sheet: &Sheet, rays: &[RayRow]) -> Vec<f64> {
    let mut out = vec![0.0; sheet.positions.len()];
    let p = &sheet.statics.scene.params;
    let e = p.half_thickness_m;
    for r in rays.iter().filter(|r| r.kind == RayKind::Collision) {
        let (Some(tri), Some(dir)) = (r.triangle, sheet.direction(r)) else {
            continue;
        };
        let Some([a, b, c]) = sheet.triangle(cx, r.target, tri) else {
            continue;
        };
        let Some(normal) = scaled_normal(a, b, c).try_normalize(1e-300) else {
            continue;
        };
        let clearance = match r.target {
            Target::Rigid(_) => e,
            Target::Cloth(_) => 2.0 * e,
        };
        let hit = RayHitInfo {
            triangle: tri,
            t: r.t as f64,
            normal,
            dir,
        };
        let closed = sheet.target_closed(r.target);
        let d = collision_depth_m(&hit, clearance, e, closed, p.switches.reprojection);
        if let Some(slot) = out.get_mut(r.vertex as usize)
            && d.is_finite()
            && d > *slot
        {
            *slot = d;
        }
    }
    out
}

/// The top of the scale: the frame's deepest vertex, at least the shell's full thickness so
/// that a frame of grazing contacts does not look alarming.
pub fn scale_max(depths: &[f64], half_thickness_m: f64) -> f64 {
    depths
        .iter()
        .copied()
        .filter(|d| d.is_finite())
        .fold(2.0 * half_thickness_m, f64::max)
}

/// Slate for no penetration, through cyan to white at the top of the scale: kept apart from
/// the rays' red and green and from the inversions' magenta and yellow.
const STOPS: [Rgba; 3] = [
    [0.30, 0.38, 0.55, 1.0],
    [0.15, 0.75, 0.85, 1.0],
    [0.97, 0.97, 1.0, 1.0],
];

pub fn color(depth: f64, max: f64) -> Rgba {
    color_from(STOPS[0], depth, max)
}

/// The scale with `clear` as its bottom colour (a cloth of several sheets starts each
/// sheet's scale at its own tint, so the sheets stay apart where nothing penetrates).
pub fn color_from(clear: Rgba, depth: f64, max: f64) -> Rgba {
    let x = if max > 0.0 {
        (depth / max).clamp(0.0, 1.0) as f32
    } else {
        0.0
    };
    if x < 0.5 {
        mix(clear, STOPS[1], x * 2.0)
    } else {
        mix(STOPS[1], STOPS[2], x * 2.0 - 1.0)
    }
}

/// The colour scale as a bar with its ends and middle labelled in millimetres.
pub fn legend(ui: &mut egui::Ui, max: f64) {
    scale_bar(
        ui,
        format!("0 … {:.1} … {:.1} mm", max * 500.0, max * 1000.0),
    );
}

/// The colour scale as a bar, bottom to top, and its `caption`.
pub fn scale_bar(ui: &mut egui::Ui, caption: String) {
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(160.0, 12.0), egui::Sense::hover());
        let steps = 32;
        for k in 0..steps {
            let x0 = rect.left() + rect.width() * k as f32 / steps as f32;
            let x1 = rect.left() + rect.width() * (k + 1) as f32 / steps as f32;
            let c = color((k as f64 + 0.5) / steps as f64, 1.0);
            ui.painter().rect_filled(
                egui::Rect::from_min_max(egui::pos2(x0, rect.top()), egui::pos2(x1, rect.bottom())),
                0.0,
                crate::app::views::colors::egui(c),
            );
        }
        ui.label(egui::RichText::new(caption).small());
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_runs_from_slate_to_white_and_clamps() {
        assert_eq!(color(0.0, 0.02), STOPS[0]);
        assert_eq!(color(0.02, 0.02), STOPS[2]);
        assert_eq!(color(1.0, 0.02), STOPS[2]);
        assert_eq!(color(-1.0, 0.02), STOPS[0]);
        assert_eq!(color(0.01, 0.02), STOPS[1]);
    }

    #[test]
    fn a_tinted_scale_starts_at_its_tint_and_ends_white() {
        let tint = [0.6, 0.4, 0.2, 1.0];
        assert_eq!(color_from(tint, 0.0, 0.02), tint);
        assert_eq!(color_from(tint, 0.01, 0.02), STOPS[1]);
        assert_eq!(color_from(tint, 0.05, 0.02), STOPS[2]);
    }

    #[test]
    fn the_scale_top_is_at_least_the_full_thickness() {
        assert_eq!(scale_max(&[0.0, 0.001], 0.01), 0.02);
        assert_eq!(scale_max(&[0.0, 0.05, f64::INFINITY], 0.01), 0.05);
    }
}

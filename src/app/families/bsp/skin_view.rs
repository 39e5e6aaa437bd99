//! The skin close-up: a hit's plane seen edge on and magnified until `MIN_DISTANCE` fills the
//! plot. In the 3D view the skin is a hundredth of a unit thick beside a level tens of units
//! wide; here the move's line crosses the touch plane (the wall pushed out by the shape's
//! offset) and stops on the plane `MIN_DISTANCE` in front of it, where the slide leaves the
//! shape's centre (spec 001 §8.4).

use super::level::{Level, basis};
use super::log::Iteration;
use crate::bsp::MIN_DISTANCE;
use crate::geom::{Plane, Point3, Vec3};
use egui::{Color32, RichText, Ui};

/// A point of the close-up: how far along the wall from the touch point, and how far in front
/// of the touch plane.
pub type SidePoint = [f64; 2];

/// One hit iteration seen edge on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkinProfile {
    pub start: SidePoint,
    pub target: SidePoint,
    /// Where the centre touches the wall: height 0 by construction of the fraction.
    pub touch: SidePoint,
    /// Where the slide stopped it: `MIN_DISTANCE` high after a forward stop.
    pub stop: SidePoint,
}

impl SkinProfile {
    /// The move from `start` by `remaining`, touching at `frac_real` and stopped at
    /// `frac_impact`, against `plane` pushed out by `offset`.
    pub fn new(
        start: Point3,
        remaining: Vec3,
        (frac_real, frac_impact): (f64, f64),
        plane: &Plane,
        offset: f64,
    ) -> SkinProfile {
        let n = plane.normal;
        let touch = start + remaining * frac_real;
        let along = remaining - n * n.dot(&remaining);
        let u = along.try_normalize(1e-12).unwrap_or_else(|| basis(&n).0);
        let side = |p: Point3| [(p - touch).dot(&u), n.dot(&p.coords) - plane.d - offset];
        SkinProfile {
            start: side(start),
            target: side(start + remaining),
            touch: side(touch),
            stop: side(start + remaining * frac_impact),
        }
    }

    pub fn of(it: &Iteration, level: &Level) -> Option<SkinProfile> {
        let (b, p) = it.hit?;
        let plane = level.plane(b, p)?;
        let offset = level.shape.offset(&plane.normal);
        Some(SkinProfile::new(
            it.start,
            it.remaining,
            (it.frac_real, it.frac_impact),
            &plane,
            offset,
        ))
    }

    /// The window drawn: heights a few skins either side, and as long along the wall as the
    /// move takes to cross them (at least as wide as high).
    fn window(&self) -> ([f64; 2], [f64; 2]) {
        let (lo, hi) = (-3.0 * MIN_DISTANCE, 6.0 * MIN_DISTANCE);
        let dh = self.target[1] - self.start[1];
        let dt = self.target[0] - self.start[0];
        let run = if dh.abs() > 1e-15 {
            (dt / dh).abs() * (hi - lo)
        } else {
            0.0
        };
        let half = run.max(hi - lo).min(1e3);
        let centre = self.stop[0];
        ([centre - half, centre + half], [lo, hi])
    }

    /// The part of the move inside the window, as a polyline.
    fn move_in_window(&self) -> Vec<[f64; 2]> {
        let ([x0, x1], [y0, y1]) = self.window();
        let (a, b) = (self.start, self.target);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for k in 0..2 {
            let (lo, hi) = if k == 0 { (x0, x1) } else { (y0, y1) };
            let d = b[k] - a[k];
            if d.abs() < 1e-300 {
                if a[k] < lo || a[k] > hi {
                    return Vec::new();
                }
                continue;
            }
            let (ta, tb) = ((lo - a[k]) / d, (hi - a[k]) / d);
            t0 = t0.max(ta.min(tb));
            t1 = t1.min(ta.max(tb));
        }
        if t0 > t1 {
            return Vec::new();
        }
        let at = |t: f64| [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
        vec![at(t0), at(t1)]
    }

    /// One line under the plot: the stop's height against `MIN_DISTANCE`.
    pub fn caption(&self) -> String {
        if self.start[1] < 0.0 {
            format!(
                "The move starts {:.4} behind the touch plane (inside the skin's wall side): \
                 the stop fraction is negative and the centre is put {:.4} in front.",
                -self.start[1],
                self.stop[1]
            )
        } else {
            format!(
                "Stopped {:.4} in front of the touch plane (MIN_DISTANCE = {MIN_DISTANCE}); \
                 the centre would touch the wall {:.4} further on.",
                self.stop[1],
                (self.touch[0] - self.stop[0]).hypot(self.touch[1] - self.stop[1])
            )
        }
    }
}

const TOUCH: Color32 = Color32::from_rgb(150, 200, 200);
const SKIN: Color32 = Color32::from_rgb(77, 255, 242);

pub fn show(ui: &mut Ui, it: &Iteration, level: &Level) {
    let Some(p) = SkinProfile::of(it, level) else {
        ui.label(format!(
            "Iteration {}: a free move, no wall to show.",
            it.index + 1
        ));
        return;
    };
    let ([x0, x1], [y0, y1]) = p.window();
    egui_plot::Plot::new(("bsp-skin", it.event))
        .height(150.0)
        .allow_scroll(false)
        .allow_drag(false)
        .include_x(x0)
        .include_x(x1)
        .include_y(y0)
        .include_y(y1)
        .x_axis_label("along the wall")
        .y_axis_label("in front of the touch plane")
        .show(ui, |plot| {
            plot.hline(egui_plot::HLine::new("touch plane", 0.0).color(TOUCH));
            plot.hline(egui_plot::HLine::new("MIN_DISTANCE", MIN_DISTANCE).color(SKIN));
            let moved = p.move_in_window();
            if !moved.is_empty() {
                plot.line(egui_plot::Line::new("move asked", moved).color(Color32::GRAY));
            }
            plot.points(
                egui_plot::Points::new("touch", vec![p.touch])
                    .radius(4.0)
                    .color(TOUCH),
            );
            plot.points(
                egui_plot::Points::new("stop", vec![p.stop])
                    .radius(5.0)
                    .color(SKIN),
            );
        });
    ui.label(RichText::new(p.caption()).small());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wall() -> Plane {
        Plane::new(Vec3::new(0.0, 0.0, 1.0), 2.0).expect("a plane")
    }

    /// A move down onto z = 2 with a 0.5 offset: it touches at z = 2.5 and, by the engine's
    /// fraction, stops at 2.5 + MIN_DISTANCE; the profile reads both heights.
    #[test]
    fn heights_are_measured_from_the_touch_plane() {
        let start = Point3::new(0.0, 0.0, 4.5);
        let remaining = Vec3::new(3.0, 0.0, -4.0);
        let (d1, d2) = (2.0, -2.0);
        let frac_real = d1 / (d1 - d2);
        let frac_impact = (d1 - MIN_DISTANCE) / (d1 - d2);
        let p = SkinProfile::new(start, remaining, (frac_real, frac_impact), &wall(), 0.5);
        assert!((p.touch[1]).abs() < 1e-12 && p.touch[0] == 0.0, "{p:?}");
        assert!((p.stop[1] - MIN_DISTANCE).abs() < 1e-12, "{p:?}");
        assert!((p.start[1] - 2.0).abs() < 1e-12 && (p.target[1] + 2.0).abs() < 1e-12);
        // Along the wall, the stop is short of the touch by the move's slope times the skin.
        assert!((p.stop[0] + 0.75 * MIN_DISTANCE).abs() < 1e-12, "{p:?}");
        assert!(p.caption().starts_with("Stopped 0.0100 in front"), "{}", p.caption());
        // The line drawn is the move clipped to the window, and it crosses both planes.
        let line = p.move_in_window();
        assert_eq!(line.len(), 2);
        let ([x0, x1], [y0, y1]) = p.window();
        for q in &line {
            assert!(q[0] >= x0 - 1e-12 && q[0] <= x1 + 1e-12);
            assert!(q[1] >= y0 - 1e-12 && q[1] <= y1 + 1e-12);
        }
        assert!(line[0][1] > MIN_DISTANCE && line[1][1] < 0.0);
    }

    /// Head-on the move has no direction along the wall; a start behind the touch plane says
    /// so instead of a stop height.
    #[test]
    fn head_on_and_behind_the_wall_read_too() {
        let start = Point3::new(1.0, 1.0, 2.49);
        let remaining = Vec3::new(0.0, 0.0, -1.0);
        let p = SkinProfile::new(start, remaining, (-0.01, -0.02), &wall(), 0.5);
        assert!(p.start[1] < 0.0 && p.start[0] == 0.0);
        assert!(p.caption().contains("behind the touch plane"), "{}", p.caption());
        assert!(p.window().0[1] > p.window().0[0]);
    }
}

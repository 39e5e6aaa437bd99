//! The ground grid (y = 0, the engine's up axis being +y) and the world axes.

use super::{AlgorithmView, ViewContext};
use crate::app::viewport::draw_list::DrawList;

pub struct SceneGuides;

/// A "nice" grid step (1, 2 or 5 times a power of ten) for a scene of this radius.
pub fn grid_step(radius: f64) -> f64 {
    let raw = (radius / 10.0).max(1e-3);
    let p = 10f64.powf(raw.log10().floor());
    let m = raw / p;
    p * if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    }
}

impl AlgorithmView for SceneGuides {
    fn name(&self) -> &'static str {
        "guides"
    }

    fn draw(&self, ctx: &ViewContext, out: &mut DrawList) {
        let radius = ctx.scene_radius.clamp(1.0, 1e5);
        let step = grid_step(radius);
        let n = ((radius * 1.2) / step).ceil().min(200.0) as i32;
        let extent = (n as f64 * step) as f32;
        if ctx.options.grid {
            for i in -n..=n {
                let x = (i as f64 * step) as f32;
                let major = i % 5 == 0;
                let c = if major {
                    [0.5, 0.52, 0.58, 0.55]
                } else {
                    [0.45, 0.47, 0.52, 0.28]
                };
                if i != 0 || !ctx.options.axes {
                    out.line([x, 0.0, -extent], [x, 0.0, extent], c);
                    out.line([-extent, 0.0, x], [extent, 0.0, x], c);
                }
            }
        }
        if ctx.options.axes {
            let a = extent;
            out.line([-a, 0.0, 0.0], [a, 0.0, 0.0], [0.9, 0.3, 0.3, 0.8]);
            out.line([0.0, 0.0, -a], [0.0, 0.0, a], [0.3, 0.5, 0.95, 0.8]);
            out.line(
                [0.0, 0.0, 0.0],
                [0.0, (step * 2.0) as f32, 0.0],
                [0.35, 0.85, 0.35, 0.9],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_steps_are_round_numbers() {
        assert_eq!(grid_step(10.0), 1.0);
        assert_eq!(grid_step(30.0), 2.0);
        assert_eq!(grid_step(60.0), 5.0);
        assert!((grid_step(0.5) - 0.05).abs() < 1e-12);
    }
}

//! The inset's camera: A − B turned to a tilt the reader drags, and scaled to fill the inset.

use crate::geom::{Real, Vec3};
use egui::{Pos2, Rect, Vec2};

/// The default tilt: a little from the side and from above, so that a tetrahedron reads as
/// one.
pub const YAW: f32 = 0.6;
pub const PITCH: f32 = 0.4;

pub struct Projection {
    yaw: Real,
    pitch: Real,
    scale: f32,
    centre: Pos2,
    mid: (f32, f32),
}

impl Projection {
    /// The default tilt turned by `turn`, scaled so that `points` fill `rect` with room for
    /// labels at the edges; with the framed size (the larger side before scaling).
    pub fn fit(rect: Rect, turn: [f32; 2], points: &[Vec3]) -> (Self, Real) {
        let mut proj = Projection {
            yaw: (YAW + turn[0]) as Real,
            pitch: (PITCH + turn[1]) as Real,
            scale: 1.0,
            centre: rect.center() + Vec2::new(0.0, 8.0),
            mid: (0.0, 0.0),
        };
        let (mut lo, mut hi) = ((f32::MAX, f32::MAX), (f32::MIN, f32::MIN));
        for p in points {
            let (x, y) = proj.turn(p);
            lo = (lo.0.min(x), lo.1.min(y));
            hi = (hi.0.max(x), hi.1.max(y));
        }
        let (dx, dy) = ((hi.0 - lo.0).max(1e-6), (hi.1 - lo.1).max(1e-6));
        proj.scale = ((rect.width() - 80.0) / dx).min((rect.height() - 70.0) / dy);
        proj.mid = ((lo.0 + hi.0) / 2.0, (lo.1 + hi.1) / 2.0);
        (proj, dx.max(dy) as Real)
    }

    fn turn(&self, p: &Vec3) -> (f32, f32) {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        let x = cy * p.x + sy * p.z;
        let z = -sy * p.x + cy * p.z;
        let y = cp * p.y - sp * z;
        (x as f32, -y as f32)
    }

    /// Where a point of A − B is in the inset.
    pub fn at(&self, p: &Vec3) -> Pos2 {
        let (x, y) = self.turn(p);
        self.centre + Vec2::new(x - self.mid.0, y - self.mid.1) * self.scale
    }
}

//! The paddle ("disque", thesis §2.4.4, spec 003 §2.16.3): a sphere cut by a plane (Eq. 3,
//! an intersection although the thesis calls it a union), at a fixed depth in front of the
//! open side. It bounces a ball only forward (toward the board), with the normal of the point
//! of the paddle nearest the ball: "like a wall" at the centre, deflected more toward the rim
//! (Fig. 2.26).
//!
//! Our axes: the board fills z 0–10 and the open side is at the box's top, so the paddle's
//! forward is −z (the thesis' +Z). The paddle is the cap `|p − c| ≤ R ∧ z ≤ plane_z`, with the
//! sphere's centre `c` behind the plane so that the cap bulges `cap_height` toward the board.
//! No player: the paddle follows a script (it moves toward the ball coming at it).

use super::board::SIDE;
use crate::geom::{Point3, Real, Vec3};
use serde::{Deserialize, Serialize};

/// A paddle as a scene gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PaddleDesc {
    /// The cutting plane (the paddle's flat back), `z = plane_z`.
    pub plane_z: Real,
    /// The cut sphere's radius `R_c`.
    pub sphere_radius: Real,
    /// How far the cap bulges from the plane toward the board (at most `sphere_radius`).
    pub cap_height: Real,
    /// The centre's `(x, y)` at the start.
    pub start: [Real; 2],
    /// The script: the centre moves toward the `(x, y)` of the ball coming at it at most this
    /// fast (units per second).
    pub speed: Real,
}

/// How far past a side wall the paddle's disc may go, as a share of its radius (the thesis'
/// "about 30%", for playability).
pub const OVERSHOOT: Real = 0.3;

impl PaddleDesc {
    /// The radius of the flat disc where the plane cuts the sphere.
    pub fn disc_radius(&self) -> Real {
        let d = self.sphere_radius - self.cap_height;
        (self.sphere_radius * self.sphere_radius - d * d)
            .max(0.0)
            .sqrt()
    }

    /// The cut sphere's centre for the paddle at `(x, y)`: behind the plane.
    pub fn sphere_centre(&self, at: [Real; 2]) -> Point3 {
        Point3::new(
            at[0],
            at[1],
            self.plane_z + self.sphere_radius - self.cap_height,
        )
    }

    /// The point of the paddle (the cap, a convex solid) nearest `p`; `p` itself inside.
    pub fn closest_point(&self, at: [Real; 2], p: &Point3) -> Point3 {
        let c = self.sphere_centre(at);
        let d = p - c;
        if d.norm() <= self.sphere_radius && p.z <= self.plane_z {
            return *p;
        }
        // The nearest point is on the spherical part (the radial projection, when it lies on
        // the cap's side of the plane) or on the flat disc (the projection clamped to the
        // disc, rim included): the nearer of the candidates.
        let mut on_disc = Point3::new(p.x, p.y, self.plane_z);
        let off = Vec3::new(p.x - c.x, p.y - c.y, 0.0);
        let rho = self.disc_radius();
        if off.norm() > rho {
            on_disc = Point3::new(c.x, c.y, self.plane_z) + off * (rho / off.norm());
        }
        let mut best = on_disc;
        if d.norm() > 0.0 {
            let radial = c + d * (self.sphere_radius / d.norm());
            if radial.z <= self.plane_z && (radial - p).norm() < (best - p).norm() {
                best = radial;
            }
        }
        best
    }

    /// The scripted motion over `dt_s`: toward `target` at most `speed · dt_s`, the centre
    /// kept where the disc crosses a side wall by at most [`OVERSHOOT`] of its radius.
    pub fn follow(&self, at: [Real; 2], target: [Real; 2], dt_s: Real) -> [Real; 2] {
        let (dx, dy) = (target[0] - at[0], target[1] - at[1]);
        let dist = (dx * dx + dy * dy).sqrt();
        let step = self.speed * dt_s;
        let k = if dist > step && dist > 0.0 {
            step / dist
        } else {
            1.0
        };
        let margin = (1.0 - OVERSHOOT) * self.disc_radius();
        let (lo, hi) = (
            margin.min(SIDE as Real / 2.0),
            (SIDE as Real - margin).max(SIDE as Real / 2.0),
        );
        [
            (at[0] + dx * k).clamp(lo, hi),
            (at[1] + dy * k).clamp(lo, hi),
        ]
    }

    /// Checks untrusted data; the error names the field.
    pub fn validate(&self, height: Real) -> Result<(), String> {
        let finite = |v: Real| v.is_finite();
        if !(finite(self.sphere_radius) && self.sphere_radius > 0.0 && self.sphere_radius <= 10.0) {
            return Err(format!(
                "paddle.sphere_radius: {} is not in (0, 10]",
                self.sphere_radius
            ));
        }
        if !(finite(self.cap_height)
            && self.cap_height > 0.0
            && self.cap_height <= self.sphere_radius)
        {
            return Err(format!(
                "paddle.cap_height: {} is not in (0, sphere_radius = {}]",
                self.cap_height, self.sphere_radius
            ));
        }
        let lowest = SIDE as Real + self.cap_height;
        if !(finite(self.plane_z) && self.plane_z > lowest && self.plane_z <= height) {
            return Err(format!(
                "paddle.plane_z: {} is not in ({lowest}, height = {height}]: the cap must stay \
                 in front of the board",
                self.plane_z
            ));
        }
        if !(finite(self.speed) && (0.0..=1.0e3).contains(&self.speed)) {
            return Err(format!("paddle.speed: {} is not in [0, 1000]", self.speed));
        }
        if !self
            .start
            .iter()
            .all(|c| c.is_finite() && (0.0..=SIDE as Real).contains(c))
        {
            return Err(format!(
                "paddle.start: {:?} is not inside [0, {SIDE}]²",
                self.start
            ));
        }
        Ok(())
    }
}

/// A ball's bounce off the paddle: the nearest point of the paddle and the normal there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaddleHit {
    pub point: Point3,
    pub normal: Vec3,
    pub velocity: Vec3,
}

/// The paddle against one ball (the cap inflated by the ball's radius): a hit only when the
/// ball is within `r` of the paddle and moves toward the open side (a ball moving toward
/// the board is never tested: the paddle bounces only forward) and toward the paddle's normal
/// there. The velocity is reflected
/// about the normal and, should a rim hit leave it still heading back, sent forward.
pub fn collide(
    paddle: &PaddleDesc,
    at: [Real; 2],
    p: &Point3,
    v: &Vec3,
    r: Real,
) -> Option<PaddleHit> {
    if v.z <= 0.0 {
        return None;
    }
    let q = paddle.closest_point(at, p);
    let gap = p - q;
    if gap.norm() > r {
        return None;
    }
    // Inside the paddle (it jumped onto the ball): the sphere's normal, or straight forward.
    let raw = if gap.norm() > 1e-12 {
        gap
    } else {
        p - paddle.sphere_centre(at)
    };
    let n = if raw.norm() > 1e-12 && raw.z < 0.0 {
        raw.normalize()
    } else {
        -Vec3::z()
    };
    // Beside the rim and already leaving it: nothing to bounce.
    if v.dot(&n) >= 0.0 {
        return None;
    }
    let mut out = v - n * (2.0 * v.dot(&n));
    if out.z >= 0.0 {
        out.z = -out.z.abs().max(1e-9 * v.norm());
        out = out.normalize() * v.norm();
    }
    Some(PaddleHit {
        point: q,
        normal: n,
        velocity: out,
    })
}

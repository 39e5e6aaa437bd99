//! The damped spring of Annex I.3: two attach points in the bodies' frames, a rest length,
//! a stiffness and a damping; the force on both ends and the torques it makes.

use super::rigid::RigidState;
use crate::geom::{Point3, Vec3};
use serde::{Deserialize, Serialize};

/// A spring between body `a` and body `b`, or a fixed world point when `b` is `None` (how the
/// thesis' sheet hangs). Attach points are in the body's own frame, the frame its surfaces'
/// control points are given in; for `b == None`, `attach_b` is a world point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NurbsSpring {
    pub a: usize,
    pub b: Option<usize>,
    pub attach_a: Point3,
    pub attach_b: Point3,
    pub rest: f64,
    pub stiffness: f64,
    pub damping: f64,
}

/// What a spring does to its ends this instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringPull {
    /// World attach points.
    pub end_a: Point3,
    pub end_b: Point3,
    /// Force on `a` (`b` takes its opposite).
    pub force: Vec3,
    pub torque_a: Vec3,
    pub torque_b: Vec3,
}

/// `F = (k_s (|Δp| − ℓ) + k_d (Δv·Δp)/|Δp|) Δp/|Δp|` on end 1, `−F` on end 2, with
/// `Δp = p₂ − p₁`, `Δv = v₂ − v₁` (the digest's reading of the garbled print: it pulls the
/// ends together when stretched or separating). The attach points are body-frame points
/// measured from the centre of mass; `b` is `None` for a fixed world end at `end_b`.
pub fn spring_pull(
    a: &RigidState,
    local_a: &Point3,
    b: Option<(&RigidState, &Point3)>,
    world_b: &Point3,
    rest: f64,
    stiffness: f64,
    damping: f64,
) -> SpringPull {
    let end_a = a.world_point(local_a);
    let (end_b, vel_b) = match b {
        Some((s, local)) => {
            let p = s.world_point(local);
            (p, s.point_velocity(&p))
        }
        None => (*world_b, Vec3::zeros()),
    };
    let dp = end_b - end_a;
    let len = dp.norm();
    let force = if len > 1e-12 {
        let dv = vel_b - a.point_velocity(&end_a);
        let dir = dp / len;
        dir * (stiffness * (len - rest) + damping * dv.dot(&dir))
    } else {
        // Coincident ends: no direction to pull along.
        Vec3::zeros()
    };
    SpringPull {
        end_a,
        end_b,
        force,
        torque_a: (end_a - a.x).cross(&force),
        torque_b: b.map_or(Vec3::zeros(), |(s, _)| (end_b - s.x).cross(&-force)),
    }
}

/// The spring's stored energy `½ k_s (|Δp| − ℓ)²`.
pub fn spring_energy(pull: &SpringPull, rest: f64, stiffness: f64) -> f64 {
    let stretch = (pull.end_b - pull.end_a).norm() - rest;
    0.5 * stiffness * stretch * stretch
}

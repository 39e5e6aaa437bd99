//! Motions rebuilt from a recording's body states: what the viewer draws a continuous-
//! collision event's ghosts with, from the frames alone.

use super::motion::Motion;
use crate::frame::BodyState;
use crate::geom::{Pose, Quat, Real, Vec3};

fn pose_of(s: &BodyState) -> Pose {
    Pose::from_parts(s.position.coords.into(), s.rotation)
}

/// The pose of a body at fraction `t` between two recorded states of it (the previous
/// frame's and this frame's): the ghost the viewer draws for a continuous-collision event.
pub fn ghost_pose(start: &BodyState, end: &BodyState, t: Real) -> Pose {
    Motion::new(pose_of(start), pose_of(end)).at(t.clamp(0.0, 1.0))
}

/// The motion the integrator gives a free body over one step from a recorded state
/// (semi-implicit Euler: velocity first, then position; the same formula as
/// `dynamics::integrate`). Time-of-impact events speak of fractions of this motion, so the
/// viewer rebuilds their ghost poses from the previous frame alone.
pub fn integrated_motion(start: &BodyState, gravity: &Vec3, dt_s: Real, fixed: bool) -> Motion {
    let from = pose_of(start);
    if fixed {
        return Motion::stationary(from);
    }
    let v = start.linear_velocity + gravity * dt_s;
    let w = start.angular_velocity;
    let q = start.rotation.into_inner();
    let dq = nalgebra::Quaternion::new(0.0, w.x, w.y, w.z) * q * (0.5 * dt_s);
    let to = Pose::from_parts(
        (start.position.coords + v * dt_s).into(),
        Quat::new_normalize(q + dq),
    );
    Motion::new(from, to)
}

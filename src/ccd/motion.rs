//! A body's motion over one step as continuous collision sees it: the centre moves on a
//! straight line and the orientation turns at constant speed along the shortest arc. Both
//! ends are recorded states, so any pose in between (a ghost) is derived, never recorded.

use crate::geom::{Point3, Pose, Quat, Real, Vec3};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    pub start: Pose,
    pub end: Pose,
}

impl Motion {
    pub fn new(start: Pose, end: Pose) -> Self {
        Self { start, end }
    }

    pub fn stationary(pose: Pose) -> Self {
        Self::new(pose, pose)
    }

    /// The pose at fraction `t` of the step (0 = start, 1 = end).
    pub fn at(&self, t: Real) -> Pose {
        let c0 = self.start.translation.vector;
        let c1 = self.end.translation.vector;
        let rotation = slerp(&self.start.rotation, &self.end.rotation, t);
        Pose::from_parts((c0 + (c1 - c0) * t).into(), rotation)
    }

    pub fn displacement(&self) -> Vec3 {
        self.end.translation.vector - self.start.translation.vector
    }

    /// The angle turned over the whole motion, in radians.
    pub fn angle(&self) -> Real {
        self.start.rotation.angle_to(&self.end.rotation)
    }

    /// How far a point within `rim` of the centre can move over the whole motion: the bound
    /// on the speed (per unit of `t`) that conservative advancement divides by.
    pub fn reach(&self, rim: Real) -> Real {
        self.displacement().norm() + self.angle() * rim
    }

    /// The part of the motion from `t` to 1, as a motion of its own.
    pub fn rest_from(&self, t: Real) -> Motion {
        Motion::new(self.at(t), self.end)
    }
}

/// Constant angular speed along the shortest arc; nearly equal rotations (where slerp's
/// division becomes unstable) interpolate linearly, which is then exact to rounding.
fn slerp(a: &Quat, b: &Quat, t: Real) -> Quat {
    a.try_slerp(b, t, 1e-9).unwrap_or_else(|| a.nlerp(b, t))
}

/// Where a body at `from` is after `dt` seconds at velocities `v`, `w` (the same integration
/// as the step's).
pub fn ahead(from: &Pose, v: &Vec3, w: &Vec3, dt: Real) -> Pose {
    let q = from.rotation.into_inner();
    let dq = nalgebra::Quaternion::new(0.0, w.x, w.y, w.z) * q * (0.5 * dt);
    Pose::from_parts(
        (from.translation.vector + v * dt).into(),
        Quat::new_normalize(q + dq),
    )
}

/// The centre of a pose, as a point.
pub fn centre(pose: &Pose) -> Point3 {
    pose.translation.vector.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_are_exact_and_the_middle_turns_half_the_angle() {
        let a = Pose::from_parts(
            Vec3::new(1.0, 2.0, 3.0).into(),
            Quat::from_scaled_axis(Vec3::new(0.0, 0.3, 0.0)),
        );
        let b = Pose::from_parts(
            Vec3::new(3.0, 2.0, -1.0).into(),
            Quat::from_scaled_axis(Vec3::new(0.0, 1.3, 0.0)),
        );
        let m = Motion::new(a, b);
        assert!((m.at(0.0).translation.vector - a.translation.vector).norm() < 1e-12);
        assert!((m.at(1.0).translation.vector - b.translation.vector).norm() < 1e-12);
        assert!(m.at(1.0).rotation.angle_to(&b.rotation) < 1e-9);
        assert!((m.at(0.5).rotation.angle_to(&a.rotation) - 0.5).abs() < 1e-9);
        assert!((m.angle() - 1.0).abs() < 1e-9);
        // Reach bounds how far any point within the rim moves between any two times.
        let rim = 2.0;
        let p = Vec3::new(0.0, 0.0, rim);
        let mut last = m.at(0.0) * Point3::from(p);
        for i in 1..=100 {
            let t = i as f64 / 100.0;
            let now = m.at(t) * Point3::from(p);
            assert!((now - last).norm() <= m.reach(rim) / 100.0 + 1e-12);
            last = now;
        }
    }
}

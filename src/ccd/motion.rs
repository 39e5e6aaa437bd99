//! A body's motion over one step as continuous collision sees it: the centre moves on a
//! straight line and the orientation turns at constant speed along the shortest arc. Both
//! ends are recorded states, so any pose in between (a ghost) is derived, never recorded.

use crate::geom::{Point3, Pose, Quat, Real, Vec3};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    pub start: Pose,
    pub end: Pose,
    /// The turn from start to end, worked out once: advancement asks for many poses of one
    /// motion, and each would otherwise pay for its own arc cosine.
    turn: Turn,
    angle: Real,
}

/// How the orientation goes from start to end (the cases of nalgebra's `try_slerp`, whose
/// results [`Motion::at`] reproduces bit for bit).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Turn {
    /// The same orientation at both ends.
    Still,
    /// Too slight a turn for slerp's division: interpolated linearly, exact to rounding.
    Slight,
    /// Along the shortest arc to `to` (the end, negated when that is shorter), of half-angle
    /// `half` whose sine is `sin_half`.
    Arc {
        to: Quat,
        half: Real,
        sin_half: Real,
    },
}

impl Turn {
    fn between(a: &Quat, b: &Quat) -> Self {
        let to = if a.coords.dot(&b.coords) < 0.0 {
            Quat::new_unchecked(-b.into_inner())
        } else {
            *b
        };
        let cos_half = a.coords.dot(&to.coords);
        if cos_half >= 1.0 {
            return Turn::Still;
        }
        let half = cos_half.acos();
        let sin_half = (1.0 - cos_half * cos_half).sqrt();
        if sin_half.abs() <= SLERP_EPSILON {
            return Turn::Slight;
        }
        Turn::Arc { to, half, sin_half }
    }
}

/// Below this sine of the half-angle, slerp's division is unstable.
const SLERP_EPSILON: Real = 1e-9;

impl Motion {
    pub fn new(start: Pose, end: Pose) -> Self {
        Self {
            start,
            end,
            turn: Turn::between(&start.rotation, &end.rotation),
            angle: start.rotation.angle_to(&end.rotation),
        }
    }

    pub fn stationary(pose: Pose) -> Self {
        Self::new(pose, pose)
    }

    /// The pose at fraction `t` of the step (0 = start, 1 = end): constant angular speed
    /// along the shortest arc.
    pub fn at(&self, t: Real) -> Pose {
        let c0 = self.start.translation.vector;
        let c1 = self.end.translation.vector;
        let (a, b) = (&self.start.rotation, &self.end.rotation);
        let rotation = match self.turn {
            Turn::Still => *a,
            Turn::Slight => a.nlerp(b, t),
            Turn::Arc { to, half, sin_half } => {
                let ta = ((1.0 - t) * half).sin() / sin_half;
                let tb = (t * half).sin() / sin_half;
                Quat::new_unchecked((a.into_inner() * ta) + (to.into_inner() * tb))
            }
        };
        Pose::from_parts((c0 + (c1 - c0) * t).into(), rotation)
    }

    pub fn displacement(&self) -> Vec3 {
        self.end.translation.vector - self.start.translation.vector
    }

    /// The angle turned over the whole motion, in radians.
    pub fn angle(&self) -> Real {
        self.angle
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
    use proptest::prelude::*;

    /// nalgebra's slerp, falling back to nlerp where it declines: what `at` must reproduce.
    fn slerp(a: &Quat, b: &Quat, t: Real) -> Quat {
        a.try_slerp(b, t, SLERP_EPSILON)
            .unwrap_or_else(|| a.nlerp(b, t))
    }

    fn rotation() -> impl Strategy<Value = Quat> {
        prop_oneof![
            4 => prop::array::uniform3(-4.0..4.0_f64).prop_map(|v| Quat::from_scaled_axis(Vec3::from(v))),
            1 => Just(Quat::identity()),
            1 => Just(Quat::new_unchecked(-Quat::identity().into_inner())),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Every pose along a motion is slerp's, bit for bit: turns of any size, none, a
        /// hair's breadth, and the same orientation with its sign flipped.
        #[test]
        fn poses_along_a_motion_are_slerps_bit_for_bit(
            a in rotation(),
            b in rotation(),
            nudge in prop_oneof![Just(0.0), 1e-12..1e-6_f64, 0.0..1.0_f64],
            flip in any::<bool>(),
            t in prop_oneof![Just(0.0), Just(1.0), 0.0..1.0_f64],
        ) {
            let b = if nudge < 1e-6 { a * Quat::from_scaled_axis(Vec3::new(nudge, 0.0, 0.0)) } else { b };
            let b = if flip { Quat::new_unchecked(-b.into_inner()) } else { b };
            let pose = |q: Quat| Pose::from_parts(Vec3::zeros().into(), q);
            let m = Motion::new(pose(a), pose(b));
            let (got, want) = (m.at(t).rotation, slerp(&a, &b, t));
            for k in 0..4 {
                prop_assert_eq!(got.coords[k].to_bits(), want.coords[k].to_bits(), "{:?} vs {:?}", got, want);
            }
            prop_assert_eq!(m.angle().to_bits(), a.angle_to(&b).to_bits());
        }
    }

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

//! How far apart shapes keep their contacts: the resting margin of every mode and the
//! speculative margin of fast bodies.

use crate::dynamics::RigidBody;
use crate::geom::Vec3;

/// The contact margin of resting bodies in every mode: the distance at which touching
/// shapes keep their contact, and where a time of impact stops short of touching.
pub(super) const RESTING_MARGIN_M: f64 = 0.01;

/// Closing speeds below this bounce with no restitution, so resting bodies settle.
pub(super) const RESTITUTION_THRESHOLD_MPS: f64 = 1.0;

/// How far ahead to look for contacts: the distance the pair can close in one step (linear
/// speed plus the rim speed of spinning bodies), with a small floor for resting contacts.
pub(super) fn speculative_margin(a: (&RigidBody, f64), b: (&RigidBody, f64), dt: f64) -> f64 {
    RESTING_MARGIN_M + (reach(a.0, a.1) + reach(b.0, b.1)) * dt
}

/// How fast any point of a body moves: its linear speed plus the rim speed of its spin.
pub(super) fn reach(body: &RigidBody, rim: f64) -> f64 {
    body.linear_velocity.norm() + body.angular_velocity.norm() * rim
}

/// How fast the corners near a pair's contact swing against the other body. Seen from one
/// body, the other moves by a translation (which the speculative margin covers) plus their
/// relative turn; about the smaller body's centre, every point that can touch lies within its
/// rim, so they swing at most the relative turn times that rim.
/// `a` and `b` are each body's angular velocity and rim radius.
pub(super) fn turning_swing((spin_a, rim_a): (&Vec3, f64), (spin_b, rim_b): (&Vec3, f64)) -> f64 {
    (spin_a - spin_b).norm() * rim_a.min(rim_b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_swing_with_the_relative_turn_about_the_smaller_body() {
        let (spin, still) = (Vec3::new(0.0, 0.0, 4.0), Vec3::zeros());
        // A hull turning on a floor of rim 20 m: its own rim sets the swing.
        assert_eq!(turning_swing((&spin, 0.3), (&still, 20.0)), 4.0 * 0.3);
        // Turning together, they do not swing against each other.
        assert_eq!(turning_swing((&spin, 0.3), (&spin, 0.5)), 0.0);
        // Turning opposite ways, their turns add.
        assert!((turning_swing((&spin, 0.5), (&-spin, 0.3)) - 8.0 * 0.3).abs() < 1e-15);
    }
}

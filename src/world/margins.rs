//! How far apart shapes keep their contacts: the resting margin of every mode and the
//! speculative margin of fast bodies.

use crate::dynamics::RigidBody;

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

/// How fast the rim of a spinning body moves.
pub(super) fn turning_reach(body: &RigidBody, rim: f64) -> f64 {
    body.angular_velocity.norm() * rim
}

//! Rigid bodies: shapes with mass properties, semi-implicit integration and the
//! impulse-based contact response.

mod body;
mod integrate;
mod solver;
#[cfg(test)]
mod solver_reference;
mod support_levels;
mod sweep_order;
mod tgs;
mod velocity_rows;
pub(crate) use solver::tangent_basis;

pub use crate::geom::{MassProperties, Shape};
pub use body::RigidBody;
pub use integrate::{apply_velocity_change, integrate, velocities};
pub use solver::{ContactConstraint, ContactImpulse, SolverParams, solve_contacts};
pub use tgs::{TgsParams, TgsStep};

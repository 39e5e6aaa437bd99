//! GJK distance and EPA penetration depth: the support-map method, independent of V-Clip's
//! feature walk, used to cross-check it and wherever only a support mapping is at hand.

mod distance;
mod epa;
pub mod event;
mod minkowski;
mod query;
pub mod simplex;

pub use distance::{
    GjkResult, GjkWarmStart, MAX_ITERATIONS, RELATIVE_TOLERANCE, gjk_apart_beyond, gjk_distance,
    gjk_distance_warm, gjk_distance_within,
};
pub use epa::{EpaResult, MAX_EPA_ITERATIONS, epa};
pub use event::{GjkEvent, GjkProbe, GjkStatus, GjkStep, GjkTrace, IdPair};
pub use minkowski::minkowski_support;
pub use query::{GjkQuery, gjk_query};

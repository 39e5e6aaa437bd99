//! Continuous collision: what happens between two frames. The course (spec 004 §8) names the
//! problem (a fast body skips over a thin one between two samples of time) and two answers:
//! the ray between two positions and supersampling. This module adds the time of impact by
//! conservative advancement and the exact swept sphere, the per-scene choice among them
//! ([`CcdMode`]), and the "tunnelled" check every mode runs.

mod advance;
pub mod distance;
mod event;
mod extent;
pub mod family;
pub mod impacts;
mod motion;
mod pair;
pub mod ray;
pub mod recorded_motion;
pub mod scenes;
pub mod tunnel;

pub use advance::{Advance, MAX_STEPS, conservative_advancement};
pub use distance::{ShapeAt, signed_distance, signed_distance_until};
pub use event::{CcdEvent, TUNNELLED, report_substep};
pub use extent::{inner_radius, rim_radius};
pub use motion::ahead;
pub use motion::{Motion, centre};
pub use pair::{Mover, Toi, ray_between_positions, time_of_impact, time_of_sinking};

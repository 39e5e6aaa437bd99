//! Collidoscope: a step-by-step collision engine that records what every algorithm did,
//! and (with the `gui` feature) the viewer that replays it.

pub mod geom;
pub mod trace;
pub mod record;
pub mod dynamics;
pub mod narrow;
pub mod world;
pub mod bvh;
pub mod query;

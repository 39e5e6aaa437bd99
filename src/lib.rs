//! Collidoscope: a step-by-step collision engine that records what every algorithm did,
//! and (with the `gui` feature) the viewer that replays it.

// `!(x > 0.0)` is how untrusted numbers are rejected together with NaN; the lint's
// suggested rewrite would let NaN through.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

#[cfg(feature = "gui")]
pub mod app;
pub mod arka;
pub mod audit;
pub mod broad;
pub mod bsp;
pub mod bvh;
pub mod capture;
pub mod ccd;
pub mod cli;
pub mod cloth;
pub mod convex;
pub mod diff;
pub mod dynamics;
pub mod families;
pub mod family;
pub mod frame;
pub mod geom;
pub mod input;
pub mod narrow;
pub mod nurbs;
pub mod query;
pub mod raycast;
pub mod record;
pub mod scene;
pub mod trace;
pub mod validate;
pub mod world;

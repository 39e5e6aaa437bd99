//! Ray casts that other families share: the iterative (temporally coherent) cast of the
//! ray-traced narrow phase (spec 002 §3.4) and the displacement gate that decides when it may
//! run (§3.5). Full casts through a hierarchy live in `crate::bvh::ray`.

pub mod adjacency;
pub mod gate;
pub mod iterative;

pub use adjacency::TriangleAdjacency;
pub use gate::{IterativeGate, rigid_max_displacement};
pub use iterative::{IterativeHit, IterativeOutcome, WalkStop, iterative_cast, walk_path};

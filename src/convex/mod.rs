//! Convex polyhedra as the closest-feature walks need them: features and their Voronoi
//! regions, the V-Clip walk (Mirtich 1998), and GJK with EPA as the independent second method.

pub mod clip;
pub mod closest;
pub mod event;
pub mod family;
mod feature;
pub mod gjk;
mod placed;
mod polyhedron;
mod query_ops;
pub mod scene;
mod scenes;
pub mod sim;
pub mod support;
pub mod vclip;
pub mod voronoi;

pub use event::{ConvexEvent, Outcome, Reason};
pub use feature::{Feature, FeatureKind};
pub use placed::Placed;
pub use polyhedron::{Polyhedron, PolyhedronError};
pub use support::SupportMap;
pub use vclip::{VClipResult, vclip};
pub use voronoi::{RegionPlane, in_region, region_planes};

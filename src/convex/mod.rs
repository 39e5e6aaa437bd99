//! Convex polyhedra as the closest-feature walks need them: features and their Voronoi
//! regions, the V-Clip walk (Mirtich 1998), and GJK with EPA as the independent second method.

pub mod gjk;
pub mod support;

pub use support::SupportMap;

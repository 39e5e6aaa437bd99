//! Bounding-volume hierarchies over triangle meshes: four volume kinds (AABB, OBB, sphere,
//! 14/18/26-DOP), median, binned-SAH and RAPID-mean builds, refit, tree-versus-tree
//! traversal with an exact triangle–triangle test, ray casts, and the quality metrics the
//! viewer shows. Every step reports to a `Probe`: node pairs (with the separating axis),
//! triangle pairs (with the intersection segment), refits, ray steps.
//!
//! Sources: spec 003 §2.3–2.4 (RAPID / OBBTree; the thesis's "Welzl ellipsoid" fit is not what
//! RAPID does and is not followed), §2.13 (SOLID's AABB trees and refit), spec 002 §1 (BVH
//! literature), spec 000 §1 (k-DOPs).

pub mod any;
pub mod build;
mod build_options;
mod event;
pub mod family;
pub mod metrics;
pub mod miniball;
pub mod near;
pub mod obb_fit;
pub mod overlap;
pub use crate::geom::polytope;
pub mod query_ops;
pub mod ray;
mod ray_nodes;
pub mod refit;
pub mod sat_obb;
mod scenes;
pub mod traverse;
pub mod tree;
pub mod tri_tri;
pub mod volumes;

pub use any::{AnyBvh, AnyPosed, traverse_any};
pub use build_options::{BuildOptions, BuildStrategy};
pub use event::BvhEvent;
pub use metrics::{NodeStats, TreeStats, TreeSummary, sah_cost_of};
pub use overlap::{MeshOverlap, mesh_overlap};
pub use refit::{RefitComparison, compare_refit_rebuild};
pub use sat_obb::{SAT_AXIS_NAMES, obb_separating_axis};
pub use traverse::{Carry, Posed, TraversalResult, TraverseOptions, brute_force_pairs, traverse};
pub use tree::{Bvh, Node};
pub use tri_tri::{TriTriHit, triangle_intersection, triangles_intersect};
pub use volumes::{BoundingVolume, BvKind, BvTest, Kdop, Kdop14, Kdop18, Kdop26};

/// The statistics `bvh_stats` answers: builds a tree of `kind` with `strategy` and measures it.
pub fn stats(mesh: &crate::geom::TriMesh, kind: BvKind, strategy: BuildStrategy) -> TreeSummary {
    AnyBvh::build(mesh, kind, &BuildOptions::with_strategy(strategy)).summary()
}

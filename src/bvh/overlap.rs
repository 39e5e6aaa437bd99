//! `mesh_overlap`: two meshes and their poses in, every intersecting triangle pair out. What
//! the query protocol's op of that name answers.

use super::any::{AnyBvh, AnyPosed, traverse_any};
use super::build_options::BuildOptions;
use super::traverse::TraverseOptions;
use super::volumes::BvKind;
use crate::geom::{Pose, Segment, TriMesh};
use crate::trace::Probe;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshOverlap {
    /// Intersecting pairs (triangle of A, triangle of B), sorted.
    pub pairs: Vec<(u32, u32)>,
    /// Where each pair meets, in world coordinates, in the order of `pairs`.
    pub segments: Vec<Segment>,
    /// Whether each pair is coplanar (then its segment is a chord of the overlap polygon).
    pub coplanar: Vec<bool>,
    pub node_tests: u64,
    pub triangle_tests: u64,
}

/// Builds a tree of `kind` (binned SAH) over each mesh and traverses them. Bodies are
/// reported as 0 (A) and 1 (B).
pub fn mesh_overlap<P: Probe>(
    a: &TriMesh,
    pose_a: &Pose,
    b: &TriMesh,
    pose_b: &Pose,
    kind: BvKind,
    probe: &mut P,
) -> MeshOverlap {
    let options = BuildOptions::default();
    let (ta, tb) = (
        AnyBvh::build(a, kind, &options),
        AnyBvh::build(b, kind, &options),
    );
    let result = traverse_any(
        &AnyPosed {
            mesh: a,
            tree: &ta,
            pose: pose_a,
            body: 0,
        },
        &AnyPosed {
            mesh: b,
            tree: &tb,
            pose: pose_b,
            body: 1,
        },
        TraverseOptions::default(),
        probe,
    );
    let Some(r) = result else {
        return MeshOverlap::default();
    };
    let mut order: Vec<usize> = (0..r.pairs.len()).collect();
    order.sort_by_key(|&i| r.pairs[i]);
    MeshOverlap {
        pairs: order.iter().map(|&i| r.pairs[i]).collect(),
        segments: order.iter().map(|&i| r.hits[i].segment).collect(),
        coplanar: order.iter().map(|&i| r.hits[i].coplanar).collect(),
        node_tests: r.node_tests,
        triangle_tests: r.triangle_tests,
    }
}

//! Triangle mesh against triangle mesh: the hierarchies find the intersecting triangle pairs
//! (bvh module); each intersection segment becomes a contact.

use super::ContactPoint;
use super::manifold::dedup;
use crate::bvh::TraversalResult;
use crate::geom::{Pose, Real, TriMesh, Triangle};

/// Contacts from the intersecting pairs of a traversal. The normal is B's face normal,
/// turned to point from A to B; the depth is how far A's triangle reaches behind B's face
/// (capped at the segment's length, since a triangle can cross a face far from the contact).
pub fn contacts_from_traversal(
    result: &TraversalResult,
    a: &TriMesh,
    pose_a: &Pose,
    b: &TriMesh,
    pose_b: &Pose,
) -> Vec<ContactPoint> {
    let world = |m: &TriMesh, pose: &Pose, t: u32| {
        let tri = m.triangle(t as usize);
        Triangle::new(pose * tri.a, pose * tri.b, pose * tri.c)
    };
    let mut out = Vec::with_capacity(result.pairs.len());
    for (&(ta, tb), hit) in result.pairs.iter().zip(&result.hits) {
        let (tri_a, tri_b) = (world(a, pose_a, ta), world(b, pose_b, tb));
        let Some(nb) = tri_b.normal() else {
            continue;
        };
        let behind = tri_a
            .vertices()
            .iter()
            .map(|v| -nb.dot(&(v - tri_b.a)))
            .fold(0.0 as Real, Real::max);
        let reach = hit.segment.length().max(1e-3);
        out.push(ContactPoint {
            point: hit.segment.at(0.5),
            normal: -nb,
            depth: behind.min(reach),
        });
    }
    // Dense meshes give many pairs per contact patch; a few points per patch are enough for
    // the solver and keep it fast.
    dedup(out, 0.05)
}

//! Tree-versus-tree traversal (bounding-volume test tree): every pair of triangles whose
//! volumes overlap down to the leaves gets the exact triangle–triangle test.
//!
//! **Frames.** The test runs in tree A's frame. B's volumes are carried there by the relative
//! pose `pose_a⁻¹ · pose_b` (each volume kind knows how, conservatively); B's triangle
//! vertices by [`Carry`], a rotation matrix and a translation. A brute-force check over all
//! pairs must carry B's vertices with the same [`Carry`] to get bit-identical triangles; it
//! then finds exactly the same pairs, touching ones included, because the volume tests never
//! cull a pair closer than their slack (see `volumes`).
//!
//! **Descent.** When both nodes are internal, the one with the larger volume is split: it is
//! the one more likely to be mostly outside the other.

use super::BvhEvent;
use super::tree::Bvh;
use super::tri_tri::{TriTriHit, triangle_intersection};
use super::volumes::{BoundingVolume, BvTest, slack_for};
use crate::geom::{Mat3, Point3, Pose, Segment, TriMesh, Triangle, Vec3};
use crate::trace::{BodyId, Probe, TraceEvent, Verdict};

/// The map from B's frame to A's, as the traversal applies it to B's vertices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Carry {
    pub rotation: Mat3,
    pub translation: Vec3,
}

impl Carry {
    /// B's frame into A's frame: `pose_a⁻¹ · pose_b`.
    pub fn between(pose_a: &Pose, pose_b: &Pose) -> Carry {
        Carry::from_pose(&relative_pose(pose_a, pose_b))
    }

    pub fn from_pose(pose: &Pose) -> Carry {
        Carry {
            rotation: *pose.rotation.to_rotation_matrix().matrix(),
            translation: pose.translation.vector,
        }
    }

    #[inline(always)]
    pub fn apply(&self, p: &Point3) -> Point3 {
        Point3::from(self.rotation * p.coords + self.translation)
    }

    /// Triangle `t` of `mesh` carried into A's frame.
    #[inline]
    pub fn triangle(&self, mesh: &TriMesh, t: u32) -> Triangle {
        let [a, b, c] = mesh.triangles[t as usize];
        Triangle::new(
            self.apply(&mesh.vertices[a as usize]),
            self.apply(&mesh.vertices[b as usize]),
            self.apply(&mesh.vertices[c as usize]),
        )
    }
}

/// `pose_a⁻¹ · pose_b`, exactly the identity when the poses are equal: `pose⁻¹ · pose` rounds
/// to a rotation a few ulps off, which tilts the coplanar triangles of a mesh tested against
/// itself out of their common plane and flips exact touching verdicts.
pub fn relative_pose(pose_a: &Pose, pose_b: &Pose) -> Pose {
    if pose_a == pose_b {
        Pose::identity()
    } else {
        pose_a.inv_mul(pose_b)
    }
}

fn is_finite_pose(pose: &Pose) -> bool {
    let q = pose.rotation.coords;
    pose.translation
        .vector
        .iter()
        .chain(q.iter())
        .all(|x| x.is_finite())
}

/// A mesh, its hierarchy, where it is, and the id the trace gives it.
#[derive(Clone, Copy, Debug)]
pub struct Posed<'a, V> {
    pub mesh: &'a TriMesh,
    pub tree: &'a Bvh<V>,
    pub pose: &'a Pose,
    pub body: BodyId,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraverseOptions {
    /// Count the tests each node took part in (for the viewer's heat map).
    pub count_per_node: bool,
    /// Stop at the first intersecting triangle pair (a yes/no query).
    pub first_only: bool,
    /// Stop after this many triangle pairs tested (`TraversalResult::truncated`): two dense
    /// meshes of slivers overlap over millions of leaf pairs.
    pub max_triangle_tests: Option<u64>,
}

/// What a traversal found and what it cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TraversalResult {
    /// Intersecting triangle pairs (A's index, B's index), in the order found.
    pub pairs: Vec<(u32, u32)>,
    /// For each pair, where the triangles meet, in world coordinates.
    pub hits: Vec<TriTriHit>,
    pub node_tests: u64,
    pub triangle_tests: u64,
    /// The traversal stopped at `TraverseOptions::max_triangle_tests`: the pairs are those
    /// found so far.
    pub truncated: bool,
    /// Per node of A (resp. B), how many volume tests it took part in; empty unless asked.
    pub tested_a: Vec<u32>,
    pub tested_b: Vec<u32>,
}

/// Traverses both trees and tests the triangles of overlapping leaves exactly.
pub fn traverse<V: BoundingVolume, P: Probe>(
    a: &Posed<'_, V>,
    b: &Posed<'_, V>,
    options: TraverseOptions,
    probe: &mut P,
) -> TraversalResult {
    assert!(
        a.tree.fits_mesh(a.mesh) && b.tree.fits_mesh(b.mesh),
        "tree used with another mesh"
    );
    let (ta, tb) = (a.tree, b.tree);
    let relative = relative_pose(a.pose, b.pose);
    let carry = Carry::from_pose(&relative);
    let slack = slack_for(
        ta.root().volume.reach(),
        tb.root().volume.reach(),
        &relative.translation.vector,
    );
    let rel = V::relative(&relative, slack);

    let mut out = TraversalResult::default();
    // A pose that overflowed (a body thrown at 1e308 m/s hit by another) has no place: every
    // comparison with a NaN box fails, which the tests read as overlap, and the traversal
    // went on to every triangle pair (5 minutes for two tori).
    if !(slack.is_finite() && is_finite_pose(&relative)) {
        return out;
    }
    if options.count_per_node {
        out.tested_a = vec![0; ta.nodes.len()];
        out.tested_b = vec![0; tb.nodes.len()];
    }
    // Node and triangle pairs carry ids only; these poses turn them back into what was tested.
    crate::trace_event!(
        probe,
        TraceEvent::new(
            Verdict::Info,
            BvhEvent::traversal(a.body, a.pose, b.body, b.pose)
        )
    );
    let mut stack = PairStack::new();
    stack.push((0, 0));
    while let Some((ia, ib)) = stack.pop() {
        let (na, nb) = (&ta.nodes[ia as usize], &tb.nodes[ib as usize]);
        out.node_tests += 1;
        if options.count_per_node {
            out.tested_a[ia as usize] += 1;
            out.tested_b[ib as usize] += 1;
        }
        let test = na.volume.test(&nb.volume, &rel);
        crate::trace_event!(
            probe,
            TraceEvent::new(
                if test.overlaps() {
                    Verdict::Hit
                } else {
                    Verdict::Miss
                },
                BvhEvent::NodePair {
                    a: a.body,
                    b: b.body,
                    node_a: ia,
                    node_b: ib,
                    separating_axis: match test {
                        BvTest::Separated { axis } => axis,
                        BvTest::Overlap => None,
                    },
                }
            )
        );
        if !test.overlaps() {
            continue;
        }
        match (na.is_leaf(), nb.is_leaf()) {
            (true, true) => {
                if leaf_pairs(a, b, ia, ib, &carry, &options, &mut out, probe) {
                    return out;
                }
            }
            (true, false) => {
                stack.push((ia, nb.index));
                stack.push((ia, ib + 1));
            }
            (false, true) => {
                stack.push((na.index, ib));
                stack.push((ia + 1, ib));
            }
            (false, false) => {
                if na.volume.size() >= nb.volume.size() {
                    stack.push((na.index, ib));
                    stack.push((ia + 1, ib));
                } else {
                    stack.push((ia, nb.index));
                    stack.push((ia, ib + 1));
                }
            }
        }
    }
    out
}

/// The traversal's to-do list: on the call stack while short (a query whose roots are apart
/// then allocates nothing), spilling to the heap when deep.
struct PairStack {
    inline: [(u32, u32); 64],
    len: usize,
    spill: Vec<(u32, u32)>,
}

impl PairStack {
    fn new() -> Self {
        Self {
            inline: [(0, 0); 64],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline(always)]
    fn push(&mut self, pair: (u32, u32)) {
        if self.len < self.inline.len() {
            self.inline[self.len] = pair;
            self.len += 1;
        } else {
            self.spill.push(pair);
        }
    }

    /// Last in, first out: the spill holds the most recent pushes.
    #[inline(always)]
    fn pop(&mut self) -> Option<(u32, u32)> {
        if let Some(p) = self.spill.pop() {
            return Some(p);
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.inline[self.len])
    }
}

/// Every triangle of leaf `ia` against every triangle of leaf `ib`. True when the search
/// should stop (first hit of a yes/no query, or the triangle tests' budget spent).
#[allow(clippy::too_many_arguments)]
fn leaf_pairs<V: BoundingVolume, P: Probe>(
    a: &Posed<'_, V>,
    b: &Posed<'_, V>,
    ia: u32,
    ib: u32,
    carry: &Carry,
    options: &TraverseOptions,
    out: &mut TraversalResult,
    probe: &mut P,
) -> bool {
    let most = options.max_triangle_tests.unwrap_or(u64::MAX);
    for &tb_id in b.tree.leaf_triangles(ib) {
        let tri_b = carry.triangle(b.mesh, tb_id);
        for &ta_id in a.tree.leaf_triangles(ia) {
            if out.triangle_tests >= most {
                out.truncated = true;
                return true;
            }
            let tri_a = a.mesh.triangle(ta_id as usize);
            out.triangle_tests += 1;
            let hit = triangle_intersection(&tri_a, &tri_b);
            let world_hit = hit.map(|h| TriTriHit {
                segment: Segment::new(a.pose * h.segment.a, a.pose * h.segment.b),
                coplanar: h.coplanar,
            });
            crate::trace_event!(
                probe,
                TraceEvent::new(
                    if hit.is_some() {
                        Verdict::Hit
                    } else {
                        Verdict::Miss
                    },
                    BvhEvent::TrianglePair {
                        a: a.body,
                        b: b.body,
                        tri_a: ta_id,
                        tri_b: tb_id,
                        segment: world_hit.map(|h| h.segment),
                    }
                )
            );
            if let Some(h) = world_hit {
                out.pairs.push((ta_id, tb_id));
                out.hits.push(h);
                if options.first_only {
                    return true;
                }
            }
        }
    }
    false
}

/// The brute-force answer: every triangle of A against every triangle of B (carried the same
/// way), sorted. The oracle of the traversal, and a baseline for benchmarks.
pub fn brute_force_pairs(
    mesh_a: &TriMesh,
    pose_a: &Pose,
    mesh_b: &TriMesh,
    pose_b: &Pose,
) -> Vec<(u32, u32)> {
    let carry = Carry::between(pose_a, pose_b);
    let b_tris: Vec<Triangle> = (0..mesh_b.triangles.len() as u32)
        .map(|t| carry.triangle(mesh_b, t))
        .collect();
    let mut out = Vec::new();
    for (ia, ta) in mesh_a.triangles().enumerate() {
        for (ib, tb) in b_tris.iter().enumerate() {
            if super::tri_tri::triangles_intersect(&ta, tb) {
                out.push((ia as u32, ib as u32));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::PairStack;

    #[test]
    fn pair_stack_is_lifo_across_the_spill() {
        let mut s = PairStack::new();
        let mut model = Vec::new();
        for round in 0..3u32 {
            for i in 0..150u32 {
                s.push((round, i));
                model.push((round, i));
            }
            for _ in 0..100 {
                assert_eq!(s.pop(), model.pop());
            }
        }
        while let Some(p) = model.pop() {
            assert_eq!(s.pop(), Some(p));
        }
        assert_eq!(s.pop(), None);
    }

    /// A NaN pose is within no distance of anything: no node pair overlaps, where before
    /// every comparison with it failed and each one counted as an overlap.
    #[test]
    fn a_pose_that_overflowed_meets_nothing() {
        use crate::bvh::{BvKind, mesh_overlap};
        use crate::geom::{Point3, Pose, Quat, TriMesh, Vec3};
        use crate::trace::NoProbe;
        let tetra = TriMesh::new(
            vec![
                Point3::origin(),
                Point3::new(1.0, 0.0, 0.0),
                Point3::new(0.0, 1.0, 0.0),
                Point3::new(0.0, 0.0, 1.0),
            ],
            vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
        )
        .expect("a closed tetrahedron");
        let near = Pose::from_parts(Vec3::new(0.2, 0.2, 0.2).into(), Quat::identity());
        let overlap = |pose: &Pose| {
            mesh_overlap(
                &tetra,
                &Pose::identity(),
                &tetra,
                pose,
                BvKind::Aabb,
                &mut NoProbe,
            )
        };
        assert!(!overlap(&near).pairs.is_empty());
        let mut nan = near;
        nan.translation.vector.x = f64::NAN;
        let none = overlap(&nan);
        assert!(none.pairs.is_empty() && none.node_tests == 0, "{none:?}");
        let mut nan_turn = near;
        nan_turn.rotation = Quat::new_unchecked(nalgebra::Quaternion::new(f64::NAN, 0.0, 0.0, 0.0));
        assert!(overlap(&nan_turn).pairs.is_empty());
    }
}

//! Ids back to geometry: the volumes and triangles a node or triangle pair tested, from the
//! body's tree and mesh (rebuilt from the recorded scene exactly as the engine built them) and
//! the poses of the traversal the pair belongs to. The viewer draws these; tests check them
//! against what the engine computed.

use super::{BvhEvent, TraversalPoses};
use crate::bvh::AnyBvh;
use crate::geom::{Pose, TriMesh, Triangle};
use crate::trace::{BodyId, EventKind, TraceEvent, Volume};

/// Reached as `BvhEvent::node_pair_volumes` and so on: the event type is what the rest of the
/// crate names.
impl BvhEvent {
    /// The poses `trace[at]` (a node or triangle pair) was tested at: those of the latest
    /// `Traversal` of the same two bodies before it. `None` when the trace holds none (format v2
    /// recordings, whose traversals were not announced): callers then use the frame's poses.
    pub fn traversal_poses(trace: &[TraceEvent], at: usize) -> Option<TraversalPoses> {
        let (a, b) = match &trace.get(at)?.kind {
            EventKind::Bvh(BvhEvent::NodePair { a, b, .. })
            | EventKind::Bvh(BvhEvent::TrianglePair { a, b, .. }) => (*a, *b),
            EventKind::Bvh(BvhEvent::Traversal(p)) => return Some(*p),
            _ => return None,
        };
        trace[..at].iter().rev().find_map(|e| match &e.kind {
            EventKind::Bvh(BvhEvent::Traversal(p)) if p.a == a && p.b == b => Some(*p),
            _ => None,
        })
    }

    /// The poses of both bodies of pair `trace[at]`: the traversal's, else `frame_pose`'s.
    fn pair_poses(
        trace: &[TraceEvent],
        at: usize,
        (a, b): (BodyId, BodyId),
        frame_pose: &dyn Fn(BodyId) -> Option<Pose>,
    ) -> Option<(Pose, Pose)> {
        match Self::traversal_poses(trace, at) {
            Some(p) => Some((p.pose_a(), p.pose_b())),
            None => Some((frame_pose(a)?, frame_pose(b)?)),
        }
    }

    /// The two world volumes node pair `trace[at]` tested. `tree` gives a body's hierarchy;
    /// `frame_pose` the frame's pose of a body, used only when the trace announces no traversal.
    pub fn node_pair_volumes<'t>(
        trace: &[TraceEvent],
        at: usize,
        tree: &dyn Fn(BodyId) -> Option<&'t AnyBvh>,
        frame_pose: &dyn Fn(BodyId) -> Option<Pose>,
    ) -> Option<(Volume, Volume)> {
        let EventKind::Bvh(BvhEvent::NodePair {
            a,
            b,
            node_a,
            node_b,
            ..
        }) = &trace.get(at)?.kind
        else {
            return None;
        };
        let (pose_a, pose_b) = Self::pair_poses(trace, at, (*a, *b), frame_pose)?;
        Some((
            tree(*a)?.node_world_volume(*node_a, &pose_a)?,
            tree(*b)?.node_world_volume(*node_b, &pose_b)?,
        ))
    }

    /// Triangle `index` of `mesh` placed at `pose`; `None` past the mesh's triangles.
    pub fn world_triangle(mesh: &TriMesh, index: u32, pose: &Pose) -> Option<Triangle> {
        let [i, j, k] = *mesh.triangles.get(index as usize)?;
        let v = |n: u32| mesh.vertices.get(n as usize).map(|p| pose * p);
        Some(Triangle::new(v(i)?, v(j)?, v(k)?))
    }

    /// The two world triangles triangle pair `trace[at]` tested (see [`Self::node_pair_volumes`]).
    pub fn triangle_pair_triangles<'m>(
        trace: &[TraceEvent],
        at: usize,
        mesh: &dyn Fn(BodyId) -> Option<&'m TriMesh>,
        frame_pose: &dyn Fn(BodyId) -> Option<Pose>,
    ) -> Option<(Triangle, Triangle)> {
        let EventKind::Bvh(BvhEvent::TrianglePair {
            a, b, tri_a, tri_b, ..
        }) = &trace.get(at)?.kind
        else {
            return None;
        };
        let (pose_a, pose_b) = Self::pair_poses(trace, at, (*a, *b), frame_pose)?;
        Some((
            Self::world_triangle(mesh(*a)?, *tri_a, &pose_a)?,
            Self::world_triangle(mesh(*b)?, *tri_b, &pose_b)?,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bvh::{AnyPosed, BuildOptions, BvKind, TraverseOptions, traverse_any};
    use crate::geom::triangle::scaled_normal;
    use crate::geom::{Quat, Vec3};
    use crate::trace::TraceRecorder;
    use crate::world::procedural::torus;

    fn pose(x: f64, angle: f64) -> Pose {
        Pose::from_parts(
            Vec3::new(x, 0.02 * angle, 0.0).into(),
            Quat::from_euler_angles(angle, 0.3 * angle, 0.1),
        )
    }

    /// Two traversals of the same two bodies at different poses (as two substeps of one step
    /// run them) into one trace: every node pair resolves to exactly the world volumes the
    /// engine's own node volumes give at the poses that traversal ran at (what format v2
    /// stored), and every triangle pair to its mesh triangles at those poses, on which the
    /// recorded intersection segment lies.
    #[test]
    fn compact_events_resolve_to_what_the_engine_tested() {
        let mesh_a = torus(1.0, 0.3, 24, 12);
        let mesh_b = torus(0.8, 0.25, 20, 10);
        for kind in [BvKind::Aabb, BvKind::Obb, BvKind::Sphere, BvKind::Kdop14] {
            let tree_a = AnyBvh::build(&mesh_a, kind, &BuildOptions::default());
            let tree_b = AnyBvh::build(&mesh_b, kind, &BuildOptions::default());
            let steps = [
                (pose(0.0, 0.0), pose(1.1, 1.3)),
                (pose(0.05, 0.2), pose(1.0, 1.5)),
            ];
            let mut probe = TraceRecorder::default();
            let mut ranges = Vec::new();
            for (pa, pb) in &steps {
                let start = probe.events.len();
                let posed = |mesh, tree, pose, body| AnyPosed {
                    mesh,
                    tree,
                    pose,
                    body,
                };
                traverse_any(
                    &posed(&mesh_a, &tree_a, pa, 3),
                    &posed(&mesh_b, &tree_b, pb, 5),
                    TraverseOptions::default(),
                    &mut probe,
                )
                .expect("same kinds");
                ranges.push(start..probe.events.len());
            }
            let trace = &probe.events;
            let tree = |b: BodyId| match b {
                3 => Some(&tree_a),
                5 => Some(&tree_b),
                _ => None,
            };
            let mesh = |b: BodyId| match b {
                3 => Some(&mesh_a),
                5 => Some(&mesh_b),
                _ => None,
            };
            // The frame's poses are neither traversal's: a fallback must not be used.
            let nowhere = |_: BodyId| Some(pose(50.0, 2.0));
            let (mut nodes, mut segments) = (0, 0);
            for (range, (pa, pb)) in ranges.iter().zip(&steps) {
                for i in range.clone() {
                    match &trace[i].kind {
                        EventKind::Bvh(BvhEvent::NodePair { node_a, node_b, .. }) => {
                            let (va, vb) = BvhEvent::node_pair_volumes(trace, i, &tree, &nowhere)
                                .expect("resolvable");
                            // What v2's traversal stored: the node's volume put in the world
                            // at the pose that traversal ran at, bit for bit.
                            assert_eq!(Some(va), tree_a.node_world_volume(*node_a, pa));
                            assert_eq!(Some(vb), tree_b.node_world_volume(*node_b, pb));
                            nodes += 1;
                        }
                        EventKind::Bvh(BvhEvent::TrianglePair {
                            tri_a,
                            tri_b,
                            segment,
                            ..
                        }) => {
                            let (ta, tb) =
                                BvhEvent::triangle_pair_triangles(trace, i, &mesh, &nowhere)
                                    .expect("resolvable");
                            let [x, y, z] = mesh_a.triangles[*tri_a as usize];
                            let v = |m: &TriMesh, k: u32, p: &Pose| p * m.vertices[k as usize];
                            assert_eq!(ta.a, v(&mesh_a, x, pa));
                            assert_eq!(ta.b, v(&mesh_a, y, pa));
                            assert_eq!(ta.c, v(&mesh_a, z, pa));
                            let [x, y, z] = mesh_b.triangles[*tri_b as usize];
                            assert_eq!(tb.a, v(&mesh_b, x, pb));
                            assert_eq!(tb.b, v(&mesh_b, y, pb));
                            assert_eq!(tb.c, v(&mesh_b, z, pb));
                            if let Some(s) = segment {
                                for p in [s.a, s.b] {
                                    assert!(near_triangle(&p, &ta) && near_triangle(&p, &tb));
                                }
                                segments += 1;
                            }
                        }
                        _ => {}
                    }
                }
            }
            assert!(
                nodes > 100 && segments > 0,
                "{kind:?}: {nodes} nodes, {segments} hits"
            );
        }
    }

    /// `p` is on triangle `t` to rounding: in its plane and inside its three edges.
    fn near_triangle(p: &crate::geom::Point3, t: &Triangle) -> bool {
        let n = t.scaled_normal();
        let size = (t.b - t.a).norm() + (t.c - t.a).norm() + t.a.coords.norm() + 1.0;
        let eps = 1e-9 * size;
        let inside = |u: &crate::geom::Point3, v: &crate::geom::Point3| {
            n.dot(&scaled_normal(u, v, p)) >= -eps * n.norm()
        };
        (n.dot(&(p - t.a)) / n.norm()).abs() <= eps
            && inside(&t.a, &t.b)
            && inside(&t.b, &t.c)
            && inside(&t.c, &t.a)
    }

    #[test]
    fn without_a_traversal_event_the_frame_poses_are_used() {
        let mesh = torus(1.0, 0.3, 12, 8);
        let tree = AnyBvh::build(&mesh, BvKind::Aabb, &BuildOptions::default());
        let trace = vec![TraceEvent::new(
            crate::trace::Verdict::Hit,
            BvhEvent::NodePair {
                a: 0,
                b: 1,
                node_a: 0,
                node_b: 1,
                separating_axis: None,
            },
        )];
        let frame_pose = |b: BodyId| Some(pose(b as f64, 0.5));
        let (va, vb) =
            BvhEvent::node_pair_volumes(&trace, 0, &|_| Some(&tree), &frame_pose).expect("ok");
        assert_eq!(Some(va), tree.node_world_volume(0, &pose(0.0, 0.5)));
        assert_eq!(Some(vb), tree.node_world_volume(1, &pose(1.0, 0.5)));
        assert!(BvhEvent::node_pair_volumes(&trace, 1, &|_| Some(&tree), &frame_pose).is_none());
        assert!(BvhEvent::node_pair_volumes(&trace, 0, &|_| None, &frame_pose).is_none());
    }
}

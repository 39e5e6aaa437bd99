//! The distance conservative advancement needs: signed (negative inside), exact or a lower
//! bound, never more than the true distance, so an advancement step never jumps past contact.
//!
//! Two polyhedra (boxes and hulls) take GJK's exact distance, and EPA's depth when they
//! overlap. Otherwise it comes from the narrow phase run with a large margin: round shapes
//! give their exact distance.
//! Against a mesh, the separation from each nearby triangle taken on its own (a flat
//! two-faced polyhedron): the contacts of a mesh prefer its faces and drop the edges between
//! them, which is right for the solver but is no lower bound. Mesh against mesh has no
//! distance here (contacts go through the hierarchies): `None`.

use crate::convex::gjk::{GjkWarmStart, gjk_query};
use crate::convex::support::Posed;
use crate::geom::Shape;
use crate::geom::{Aabb, ConvexPolyhedron, Pose, Real, TriMesh, Triangle};
use crate::narrow;
use crate::trace::NoProbe;
use std::sync::Arc;

/// The signed distance between two shapes at their poses, or `cap` when they are further
/// apart than `cap` (a valid lower bound, and cheap: the narrow phase culls by it).
pub fn signed_distance(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    cap: Real,
) -> Option<Real> {
    if matches!((a, b), (Shape::Mesh(_), Shape::Mesh(_))) {
        return None;
    }
    match (a, b) {
        (Shape::Mesh(mesh), _) => return Some(to_triangles(b, pose_b, mesh, pose_a, cap)),
        (_, Shape::Mesh(mesh)) => return Some(to_triangles(a, pose_a, mesh, pose_b, cap)),
        _ => {}
    }
    if let (Some(p), Some(q)) = (polyhedron(a), polyhedron(b)) {
        return Some(polyhedra(p, pose_a, q, pose_b).min(cap));
    }
    let contacts = narrow::collide(a, pose_a, b, pose_b, cap);
    if contacts.is_empty() {
        return Some(cap);
    }
    Some((-narrow::max_depth(&contacts)).min(cap))
}

fn polyhedron(s: &Shape) -> Option<&ConvexPolyhedron> {
    match s {
        Shape::Box { polyhedron, .. } | Shape::Convex(polyhedron) => Some(polyhedron),
        _ => None,
    }
}

/// Two polyhedra: GJK's distance (EPA's depth, negated, when they overlap). GJK's distance is
/// within its relative tolerance above the true one; shaving a little more keeps the bound
/// below it. EPA's depth is the support distance of a face, never below the true depth.
fn polyhedra(a: &ConvexPolyhedron, pose_a: &Pose, b: &ConvexPolyhedron, pose_b: &Pose) -> Real {
    let q = gjk_query(
        &Posed {
            shape: a,
            pose: pose_a,
        },
        &Posed {
            shape: b,
            pose: pose_b,
        },
        GjkWarmStart::default(),
        [0, 1],
        &mut NoProbe,
    );
    let d = q.signed_distance();
    d - d.abs() * 1e-9
}

/// The smallest separation of `shape` from the mesh's triangles near it, each on its own.
fn to_triangles(shape: &Shape, pose: &Pose, mesh: &TriMesh, mesh_pose: &Pose, cap: Real) -> Real {
    let near = shape.aabb(pose).loosened(cap);
    let mut best = cap;
    for tri in mesh.triangles() {
        let world = [mesh_pose * tri.a, mesh_pose * tri.b, mesh_pose * tri.c];
        if !Aabb::from_points(&world).intersects(&near)
            || Triangle::new(world[0], world[1], world[2])
                .normal()
                .is_none()
        {
            continue;
        }
        let flat = Shape::Convex(Arc::new(ConvexPolyhedron::from_faces(
            world.to_vec(),
            vec![vec![0, 1, 2], vec![0, 2, 1]],
        )));
        let contacts = narrow::collide(shape, pose, &flat, &Pose::identity(), best);
        if !contacts.is_empty() {
            best = best.min(-narrow::max_depth(&contacts));
        }
    }
    best
}

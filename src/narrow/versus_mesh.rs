//! A convex or round shape against a triangle mesh: each triangle whose box overlaps the
//! shape's is tested on its own (a triangle is a flat polyhedron with two faces).

use super::ContactPoint;
use super::manifold::dedup;
use super::polyhedra::polyhedron_contacts;
use super::round::{capsule_segment, sphere_sphere};
use crate::dynamics::Shape;
use crate::geom::{ConvexPolyhedron, Point3, Pose, Real, Segment, TriMesh, Triangle, closest};

/// Contacts with the normal pointing from `shape` to the mesh.
pub fn shape_mesh(
    shape: &Shape,
    pose: &Pose,
    mesh: &TriMesh,
    mesh_pose: &Pose,
    margin: Real,
) -> Vec<ContactPoint> {
    let bounds = shape.aabb(pose).loosened(margin);
    let world_poly = shape.polyhedron().map(|p| p.transformed(pose));
    let mut out = Vec::new();
    for t in 0..mesh.triangles.len() {
        let local = mesh.triangle(t);
        let tri = Triangle::new(
            mesh_pose * local.a,
            mesh_pose * local.b,
            mesh_pose * local.c,
        );
        if !crate::geom::Aabb::from_points(&tri.vertices()).intersects(&bounds) {
            continue;
        }
        match shape {
            Shape::Sphere { radius } => {
                let c: Point3 = pose.translation.vector.into();
                out.extend(round_triangle(&c, *radius, &tri, margin));
            }
            Shape::Capsule { .. } => {
                let (seg, r) = capsule_segment(shape, pose);
                for p in segment_candidates(&seg, &tri) {
                    out.extend(round_triangle(&p, r, &tri, margin));
                }
            }
            Shape::Box { .. } | Shape::Convex(_) => {
                if let (Some(poly), Some(flat)) = (&world_poly, triangle_polyhedron(&tri)) {
                    out.extend(polyhedron_contacts(poly, &flat, margin));
                }
            }
            Shape::Mesh(_) => {}
        }
    }
    dedup(out, 1e-6)
}

fn round_triangle(c: &Point3, r: Real, tri: &Triangle, margin: Real) -> Option<ContactPoint> {
    let q = closest::point_triangle(c, tri);
    // A sphere of radius 0 at the closest point: the contact normal runs from the sphere's
    // centre to the triangle.
    sphere_sphere(c, r, &q, 0.0, margin)
}

/// The points of a segment that can be closest to a triangle: its ends, its points closest
/// to the triangle's edges, and where it crosses the triangle.
fn segment_candidates(seg: &Segment, tri: &Triangle) -> Vec<Point3> {
    let mut pts = vec![seg.a, seg.b];
    for (p, q) in [(tri.a, tri.b), (tri.b, tri.c), (tri.c, tri.a)] {
        pts.push(closest::segment_segment(seg, &Segment::new(p, q)).0.point);
    }
    let ray = crate::geom::Ray::new(seg.a, seg.b - seg.a);
    if let Some((t, _, _)) = ray.intersect_triangle(tri)
        && (0.0..=1.0).contains(&t)
    {
        pts.push(seg.at(t));
    }
    pts
}

fn triangle_polyhedron(tri: &Triangle) -> Option<ConvexPolyhedron> {
    tri.normal()?;
    Some(ConvexPolyhedron::from_faces(
        tri.vertices().to_vec(),
        vec![vec![0, 1, 2], vec![0, 2, 1]],
    ))
}

//! A convex or round shape against a triangle mesh: each triangle whose box overlaps the
//! shape's is tested on its own (a triangle is a flat polyhedron with two faces). A mesh is
//! a solid's surface (closed meshes) or a ground (height fields), both with outward normals:
//! a shape sunk more than half through a face is pushed back out of the front, with its
//! depth measured from the face to its deepest point, never through to the back.

use super::ContactPoint;
use super::manifold::dedup;
use super::polyhedra::polyhedron_contacts;
use super::reduce::{MAX_PAIR_CONTACTS, reduce};
use super::round::{capsule_segment, sphere_sphere};
use crate::geom::Shape;
use crate::geom::{
    ConvexPolyhedron, Point3, Pose, Real, Segment, TriMesh, Triangle, Vec3, closest,
};

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
    // Per contact: whether its point lies over the inside of its triangle's face.
    let mut round: Vec<bool> = Vec::new();
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
                if let Some(hit) = round_triangle(&c, *radius, &tri, margin) {
                    round.push(over_face(&c, &tri));
                    out.push(hit);
                }
            }
            Shape::Capsule { .. } => {
                let (seg, r) = capsule_segment(shape, pose);
                for p in segment_candidates(&seg, &tri) {
                    if let Some(hit) = round_triangle(&p, r, &tri, margin) {
                        round.push(over_face(&p, &tri));
                        out.push(hit);
                    }
                }
            }
            Shape::Box { .. } | Shape::Convex(_) => {
                if let (Some(poly), Some(n)) = (&world_poly, tri.normal()) {
                    // Corners over the face and within the margin of it meet the face itself;
                    // otherwise the shape meets the triangle's edges or corners, which the
                    // separating axes of the flat triangle describe.
                    let corners = corners_over(poly, &tri, &n, margin);
                    if !corners.is_empty() {
                        round.extend(std::iter::repeat_n(true, corners.len()));
                        out.extend(corners);
                    } else if let Some(flat) = triangle_polyhedron(&tri) {
                        let found = polyhedron_contacts(poly, &flat, margin);
                        round.extend(std::iter::repeat_n(false, found.len()));
                        out.extend(found);
                    }
                }
            }
            Shape::Mesh(_) => {}
        }
    }
    let points = without_inner_edges(out, &round);
    // The pair keeps a bounded manifold anyway (`reduce`): past a few times its size, the
    // candidates are reduced before the merge, which would otherwise hash each of them.
    if points.len() > 8 * MAX_PAIR_CONTACTS {
        return dedup(reduce(points), 1e-6);
    }
    dedup(points, 1e-6)
}

/// A round shape over a face gets its contact from the face; the same shape also meets the
/// edges of the neighbouring triangles, whose tilted normals on a flat or gently curved mesh
/// would push it sideways. Edge and corner contacts are kept only where no face holds it.
fn without_inner_edges(points: Vec<ContactPoint>, on_face: &[bool]) -> Vec<ContactPoint> {
    if !on_face.iter().any(|&f| f) {
        return points;
    }
    points
        .into_iter()
        .zip(on_face)
        .filter_map(|(p, &f)| f.then_some(p))
        .collect()
}

/// Whether `p` projects onto the inside of the triangle (its face holds a ball there).
fn over_face(p: &Point3, tri: &Triangle) -> bool {
    let Some(n) = tri.normal() else {
        return false;
    };
    let h = n.dot(&(p - tri.a));
    let q = closest::point_triangle(p, tri);
    ((p - n * h) - q).norm() <= 1e-9 * (1.0 + h.abs())
}

/// The corners of a polyhedron over a face and less than `margin` in front of it (or behind
/// it, by any amount), each pushed out of the front: depth is how far behind the face it is.
fn corners_over(
    poly: &ConvexPolyhedron,
    tri: &Triangle,
    n: &Vec3,
    margin: Real,
) -> Vec<ContactPoint> {
    poly.vertices
        .iter()
        .filter_map(|v| {
            let h = n.dot(&(v - tri.a));
            (h <= margin && over_face(v, tri)).then_some(ContactPoint {
                point: *v,
                normal: -n,
                depth: -h,
            })
        })
        .collect()
}

fn round_triangle(c: &Point3, r: Real, tri: &Triangle, margin: Real) -> Option<ContactPoint> {
    let q = closest::point_triangle(c, tri);
    // A centre behind the face and over it has sunk past the face: out through the front.
    if let Some(n) = tri.normal() {
        let h = n.dot(&(c - tri.a));
        if h <= 0.0 && ((c - n * h) - q).norm() <= 1e-9 * (1.0 + h.abs()) {
            return Some(ContactPoint {
                point: q,
                normal: -n,
                depth: r - h,
            });
        }
    }
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

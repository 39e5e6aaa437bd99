//! A convex or round shape against a triangle mesh: each triangle whose box overlaps the
//! shape's is tested on its own (a triangle is a flat polyhedron with two faces). A mesh is
//! a solid's surface (closed meshes) or a ground (height fields), both with outward normals:
//! a shape sunk more than half through a face is pushed back out of the front, with its
//! depth measured from the face to its deepest point, never through to the back.

use super::ContactPoint;
use super::manifold::dedup;
use super::polyhedra::{HullAxes, polyhedron_contacts_over};
use super::reduce::{MAX_PAIR_CONTACTS, reduce};
use super::round::{capsule_segment, sphere_sphere};
use super::thinning::{MAX_PAIR_TRIANGLES, Thinned, thin};
use crate::bvh::AnyBvh;
use crate::bvh::near::triangles_near_in_world;
use crate::geom::Shape;
use crate::geom::{
    ConvexPolyhedron, Point3, Pose, Real, Segment, TriMesh, Triangle, Vec3, closest,
};

/// Contacts with the normal pointing from `shape` to the mesh, and whether only a sample of
/// the triangles near the shape was tested. The mesh's hierarchy, when there is one, finds
/// those triangles: the same triangles in the same order as a scan of them all, so the same
/// contacts, without a pass over a large mesh.
pub fn shape_mesh_in_tree(
    shape: &Shape,
    pose: &Pose,
    mesh: &TriMesh,
    mesh_pose: &Pose,
    tree: Option<&AnyBvh>,
    margin: Real,
) -> (Vec<ContactPoint>, Option<Thinned>) {
    let bounds = shape.aabb(pose).loosened(margin);
    let world_poly = shape.polyhedron().map(|p| p.transformed(pose));
    let test = TriangleTest {
        shape,
        pose,
        axis: matches!(shape, Shape::Capsule { .. }).then(|| capsule_segment(shape, pose)),
        reach: world_poly.as_ref().map(FaceReach::new),
        poly: world_poly.as_ref(),
        margin,
    };
    // The triangles whose world box meets the shape's, in index order (the hierarchy's
    // candidates, or all of them), then a sample of them if they are too many.
    let candidates = triangles_near_in_world(mesh, tree, mesh_pose, &bounds)
        .unwrap_or_else(|| (0..mesh.triangles.len() as u32).collect());
    let near: Vec<Triangle> = candidates
        .into_iter()
        .map(|t| {
            let local = mesh.triangle(t as usize);
            Triangle::new(
                mesh_pose * local.a,
                mesh_pose * local.b,
                mesh_pose * local.c,
            )
        })
        .filter(|tri| crate::geom::Aabb::from_points(&tri.vertices()).intersects(&bounds))
        .collect();
    let (near, thinned) = thin(near, MAX_PAIR_TRIANGLES, "triangles");
    let mut found = Found::default();
    for tri in &near {
        test.run(tri, &mut found);
    }
    let points = without_inner_edges(found.points, &found.on_face);
    // The pair keeps a bounded manifold anyway (`reduce`): past a few times its size, the
    // candidates are reduced before the merge, which would otherwise hash each of them.
    if points.len() > 8 * MAX_PAIR_CONTACTS {
        return (dedup(reduce(points), 1e-6), thinned);
    }
    (dedup(points, 1e-6), thinned)
}

/// The contacts found so far, and for each whether its point lies over the inside of its
/// triangle's face.
#[derive(Default)]
struct Found {
    points: Vec<ContactPoint>,
    on_face: Vec<bool>,
}

impl Found {
    fn push(&mut self, hit: ContactPoint, on_face: bool) {
        self.points.push(hit);
        self.on_face.push(on_face);
    }
}

/// The shape, prepared once, against one triangle (in the world) at a time.
struct TriangleTest<'a> {
    shape: &'a Shape,
    pose: &'a Pose,
    /// A capsule's axis and radius, in the world.
    axis: Option<(Segment, Real)>,
    poly: Option<&'a ConvexPolyhedron>,
    reach: Option<FaceReach<'a>>,
    margin: Real,
}

impl TriangleTest<'_> {
    fn run(&self, tri: &Triangle, found: &mut Found) {
        let margin = self.margin;
        match self.shape {
            Shape::Sphere { radius } => {
                let c: Point3 = self.pose.translation.vector.into();
                if let Some(hit) = round_triangle(&c, *radius, tri, margin) {
                    found.push(hit, over_face(&c, tri));
                }
            }
            Shape::Capsule { .. } => {
                let Some((seg, r)) = self.axis else {
                    return;
                };
                for p in closest::segment_triangle_candidates(&seg, tri) {
                    if let Some(hit) = round_triangle(&p, r, tri, margin) {
                        found.push(hit, over_face(&p, tri));
                    }
                }
            }
            Shape::Box { .. } | Shape::Convex(_) => {
                let (Some(poly), Some(n)) = (self.poly, tri.normal()) else {
                    return;
                };
                // Corners over the face and within the margin of it meet the face itself;
                // otherwise the shape meets the triangle's edges or corners, which the
                // separating axes of the flat triangle describe.
                let corners = corners_over(poly, tri, &n, margin);
                if !corners.is_empty() {
                    corners.into_iter().for_each(|c| found.push(c, true));
                } else if let Some(reach) = self.reach.as_ref().filter(|r| !r.apart(tri, margin))
                    && let Some(flat) = triangle_polyhedron(tri)
                {
                    for c in polyhedron_contacts_over(poly, Some(&reach.axes), &flat, margin) {
                        found.push(c, false);
                    }
                }
            }
            Shape::Mesh(_) => {}
        }
    }
}

/// How far a polyhedron reaches along each of its face normals: the first test of the
/// separating axes, taken once for all the triangles instead of once per triangle, and
/// without building each triangle's polyhedron. A triangle it separates gets no contact
/// from [`polyhedron_contacts_over`] either (the same sums, in the same order).
struct FaceReach<'a> {
    poly: &'a ConvexPolyhedron,
    axes: HullAxes,
}

impl<'a> FaceReach<'a> {
    fn new(poly: &'a ConvexPolyhedron) -> Self {
        FaceReach {
            poly,
            axes: HullAxes::of(poly),
        }
    }

    /// True when a face plane of the polyhedron has the whole triangle more than `margin`
    /// in front of it.
    fn apart(&self, tri: &Triangle, margin: Real) -> bool {
        self.poly
            .normals
            .iter()
            .zip(&self.axes.reach)
            .any(|(n, reach)| {
                let nearest = tri
                    .vertices()
                    .iter()
                    .map(|v| v.coords.dot(n))
                    .fold(Real::INFINITY, Real::min);
                reach - nearest < -margin
            })
    }
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

fn triangle_polyhedron(tri: &Triangle) -> Option<ConvexPolyhedron> {
    tri.normal()?;
    Some(ConvexPolyhedron::two_faced_triangle(tri))
}

//! The distance conservative advancement needs: signed (negative inside), exact or a lower
//! bound, never more than the true distance, so an advancement step never jumps past contact.
//!
//! Two polyhedra (boxes and hulls) take GJK's exact distance, and EPA's depth when they
//! overlap. A sphere or a capsule apart from a hull takes GJK's distance from its centre or
//! axis, less its radius. Otherwise it comes from the narrow phase run with a large margin:
//! round shapes give their exact distance.
//! Against a mesh, the separation from each nearby triangle taken on its own: the contacts
//! of a mesh prefer its faces and drop the edges between them, which is right for the solver
//! but is no lower bound. The mesh's hierarchy finds the nearby triangles, and each is
//! measured directly (a point or a segment against it, or GJK), with nothing allocated: an
//! advancement step may visit every triangle of a dense mesh wrapped around the body. Mesh
//! against mesh has no distance here (contacts go through the hierarchies): `None`.

use crate::bvh::AnyBvh;
use crate::bvh::near::{TriangleSearch, has_nan, rounding_slack, search_triangles};
use crate::convex::gjk::{GjkWarmStart, epa, gjk_distance_within};
use crate::convex::support::{Posed, SupportMap};
use crate::geom::closest::{point_triangle, segment_box_distance, segment_triangle_distance};
use crate::geom::{
    Aabb, ConvexPolyhedron, Point3, Pose, Real, Segment, Shape, TriMesh, Triangle, Vec3,
};
use crate::narrow;
use crate::trace::NoProbe;
use std::ops::ControlFlow;

/// One side of a distance query: a shape at a pose, with its hierarchy when it is a mesh
/// (without one, a mesh's triangles are scanned).
#[derive(Clone, Copy)]
pub struct ShapeAt<'a> {
    pub shape: &'a Shape,
    pub pose: &'a Pose,
    pub tree: Option<&'a AnyBvh>,
}

impl<'a> ShapeAt<'a> {
    pub fn new(shape: &'a Shape, pose: &'a Pose) -> Self {
        ShapeAt {
            shape,
            pose,
            tree: None,
        }
    }
}

/// The signed distance between two shapes at their poses, or `cap` when they are further
/// apart than `cap` (a valid lower bound, and cheap: the narrow phase culls by it).
pub fn signed_distance(a: ShapeAt, b: ShapeAt, cap: Real) -> Option<Real> {
    signed_distance_until(a, b, cap, Real::NEG_INFINITY)
}

/// [`signed_distance`] for a caller that only needs to know whether the shapes come within
/// `enough`: at or below it, the answer may be any distance at most `enough` that is not
/// below the true one (a shape against a mesh stops at the first triangle that close).
pub fn signed_distance_until(a: ShapeAt, b: ShapeAt, cap: Real, enough: Real) -> Option<Real> {
    match (a.shape, b.shape) {
        (Shape::Mesh(_), Shape::Mesh(_)) => return None,
        (Shape::Mesh(mesh), _) => return Some(to_triangles(b.shape, b.pose, mesh, a, cap, enough)),
        (_, Shape::Mesh(mesh)) => return Some(to_triangles(a.shape, a.pose, mesh, b, cap, enough)),
        _ => {}
    }
    if let (Some(p), Some(q)) = (polyhedron(a.shape), polyhedron(b.shape)) {
        let (p, q) = (
            Posed {
                shape: p,
                pose: a.pose,
            },
            Posed {
                shape: q,
                pose: b.pose,
            },
        );
        return Some(polyhedra(&p, &q, cap).min(cap));
    }
    if let Some(d) = round_to_hull(a, b, cap).or_else(|| round_to_hull(b, a, cap)) {
        return Some(d.min(cap));
    }
    let contacts = narrow::collide(a.shape, a.pose, b.shape, b.pose, cap);
    if contacts.is_empty() {
        return Some(cap);
    }
    Some((-narrow::max_depth(&contacts)).min(cap))
}

/// A sphere or a capsule apart from a hull: GJK's distance from its centre or axis, less its
/// radius, shaved like [`polyhedra`]'s, or `cap` once GJK shows it is further. None when the
/// centre or axis reaches the hull (the narrow phase then measures the depth) or when the
/// pair is not of that kind.
fn round_to_hull(round: ShapeAt, hull: ShapeAt, cap: Real) -> Option<Real> {
    let poly = polyhedron(hull.shape)?;
    let (axis, radius) = narrow::round::round_axis(round.shape, round.pose)?;
    let posed = Posed {
        shape: poly,
        pose: hull.pose,
    };
    let Some(apart) = gjk_distance_within(&axis, &posed, GjkWarmStart::default(), cap + radius)
    else {
        return Some(cap);
    };
    (!apart.penetrating && apart.distance > 0.0).then_some(apart.distance * (1.0 - 1e-9) - radius)
}

fn polyhedron(s: &Shape) -> Option<&ConvexPolyhedron> {
    match s {
        Shape::Box { polyhedron, .. } | Shape::Convex(polyhedron) => Some(polyhedron),
        _ => None,
    }
}

/// Two convex shapes with vertices: GJK's distance (EPA's depth, negated, when they
/// overlap), or `cap` once GJK shows they are further apart than that. GJK's distance is
/// within its relative tolerance above the true one; shaving a little more keeps the bound
/// below it. EPA's depth is the support distance of a face, never below the true depth.
fn polyhedra(a: &impl SupportMap, b: &impl SupportMap, cap: Real) -> Real {
    let Some(gjk) = gjk_distance_within(a, b, GjkWarmStart::default(), cap) else {
        return cap;
    };
    let d = if gjk.penetrating {
        -epa(a, b, &gjk.simplex, [0, 1], &mut NoProbe).depth
    } else {
        gjk.distance
    };
    d - d.abs() * 1e-9
}

/// The smallest separation of `shape` from the mesh's triangles near it, each on its own,
/// measured in the mesh's frame. Once a triangle comes within `enough`, the search stops:
/// the caller only needs to know that it is that close.
fn to_triangles(
    shape: &Shape,
    pose: &Pose,
    mesh: &TriMesh,
    at: ShapeAt,
    cap: Real,
    enough: Real,
) -> Real {
    let local = at.pose.inv_mul(pose);
    let bounds = shape.aabb(&local);
    if has_nan(&bounds) {
        return cap;
    }
    let posed = polyhedron(shape).map(|p| p.transformed(&local));
    let mut search = NearestTriangle {
        gap: TriangleGap::new(shape, &local, posed.as_ref()),
        bounds,
        best: cap,
        enough,
    };
    search_triangles(mesh, at.tree, &mut search);
    search.best
}

/// The search for the nearest triangle: a subtree further than the best found is skipped.
struct NearestTriangle<'a> {
    gap: TriangleGap<'a>,
    /// The shape's box in the mesh's frame.
    bounds: Aabb,
    best: Real,
    enough: Real,
}

impl TriangleSearch for NearestTriangle<'_> {
    fn lower_bound(&mut self, b: &Aabb) -> Option<Real> {
        if !b.intersects(&self.bounds.loosened(self.best)) {
            return None;
        }
        Some(self.gap.lower_bound(b, &self.bounds))
    }

    fn still_wanted(&self, lower_bound: Real) -> bool {
        lower_bound < self.best
    }

    fn triangle(&mut self, _: usize, tri: &Triangle) -> ControlFlow<()> {
        if tri.normal().is_some() {
            self.best = self.best.min(self.gap.to(tri));
        }
        if self.best <= self.enough {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// A shape's signed separation from one triangle, prepared once for all the triangles.
enum TriangleGap<'a> {
    Ball {
        centre: Point3,
        radius: Real,
    },
    Capsule {
        axis: Segment,
        radius: Real,
    },
    /// The polyhedron in the mesh's frame, with how far it reaches along each face normal.
    Polyhedron {
        poly: &'a ConvexPolyhedron,
        reach: Vec<Real>,
    },
    /// Mesh against mesh never gets here.
    None,
}

impl<'a> TriangleGap<'a> {
    fn new(shape: &Shape, pose: &Pose, posed: Option<&'a ConvexPolyhedron>) -> Self {
        match (shape, posed) {
            (Shape::Sphere { radius }, _) => TriangleGap::Ball {
                centre: pose.translation.vector.into(),
                radius: *radius,
            },
            (Shape::Capsule { .. }, _) => {
                let (axis, radius) = narrow::round::capsule_segment(shape, pose);
                TriangleGap::Capsule { axis, radius }
            }
            (_, Some(poly)) => TriangleGap::Polyhedron {
                poly,
                reach: poly
                    .normals
                    .iter()
                    .map(|n| {
                        let (_, hi) = interval(&poly.vertices, n);
                        hi
                    })
                    .collect(),
            },
            _ => TriangleGap::None,
        }
    }

    fn to(&self, tri: &Triangle) -> Real {
        match self {
            TriangleGap::Ball { centre, radius } => {
                (centre - point_triangle(centre, tri)).norm() - radius
            }
            TriangleGap::Capsule { axis, radius } => segment_triangle_distance(axis, tri) - radius,
            TriangleGap::Polyhedron { poly, .. } => polyhedra(*poly, tri, Real::INFINITY),
            TriangleGap::None => Real::INFINITY,
        }
    }

    /// A lower bound on the signed distance from the shape to anything in box `b`: the gap
    /// between `b` and the shape's box `bounds`, or a face plane of the polyhedron with `b` wholly in
    /// front of it, or the ball's (or the capsule's axis') distance to `b`. A few ulps are taken off for the rounding
    /// of the sums, so the bound stays below the distance the triangles will measure.
    fn lower_bound(&self, b: &Aabb, bounds: &Aabb) -> Real {
        // Along each axis, how far apart the boxes are (negative where they overlap): the
        // length of the positive parts when there are some, the largest part otherwise
        // (a separation along one direction never exceeds the signed distance).
        let apart = (b.min - bounds.max).sup(&(bounds.min - b.max));
        let mut lower = if apart.max() > 0.0 {
            apart.sup(&Vec3::zeros()).norm()
        } else {
            apart.max()
        };
        match self {
            TriangleGap::Ball { centre, radius } => {
                lower = lower.max((b.closest_point(centre) - centre).norm() - radius);
            }
            TriangleGap::Polyhedron { poly, reach } => {
                let corners = b.corners();
                for (n, reach) in poly.normals.iter().zip(reach) {
                    lower = lower.max(interval(&corners, n).0 - reach);
                }
            }
            TriangleGap::Capsule { axis, radius } => {
                lower = lower.max(segment_box_distance(axis, b) - radius);
            }
            TriangleGap::None => {}
        }
        lower - rounding_slack(&b.merged(bounds))
    }
}

/// The extent of points along `u`.
fn interval(points: &[Point3], u: &Vec3) -> (Real, Real) {
    points
        .iter()
        .fold((Real::INFINITY, Real::NEG_INFINITY), |(lo, hi), v| {
            let d = v.coords.dot(u);
            (lo.min(d), hi.max(d))
        })
}

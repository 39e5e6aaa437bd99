//! The ray between two positions (spec 004 §8, solution 1): the segment a point follows
//! from its position at the start of a step to its position at the end, tested against a
//! solid. With a radius, the solid is inflated by it (a Minkowski sum with a ball), which
//! makes the test the exact swept sphere rather than the course's point approximation.
//!
//! Every function returns the first fraction `t` in `[0, 1]` of the segment `o + t·d` inside
//! the (inflated) solid: `Some(0.0)` when `o` already is, `None` when the segment misses.

use crate::bvh::AnyBvh;
use crate::geom::Shape;
use crate::geom::triangle::scaled_normal;
use crate::geom::{Aabb, ConvexPolyhedron, Point3, Pose, Ray, Real, TriMesh, Triangle, Vec3};
use crate::trace::NoProbe;

/// Relative slack on parallel tests, so a segment grazing a face counts the same whichever
/// way the rounding goes.
const PARALLEL: Real = 1e-14;

pub fn ray_sphere(o: &Point3, d: &Vec3, c: &Point3, r: Real) -> Option<Real> {
    let m = o - c;
    let cc = m.norm_squared() - r * r;
    if cc <= 0.0 {
        return Some(0.0);
    }
    let a = d.norm_squared();
    let b = m.dot(d);
    if a <= 0.0 || b >= 0.0 {
        return None;
    }
    let disc = b * b - a * cc;
    if disc < 0.0 {
        return None;
    }
    // The smaller root, written to avoid cancellation when b dominates.
    let t = cc / (-b + disc.sqrt());
    (t <= 1.0).then_some(t.max(0.0))
}

/// Entry into the capsule of segment `a`–`b` and radius `r`.
pub fn ray_capsule(o: &Point3, d: &Vec3, a: &Point3, b: &Point3, r: Real) -> Option<Real> {
    let axis = b - a;
    let len = axis.norm();
    if len <= 1e-300 {
        return ray_sphere(o, d, a, r);
    }
    let u = axis / len;
    let m = o - a;
    let along = m.dot(&u);
    let m_perp = m - u * along;
    if (0.0..=len).contains(&along) && m_perp.norm_squared() <= r * r {
        return Some(0.0);
    }
    let mut best = ray_sphere(o, d, a, r);
    best = min_hit(best, ray_sphere(o, d, b, r));
    let d_perp = d - u * d.dot(&u);
    let qa = d_perp.norm_squared();
    if qa > PARALLEL * d.norm_squared() {
        let qb = m_perp.dot(&d_perp);
        let qc = m_perp.norm_squared() - r * r;
        let disc = qb * qb - qa * qc;
        if disc >= 0.0 && qc > 0.0 && qb < 0.0 {
            let t = qc / (-qb + disc.sqrt());
            let s = along + t * d.dot(&u);
            if (0.0..=1.0).contains(&t) && (0.0..=len).contains(&s) {
                best = min_hit(best, Some(t));
            }
        }
    }
    best
}

/// Entry into a convex polyhedron (Cyrus–Beck clipping against its face planes).
pub fn ray_polyhedron(o: &Point3, d: &Vec3, poly: &ConvexPolyhedron) -> Option<Real> {
    let (mut enter, mut exit) = (0.0 as Real, 1.0 as Real);
    for (f, n) in poly.normals.iter().enumerate() {
        let dist = poly.face_plane_distance(f, o);
        let rate = n.dot(d);
        if rate.abs() <= PARALLEL * d.norm() {
            if dist > 0.0 {
                return None;
            }
            continue;
        }
        let t = -dist / rate;
        if rate < 0.0 {
            enter = enter.max(t);
        } else {
            exit = exit.min(t);
        }
        if enter > exit {
            return None;
        }
    }
    Some(enter)
}

/// Hit of the segment with a flat convex polygon (counter-clockwise about `n`), lifted by
/// `lift` along `n`.
fn ray_polygon(o: &Point3, d: &Vec3, pts: &[Point3], n: &Vec3, lift: Real) -> Option<Real> {
    let rate = n.dot(d);
    if rate.abs() <= PARALLEL * d.norm() {
        return None;
    }
    let origin = pts[0] + n * lift;
    let t = (origin - o).dot(n) / rate;
    if !(0.0..=1.0).contains(&t) {
        return None;
    }
    let x = o + d * t - n * lift;
    let scale = pts.iter().map(|p| (p - pts[0]).norm()).fold(0.0, Real::max);
    let inside = (0..pts.len()).all(|i| {
        let (p, q) = (pts[i], pts[(i + 1) % pts.len()]);
        scaled_normal(p, q, x).dot(n) >= -1e-12 * scale * scale
    });
    inside.then_some(t)
}

/// Whether `p` lies over the polygon (counter-clockwise about `n`) within `r` of its plane
/// on the side `n` points to: the one part of the rounded solid the entry tests cannot see
/// when the segment starts inside it.
fn in_slab_over_polygon(p: &Point3, pts: &[Point3], n: &Vec3, r: Real) -> bool {
    let height = (p - pts[0]).dot(n);
    if !(0.0..=r).contains(&height) {
        return false;
    }
    let x = p - n * height;
    let scale = pts.iter().map(|q| (q - pts[0]).norm()).fold(0.0, Real::max);
    let turn = |i: usize| {
        let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
        scaled_normal(a, b, x).dot(n)
    };
    let tol = 1e-12 * scale * scale;
    (0..pts.len()).all(|i| turn(i) >= -tol) || (0..pts.len()).all(|i| turn(i) <= tol)
}

/// Entry into a convex polyhedron inflated by `r`: the polyhedron itself, its faces lifted
/// by `r` and the capsules of its edges make up the rounded solid, so the first entry into
/// any of them is the entry into the whole.
pub fn ray_rounded_polyhedron(
    o: &Point3,
    d: &Vec3,
    poly: &ConvexPolyhedron,
    r: Real,
) -> Option<Real> {
    let mut best = ray_polyhedron(o, d, poly);
    if r <= 0.0 || best == Some(0.0) {
        return best;
    }
    for (face, n) in poly.faces.iter().zip(&poly.normals) {
        let pts: Vec<Point3> = face.iter().map(|&i| poly.vertices[i as usize]).collect();
        if in_slab_over_polygon(o, &pts, n, r) {
            return Some(0.0);
        }
        best = min_hit(best, ray_polygon(o, d, &pts, n, r));
    }
    for [i, j] in &poly.edges {
        let (a, b) = (poly.vertices[*i as usize], poly.vertices[*j as usize]);
        best = min_hit(best, ray_capsule(o, d, &a, &b, r));
        if best == Some(0.0) {
            break;
        }
    }
    best
}

/// Entry into a triangle inflated by `r` (for `r = 0`, the crossing of the triangle).
pub fn ray_rounded_triangle(o: &Point3, d: &Vec3, tri: &Triangle, r: Real) -> Option<Real> {
    let mut best = Ray::new(*o, *d)
        .intersect_triangle(tri)
        .map(|(t, _, _)| t)
        .filter(|t| (0.0..=1.0).contains(t));
    if r <= 0.0 {
        return best;
    }
    let pts = tri.vertices();
    if let Some(n) = tri.normal() {
        if in_slab_over_polygon(o, &pts, &n, r) || in_slab_over_polygon(o, &pts, &-n, r) {
            return Some(0.0);
        }
        best = min_hit(best, ray_polygon(o, d, &pts, &n, r));
        best = min_hit(best, ray_polygon(o, d, &pts, &n, -r));
    }
    for (a, b) in [(pts[0], pts[1]), (pts[1], pts[2]), (pts[2], pts[0])] {
        best = min_hit(best, ray_capsule(o, d, &a, &b, r));
    }
    best
}

/// First entry of the segment into any triangle of a mesh inflated by `r`. Without a radius
/// the mesh's hierarchy answers; with one, triangles whose box meets the swept ball's box.
pub fn ray_rounded_mesh(
    o: &Point3,
    d: &Vec3,
    mesh: &TriMesh,
    tree: Option<&AnyBvh>,
    r: Real,
) -> Option<Real> {
    if r <= 0.0
        && let Some(tree) = tree
    {
        return tree
            .cast_ray(mesh, &Ray::new(*o, *d), 1.0, 0, &mut NoProbe)
            .map(|h| h.t);
    }
    let swept = Aabb::from_points(&[*o, o + d]).loosened(r);
    let mut best = None;
    for tri in mesh.triangles() {
        if Aabb::from_points(&tri.vertices()).intersects(&swept) {
            best = min_hit(best, ray_rounded_triangle(o, d, &tri, r));
        }
    }
    best
}

/// The segment `p0`→`p1` (world space) against `shape` at `pose` inflated by `radius`.
pub fn segment_vs_shape(
    p0: &Point3,
    p1: &Point3,
    radius: Real,
    shape: &Shape,
    pose: &Pose,
    tree: Option<&AnyBvh>,
) -> Option<Real> {
    let o = pose.inverse_transform_point(p0);
    let d = pose.inverse_transform_point(p1) - o;
    segment_vs_local_shape(&o, &d, radius, shape, tree)
}

/// The same, with the segment already in the shape's frame. Continuous collision uses it
/// with the segment of one body's centre relative to the other body's motion.
pub fn segment_vs_local_shape(
    o: &Point3,
    d: &Vec3,
    radius: Real,
    shape: &Shape,
    tree: Option<&AnyBvh>,
) -> Option<Real> {
    match shape {
        Shape::Sphere { radius: r } => ray_sphere(o, d, &Point3::origin(), r + radius),
        Shape::Capsule {
            radius: r,
            half_height,
        } => {
            let a = Point3::new(0.0, -half_height, 0.0);
            let b = Point3::new(0.0, *half_height, 0.0);
            ray_capsule(o, d, &a, &b, r + radius)
        }
        Shape::Box { polyhedron, .. } | Shape::Convex(polyhedron) => {
            ray_rounded_polyhedron(o, d, polyhedron, radius)
        }
        Shape::Mesh(mesh) => ray_rounded_mesh(o, d, mesh, tree, radius),
    }
}

fn min_hit(a: Option<Real>, b: Option<Real>) -> Option<Real> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

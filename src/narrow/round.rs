//! Contacts of round shapes: spheres and capsules, against each other and against polyhedra.

use super::ContactPoint;
use super::manifold::dedup;
use crate::convex::gjk::{GjkResult, gjk_distance};
use crate::convex::support::SupportMap;
use crate::geom::Shape;
use crate::geom::{ConvexPolyhedron, Point3, Pose, Real, Segment, Triangle, Vec3, closest};
use crate::trace::NoProbe;

/// Spec 004 §5.1: the spheres touch when the centre distance is at most the sum of the radii.
/// Within `margin` of touching, a speculative contact (negative depth) is returned so the
/// solver can stop a fast body before it penetrates.
pub fn sphere_sphere(
    ca: &Point3,
    ra: Real,
    cb: &Point3,
    rb: Real,
    margin: Real,
) -> Option<ContactPoint> {
    let d = cb - ca;
    let dist = d.norm();
    if dist > ra + rb + margin {
        return None;
    }
    let normal = if dist > 1e-12 { d / dist } else { Vec3::y() };
    let depth = ra + rb - dist;
    Some(ContactPoint {
        point: ca + normal * (ra - depth * 0.5),
        normal,
        depth,
    })
}

/// The inner segment of a capsule in world space.
pub fn capsule_segment(shape: &Shape, pose: &Pose) -> (Segment, Real) {
    match shape {
        Shape::Capsule {
            radius,
            half_height,
        } => {
            let axis = pose.rotation * Vec3::new(0.0, *half_height, 0.0);
            let c: Point3 = pose.translation.vector.into();
            (Segment::new(c - axis, c + axis), *radius)
        }
        _ => (Segment::new(Point3::origin(), Point3::origin()), 0.0),
    }
}

/// Spec 004 §5.2: distance from the sphere's centre to the capsule's inner segment.
pub fn sphere_capsule(
    c: &Point3,
    r: Real,
    capsule: &Shape,
    pose: &Pose,
    margin: Real,
) -> Option<ContactPoint> {
    let (seg, rc) = capsule_segment(capsule, pose);
    let q = closest::point_segment(c, &seg).0;
    sphere_sphere(c, r, &q, rc, margin)
}

/// Spec 004 §5.3: distance between the inner segments. Nearly parallel capsules get a second
/// contact from the far ends, so a capsule lying on another does not pivot on one point.
pub fn capsule_capsule(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: Real,
) -> Vec<ContactPoint> {
    let (sa, ra) = capsule_segment(a, pose_a);
    let (sb, rb) = capsule_segment(b, pose_b);
    let (p, q) = closest::segment_segment(&sa, &sb);
    let mut out: Vec<ContactPoint> = sphere_sphere(&p.point, ra, &q.point, rb, margin)
        .into_iter()
        .collect();
    let (da, db) = (sa.b - sa.a, sb.b - sb.a);
    let parallel = da.cross(&db).norm() <= 1e-3 * da.norm() * db.norm();
    if !out.is_empty() && parallel {
        for end in [sa.a, sa.b] {
            let q = closest::point_segment(&end, &sb).0;
            out.extend(sphere_sphere(&end, ra, &q, rb, margin));
        }
        out = dedup(out, 1e-6);
    }
    out
}

/// Sphere against a convex polyhedron (world space); the normal points from the polyhedron
/// to the sphere.
pub fn sphere_polyhedron(
    poly: &ConvexPolyhedron,
    c: &Point3,
    r: Real,
    margin: Real,
) -> Option<ContactPoint> {
    let (face, sd) = (0..poly.faces.len())
        .map(|f| (f, poly.face_plane_distance(f, c)))
        .max_by(|x, y| x.1.total_cmp(&y.1))?;
    if sd <= 0.0 {
        // The centre is inside: push out through the nearest face.
        let n = poly.normals[face];
        return Some(ContactPoint {
            point: c - n * sd,
            normal: n,
            depth: r - sd,
        });
    }
    let q = closest_on_surface(poly, c);
    let d = c - q;
    let dist = d.norm();
    if dist > r + margin {
        return None;
    }
    let normal = if dist > 1e-12 {
        d / dist
    } else {
        poly.normals[face]
    };
    Some(ContactPoint {
        point: q,
        normal,
        depth: r - dist,
    })
}

/// The point of the polyhedron's surface nearest `p`. From outside, the nearest point lies on
/// a face `p` sees (a face through it has `p` above its plane, or the offset `p - q` would
/// point into the polyhedron), so only those faces are searched; from inside, every face.
fn closest_on_surface(poly: &ConvexPolyhedron, p: &Point3) -> Point3 {
    let outside = (0..poly.faces.len()).any(|f| poly.face_plane_distance(f, p) > 0.0);
    let mut best = poly.vertices[0];
    let mut best_d = Real::INFINITY;
    for (f, face) in poly.faces.iter().enumerate() {
        if outside && poly.face_plane_distance(f, p) <= 0.0 {
            continue;
        }
        for i in 1..face.len().saturating_sub(1) {
            let t = Triangle::new(
                poly.vertices[face[0] as usize],
                poly.vertices[face[i] as usize],
                poly.vertices[face[i + 1] as usize],
            );
            let q = closest::point_triangle(p, &t);
            let d = (p - q).norm_squared();
            if d < best_d {
                best_d = d;
                best = q;
            }
        }
    }
    best
}

/// Capsule against a convex polyhedron: spheres at both ends and at the segment point
/// closest to the polyhedron, which gives two contacts for a capsule lying on a face.
pub fn capsule_polyhedron(
    poly: &ConvexPolyhedron,
    capsule: &Shape,
    pose: &Pose,
    margin: Real,
) -> Vec<ContactPoint> {
    let (seg, r) = capsule_segment(capsule, pose);
    let candidates = [seg.a, seg.b, nearest_on_segment(poly, &seg)];
    let contacts = candidates
        .iter()
        .filter_map(|c| sphere_polyhedron(poly, c, r, margin))
        .collect();
    dedup(contacts, 1e-6 + 1e-3 * r)
}

/// The point of the segment closest to the polyhedron, or deepest in it. Apart, GJK's closest
/// point on the segment; once the segment reaches the polyhedron (the capsule sunk past its
/// radius), a search along the segment for the deepest point.
fn nearest_on_segment(poly: &ConvexPolyhedron, seg: &Segment) -> Point3 {
    match axis_apart_from(poly, seg) {
        Some(apart) => apart.point_a,
        None => deepest_on_segment(poly, seg),
    }
}

/// A sphere's centre (a segment of no length) or a capsule's inner segment, with its radius;
/// none for other shapes.
pub fn round_axis(shape: &Shape, pose: &Pose) -> Option<(Segment, Real)> {
    match shape {
        Shape::Sphere { radius } => {
            let c: Point3 = pose.translation.vector.into();
            Some((Segment::new(c, c), *radius))
        }
        Shape::Capsule { .. } => Some(capsule_segment(shape, pose)),
        _ => None,
    }
}

/// GJK from a round shape's axis to a convex shape while they are apart (the closest points
/// and the distance); none once the axis reaches it.
pub fn axis_apart_from(hull: &impl SupportMap, axis: &Segment) -> Option<GjkResult> {
    let apart = gjk_distance(axis, hull, &mut NoProbe);
    (!apart.penetrating && apart.distance > 0.0).then_some(apart)
}

/// The segment point of least signed distance to the polyhedron's surface (negative inside):
/// a few golden-section steps on that convex function of the position along the segment.
fn deepest_on_segment(poly: &ConvexPolyhedron, seg: &Segment) -> Point3 {
    let dist = |t: Real| {
        let p = seg.at(t);
        let q = closest_on_surface(poly, &p);
        let inside = poly.contains_point(&p, 0.0);
        if inside {
            -(p - q).norm()
        } else {
            (p - q).norm()
        }
    };
    // Each step keeps one interior point and its distance, so it measures one new point.
    let (mut lo, mut hi) = (0.0, 1.0);
    let g = 0.618_033_988_75;
    let (mut m1, mut m2) = (1.0 - g, g);
    let (mut d1, mut d2) = (dist(m1), dist(m2));
    for _ in 0..24 {
        if d1 < d2 {
            (hi, m2, d2) = (m2, m1, d1);
            m1 = hi - g * (hi - lo);
            d1 = dist(m1);
        } else {
            (lo, m1, d1) = (m1, m2, d2);
            m2 = lo + g * (hi - lo);
            d2 = dist(m2);
        }
    }
    seg.at(0.5 * (lo + hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sphere_resting_on_box_face() {
        let poly = ConvexPolyhedron::cuboid(Vec3::new(1.0, 1.0, 1.0));
        let c = sphere_polyhedron(&poly, &Point3::new(0.2, 1.4, 0.0), 0.5, 0.0).unwrap();
        assert!((c.depth - 0.1).abs() < 1e-12);
        assert!((c.normal - Vec3::y()).norm() < 1e-12);
        assert!(sphere_polyhedron(&poly, &Point3::new(0.2, 1.6, 0.0), 0.5, 0.0).is_none());
        // near a corner the closest point is the corner
        let c = sphere_polyhedron(&poly, &Point3::new(1.2, 1.2, 1.2), 0.5, 0.0).unwrap();
        assert!((c.point - Point3::new(1.0, 1.0, 1.0)).norm() < 1e-12);
    }

    use proptest::prelude::*;

    fn every_triangle(poly: &ConvexPolyhedron, p: &Point3) -> Real {
        poly.triangles()
            .iter()
            .map(|&[i, j, k]| {
                let t = Triangle::new(
                    poly.vertices[i as usize],
                    poly.vertices[j as usize],
                    poly.vertices[k as usize],
                );
                (p - closest::point_triangle(p, &t)).norm()
            })
            .fold(Real::INFINITY, Real::min)
    }

    proptest! {
        /// Searching only the faces a point sees finds the distance every triangle gives,
        /// from far off, near the surface, on it and inside.
        #[test]
        fn seen_faces_hold_the_nearest_point(
            points in prop::collection::vec(prop::array::uniform3(-1.0..1.0_f64), 4..16),
            p in prop::array::uniform3(-2.0..2.0_f64),
            on_vertex in any::<bool>(),
        ) {
            let pts: Vec<Point3> = points.iter().map(|c| Point3::from(*c)).collect();
            let Ok(poly) = ConvexPolyhedron::hull(&pts) else { return Ok(()) };
            let p = if on_vertex { poly.vertices[0] } else { Point3::from(p) };
            let q = closest_on_surface(&poly, &p);
            let want = every_triangle(&poly, &p);
            prop_assert!(((p - q).norm() - want).abs() <= 1e-12, "{} {}", (p - q).norm(), want);
        }

        /// A capsule's deepest contact with a hull against dense sampling of its axis: at
        /// least as deep as the deepest of 2,001 points along it, and no deeper than their
        /// spacing allows. Apart, the axis's closest point is exact (GJK's); once the axis
        /// reaches into the hull, the search along it stops within 2e-5 of its length.
        #[test]
        fn a_capsule_is_as_deep_as_dense_sampling_of_its_axis_says(
            points in prop::collection::vec(prop::array::uniform3(-1.0..1.0_f64), 4..16),
            centre in prop::array::uniform3(-1.8..1.8_f64),
            turn in prop::array::uniform3(-3.2..3.2_f64),
            half_height in prop_oneof![Just(0.0), 0.0..0.8_f64],
            radius in 0.05..0.5_f64,
        ) {
            let pts: Vec<Point3> = points.iter().map(|c| Point3::from(*c)).collect();
            let Ok(poly) = ConvexPolyhedron::hull(&pts) else { return Ok(()) };
            let capsule = Shape::Capsule { radius, half_height };
            let pose = Pose::new(Vec3::from(centre), Vec3::from(turn));
            let contacts = capsule_polyhedron(&poly, &capsule, &pose, 10.0);
            let ours = contacts.iter().map(|c| c.depth).fold(Real::NEG_INFINITY, Real::max);
            let (seg, _) = capsule_segment(&capsule, &pose);
            let signed = |p: &Point3| {
                let inside = (0..poly.faces.len()).all(|f| poly.face_plane_distance(f, p) <= 0.0);
                let d = every_triangle(&poly, p);
                if inside { -d } else { d }
            };
            let least = (0..=2000)
                .map(|k| signed(&seg.at(Real::from(k) / 2000.0)))
                .fold(Real::INFINITY, Real::min);
            let sampled = radius - least;
            let len = 2.0 * half_height;
            let below = if least > 1e-6 { 1e-9 } else { 2e-5 * len + 1e-9 };
            prop_assert!(ours >= sampled - below, "ours {ours}, sampled {sampled}");
            prop_assert!(ours <= sampled + len / 2000.0 + 1e-9, "ours {ours}, sampled {sampled}");
        }
    }
}

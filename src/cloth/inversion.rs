//! Inversion detection (spec 002 §4.5): a vertex that changed side of the triangle its ray hit
//! during the step crossed it. Equivalently the tetrahedron (triangle, vertex) changed the sign
//! of its volume.

use crate::geom::{Point3, Real};
use serde::{Deserialize, Serialize};

/// Six times the signed volume of the tetrahedron (a, b, c, p): positive on the side the
/// counter-clockwise normal points to.
pub fn signed_vol6(p: &Point3, [a, b, c]: [Point3; 3]) -> Real {
    (b - a).cross(&(c - a)).dot(&(p - a))
}

/// +1, -1, or 0 when the vertex is within a relative `1e-12` of the plane: a zero side means
/// "no change" (conservative), as the thesis says nothing about degenerate cases.
pub fn side(p: &Point3, tri: [Point3; 3]) -> i8 {
    let v = signed_vol6(p, tri);
    let [a, b, c] = tri;
    let scale = (b - a).norm() * (c - a).norm() * (p - a).norm();
    if v.abs() <= 1e-12 * scale || scale == 0.0 {
        0
    } else if v > 0.0 {
        1
    } else {
        -1
    }
}

/// The side change of `p` relative to the triangle's plane between the two states (the
/// thesis' test, §4.5); None when the side is unchanged or degenerate at either time.
pub fn crossed(
    p_prev: &Point3,
    tri_prev: [Point3; 3],
    p_now: &Point3,
    tri_now: [Point3; 3],
) -> Option<(i8, i8)> {
    // Same strict sign at both ends: no change whatever the degenerate-case rule says (the
    // common case, decided without the scale's square roots).
    let (v0, v1) = (signed_vol6(p_prev, tri_prev), signed_vol6(p_now, tri_now));
    if (v0 > 0.0 && v1 > 0.0) || (v0 < 0.0 && v1 < 0.0) {
        return None;
    }
    let before = side(p_prev, tri_prev);
    let now = side(p_now, tri_now);
    (before * now < 0).then_some((before, now))
}

/// Barycentric slack at the moment of crossing: a vertex that meets the plane on a shared edge
/// belongs to both triangles, so neither misses it.
const EDGE_SLACK: Real = 1e-9;

/// The side change of [`crossed`], kept only when the vertex meets the plane *inside* the
/// triangle. The plane test alone flags a vertex that slides past a neighbouring triangle's
/// plane (on a curved surface every vertex is behind some plane), which the response then
/// pushes through the surface. Motion is linear over the step; the signed volume is cubic in
/// time and changes sign, so bisection finds a crossing time.
pub fn crossed_inside(
    p_prev: &Point3,
    tri_prev: [Point3; 3],
    p_now: &Point3,
    tri_now: [Point3; 3],
) -> Option<(i8, i8)> {
    let sides = crossed(p_prev, tri_prev, p_now, tri_now)?;
    let at = |s: Real| {
        let lerp = |a: &Point3, b: &Point3| a + (b - a) * s;
        (
            lerp(p_prev, p_now),
            [0, 1, 2].map(|k| lerp(&tri_prev[k], &tri_now[k])),
        )
    };
    let f = |s: Real| {
        let (p, tri) = at(s);
        signed_vol6(&p, tri)
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    let f_lo = f(lo);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if (f(mid) > 0.0) == (f_lo > 0.0) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let (p, [a, b, c]) = at(0.5 * (lo + hi));
    let n = (b - a).cross(&(c - a));
    let area2 = n.norm_squared();
    if area2 <= 0.0 {
        return None;
    }
    let wa = (c - b).cross(&(p - b)).dot(&n) / area2;
    let wb = (a - c).cross(&(p - c)).dot(&n) / area2;
    let wc = 1.0 - wa - wb;
    (wa >= -EDGE_SLACK && wb >= -EDGE_SLACK && wc >= -EDGE_SLACK).then_some(sides)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InversionRecord {
    pub cloth: u32,
    pub vertex: u32,
    /// The target the vertex crossed: a rigid body or a cloth.
    pub target: super::Target,
    pub triangle: u32,
    /// A prediction promoted to a collision because the vertex crossed (§4.5 point 5).
    pub promoted: bool,
    /// After the response the vertex is back on the side it held before the step.
    pub corrected: bool,
}

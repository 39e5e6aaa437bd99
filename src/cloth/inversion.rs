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

/// The side change of `p` relative to the triangle between the two states; None when the
/// side is unchanged or degenerate at either time.
pub fn crossed(
    p_prev: &Point3,
    tri_prev: [Point3; 3],
    p_now: &Point3,
    tri_now: [Point3; 3],
) -> Option<(i8, i8)> {
    let before = side(p_prev, tri_prev);
    let now = side(p_now, tri_now);
    (before * now < 0).then_some((before, now))
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

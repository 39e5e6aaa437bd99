//! Inversion detection (spec 002 §4.5): a vertex that changed side of the triangle its ray hit
//! during the step crossed it. Equivalently the tetrahedron (triangle, vertex) changed the sign
//! of its volume.

use super::barycentric::barycentric;
use crate::geom::triangle::scaled_normal;
use crate::geom::{Point3, Real};
use serde::{Deserialize, Serialize};

/// Six times the signed volume of the tetrahedron (a, b, c, p): positive on the side the
/// counter-clockwise normal points to.
pub fn signed_vol6(p: &Point3, [a, b, c]: [Point3; 3]) -> Real {
    scaled_normal(a, b, c).dot(&(p - a))
}

/// +1, -1, or 0 when the vertex is within a relative `1e-12` of the plane: a zero side means
/// "no change" (conservative), as the thesis says nothing about degenerate cases.
pub fn side(p: &Point3, tri: [Point3; 3]) -> i8 {
    let v = signed_vol6(p, tri);
    let [a, b, c] = tri;
    // |v| ≤ 1e-12 |b − a| |c − a| |p − a|, squared (no square roots: every contact runs it).
    let scale2 = (b - a).norm_squared() * (c - a).norm_squared() * (p - a).norm_squared();
    if v * v <= 1e-24 * scale2 || scale2 == 0.0 {
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
    let (p, tri) = at(0.5 * (lo + hi));
    let [wa, wb, wc] = barycentric(&p, tri)?;
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

/// A crossing found by [`spread_crossings`]: `vertex` went through `triangle`, from side
/// `before` to the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpreadCrossing {
    pub vertex: u32,
    pub triangle: u32,
    pub before: i8,
}

/// Where the crossings the rays found spread to (§4.5 widened). The thesis tests only the
/// (vertex, triangle) pairs of this step's rays; but a vertex near a sheet's border can cross
/// a triangle that then slides out from under it within the step, so neither of its rays
/// meets the crossed sheet at the end and the crossing goes unseen. The sheets stay tangled
/// there (the edges from that vertex to its inverted neighbours pierce the other sheet) and the
/// history-based test never sees it again. A crossing is never alone: its region's other
/// vertices crossed too, and the rays of those found it. So each found crossing offers its
/// triangle and the triangles around that triangle's corners to the vertex's mesh neighbours
/// not yet inverted; each new crossing spreads in turn. The cost follows the inversions (none in
/// a settled scene), and a candidate counts only if the vertex met it inside the triangle
/// ([`crossed_inside`]), so nothing is reported that did not happen.
///
/// `inverted[v]` marks the vertices already known inverted against this target (updated);
/// `neighbours(v)`: the vertices sharing an edge with `v`; `around(t)`: the triangles sharing a
/// corner with `t` (itself included); `excluded(v, t)`: pairs never tested (a vertex's own
/// triangles in a self test); `motion(v)`: the vertex before and after the step;
/// `triangle_at(t)`: the triangle before and after.
#[allow(clippy::too_many_arguments)]
pub fn spread_crossings(
    seeds: &[(u32, u32)],
    inverted: &mut [bool],
    neighbours: impl Fn(u32) -> Vec<u32>,
    around: impl Fn(u32) -> Vec<u32>,
    excluded: impl Fn(u32, u32) -> bool,
    motion: impl Fn(u32) -> (Point3, Point3),
    triangle_at: impl Fn(u32) -> ([Point3; 3], [Point3; 3]),
) -> Vec<SpreadCrossing> {
    let mut found = Vec::new();
    let mut queue: Vec<(u32, u32)> = seeds.to_vec();
    while let Some((vertex, triangle)) = queue.pop() {
        let candidates = around(triangle);
        for next in neighbours(vertex) {
            if inverted.get(next as usize).is_none_or(|&done| done) {
                continue;
            }
            let (p_prev, p_now) = motion(next);
            let hit = candidates.iter().find_map(|&t| {
                if excluded(next, t) {
                    return None;
                }
                let (tri_prev, tri_now) = triangle_at(t);
                crossed_inside(&p_prev, tri_prev, &p_now, tri_now).map(|(before, _)| (t, before))
            });
            if let Some((t, before)) = hit {
                inverted[next as usize] = true;
                found.push(SpreadCrossing {
                    vertex: next,
                    triangle: t,
                    before,
                });
                queue.push((next, t));
            }
        }
    }
    found
}

//! The flat-patch stop (§2.4, stopping criterion 3): once both pieces' boxes are nearly flat,
//! each piece is replaced by the two triangles of its four corner control points (points of
//! the surface for clamped knots), and the triangles of the two pieces are intersected. The
//! segments found over all hits approximate the intersection curve.
//!
//! A segment's ends are kept as parameters on both surfaces. A point of a corner triangle maps
//! linearly to the piece's parameter rectangle, which is only a first guess: a piece can be
//! flat and still far from an affine parametrisation (a collapsed row of control points makes
//! a planar triangle whose (u, v) is not the triangle's barycentric one). Each end's (u, v) is
//! therefore refined to the surface point nearest the triangles' crossing (damped Gauss–Newton
//! inside the piece's rectangle), so S(u, v) is within the flat tolerance of the 3D end.

use super::surface::NurbsSurface;
use crate::geom::{Point3, Vec3};

/// One piece of the intersection curve: where it lies, and its ends' (u, v) on each surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlatSegment {
    pub ends: [Point3; 2],
    pub uv_a: [[f64; 2]; 2],
    pub uv_b: [[f64; 2]; 2],
}

/// A triangle of a piece: its corners in space and in the parameter rectangle.
#[derive(Clone, Copy, Debug)]
struct Tri {
    p: [Vec3; 3],
    uv: [[f64; 2]; 3],
}

/// The corner control point (i, j) in Cartesian form, i and j in {0, last}.
fn corner(s: &NurbsSurface, last_i: bool, last_j: bool) -> Vec3 {
    let i = if last_i { s.count_u - 1 } else { 0 };
    let j = if last_j { s.count_v - 1 } else { 0 };
    let h = s.points[s.point_index(i, j)];
    h.xyz() / h.w
}

/// The two corner triangles: (00, 10, 11) covers s ≥ t of the unit rectangle, (00, 11, 01)
/// the rest.
fn corner_triangles(s: &NurbsSurface) -> [Tri; 2] {
    let [u0, u1, v0, v1] = s.domain();
    let (p00, p10, p11, p01) = (
        corner(s, false, false),
        corner(s, true, false),
        corner(s, true, true),
        corner(s, false, true),
    );
    [
        Tri {
            p: [p00, p10, p11],
            uv: [[u0, v0], [u1, v0], [u1, v1]],
        },
        Tri {
            p: [p00, p11, p01],
            uv: [[u0, v0], [u1, v1], [u0, v1]],
        },
    ]
}

/// The point of a piece's corner triangles at (u, v) of its rectangle: where the query's
/// segment end with these parameters lies.
pub fn corner_point(s: &NurbsSurface, u: f64, v: f64) -> Point3 {
    let [u0, u1, v0, v1] = s.domain();
    let a = ((u - u0) / (u1 - u0)).clamp(0.0, 1.0);
    let b = ((v - v0) / (v1 - v0)).clamp(0.0, 1.0);
    let (p00, p10, p11, p01) = (
        corner(s, false, false),
        corner(s, true, false),
        corner(s, true, true),
        corner(s, false, true),
    );
    let p = if a >= b {
        p00 * (1.0 - a) + p10 * (a - b) + p11 * b
    } else {
        p00 * (1.0 - b) + p11 * a + p01 * (b - a)
    };
    Point3::from(p)
}

/// The segments where the corner triangles of two pieces cross, their ends' (u, v) refined
/// on each piece.
pub fn segments(a: &NurbsSurface, b: &NurbsSurface) -> Vec<FlatSegment> {
    let mut out = Vec::new();
    for ta in corner_triangles(a) {
        for tb in corner_triangles(b) {
            if let Some(mut s) = crossing(&ta, &tb) {
                for k in 0..2 {
                    s.uv_a[k] = nearest_uv(a, s.uv_a[k], &s.ends[k]);
                    s.uv_b[k] = nearest_uv(b, s.uv_b[k], &s.ends[k]);
                }
                out.push(s);
            }
        }
    }
    out
}

/// The parameters in a piece's rectangle of the surface point nearest `target`, from `guess`:
/// damped Gauss–Newton on |S(u, v) − target|², each step kept only if it gets nearer, so the
/// answer is never worse than the guess.
pub fn nearest_uv(s: &NurbsSurface, guess: [f64; 2], target: &Point3) -> [f64; 2] {
    let [u0, u1, v0, v1] = s.domain();
    let clamp = |uv: [f64; 2]| [uv[0].clamp(u0, u1), uv[1].clamp(v0, v1)];
    let mut uv = clamp(guess);
    let mut sample = s.sample(uv[0], uv[1]);
    let mut dist2 = (sample.point - target).norm_squared();
    let mut damping = 1e-3;
    for _ in 0..30 {
        let r = target - sample.point;
        let (a, b, c) = (
            sample.du.norm_squared(),
            sample.du.dot(&sample.dv),
            sample.dv.norm_squared(),
        );
        let (gu, gv) = (sample.du.dot(&r), sample.dv.dot(&r));
        let scale = a.max(c);
        if !(scale > 0.0) || dist2 == 0.0 {
            break;
        }
        let (a, c) = (a + damping * scale, c + damping * scale);
        let det = a * c - b * b;
        if !(det > 0.0) {
            damping *= 10.0;
            continue;
        }
        let step = [(c * gu - b * gv) / det, (a * gv - b * gu) / det];
        let next = clamp([uv[0] + step[0], uv[1] + step[1]]);
        let trial = s.sample(next[0], next[1]);
        let d2 = (trial.point - target).norm_squared();
        if d2 < dist2 {
            (uv, sample, dist2) = (next, trial, d2);
            damping = (damping * 0.3).max(1e-9);
        } else {
            damping *= 10.0;
            if damping > 1e6 {
                break;
            }
        }
    }
    uv
}

/// Where a triangle meets the plane of another: its barycentric coordinates at the two
/// extreme crossing points along `dir`, with their positions along it. `None` when the
/// triangle lies on one side or in the plane.
fn plane_cut(t: &Tri, normal: &Vec3, on_plane: &Vec3, dir: &Vec3) -> Option<[(f64, [f64; 3]); 2]> {
    let d: [f64; 3] = std::array::from_fn(|i| normal.dot(&(t.p[i] - on_plane)));
    let scale =
        t.p.iter()
            .map(|p| (p - on_plane).norm())
            .fold(0.0, f64::max)
            * normal.norm();
    let tiny = 1e-12 * scale;
    let d = d.map(|x| if x.abs() <= tiny { 0.0 } else { x });
    if d.iter().all(|&x| x == 0.0) || d.iter().all(|&x| x > 0.0) || d.iter().all(|&x| x < 0.0) {
        return None;
    }
    let mut points: Vec<[f64; 3]> = Vec::with_capacity(3);
    for i in 0..3 {
        let j = (i + 1) % 3;
        if d[i] == 0.0 {
            let mut w = [0.0; 3];
            w[i] = 1.0;
            points.push(w);
        }
        if d[i] * d[j] < 0.0 {
            let s = d[i] / (d[i] - d[j]);
            let mut w = [0.0; 3];
            w[i] = 1.0 - s;
            w[j] = s;
            points.push(w);
        }
    }
    let along = |w: &[f64; 3]| dir.dot(&(t.p[0] * w[0] + t.p[1] * w[1] + t.p[2] * w[2]));
    let mut ends: Vec<(f64, [f64; 3])> = points.iter().map(|w| (along(w), *w)).collect();
    ends.sort_by(|x, y| x.0.total_cmp(&y.0));
    Some([*ends.first()?, *ends.last()?])
}

/// The barycentric coordinates at position `x` along a cut (linear between its ends).
fn at(cut: &[(f64, [f64; 3]); 2], x: f64) -> [f64; 3] {
    let [(x0, w0), (x1, w1)] = *cut;
    let s = if x1 > x0 { (x - x0) / (x1 - x0) } else { 0.0 };
    std::array::from_fn(|k| w0[k] * (1.0 - s) + w1[k] * s)
}

fn uv_of(t: &Tri, w: &[f64; 3]) -> [f64; 2] {
    std::array::from_fn(|k| t.uv[0][k] * w[0] + t.uv[1][k] * w[1] + t.uv[2][k] * w[2])
}

/// The segment two triangles share: each cut by the other's plane, the cuts overlapped along
/// the planes' common line. Coplanar or touching-at-a-point triangles give none.
fn crossing(ta: &Tri, tb: &Tri) -> Option<FlatSegment> {
    let na = (ta.p[1] - ta.p[0]).cross(&(ta.p[2] - ta.p[0]));
    let nb = (tb.p[1] - tb.p[0]).cross(&(tb.p[2] - tb.p[0]));
    let dir = na.cross(&nb);
    if dir.norm_squared() <= 1e-24 * na.norm_squared() * nb.norm_squared() {
        return None;
    }
    let cut_a = plane_cut(ta, &nb, &tb.p[0], &dir)?;
    let cut_b = plane_cut(tb, &na, &ta.p[0], &dir)?;
    let lo = cut_a[0].0.max(cut_b[0].0);
    let hi = cut_a[1].0.min(cut_b[1].0);
    if !(hi > lo) {
        return None;
    }
    let (wa, wb) = (
        [at(&cut_a, lo), at(&cut_a, hi)],
        [at(&cut_b, lo), at(&cut_b, hi)],
    );
    let point = |w: &[f64; 3]| Point3::from(ta.p[0] * w[0] + ta.p[1] * w[1] + ta.p[2] * w[2]);
    Some(FlatSegment {
        ends: [point(&wa[0]), point(&wa[1])],
        uv_a: [uv_of(ta, &wa[0]), uv_of(ta, &wa[1])],
        uv_b: [uv_of(tb, &wb[0]), uv_of(tb, &wb[1])],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nurbs::shapes::plane;

    /// Two planes crossing at a right angle: one segment pair along the exact line, its
    /// parameters mapping back to its ends on both pieces.
    #[test]
    fn crossing_planes_meet_on_their_line() {
        let a = plane(2.0, 0.0);
        let pose = crate::geom::Pose::from_parts(
            Vec3::new(0.1, 0.0, 0.0).into(),
            crate::geom::Quat::from_axis_angle(&Vec3::x_axis(), std::f64::consts::FRAC_PI_2),
        );
        let b = plane(2.0, 0.0).transformed(&pose);
        let segs = segments(&a, &b);
        assert!(!segs.is_empty());
        let mut covered = 0.0;
        for s in &segs {
            for (k, e) in s.ends.iter().enumerate() {
                assert!(e.z.abs() < 1e-12 && e.y.abs() < 1e-12, "{e}");
                let pa = a.point(s.uv_a[k][0], s.uv_a[k][1]);
                let pb = b.point(s.uv_b[k][0], s.uv_b[k][1]);
                assert!((pa - e).norm() < 1e-12 && (pb - e).norm() < 1e-12);
            }
            covered += (s.ends[1] - s.ends[0]).norm();
        }
        // The pieces' triangles partition both planes: the common line x ∈ [-0.9, 1] once.
        assert!((covered - 1.9).abs() < 1e-9, "{covered}");
    }
}

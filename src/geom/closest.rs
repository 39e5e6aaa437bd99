//! Closest-point helpers: the building blocks of the distance tests.

use super::{Aabb, Point3, Real, Segment, Triangle, Vec3};

/// A point on a segment and its parameter `t` in [0, 1] from `a` to `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnSegment {
    pub point: Point3,
    pub t: Real,
}

/// The point of `seg` closest to `p`, with its parameter.
pub fn point_segment(p: &Point3, seg: &Segment) -> (Point3, Real) {
    let ab = seg.b - seg.a;
    let len2 = ab.norm_squared();
    if len2 <= 0.0 {
        return (seg.a, 0.0);
    }
    let t = ((p - seg.a).dot(&ab) / len2).clamp(0.0, 1.0);
    (seg.a + ab * t, t)
}

/// The closest pair of points between two segments (Ericson, RTCD §5.1.9), robust to
/// degenerate (point) segments and to parallel ones, where it picks one of the closest pairs.
pub fn segment_segment(s1: &Segment, s2: &Segment) -> (OnSegment, OnSegment) {
    let d1 = s1.b - s1.a;
    let d2 = s2.b - s2.a;
    let r = s1.a - s2.a;
    let a = d1.norm_squared();
    let e = d2.norm_squared();
    let f = d2.dot(&r);
    let eps = 1e-300;
    let (s, t);
    if a <= eps && e <= eps {
        s = 0.0;
        t = 0.0;
    } else if a <= eps {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(&r);
        if e <= eps {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            let s0 = if denom > eps * a * e {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            } else {
                t = t0;
                s = s0;
            }
        }
    }
    (
        OnSegment {
            point: s1.at(s),
            t: s,
        },
        OnSegment { point: s2.at(t), t },
    )
}

/// Where on a triangle the point nearest a query lies, with the parameters that place it.
/// Corners are numbered 0, 1, 2 for `a`, `b`, `c`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TriangleFeature {
    Vertex(usize),
    /// On the edge from corner `from` to corner `to`, at `t` of the way.
    Edge {
        from: usize,
        to: usize,
        t: Real,
    },
    /// Inside, at `a + (b − a) v + (c − a) w`. `denom` is the sum of the three region
    /// determinants (twice the area, squared): near zero only for a collapsed triangle, whose
    /// `v` and `w` mean nothing.
    Face {
        v: Real,
        w: Real,
        denom: Real,
    },
}

/// Ericson's Voronoi-region walk (RTCD §5.1.5) over the edges `ab`, `ac` of a triangle. The
/// query point comes as its offsets from the three corners (`p − a`, `p − b`, `p − c`), so
/// that GJK, whose query is the origin, passes its negated corners exactly.
pub fn triangle_feature(ab: Vec3, ac: Vec3, [ap, bp, cp]: [Vec3; 3]) -> TriangleFeature {
    let d1 = ab.dot(&ap);
    let d2 = ac.dot(&ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return TriangleFeature::Vertex(0);
    }
    let d3 = ab.dot(&bp);
    let d4 = ac.dot(&bp);
    if d3 >= 0.0 && d4 <= d3 {
        return TriangleFeature::Vertex(1);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let t = d1 / (d1 - d3);
        return TriangleFeature::Edge { from: 0, to: 1, t };
    }
    let d5 = ab.dot(&cp);
    let d6 = ac.dot(&cp);
    if d6 >= 0.0 && d5 <= d6 {
        return TriangleFeature::Vertex(2);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let t = d2 / (d2 - d6);
        return TriangleFeature::Edge { from: 0, to: 2, t };
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return TriangleFeature::Edge { from: 1, to: 2, t };
    }
    let denom = va + vb + vc;
    TriangleFeature::Face {
        v: vb / denom,
        w: vc / denom,
        denom,
    }
}

/// The point of a triangle closest to `p`.
pub fn point_triangle(p: &Point3, tri: &Triangle) -> Point3 {
    let corners = tri.vertices();
    let [a, b, c] = corners;
    let ab = b - a;
    let ac = c - a;
    match triangle_feature(ab, ac, [p - a, p - b, p - c]) {
        TriangleFeature::Vertex(k) => corners[k],
        TriangleFeature::Edge { from, to, t } => corners[from] + (corners[to] - corners[from]) * t,
        TriangleFeature::Face { denom, .. } if denom.abs() <= 1e-300 => nearest_edge_point(p, tri),
        TriangleFeature::Face { v, w, .. } => a + ab * v + ac * w,
    }
}

/// The points of a segment that can be closest to a triangle: its ends, its points closest
/// to the triangle's edges, and where it crosses the triangle. The nearest of them to the
/// triangle is the segment's nearest point.
pub fn segment_triangle_candidates(
    seg: &Segment,
    tri: &Triangle,
) -> impl Iterator<Item = Point3> + use<> {
    let edge = |p: Point3, q: Point3| Some(segment_segment(seg, &Segment::new(p, q)).0.point);
    let crossing = super::Ray::new(seg.a, seg.b - seg.a)
        .intersect_triangle(tri)
        .and_then(|(t, _, _)| (0.0..=1.0).contains(&t).then(|| seg.at(t)));
    [
        Some(seg.a),
        Some(seg.b),
        edge(tri.a, tri.b),
        edge(tri.b, tri.c),
        edge(tri.c, tri.a),
        crossing,
    ]
    .into_iter()
    .flatten()
}

/// The distance between a segment and a triangle (zero when the segment crosses it).
pub fn segment_triangle_distance(seg: &Segment, tri: &Triangle) -> Real {
    segment_triangle_candidates(seg, tri)
        .map(|p| (p - point_triangle(&p, tri)).norm())
        .fold(Real::INFINITY, Real::min)
}

/// The distance between a segment and a box (zero when the segment meets it).
///
/// The squared distance along the segment is convex and quadratic between the parameters
/// where the segment crosses one of the box's slabs, so its least value is at a stationary point of one of those
/// pieces, clamped to the piece.
pub fn segment_box_distance(seg: &Segment, b: &Aabb) -> Real {
    let d = seg.b - seg.a;
    // 0, where the segment crosses each slab's two planes, and 1.
    let mut cuts = [0.0; 8];
    let mut n = 1;
    for i in 0..3 {
        if d[i] != 0.0 {
            for bound in [b.min[i], b.max[i]] {
                let t = (bound - seg.a[i]) / d[i];
                if t > 0.0 && t < 1.0 {
                    cuts[n] = t;
                    n += 1;
                }
            }
        }
    }
    cuts[n] = 1.0;
    n += 1;
    let cuts = &mut cuts[..n];
    cuts.sort_by(Real::total_cmp);
    let gap = |t: Real| {
        let p = seg.at(t);
        (b.closest_point(&p) - p).norm()
    };
    let mut best = gap(0.0).min(gap(1.0));
    for piece in cuts.windows(2) {
        let (t0, t1) = (piece[0], piece[1]);
        let middle = seg.at(0.5 * (t0 + t1));
        // On this piece each axis is below, inside or above its slab throughout: the
        // squared distance is the sum over the axes outside of (a + t·d − bound)².
        let (mut slope, mut offset) = (0.0, 0.0);
        for i in 0..3 {
            let bound = if middle[i] < b.min[i] {
                b.min[i]
            } else if middle[i] > b.max[i] {
                b.max[i]
            } else {
                continue;
            };
            slope += d[i] * d[i];
            offset += (seg.a[i] - bound) * d[i];
        }
        if slope > 0.0 {
            best = best.min(gap((-offset / slope).clamp(t0, t1)));
        } else {
            best = best.min(gap(0.5 * (t0 + t1)));
        }
    }
    best
}

/// A zero-area triangle has no face region to trust: the nearest point of its three edges.
fn nearest_edge_point(p: &Point3, tri: &Triangle) -> Point3 {
    let (a, b, c) = (tri.a, tri.b, tri.c);
    let cands = [
        point_segment(p, &Segment::new(a, b)).0,
        point_segment(p, &Segment::new(b, c)).0,
        point_segment(p, &Segment::new(c, a)).0,
    ];
    cands
        .into_iter()
        .min_by(|x, y| (p - x).norm_squared().total_cmp(&(p - y).norm_squared()))
        .unwrap_or(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pt() -> impl Strategy<Value = Point3> {
        prop::array::uniform3(-3.0f64..3.0).prop_map(|c| Point3::new(c[0], c[1], c[2]))
    }

    fn seg() -> impl Strategy<Value = Segment> {
        prop_oneof![
            (pt(), pt()).prop_map(|(a, b)| Segment::new(a, b)),
            pt().prop_map(|a| Segment::new(a, a)),
        ]
    }

    const N: usize = 400;

    proptest! {
        // Oracle: dense sampling of both segments can never beat the closest pair.
        #[test]
        fn segment_segment_not_beaten_by_sampling((s1, s2) in prop_oneof![
            (seg(), seg()),
            // parallel and collinear pairs
            (pt(), pt(), -2.0f64..2.0, 0.0f64..1.0).prop_map(|(a, b, k, lift)| {
                let off = super::super::Vec3::new(k, 0.0, lift * k);
                (Segment::new(a, b), Segment::new(a + off + (b - a) * 0.3, b + off + (b - a) * 0.3))
            }),
        ]) {
            let (p, q) = segment_segment(&s1, &s2);
            let d = (p.point - q.point).norm();
            let mut best = f64::INFINITY;
            for i in 0..=N { for j in 0..=N / 8 {
                let a = s1.at(i as f64 / N as f64);
                let b = s2.at(j as f64 / (N / 8) as f64);
                best = best.min((a - b).norm());
            }}
            for j in 0..=N { for i in 0..=N / 8 {
                let a = s1.at(i as f64 / (N / 8) as f64);
                let b = s2.at(j as f64 / N as f64);
                best = best.min((a - b).norm());
            }}
            prop_assert!(d <= best + 1e-9, "closest {d} > sampled {best}");
            // and it is a real pair of points on the segments
            prop_assert!((p.point - s1.at(p.t)).norm() < 1e-9);
            prop_assert!((q.point - s2.at(q.t)).norm() < 1e-9);
        }

        // Oracle: dense sampling of the segment. It can never beat the distance, and it comes
        // within the sampling step of it (the distance is 1-Lipschitz along the segment).
        #[test]
        fn segment_box_distance_is_the_sampled_least_distance(
            s in seg(),
            corner in pt(),
            size in prop::array::uniform3(prop_oneof![Just(0.0f64), 0.0f64..2.0]),
        ) {
            let b = Aabb::new(corner, corner + Vec3::new(size[0], size[1], size[2]));
            let d = segment_box_distance(&s, &b);
            let mut best = f64::INFINITY;
            for i in 0..=N * 4 {
                let p = s.at(i as f64 / (N * 4) as f64);
                best = best.min((b.closest_point(&p) - p).norm());
            }
            prop_assert!(d <= best + 1e-12, "distance {d} > sampled {best}");
            let step = (s.b - s.a).norm() / (N * 4) as f64;
            prop_assert!(best - d <= step + 1e-12, "distance {d} far below sampled {best}");
        }

        #[test]
        fn point_triangle_not_beaten_by_sampling(p in pt(), a in pt(), b in pt(), c in pt()) {
            let tri = Triangle::new(a, b, c);
            let q = point_triangle(&p, &tri);
            let d = (p - q).norm();
            let mut best = f64::INFINITY;
            let n = 60;
            for i in 0..=n { for j in 0..=(n - i) {
                let u = i as f64 / n as f64; let v = j as f64 / n as f64;
                let s = a + (b - a) * u + (c - a) * v;
                best = best.min((p - s).norm());
            }}
            prop_assert!(d <= best + 1e-9);
        }
    }
}

//! Exact triangle–triangle intersection, with the intersection segment.
//!
//! **Touching counts as intersecting.** Triangles are closed sets: a shared vertex, a shared
//! edge, a vertex resting on a face, coplanar triangles that share only a boundary point all
//! intersect. This matches `Aabb::intersects`, so bounding-volume culling never disagrees with
//! the leaf test on a touching pair, and the brute-force oracle uses this very predicate.
//!
//! **The decision is made by signs only.** Every yes/no comes from the sign of an orientation
//! determinant of input vertices (in the spirit of Guigue–Devillers), never from a computed
//! intersection point or a tolerance. The decision is therefore exact whenever those
//! determinants are computed exactly, e.g. for coordinates that are small integers or short
//! dyadic fractions, which is what the tests exploit. The segment is computed afterwards and
//! is approximate.
//!
//! The algorithm rests on one fact: two closed triangles meet iff an edge of one meets the
//! other, since the intersection, when not empty, is convex and its extreme points lie on
//! edges. A zero-area triangle is the segment (or point) it collapses to.

use crate::geom::triangle::scaled_normal;
use crate::geom::{Point3, Real, Segment, Triangle, Vec3};

/// Where two triangles meet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriTriHit {
    /// The intersection segment; both ends coincide when the triangles touch at one point.
    /// For coplanar triangles the intersection is a polygon and this is its longest chord
    /// between two of its vertices.
    pub segment: Segment,
    /// Both triangles lie in one plane (the overlap is an area, not a segment).
    pub coplanar: bool,
}

/// True when the closed triangles share at least one point.
pub fn triangles_intersect(a: &Triangle, b: &Triangle) -> bool {
    solve(a, b, &mut Ignore)
}

/// The intersection of two closed triangles, or `None` when they are apart.
pub fn triangle_intersection(a: &Triangle, b: &Triangle) -> Option<TriTriHit> {
    match (collapse(a), collapse(b)) {
        (Shape::Triangle(na), Shape::Triangle(nb)) => {
            let (da, db) = (plane_distances(a, b, &nb), plane_distances(b, a, &na));
            if one_side(&da) || one_side(&db) {
                return None;
            }
            let coplanar = da.iter().all(|&d| d == 0.0) || db.iter().all(|&d| d == 0.0);
            let line = na.cross(&nb);
            if !coplanar && line != Vec3::zeros() {
                let mut sink = Extremes::new(line);
                both_ways(a, b, &na, &nb, &da, &db, &mut sink).then(|| TriTriHit {
                    segment: sink.segment(),
                    coplanar: false,
                })
            } else {
                let mut sink = AllPoints::default();
                both_ways(a, b, &na, &nb, &da, &db, &mut sink).then(|| TriTriHit {
                    segment: sink.chord(),
                    coplanar,
                })
            }
        }
        _ => {
            let mut sink = AllPoints::default();
            solve(a, b, &mut sink).then(|| TriTriHit {
                segment: sink.chord(),
                coplanar: false,
            })
        }
    }
}

/// `orient3d(a, b, c, d)`: six times the signed volume of the tetrahedron; positive when `d`
/// lies on the side of plane `abc` that its counter-clockwise normal points to.
#[inline]
pub fn orient3d(a: &Point3, b: &Point3, c: &Point3, d: &Point3) -> Real {
    scaled_normal(a, b, c).dot(&(d - a))
}

#[inline]
fn orient2d(a: [Real; 2], b: [Real; 2], c: [Real; 2]) -> Real {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

enum Shape {
    Triangle(Vec3),
    Segment(Point3, Point3),
}

/// A triangle with a zero normal is collinear: it is the segment between its two farthest
/// vertices (a point when all three coincide).
fn collapse(t: &Triangle) -> Shape {
    let n = t.scaled_normal();
    if n != Vec3::zeros() {
        return Shape::Triangle(n);
    }
    let pairs = [(t.a, t.b), (t.b, t.c), (t.c, t.a)];
    let (p, q) = pairs
        .into_iter()
        .max_by(|x, y| {
            (x.1 - x.0)
                .norm_squared()
                .total_cmp(&(y.1 - y.0).norm_squared())
        })
        .unwrap_or((t.a, t.a));
    Shape::Segment(p, q)
}

/// Signed distances (scaled by |n|) of `t`'s vertices to the plane of `other`.
#[inline]
fn plane_distances(t: &Triangle, other: &Triangle, n: &Vec3) -> [Real; 3] {
    [
        n.dot(&(t.a - other.a)),
        n.dot(&(t.b - other.a)),
        n.dot(&(t.c - other.a)),
    ]
}

#[inline]
fn one_side(d: &[Real; 3]) -> bool {
    (d[0] > 0.0 && d[1] > 0.0 && d[2] > 0.0) || (d[0] < 0.0 && d[1] < 0.0 && d[2] < 0.0)
}

/// Collects the points where edges meet the other triangle.
trait Sink {
    /// False when only the yes/no matters: the search stops at the first meeting edge.
    const WANTS_POINTS: bool;
    fn add(&mut self, p: Point3);
}

struct Ignore;

impl Sink for Ignore {
    const WANTS_POINTS: bool = false;
    #[inline]
    fn add(&mut self, _: Point3) {}
}

/// The two extreme points along the intersection line of two non-coplanar triangles.
struct Extremes {
    dir: Vec3,
    lo: (Real, Point3),
    hi: (Real, Point3),
}

impl Extremes {
    fn new(dir: Vec3) -> Self {
        let o = Point3::origin();
        Self {
            dir,
            lo: (Real::INFINITY, o),
            hi: (Real::NEG_INFINITY, o),
        }
    }

    fn segment(&self) -> Segment {
        Segment::new(self.lo.1, self.hi.1)
    }
}

impl Sink for Extremes {
    const WANTS_POINTS: bool = true;
    #[inline]
    fn add(&mut self, p: Point3) {
        let s = self.dir.dot(&p.coords);
        if s < self.lo.0 {
            self.lo = (s, p);
        }
        if s > self.hi.0 {
            self.hi = (s, p);
        }
    }
}

#[derive(Default)]
struct AllPoints(Vec<Point3>);

impl AllPoints {
    /// The farthest-apart pair: a handful of points, so the quadratic search is fine.
    fn chord(&self) -> Segment {
        let first = self.0.first().copied().unwrap_or_else(Point3::origin);
        let mut best = (Real::NEG_INFINITY, first, first);
        for (i, p) in self.0.iter().enumerate() {
            for q in &self.0[i..] {
                let d = (q - p).norm_squared();
                if d > best.0 {
                    best = (d, *p, *q);
                }
            }
        }
        Segment::new(best.1, best.2)
    }
}

impl Sink for AllPoints {
    const WANTS_POINTS: bool = true;
    fn add(&mut self, p: Point3) {
        self.0.push(p);
    }
}

fn solve<S: Sink>(a: &Triangle, b: &Triangle, sink: &mut S) -> bool {
    match (collapse(a), collapse(b)) {
        (Shape::Triangle(na), Shape::Triangle(nb)) => {
            let da = plane_distances(a, b, &nb);
            if one_side(&da) {
                return false;
            }
            let db = plane_distances(b, a, &na);
            if one_side(&db) {
                return false;
            }
            both_ways(a, b, &na, &nb, &da, &db, sink)
        }
        (Shape::Segment(p, q), Shape::Triangle(nb)) => {
            edge_triangle(&p, &q, nb.dot(&(p - b.a)), nb.dot(&(q - b.a)), b, &nb, sink)
        }
        (Shape::Triangle(na), Shape::Segment(p, q)) => {
            edge_triangle(&p, &q, na.dot(&(p - a.a)), na.dot(&(q - a.a)), a, &na, sink)
        }
        (Shape::Segment(p0, p1), Shape::Segment(q0, q1)) => {
            segment_segment(&p0, &p1, &q0, &q1, sink)
        }
    }
}

/// Every edge of `a` against `b`, then every edge of `b` against `a`.
fn both_ways<S: Sink>(
    a: &Triangle,
    b: &Triangle,
    na: &Vec3,
    nb: &Vec3,
    da: &[Real; 3],
    db: &[Real; 3],
    sink: &mut S,
) -> bool {
    let va = a.vertices();
    let vb = b.vertices();
    let mut hit = false;
    for (i, j) in [(0, 1), (1, 2), (2, 0)] {
        if edge_triangle(&va[i], &va[j], da[i], da[j], b, nb, sink) {
            hit = true;
            if !S::WANTS_POINTS {
                return true;
            }
        }
    }
    for (i, j) in [(0, 1), (1, 2), (2, 0)] {
        if edge_triangle(&vb[i], &vb[j], db[i], db[j], a, na, sink) {
            hit = true;
            if !S::WANTS_POINTS {
                return true;
            }
        }
    }
    hit
}

/// Closed segment `s0 s1` against the closed, non-degenerate triangle `t` with normal `n`;
/// `o0`, `o1` are the endpoints' scaled distances to the triangle's plane.
fn edge_triangle<S: Sink>(
    s0: &Point3,
    s1: &Point3,
    o0: Real,
    o1: Real,
    t: &Triangle,
    n: &Vec3,
    sink: &mut S,
) -> bool {
    if (o0 > 0.0 && o1 > 0.0) || (o0 < 0.0 && o1 < 0.0) {
        return false;
    }
    if o0 == 0.0 && o1 == 0.0 {
        return coplanar_segment_triangle(s0, s1, t, n, sink);
    }
    // The segment's line crosses the plane at one point, inside the segment. It lies in the
    // closed triangle iff the line passes on the same side of the three edges (Plücker signs).
    let v0 = orient3d(s0, s1, &t.a, &t.b);
    let v1 = orient3d(s0, s1, &t.b, &t.c);
    let v2 = orient3d(s0, s1, &t.c, &t.a);
    let inside = (v0 >= 0.0 && v1 >= 0.0 && v2 >= 0.0) || (v0 <= 0.0 && v1 <= 0.0 && v2 <= 0.0);
    if inside && S::WANTS_POINTS {
        let x = if o0 == 0.0 {
            *s0
        } else if o1 == 0.0 {
            *s1
        } else {
            s0 + (s1 - s0) * (o0 / (o0 - o1))
        };
        sink.add(x);
    }
    inside
}

/// Drops the coordinate along which `n` is largest: the projection keeps orientation signs
/// (up to one global sign) and is one-to-one on the plane.
#[inline]
fn projector(n: &Vec3) -> impl Fn(&Point3) -> [Real; 2] {
    let k = n.iamax();
    let (u, v) = ((k + 1) % 3, (k + 2) % 3);
    move |p: &Point3| [p[u], p[v]]
}

fn coplanar_segment_triangle<S: Sink>(
    s0: &Point3,
    s1: &Point3,
    t: &Triangle,
    n: &Vec3,
    sink: &mut S,
) -> bool {
    let proj = projector(n);
    let tv = t.vertices();
    let t2 = tv.map(|p| proj(&p));
    let (p0, p1) = (proj(s0), proj(s1));
    // With (u, v) cyclic after k, orient2d of the projection is exactly n[k], never zero.
    let sign = orient2d(t2[0], t2[1], t2[2]).signum();
    let inside = |p: [Real; 2]| (0..3).all(|i| sign * orient2d(t2[i], t2[(i + 1) % 3], p) >= 0.0);
    let mut hit = false;
    for (p, p3) in [(p0, s0), (p1, s1)] {
        if inside(p) {
            hit = true;
            sink.add(*p3);
            if !S::WANTS_POINTS {
                return true;
            }
        }
    }
    for i in 0..3 {
        let j = (i + 1) % 3;
        if segments_2d(p0, p1, t2[i], t2[j], [s0, s1, &tv[i], &tv[j]], sink) {
            hit = true;
            if !S::WANTS_POINTS {
                return true;
            }
        }
    }
    hit
}

/// Closed 2D segments `p0 p1` and `q0 q1`; `p3d` holds the 3D points they project from, in
/// the order p0, p1, q0, q1, to report where they meet.
fn segments_2d<S: Sink>(
    p0: [Real; 2],
    p1: [Real; 2],
    q0: [Real; 2],
    q1: [Real; 2],
    p3d: [&Point3; 4],
    sink: &mut S,
) -> bool {
    let d1 = orient2d(q0, q1, p0);
    let d2 = orient2d(q0, q1, p1);
    if (d1 > 0.0 && d2 > 0.0) || (d1 < 0.0 && d2 < 0.0) {
        return false;
    }
    let d3 = orient2d(p0, p1, q0);
    let d4 = orient2d(p0, p1, q1);
    if (d3 > 0.0 && d4 > 0.0) || (d3 < 0.0 && d4 < 0.0) {
        return false;
    }
    if (d1 == 0.0 && d2 == 0.0) || (d3 == 0.0 && d4 == 0.0) {
        // All four points on one line (one segment may be a point lying on the other's
        // line): compare intervals along the coordinate where the line moves most.
        let dir = if p0 != p1 {
            [p1[0] - p0[0], p1[1] - p0[1]]
        } else {
            [q1[0] - q0[0], q1[1] - q0[1]]
        };
        let k = if dir[0].abs() >= dir[1].abs() { 0 } else { 1 };
        return collinear_overlap([p0[k], p1[k], q0[k], q1[k]], p3d, sink);
    }
    // The lines cross at one point, and each segment reaches the other's line.
    if S::WANTS_POINTS {
        let t = d1 / (d1 - d2);
        sink.add(p3d[0] + (p3d[1] - p3d[0]) * t);
    }
    true
}

/// Two collinear closed segments given by their coordinates `[p0, p1, q0, q1]` along the
/// line: they meet iff the intervals overlap; the overlap's ends are endpoints of one lying
/// inside the other.
fn collinear_overlap<S: Sink>(x: [Real; 4], p3d: [&Point3; 4], sink: &mut S) -> bool {
    let (plo, phi) = (x[0].min(x[1]), x[0].max(x[1]));
    let (qlo, qhi) = (x[2].min(x[3]), x[2].max(x[3]));
    if plo > qhi || qlo > phi {
        return false;
    }
    if S::WANTS_POINTS {
        for (i, &xi) in x.iter().enumerate() {
            let (lo, hi) = if i < 2 { (qlo, qhi) } else { (plo, phi) };
            if xi >= lo && xi <= hi {
                sink.add(*p3d[i]);
            }
        }
    }
    true
}

/// Two closed 3D segments (either may be a point): both zero-area triangles.
fn segment_segment<S: Sink>(
    p0: &Point3,
    p1: &Point3,
    q0: &Point3,
    q1: &Point3,
    sink: &mut S,
) -> bool {
    if orient3d(p0, p1, q0, q1) != 0.0 {
        return false;
    }
    let (dp, dq) = (p1 - p0, q1 - q0);
    let normal = [
        dp.cross(&(q0 - p0)),
        dp.cross(&(q1 - p0)),
        dq.cross(&(p0 - q0)),
        dq.cross(&(p1 - q0)),
    ]
    .into_iter()
    .find(|m| *m != Vec3::zeros());
    let pts = [p0, p1, q0, q1];
    match normal {
        Some(m) => {
            let proj = projector(&m);
            segments_2d(proj(p0), proj(p1), proj(q0), proj(q1), pts, sink)
        }
        None => {
            let dir = if dp != Vec3::zeros() { dp } else { dq };
            if dir == Vec3::zeros() {
                let same = p0 == q0;
                if same {
                    sink.add(*p0);
                }
                return same;
            }
            let k = dir.iamax();
            collinear_overlap([p0[k], p1[k], q0[k], q1[k]], pts, sink)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64, z: f64) -> Point3 {
        Point3::new(x, y, z)
    }

    fn tri(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> Triangle {
        Triangle::new(
            p(a[0], a[1], a[2]),
            p(b[0], b[1], b[2]),
            p(c[0], c[1], c[2]),
        )
    }

    fn check(a: &Triangle, b: &Triangle, expected: bool) {
        for (x, y) in [(a, b), (b, a)] {
            assert_eq!(triangles_intersect(x, y), expected, "{x:?} {y:?}");
            assert_eq!(
                triangle_intersection(x, y).is_some(),
                expected,
                "{x:?} {y:?}"
            );
        }
    }

    #[test]
    fn crossing_triangles_give_their_segment() {
        let a = tri([0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]);
        let b = tri([1.0, 1.0, -1.0], [1.0, 1.0, 1.0], [1.0, -3.0, 0.0]);
        check(&a, &b, true);
        let hit = triangle_intersection(&a, &b).unwrap();
        assert!(!hit.coplanar);
        // b's plane is x = 1; inside a it cuts the segment from (1, 0, 0) to (1, 1, 0)
        // (b's own extent along y at z = 0 is [-1, 1]).
        let s = hit.segment;
        let (lo, hi) = if s.a.y < s.b.y {
            (s.a, s.b)
        } else {
            (s.b, s.a)
        };
        assert!((lo - p(1.0, 0.0, 0.0)).norm() < 1e-12, "{s:?}");
        assert!((hi - p(1.0, 1.0, 0.0)).norm() < 1e-12, "{s:?}");
    }

    #[test]
    fn touching_counts() {
        let a = tri([0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]);
        // shared vertex only
        check(
            &a,
            &tri([0.0, 0.0, 0.0], [-1.0, 0.0, 1.0], [0.0, -1.0, 1.0]),
            true,
        );
        // vertex resting on the face
        let hit =
            triangle_intersection(&a, &tri([0.5, 0.5, 0.0], [0.5, 0.5, 1.0], [1.0, 0.0, 1.0]))
                .unwrap();
        assert_eq!(hit.segment.a, hit.segment.b);
        // shared edge, other triangle folded up
        check(
            &a,
            &tri([0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.0, 0.0, 3.0]),
            true,
        );
        // just above
        check(
            &a,
            &tri([0.5, 0.5, 0.001], [0.5, 0.5, 1.0], [1.0, 0.0, 1.0]),
            false,
        );
    }

    #[test]
    fn coplanar_cases() {
        let a = tri([0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]);
        // overlapping
        let hit =
            triangle_intersection(&a, &tri([0.5, 0.5, 0.0], [3.0, 0.5, 0.0], [0.5, 3.0, 0.0]))
                .unwrap();
        assert!(hit.coplanar);
        // sharing an edge, on the other side
        check(
            &a,
            &tri([2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [2.0, 2.0, 0.0]),
            true,
        );
        // apart by a sliver
        check(
            &a,
            &tri([2.0, 0.5, 0.0], [0.5, 2.0, 0.0], [2.0, 2.0, 0.0]),
            false,
        );
        // one inside the other
        check(
            &a,
            &tri([0.1, 0.1, 0.0], [0.5, 0.1, 0.0], [0.1, 0.5, 0.0]),
            true,
        );
    }

    #[test]
    fn degenerate_triangles() {
        let a = tri([0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]);
        // a needle through the face
        check(
            &a,
            &tri([0.5, 0.5, -1.0], [0.5, 0.5, 1.0], [0.5, 0.5, 0.0]),
            true,
        );
        // a needle beside it
        check(
            &a,
            &tri([3.0, 0.5, -1.0], [3.0, 0.5, 1.0], [3.0, 0.5, 0.0]),
            false,
        );
        // a point on the edge
        check(
            &a,
            &tri([1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
            true,
        );
        // two collinear needles, overlapping then apart
        let n1 = tri([0.0, 0.0, 0.0], [2.0, 2.0, 2.0], [1.0, 1.0, 1.0]);
        check(
            &n1,
            &tri([2.0, 2.0, 2.0], [3.0, 3.0, 3.0], [3.0, 3.0, 3.0]),
            true,
        );
        check(
            &n1,
            &tri([2.5, 2.5, 2.5], [3.0, 3.0, 3.0], [3.0, 3.0, 3.0]),
            false,
        );
        // crossing needles
        check(
            &n1,
            &tri([0.0, 2.0, 0.0], [2.0, 0.0, 2.0], [0.0, 2.0, 0.0]),
            true,
        );
    }
}

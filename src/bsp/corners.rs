//! The corners of a convex polytope given by planes, in O(n²) for n planes rather than the
//! O(n⁴) of trying every triple of planes against every plane (a 1,000-plane brush took
//! half a minute that way, issue 31).
//!
//! Each plane's face is found by clipping a large square on it by every other plane (a
//! bounding circle skips the planes that cannot cut it, most of them). The face corners
//! are then merged, and each is given the value the triple method gives: the point where
//! the lexicographically first valid triple of planes through it meets, in the order of
//! those triples. Levels built before therefore keep their vertices bit for bit (their
//! bevels and recordings depend on them).

use crate::geom::{Plane, Point3, Real, Vec3};
use std::collections::HashMap;

/// Relative tolerance of "behind the plane" and of merging corners (the triple method's).
const TOL: Real = 1e-9;
/// Planes within this many tolerances of a corner are tried as the triples through it.
const THROUGH: Real = 10.0;
/// Triples tried per corner before giving up on an exact triple (only many nearly
/// coincident planes get there; the clipped corner is then kept as it is).
const MAX_TRIPLES: usize = 256;

fn tol_at(p: &Point3) -> Real {
    TOL * p.coords.amax().max(1.0)
}

/// Where three planes meet, computed exactly as the triple method always has (the same
/// operations in the same order, so the same bits); `None` when two are (nearly) parallel.
pub fn meet(a: &Plane, b: &Plane, c: &Plane) -> Option<Point3> {
    let nab = a.normal.cross(&b.normal);
    if nab.norm_squared() < 1e-20 {
        return None;
    }
    let det = nab.dot(&c.normal);
    if det.abs() < 1e-12 {
        return None;
    }
    let p = (b.normal.cross(&c.normal) * a.d + c.normal.cross(&a.normal) * b.d + nab * c.d) / det;
    Some(Point3::from(p))
}

/// True when `p` is behind every plane, within the tolerance at `p`.
fn behind_all(planes: &[Plane], p: &Point3) -> bool {
    let tol = tol_at(p);
    planes.iter().all(|q| q.signed_distance(p) <= tol)
}

/// A convex polygon on one plane: `edges[k]` is the plane bounding it from corner k to k + 1.
struct Polygon {
    points: Vec<Point3>,
    edges: Vec<Plane>,
}

/// A square of half-size `half` on `plane`, centred on the point nearest the origin, its
/// sides bounded by four planes perpendicular to it.
fn square(plane: &Plane, half: Real) -> Polygon {
    let n = plane.normal;
    let helper = if n.x.abs() < 0.6 {
        Vec3::x()
    } else {
        Vec3::y()
    };
    let u = n.cross(&helper).normalize();
    let v = n.cross(&u);
    let centre = n * plane.d;
    let side = |dir: Vec3| Plane {
        normal: dir,
        d: dir.dot(&centre) + half,
    };
    let points = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        .iter()
        .map(|(a, b)| Point3::from(centre + (u * *a + v * *b) * half))
        .collect();
    Polygon {
        points,
        edges: vec![side(v), side(-u), side(-v), side(u)],
    }
}

impl Polygon {
    /// The centre of the corners and the largest distance from it.
    fn circle(&self) -> (Point3, Real) {
        let sum: Vec3 = self.points.iter().map(|p| p.coords).sum();
        let centre = Point3::from(sum / self.points.len() as Real);
        let r = self
            .points
            .iter()
            .map(|p| (p - centre).norm())
            .fold(0.0, Real::max);
        (centre, r)
    }

    /// Keeps the part behind `cut` (Sutherland–Hodgman, corners within tolerance of the
    /// plane kept); a new corner is where the face, the cut edge's plane and `cut` meet,
    /// or the edge's crossing when those three are too close to parallel to say.
    fn clip(&mut self, face: &Plane, cut: &Plane) -> bool {
        let n = self.points.len();
        if self
            .points
            .iter()
            .all(|p| cut.signed_distance(p) <= tol_at(p))
        {
            return false;
        }
        let dist: Vec<Real> = self.points.iter().map(|p| cut.signed_distance(p)).collect();
        let side: Vec<i8> = self
            .points
            .iter()
            .zip(&dist)
            .map(|(p, d)| {
                let t = tol_at(p);
                if *d > t {
                    1
                } else if *d < -t {
                    -1
                } else {
                    0
                }
            })
            .collect();
        let (mut points, mut edges) = (Vec::with_capacity(n + 1), Vec::with_capacity(n + 1));
        for k in 0..n {
            let next = (k + 1) % n;
            let (a, b) = (self.points[k], self.points[next]);
            if side[k] <= 0 {
                points.push(a);
                // An edge leaving through the plane from a corner on it runs along the cut.
                let along_cut = side[k] == 0 && side[next] > 0;
                edges.push(if along_cut { *cut } else { self.edges[k] });
            }
            if side[k] * side[next] < 0 {
                let t = dist[k] / (dist[k] - dist[next]);
                let on_edge = a + (b - a) * t;
                let x = meet(face, &self.edges[k], cut)
                    .filter(|x| (x - on_edge).amax() <= 1e-6 * (b - a).amax() + tol_at(&on_edge))
                    .unwrap_or(on_edge);
                points.push(x);
                edges.push(if side[k] < 0 { *cut } else { self.edges[k] });
            }
        }
        self.points = points;
        self.edges = edges;
        true
    }
}

/// Planes clipped first, those whose normals are nearest the face's: they make its polygon
/// small and bounded early, and a small polygon skips most other planes at one test each.
const NEAREST_FIRST: usize = 24;

/// The corners of the face on `planes[i]`, or none when the face has no area.
fn face_corners(planes: &[Plane], i: usize, half: Real) -> Vec<Point3> {
    let face = planes[i];
    let mut order: Vec<usize> = (0..planes.len()).filter(|&j| j != i).collect();
    if order.len() > NEAREST_FIRST {
        let closeness = |j: &usize| -planes[*j].normal.dot(&face.normal);
        order.select_nth_unstable_by(NEAREST_FIRST, |a, b| closeness(a).total_cmp(&closeness(b)));
    }
    let mut poly = square(&face, half);
    let (mut centre, mut radius) = poly.circle();
    for j in order {
        let cut = &planes[j];
        let d = cut.signed_distance(&centre);
        let slack = tol_at(&centre) + radius * 1e-9;
        if d + radius <= -slack {
            continue;
        }
        if !poly.clip(&face, cut) {
            continue;
        }
        if poly.points.len() < 3 {
            return Vec::new();
        }
        (centre, radius) = poly.circle();
    }
    poly.points
}

/// Merges points within tolerance of each other (the first one of each group stays), with a
/// hash grid so that it takes linear time.
struct Grid {
    cell: Real,
    cells: HashMap<[i64; 3], Vec<usize>>,
    points: Vec<Point3>,
}

impl Grid {
    fn new(cell: Real) -> Grid {
        Grid {
            cell,
            cells: HashMap::new(),
            points: Vec::new(),
        }
    }

    fn key(&self, p: &Point3) -> [i64; 3] {
        // Coordinates beyond i64 saturate: they only share cells, never lose points.
        [0, 1, 2].map(|k| (p[k] / self.cell).floor() as i64)
    }

    /// The index of a kept point within `tol` of `p`, if any.
    fn find(&self, p: &Point3, tol: Real) -> Option<usize> {
        let [x, y, z] = self.key(p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let k = [
                        x.saturating_add(dx),
                        y.saturating_add(dy),
                        z.saturating_add(dz),
                    ];
                    if let Some(ids) = self.cells.get(&k)
                        && let Some(&i) = ids.iter().find(|&&i| (self.points[i] - p).amax() <= tol)
                    {
                        return Some(i);
                    }
                }
            }
        }
        None
    }

    fn insert(&mut self, p: Point3) -> usize {
        let k = self.key(&p);
        self.points.push(p);
        let i = self.points.len() - 1;
        self.cells.entry(k).or_default().push(i);
        i
    }
}

/// What [`first_triple`] found.
enum Triple {
    Found([usize; 3], Point3),
    /// No triple through the point meets behind every plane: not a corner.
    None,
    /// Too many nearly coincident planes through the point to try every triple.
    GaveUp,
}

/// The first triple (in lexicographic order of plane indices) of the planes through `near`
/// whose meeting point is a valid corner close to it: what the triple method would have
/// found first for this corner.
fn first_triple(planes: &[Plane], near: &Point3) -> Triple {
    let tol = tol_at(near);
    let through: Vec<usize> = (0..planes.len())
        .filter(|&k| planes[k].signed_distance(near).abs() <= THROUGH * tol)
        .collect();
    let mut tried = 0;
    for (x, &i) in through.iter().enumerate() {
        for (y, &j) in through.iter().enumerate().skip(x + 1) {
            for &k in &through[y + 1..] {
                tried += 1;
                if tried > MAX_TRIPLES {
                    return Triple::GaveUp;
                }
                let Some(p) = meet(&planes[i], &planes[j], &planes[k]) else {
                    continue;
                };
                if (p - near).amax() <= THROUGH * tol && behind_all(planes, &p) {
                    return Triple::Found([i, j, k], p);
                }
            }
        }
    }
    Triple::None
}

/// Every corner of the polytope behind all `planes` (which must bound it: callers add far
/// planes), each once, in the order and with the values of the triple method.
pub fn corners(planes: &[Plane]) -> Vec<Point3> {
    // Every corner is within the far box, so a square this big covers each face's part of it.
    let reach = planes.iter().map(|p| p.d.abs()).fold(1.0, Real::max);
    let half = 4.0 * reach;
    let mut raw: Vec<Point3> = Vec::new();
    for i in 0..planes.len() {
        raw.extend(face_corners(planes, i, half));
    }
    let scale = raw.iter().map(|p| p.coords.amax()).fold(1.0, Real::max);
    // Each corner turns up once per face through it: keep one of each.
    let mut merged = Grid::new(TOL * scale);
    for p in raw {
        if merged.find(&p, tol_at(&p)).is_none() {
            merged.insert(p);
        }
    }
    let mut found: Vec<([usize; 3], Point3)> = Vec::with_capacity(merged.points.len());
    for p in &merged.points {
        match first_triple(planes, p) {
            Triple::Found(t, p) => found.push((t, p)),
            // Too many nearly coincident planes through it to try them all: the clipped
            // corner, if it is behind every plane, sorted after the exact ones.
            Triple::GaveUp if behind_all(planes, p) => found.push(([usize::MAX; 3], *p)),
            Triple::GaveUp | Triple::None => {}
        }
    }
    found.sort_by_key(|(t, _)| *t);
    let mut out = Grid::new(TOL * scale);
    for (_, p) in found {
        if out.find(&p, tol_at(&p)).is_none() {
            out.insert(p);
        }
    }
    out.points
}

/// The triple method itself, O(n⁴): every point where three planes meet that lies behind all
/// of them. Kept as the oracle the tests hold [`corners`] to.
pub fn corners_brute_force(planes: &[Plane]) -> Vec<Point3> {
    let mut out: Vec<Point3> = Vec::new();
    let n = planes.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let Some(p) = meet(&planes[i], &planes[j], &planes[k]) else {
                    continue;
                };
                let tol = tol_at(&p);
                if behind_all(planes, &p) && !out.iter().any(|v| (v - p).amax() <= tol) {
                    out.push(p);
                }
            }
        }
    }
    out
}

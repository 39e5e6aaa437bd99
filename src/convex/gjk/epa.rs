//! EPA, the expanding polytope algorithm (van den Bergen 2001): when GJK's simplex holds the
//! origin, grow it inside the Minkowski difference toward the boundary face nearest the origin;
//! that face's distance is the penetration depth and its normal the way out.

use super::event::{GjkProbe, GjkStatus, GjkStep, report};
use super::minkowski::minkowski_support;
use super::simplex::{Simplex, SimplexVertex};
use crate::convex::support::SupportMap;
use crate::geom::triangle::scaled_normal;
use crate::geom::{Point3, Real, Vec3};
use crate::trace::{BodyId, Verdict};

/// A polytope of a few hundred faces is far past what a hull pair needs: reaching this is
/// reported, and the best face so far is the answer.
pub const MAX_EPA_ITERATIONS: u32 = 128;

/// Relative tolerance on the depth: a support point no farther than this beyond the nearest
/// face means the face is on the boundary.
const EPA_TOLERANCE: Real = 1e-12;

/// Relative distance below which a support point counts as in a face's plane.
const COPLANAR: Real = 1e-12;

/// What EPA found.
#[derive(Clone, Copy, Debug)]
pub struct EpaResult {
    pub depth: Real,
    /// Unit normal pointing from A into B: moving B by `depth * normal` separates the shapes.
    pub normal: Vec3,
    /// The deepest points: on A's boundary and on B's, `point_a − point_b = depth · normal`
    /// up to the tolerance.
    pub point_a: Point3,
    pub point_b: Point3,
    pub iterations: u32,
    pub status: GjkStatus,
}

#[derive(Clone, Copy, Debug)]
struct Face {
    v: [usize; 3],
    normal: Vec3,
    dist: Real,
    alive: bool,
}

struct Polytope {
    verts: Vec<SimplexVertex>,
    faces: Vec<Face>,
    /// A point strictly inside, to orient faces whatever the origin's place on the boundary.
    inner: Vec3,
}

impl Polytope {
    /// Adds face `v` oriented away from the interior; None when it is too thin to orient.
    fn face(&self, v: [usize; 3]) -> Option<Face> {
        let (a, b, c) = (self.verts[v[0]].w, self.verts[v[1]].w, self.verts[v[2]].w);
        let n = scaled_normal(a, b, c);
        let len = n.norm();
        // NaN from a non-finite support point fails this test as a zero area does.
        if len.is_nan() || len <= 0.0 {
            return None;
        }
        let mut normal = n / len;
        let mut v = v;
        if normal.dot(&(a - self.inner)) < 0.0 {
            normal = -normal;
            v.swap(1, 2);
        }
        Some(Face {
            v,
            normal,
            dist: normal.dot(&a),
            alive: true,
        })
    }

    fn nearest(&self) -> Option<usize> {
        self.faces
            .iter()
            .enumerate()
            .filter(|(_, f)| f.alive)
            .min_by(|(_, f), (_, g)| f.dist.total_cmp(&g.dist))
            .map(|(i, _)| i)
    }
}

/// Penetration depth, normal and witnesses of two overlapping shapes, from the simplex GJK
/// ended with (of any size: fewer than four points are blown up to a tetrahedron).
pub fn epa<A, B, G>(
    a: &A,
    b: &B,
    simplex: &Simplex,
    bodies: [BodyId; 2],
    probe: &mut G,
) -> EpaResult
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    G: GjkProbe + ?Sized,
{
    let Some(mut poly) = initial_tetrahedron(a, b, simplex) else {
        // A − B is flat (or a point): the overlap has no thickness to push out through.
        return touching(simplex);
    };
    let mut iterations = 0u32;
    let mut best: Option<Face> = None;
    let status = loop {
        let Some(fi) = poly.nearest() else {
            break GjkStatus::NoProgress;
        };
        let face = poly.faces[fi];
        best = Some(face);
        if iterations >= MAX_EPA_ITERATIONS {
            break GjkStatus::IterationCap;
        }
        iterations += 1;
        let w = minkowski_support(a, b, &face.normal);
        let reach = face.normal.dot(&w.w);
        let scale = face.dist.abs().max(reach.abs()).max(1e-300);
        if reach - face.dist <= EPA_TOLERANCE * scale
            || poly
                .verts
                .iter()
                .any(|p| p.ids == w.ids && p.ids != [u32::MAX; 2])
        {
            break GjkStatus::Converged;
        }
        report(probe, bodies, Verdict::Info, || GjkStep::Expand {
            iteration: iterations.min(u16::MAX as u32) as u16,
            face: face.v.map(|i| poly.verts[i].ids),
            depth: face.dist as f32,
            normal: [
                face.normal.x as f32,
                face.normal.y as f32,
                face.normal.z as f32,
            ],
            added: w.ids,
        });
        if !expand(&mut poly, fi, w) {
            break GjkStatus::NoProgress;
        }
    };
    let Some(face) = best else {
        return touching(simplex);
    };
    let (point_a, point_b) = witnesses(&poly, &face);
    EpaResult {
        depth: face.dist.max(0.0),
        normal: face.normal,
        point_a,
        point_b,
        iterations,
        status,
    }
}

/// Depth zero at the simplex's own point, for overlaps with no volume.
fn touching(simplex: &Simplex) -> EpaResult {
    let (point_a, point_b) = simplex.witnesses();
    EpaResult {
        depth: 0.0,
        normal: Vec3::z(),
        point_a,
        point_b,
        iterations: 0,
        status: GjkStatus::NoProgress,
    }
}

/// Removes the faces `w` sees, flooding from the nearest face `seed` across shared edges so
/// that the removed set stays connected even where rounding makes a far face look visible,
/// and closes the hole with faces to `w` along the horizon. False when a new face cannot be
/// oriented (rounding): stop there.
fn expand(poly: &mut Polytope, seed: usize, w: SimplexVertex) -> bool {
    let wi = poly.verts.len();
    poly.verts.push(w);
    let mut horizon: Vec<[usize; 2]> = Vec::new();
    let mut stack = vec![seed];
    poly.faces[seed].alive = false;
    while let Some(fi) = stack.pop() {
        let f = poly.faces[fi];
        for k in 0..3 {
            let (u, v) = (f.v[k], f.v[(k + 1) % 3]);
            let neighbour = poly
                .faces
                .iter()
                .position(|g| g.alive && (0..3).any(|m| g.v[m] == v && g.v[(m + 1) % 3] == u));
            match neighbour {
                Some(g) if sees(&poly.faces[g], &poly.verts, &w) => {
                    poly.faces[g].alive = false;
                    stack.push(g);
                }
                Some(_) => horizon.push([u, v]),
                // The neighbour was removed already: an inner edge of the hole.
                None => {}
            }
        }
    }
    for e in horizon {
        match poly.face([e[0], e[1], wi]) {
            Some(f) => poly.faces.push(f),
            None => return false,
        }
    }
    true
}

/// Faces `w` lies in the plane of count as seen: Minkowski differences of boxes put many
/// support points on one plane, and keeping such a face would leave `w` in line with one of
/// its edges, a new face with no area.
fn sees(f: &Face, verts: &[SimplexVertex], w: &SimplexVertex) -> bool {
    let scale = w.w.norm().max(f.dist.abs()).max(1e-300);
    f.normal.dot(&(w.w - verts[f.v[0]].w)) > -COPLANAR * scale
}

/// Grows GJK's simplex to a tetrahedron of A − B vertices around the origin, adding supports
/// in directions the simplex does not span yet.
fn initial_tetrahedron<A, B>(a: &A, b: &B, simplex: &Simplex) -> Option<Polytope>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let mut verts: Vec<SimplexVertex> = Vec::with_capacity(4);
    for v in simplex.vertices() {
        if verts.iter().all(|u| (u.w - v.w).norm_squared() > 0.0) {
            verts.push(*v);
        }
    }
    let axes = [Vec3::x(), Vec3::y(), Vec3::z()];
    let scale = verts
        .iter()
        .map(|v| v.w.norm())
        .fold(0.0, Real::max)
        .max(1e-300);
    let thin = 1e-10 * scale;
    if verts.len() == 1 {
        for d in axes.iter().flat_map(|d| [*d, -*d]) {
            let w = minkowski_support(a, b, &d);
            if (w.w - verts[0].w).norm() > thin {
                verts.push(w);
                break;
            }
        }
    }
    if verts.len() == 2 {
        let line = verts[1].w - verts[0].w;
        let least = axes
            .iter()
            .min_by(|p, q| line.dot(p).abs().total_cmp(&line.dot(q).abs()))
            .copied()
            .unwrap_or(Vec3::x());
        let u = line.cross(&least);
        let v = line.cross(&u);
        for d in [u, -u, v, -v] {
            let w = minkowski_support(a, b, &d);
            if line.cross(&(w.w - verts[0].w)).norm() > thin * line.norm() {
                verts.push(w);
                break;
            }
        }
    }
    if verts.len() == 3 {
        let n = scaled_normal(verts[0].w, verts[1].w, verts[2].w);
        let mut best: Option<(Real, SimplexVertex)> = None;
        for d in [n, -n] {
            let w = minkowski_support(a, b, &d);
            let h = n.dot(&(w.w - verts[0].w)).abs();
            if best.is_none_or(|(bh, _)| h > bh) {
                best = Some((h, w));
            }
        }
        if let Some((h, w)) = best
            && h > thin * n.norm()
        {
            verts.push(w);
        }
    }
    if verts.len() < 4 {
        return None;
    }
    let inner = verts.iter().map(|v| v.w).sum::<Vec3>() / 4.0;
    let mut poly = Polytope {
        verts,
        faces: Vec::with_capacity(32),
        inner,
    };
    for f in [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]] {
        let face = poly.face(f)?;
        poly.faces.push(face);
    }
    Some(poly)
}

/// The origin's projection on the nearest face, carried to A and B by its barycentric
/// weights. Support points of boxes and other flat-faced shapes split one face of A − B into
/// several coplanar triangles; the projection lies in one of them, not necessarily the one
/// the search stopped at, so every coplanar triangle as near is tried.
fn witnesses(poly: &Polytope, face: &Face) -> (Point3, Point3) {
    let slack = 1e-9 * face.dist.abs().max(1e-300);
    let nearest_point = |f: &Face| {
        let [i, j, k] = f.v;
        let mut tri = Simplex::new(poly.verts[i]);
        tri.push(poly.verts[j]);
        tri.push(poly.verts[k]);
        tri.reduce();
        tri
    };
    let coplanar = poly.faces.iter().filter(|f| {
        f.alive && (f.dist - face.dist).abs() <= slack && f.normal.dot(&face.normal) > 1.0 - 1e-9
    });
    coplanar
        .chain(std::iter::once(face))
        .map(nearest_point)
        .min_by(|p, q| {
            p.point()
                .norm_squared()
                .total_cmp(&q.point().norm_squared())
        })
        .unwrap_or_else(|| nearest_point(face))
        .witnesses()
}

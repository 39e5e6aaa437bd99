//! The simplex GJK carries and its sub-algorithm: the point of the simplex nearest the origin,
//! as barycentric weights over the smallest face that holds it (Johnson's question, answered
//! by Voronoi-region tests on dot products so that flat or collapsed simplices stay finite).

use crate::geom::closest::{TriangleFeature, triangle_feature};
use crate::geom::triangle::scaled_normal;
use crate::geom::{Point3, Real, Vec3};

/// One vertex of the Minkowski difference A − B, with the two support points and their ids
/// (`u32::MAX` when a shape has no vertices to name).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimplexVertex {
    pub w: Vec3,
    pub a: Point3,
    pub b: Point3,
    pub ids: [u32; 2],
}

impl SimplexVertex {
    pub fn new(a: Point3, b: Point3, ids: [u32; 2]) -> Self {
        Self {
            w: a - b,
            a,
            b,
            ids,
        }
    }
}

/// Up to four vertices with the weights of the point nearest the origin.
#[derive(Clone, Copy, Debug)]
pub struct Simplex {
    pub verts: [SimplexVertex; 4],
    pub weights: [Real; 4],
    pub len: usize,
}

/// Squared lengths below this fraction of the simplex's squared size count as zero: a
/// segment or triangle that thin has no direction of its own to offer.
const DEGENERATE: Real = 1e-24;

impl Simplex {
    pub fn new(first: SimplexVertex) -> Self {
        Self {
            verts: [first; 4],
            weights: [1.0, 0.0, 0.0, 0.0],
            len: 1,
        }
    }

    pub fn vertices(&self) -> &[SimplexVertex] {
        &self.verts[..self.len]
    }

    pub fn push(&mut self, v: SimplexVertex) {
        debug_assert!(self.len < 4);
        self.verts[self.len] = v;
        self.len += 1;
    }

    /// Whether a vertex with these ids (or this very point) is already in the simplex: adding
    /// it again would be no progress.
    pub fn contains(&self, v: &SimplexVertex) -> bool {
        self.vertices().iter().any(|s| {
            (s.ids == v.ids && s.ids != [u32::MAX; 2]) || (s.w - v.w).norm_squared() == 0.0
        })
    }

    /// The point nearest the origin, `Σ λ_i w_i`.
    pub fn point(&self) -> Vec3 {
        self.vertices()
            .iter()
            .zip(&self.weights)
            .map(|(s, l)| s.w * *l)
            .sum()
    }

    /// The witness points on A and on B matching `point()`.
    pub fn witnesses(&self) -> (Point3, Point3) {
        let (mut a, mut b) = (Vec3::zeros(), Vec3::zeros());
        for (s, l) in self.vertices().iter().zip(&self.weights) {
            a += s.a.coords * *l;
            b += s.b.coords * *l;
        }
        (Point3::from(a), Point3::from(b))
    }

    /// Keeps only the vertices of the smallest face holding the point nearest the origin and
    /// sets their weights. A tetrahedron that contains the origin is kept whole.
    pub fn reduce(&mut self) {
        let (keep, weights) = match self.len {
            1 => (Keep::of(&[0]), [1.0, 0.0, 0.0, 0.0]),
            2 => segment(&self.verts, [0, 1]),
            3 => triangle(&self.verts, [0, 1, 2]),
            _ => tetrahedron(&self.verts),
        };
        let old = self.verts;
        self.len = keep.len;
        for (k, &i) in keep.idx[..keep.len].iter().enumerate() {
            self.verts[k] = old[i];
        }
        self.weights = weights;
    }
}

/// Which vertices of the simplex survive, in order.
#[derive(Clone, Copy, Debug)]
struct Keep {
    idx: [usize; 4],
    len: usize,
}

impl Keep {
    fn of(idx: &[usize]) -> Self {
        let mut k = Keep {
            idx: [0; 4],
            len: idx.len(),
        };
        k.idx[..idx.len()].copy_from_slice(idx);
        k
    }
}

type Reduced = (Keep, [Real; 4]);

fn segment(v: &[SimplexVertex; 4], [i, j]: [usize; 2]) -> Reduced {
    let (a, b) = (v[i].w, v[j].w);
    let ab = b - a;
    let len2 = ab.norm_squared();
    // A collapsed segment has no interior: keep its nearer end.
    if len2 <= DEGENERATE * a.norm_squared().max(b.norm_squared()) || len2 == 0.0 {
        return nearer_of(v, &[i, j]);
    }
    let t = -a.dot(&ab) / len2;
    if t <= 0.0 {
        (Keep::of(&[i]), [1.0, 0.0, 0.0, 0.0])
    } else if t >= 1.0 {
        (Keep::of(&[j]), [1.0, 0.0, 0.0, 0.0])
    } else {
        (Keep::of(&[i, j]), [1.0 - t, t, 0.0, 0.0])
    }
}

fn nearer_of(v: &[SimplexVertex; 4], idx: &[usize]) -> Reduced {
    let best = idx
        .iter()
        .copied()
        .min_by(|&p, &q| v[p].w.norm_squared().total_cmp(&v[q].w.norm_squared()))
        .unwrap_or(idx[0]);
    (Keep::of(&[best]), [1.0, 0.0, 0.0, 0.0])
}

fn squared_distance(v: &[SimplexVertex; 4], r: &Reduced) -> Real {
    let (keep, weights) = r;
    keep.idx[..keep.len]
        .iter()
        .zip(weights)
        .map(|(&i, l)| v[i].w * *l)
        .sum::<Vec3>()
        .norm_squared()
}

/// The nearest of several candidate reductions (for collapsed triangles and tetrahedra, where
/// the region tests cannot be trusted and every boundary piece is tried).
fn nearest(v: &[SimplexVertex; 4], candidates: impl Iterator<Item = Reduced>) -> Option<Reduced> {
    candidates.min_by(|p, q| squared_distance(v, p).total_cmp(&squared_distance(v, q)))
}

/// The shared closest-point-on-triangle region walk, with the origin as the query point; a
/// triangle too thin to have a face region of its own is left to its edges.
fn triangle(v: &[SimplexVertex; 4], [i, j, k]: [usize; 3]) -> Reduced {
    let (a, b, c) = (v[i].w, v[j].w, v[k].w);
    let ab = b - a;
    let ac = c - a;
    let n = ab.cross(&ac);
    let scale = ab.norm_squared().max(ac.norm_squared());
    if n.norm_squared() <= DEGENERATE * scale * scale || scale == 0.0 {
        let edges = [segment(v, [i, j]), segment(v, [j, k]), segment(v, [i, k])];
        return nearest(v, edges.into_iter()).unwrap_or(edges[0]);
    }
    let corners = [i, j, k];
    match triangle_feature(ab, ac, [-a, -b, -c]) {
        TriangleFeature::Vertex(m) => (Keep::of(&[corners[m]]), [1.0, 0.0, 0.0, 0.0]),
        TriangleFeature::Edge { from, to, t } => (
            Keep::of(&[corners[from], corners[to]]),
            [1.0 - t, t, 0.0, 0.0],
        ),
        TriangleFeature::Face { v: s, w: t, .. } => (Keep::of(&corners), [1.0 - s - t, s, t, 0.0]),
    }
}

fn signed_volume(p: &[Vec3; 4]) -> Real {
    (p[1] - p[0]).dot(&scaled_normal(p[0], p[2], p[3]))
}

/// The origin against a tetrahedron: inside (kept whole, weights from signed volumes), or the
/// nearest of the faces it lies outside of.
fn tetrahedron(v: &[SimplexVertex; 4]) -> Reduced {
    let p = [v[0].w, v[1].w, v[2].w, v[3].w];
    let volume = signed_volume(&p);
    let scale = (1..4)
        .map(|i| (p[i] - p[0]).norm_squared())
        .fold(0.0, Real::max);
    let faces: [[usize; 3]; 4] = [[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]];
    if volume * volume <= DEGENERATE * scale * scale * scale || scale == 0.0 {
        let tris = faces.map(|f| triangle(v, f));
        return nearest(v, tris.into_iter()).unwrap_or(tris[0]);
    }
    // The signed volume with one vertex replaced by the origin, over the whole: that vertex's
    // barycentric weight; a negative one means the origin is beyond the opposite face.
    let mut weights = [0.0; 4];
    let mut outside = [false; 4];
    for (opp, (weight, out)) in weights.iter_mut().zip(&mut outside).enumerate() {
        let mut q = p;
        q[opp] = Vec3::zeros();
        *weight = signed_volume(&q) / volume;
        *out = *weight < 0.0;
    }
    if !outside.iter().any(|&o| o) {
        return (Keep::of(&[0, 1, 2, 3]), weights);
    }
    let candidates = faces
        .iter()
        .enumerate()
        .filter(|(opp, _)| outside[*opp])
        .map(|(_, f)| triangle(v, *f));
    nearest(v, candidates).unwrap_or_else(|| triangle(v, faces[0]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(x: Real, y: Real, z: Real) -> SimplexVertex {
        SimplexVertex::new(Point3::new(x, y, z), Point3::origin(), [u32::MAX; 2])
    }

    #[test]
    fn tetrahedron_weights_sum_to_one_and_rebuild_the_origin() {
        let mut s = Simplex::new(vertex(-1.0, -1.0, -1.0));
        s.push(vertex(2.0, -1.0, -1.0));
        s.push(vertex(-1.0, 2.0, -1.0));
        s.push(vertex(-1.0, -1.0, 2.0));
        s.reduce();
        assert_eq!(s.len, 4);
        let sum: Real = s.weights.iter().sum();
        assert!((sum - 1.0).abs() < 1e-12);
        assert!(s.point().norm() < 1e-12);
    }

    #[test]
    fn outside_tetrahedron_keeps_the_nearest_face() {
        let mut s = Simplex::new(vertex(1.0, 0.0, 0.0));
        s.push(vertex(2.0, 0.0, 0.0));
        s.push(vertex(1.0, 1.0, 0.0));
        s.push(vertex(1.0, 0.0, 1.0));
        s.reduce();
        assert_eq!(s.len, 1);
        assert!((s.point() - Vec3::new(1.0, 0.0, 0.0)).norm() < 1e-12);
    }

    #[test]
    fn collapsed_simplices_stay_finite() {
        let mut s = Simplex::new(vertex(1.0, 1.0, 1.0));
        s.push(vertex(1.0, 1.0, 1.0));
        s.push(vertex(1.0, 1.0, 1.0));
        s.push(vertex(2.0, 2.0, 2.0));
        s.reduce();
        assert!(s.point().iter().all(|c| c.is_finite()));
        assert!((s.point() - Vec3::new(1.0, 1.0, 1.0)).norm() < 1e-12);
    }

    #[test]
    fn triangle_interior_projection() {
        let mut s = Simplex::new(vertex(-1.0, -1.0, 1.0));
        s.push(vertex(2.0, -1.0, 1.0));
        s.push(vertex(-1.0, 2.0, 1.0));
        s.reduce();
        assert_eq!(s.len, 3);
        assert!((s.point() - Vec3::new(0.0, 0.0, 1.0)).norm() < 1e-12);
    }
}

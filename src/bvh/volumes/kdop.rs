//! k-DOPs (discrete-orientation polytopes, Klosowski et al. 1998): the intersection of k/2
//! slabs `min_i ≤ n_i · x ≤ max_i` along fixed directions. The 14-DOP adds the four cube
//! diagonals to the three coordinate axes, the 18-DOP the six face diagonals, the 26-DOP both.
//! The directions are kept unnormalised (integer components), so `n_i · x` is a sum of signed
//! coordinates and a merge is exact.
//!
//! **Under rotation** a k-DOP is no longer one in the other frame. B's extent along A's
//! direction `n_i` is bounded by writing `d = Rᵀ n_i` as a non-negative combination of three of
//! B's signed directions, those spanning the cone of B's direction set (a face of the convex
//! hull of the 2·(k/2) unit directions) that contains `d`: then `d·x ≤ Σ c_k · (extent of B
//! along its k-th direction)`. The decomposition is computed once per query, so each test
//! costs three multiply-adds per slab. The bound is conservative and exact without rotation.

use super::{BoundingVolume, BvKind, BvTest, axes_by_extent};
use crate::geom::polytope::Polytope;
use crate::geom::triangle::scaled_normal;
use crate::geom::{Aabb, Mat3, Point3, Pose, Ray, Real, TriMesh, Vec3};
use crate::trace::Volume;
use std::sync::OnceLock;

/// A k-DOP with `N = k/2` slab directions (7, 9 or 13).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kdop<const N: usize> {
    pub min: [Real; N],
    pub max: [Real; N],
}

pub type Kdop14 = Kdop<7>;
pub type Kdop18 = Kdop<9>;
pub type Kdop26 = Kdop<13>;

const X: [Real; 3] = [1.0, 0.0, 0.0];
const Y: [Real; 3] = [0.0, 1.0, 0.0];
const Z: [Real; 3] = [0.0, 0.0, 1.0];
const AXES_14: [[Real; 3]; 7] = [
    X,
    Y,
    Z,
    [1.0, 1.0, 1.0],
    [1.0, -1.0, 1.0],
    [1.0, 1.0, -1.0],
    [1.0, -1.0, -1.0],
];
const AXES_18: [[Real; 3]; 9] = [
    X,
    Y,
    Z,
    [1.0, 1.0, 0.0],
    [1.0, -1.0, 0.0],
    [1.0, 0.0, 1.0],
    [1.0, 0.0, -1.0],
    [0.0, 1.0, 1.0],
    [0.0, 1.0, -1.0],
];
const AXES_26: [[Real; 3]; 13] = [
    X,
    Y,
    Z,
    [1.0, 1.0, 1.0],
    [1.0, -1.0, 1.0],
    [1.0, 1.0, -1.0],
    [1.0, -1.0, -1.0],
    [1.0, 1.0, 0.0],
    [1.0, -1.0, 0.0],
    [1.0, 0.0, 1.0],
    [1.0, 0.0, -1.0],
    [0.0, 1.0, 1.0],
    [0.0, 1.0, -1.0],
];

/// The slab directions of a k-DOP with `n` = k/2 of them; the first three are x, y, z.
pub fn kdop_axes(n: usize) -> &'static [[Real; 3]] {
    match n {
        7 => &AXES_14,
        9 => &AXES_18,
        13 => &AXES_26,
        _ => &AXES_26[..3],
    }
}

#[inline(always)]
fn dot(a: &[Real; 3], p: &Point3) -> Real {
    a[0] * p.x + a[1] * p.y + a[2] * p.z
}

fn l1(a: &[Real; 3]) -> Real {
    a[0].abs() + a[1].abs() + a[2].abs()
}

impl<const N: usize> Kdop<N> {
    /// Compile-time guard: only the 14-, 18- and 26-DOP exist.
    const SUPPORTED: () = assert!(
        N == 7 || N == 9 || N == 13,
        "k-DOPs have 7, 9 or 13 directions"
    );

    pub fn axes() -> &'static [[Real; 3]] {
        #[allow(clippy::let_unit_value)]
        let () = Self::SUPPORTED;
        kdop_axes(N)
    }

    pub fn empty() -> Self {
        Kdop {
            min: [Real::INFINITY; N],
            max: [Real::NEG_INFINITY; N],
        }
    }

    #[inline]
    pub fn grow(&mut self, p: &Point3) {
        for (i, a) in Self::axes().iter().enumerate() {
            let d = dot(a, p);
            self.min[i] = self.min[i].min(d);
            self.max[i] = self.max[i].max(d);
        }
    }

    /// The box of the first three slabs, which contains the k-DOP.
    pub fn aabb(&self) -> Aabb {
        Aabb::new(
            Point3::new(self.min[0], self.min[1], self.min[2]),
            Point3::new(self.max[0], self.max[1], self.max[2]),
        )
    }

    /// The k-DOP as a polytope (its faces can be drawn; its volume and area measured).
    pub fn polytope(&self) -> Polytope {
        let mut p = Polytope::from_aabb(&self.aabb());
        for (i, a) in Self::axes().iter().enumerate().skip(3) {
            let n = Vec3::from(*a);
            p.clip(&n, self.max[i]);
            p.clip(&-n, -self.min[i]);
        }
        p
    }

    fn intersection(&self, other: &Self) -> Self {
        let mut k = *self;
        for i in 0..N {
            k.min[i] = k.min[i].max(other.min[i]);
            k.max[i] = k.max[i].min(other.max[i]);
        }
        k
    }

    fn is_empty(&self) -> bool {
        (0..N).any(|i| !(self.min[i] <= self.max[i]))
    }
}

/// B's extent along one of A's directions: a cone of three of B's signed directions.
#[derive(Clone, Copy, Debug, Default)]
struct Cone {
    axis: [usize; 3],
    negative: [bool; 3],
    weight: [Real; 3],
}

#[derive(Clone, Debug)]
pub struct KdopRelative<const N: usize> {
    unrotated: bool,
    /// `n_i · t`: the translation seen along each of A's directions.
    shift: [Real; N],
    cones: [Cone; N],
    /// The query's slack scaled by each direction's rounding growth.
    slack: [Real; N],
}

/// Faces of the convex hull of the 2N unit directions, each with the inverse of the matrix of
/// its three signed (unnormalised) directions, to decompose any vector falling in its cone.
struct ConeTable {
    faces: Vec<([usize; 3], Mat3)>,
}

fn signed_axis(axes: &[[Real; 3]], k: usize) -> Vec3 {
    let v = Vec3::from(axes[k / 2]);
    if k.is_multiple_of(2) { v } else { -v }
}

fn build_cone_table(axes: &[[Real; 3]]) -> ConeTable {
    let m = 2 * axes.len();
    let unit: Vec<Vec3> = (0..m).map(|k| signed_axis(axes, k).normalize()).collect();
    let mut faces = Vec::new();
    for a in 0..m {
        for b in a + 1..m {
            for c in b + 1..m {
                let mut n = scaled_normal(unit[a], unit[b], unit[c]);
                if n.norm() < 1e-9 {
                    continue;
                }
                if n.dot(&unit[a]) < 0.0 {
                    n = -n;
                }
                let on_hull = unit.iter().all(|u| n.dot(&(u - unit[a])) <= 1e-9);
                if !on_hull {
                    continue;
                }
                let cols = Mat3::from_columns(&[
                    signed_axis(axes, a),
                    signed_axis(axes, b),
                    signed_axis(axes, c),
                ]);
                if let Some(inv) = cols.try_inverse() {
                    faces.push(([a, b, c], inv));
                }
            }
        }
    }
    ConeTable { faces }
}

fn cone_table(n: usize) -> &'static ConeTable {
    static TABLES: OnceLock<[ConeTable; 3]> = OnceLock::new();
    let t = TABLES.get_or_init(|| {
        [
            build_cone_table(&AXES_14),
            build_cone_table(&AXES_18),
            build_cone_table(&AXES_26),
        ]
    });
    match n {
        7 => &t[0],
        9 => &t[1],
        _ => &t[2],
    }
}

/// Writes `d` as a non-negative combination of three signed directions of the set.
fn decompose(d: &Vec3, axes: &[[Real; 3]]) -> Cone {
    for (dirs, inv) in &cone_table(axes.len()).faces {
        let c = inv * d;
        let tol = 1e-12 * c.abs().sum();
        if c.iter().all(|&w| w >= -tol) {
            return Cone {
                axis: dirs.map(|k| k / 2),
                negative: dirs.map(|k| k % 2 == 1),
                weight: [c[0].max(0.0), c[1].max(0.0), c[2].max(0.0)],
            };
        }
    }
    // The coordinate octant always works (the first three directions are x, y, z).
    Cone {
        axis: [0, 1, 2],
        negative: [d.x < 0.0, d.y < 0.0, d.z < 0.0],
        weight: [d.x.abs(), d.y.abs(), d.z.abs()],
    }
}

impl<const N: usize> BoundingVolume for Kdop<N> {
    const KIND: BvKind = match N {
        7 => BvKind::Kdop14,
        9 => BvKind::Kdop18,
        _ => BvKind::Kdop26,
    };
    const MERGES_EXACTLY: bool = true;
    type Relative = KdopRelative<N>;

    fn fit(mesh: &TriMesh, triangles: &[u32]) -> Self {
        let mut k = Self::empty();
        for &t in triangles {
            for &v in &mesh.triangles[t as usize] {
                k.grow(&mesh.vertices[v as usize]);
            }
        }
        k
    }

    fn merge(a: &Self, b: &Self) -> Self {
        let mut k = *a;
        for i in 0..N {
            k.min[i] = k.min[i].min(b.min[i]);
            k.max[i] = k.max[i].max(b.max[i]);
        }
        k
    }

    fn relative(b_in_a: &Pose, slack: Real) -> KdopRelative<N> {
        let r = *b_in_a.rotation.to_rotation_matrix().matrix();
        let t = b_in_a.translation.vector;
        let axes = Self::axes();
        let mut rel = KdopRelative {
            unrotated: r == Mat3::identity(),
            shift: [0.0; N],
            cones: [Cone::default(); N],
            slack: [0.0; N],
        };
        for (i, a) in axes.iter().enumerate() {
            let n = Vec3::from(*a);
            rel.shift[i] = n.dot(&t);
            rel.slack[i] = slack * l1(a);
            if !rel.unrotated {
                rel.cones[i] = decompose(&(r.transpose() * n), axes);
            }
        }
        rel
    }

    #[inline]
    fn test(&self, other: &Self, rel: &KdopRelative<N>) -> BvTest {
        for i in 0..N {
            let (lo, hi) = if rel.unrotated {
                (other.min[i], other.max[i])
            } else {
                let cone = &rel.cones[i];
                let (mut lo, mut hi) = (0.0, 0.0);
                for k in 0..3 {
                    let (j, w) = (cone.axis[k], cone.weight[k]);
                    if cone.negative[k] {
                        lo -= w * other.max[j];
                        hi -= w * other.min[j];
                    } else {
                        lo += w * other.min[j];
                        hi += w * other.max[j];
                    }
                }
                (lo, hi)
            };
            let s = rel.slack[i];
            if lo + rel.shift[i] - self.max[i] > s || self.min[i] - (hi + rel.shift[i]) > s {
                return BvTest::Separated {
                    axis: Some(i as u8),
                };
            }
        }
        BvTest::Overlap
    }

    #[inline]
    fn size(&self) -> Real {
        (self.max[0] - self.min[0]) + (self.max[1] - self.min[1]) + (self.max[2] - self.min[2])
    }

    fn surface_area(&self) -> Real {
        if self.is_empty() {
            0.0
        } else {
            self.polytope().area()
        }
    }

    fn volume(&self) -> Real {
        if self.is_empty() {
            0.0
        } else {
            self.polytope().volume()
        }
    }

    fn overlap_volume(&self, other: &Self) -> Real {
        let k = self.intersection(other);
        if k.is_empty() {
            0.0
        } else {
            k.polytope().volume()
        }
    }

    fn reach(&self) -> Real {
        (0..3)
            .map(|i| self.min[i].abs().max(self.max[i].abs()))
            .fold(0.0, Real::max)
    }

    fn ray_entry(&self, ray: &Ray, max_t: Real, slack: Real) -> Option<Real> {
        let (mut t0, mut t1) = (0.0, max_t);
        for (i, a) in Self::axes().iter().enumerate() {
            let s = slack * l1(a);
            let (lo, hi) = (self.min[i] - s, self.max[i] + s);
            let o = dot(a, &ray.origin);
            let d = a[0] * ray.dir.x + a[1] * ray.dir.y + a[2] * ray.dir.z;
            if d == 0.0 {
                if o < lo || o > hi {
                    return None;
                }
                continue;
            }
            let (mut ta, mut tb) = ((lo - o) / d, (hi - o) / d);
            if ta > tb {
                std::mem::swap(&mut ta, &mut tb);
            }
            t0 = Real::max(t0, ta);
            t1 = Real::min(t1, tb);
            if t0 > t1 {
                return None;
            }
        }
        Some(t0)
    }

    fn principal_axes(&self) -> [Vec3; 3] {
        axes_by_extent(&self.aabb().extents())
    }

    fn to_volume(&self) -> Volume {
        Volume::Kdop {
            axes: Self::axes().iter().map(|a| Vec3::from(*a)).collect(),
            min: self.min.to_vec(),
            max: self.max.to_vec(),
        }
    }

    fn to_world_volume(&self, pose: &Pose) -> Volume {
        let axes: Vec<Vec3> = Self::axes()
            .iter()
            .map(|a| pose.rotation * Vec3::from(*a))
            .collect();
        let shift: Vec<Real> = axes
            .iter()
            .map(|a| a.dot(&pose.translation.vector))
            .collect();
        Volume::Kdop {
            min: self.min.iter().zip(&shift).map(|(m, s)| m + s).collect(),
            max: self.max.iter().zip(&shift).map(|(m, s)| m + s).collect(),
            axes,
        }
    }

    fn contains_point(&self, p: &Point3, slack: Real) -> bool {
        Self::axes().iter().enumerate().all(|(i, a)| {
            let d = dot(a, p);
            let s = slack * l1(a);
            d >= self.min[i] - s && d <= self.max[i] + s
        })
    }

    fn enclosing_aabb(&self) -> Aabb {
        self.aabb()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_direction_decomposes_into_its_cone() {
        for n in [7, 9, 13] {
            let axes = kdop_axes(n);
            assert!(!cone_table(n).faces.is_empty());
            let mut s = 3u64;
            for _ in 0..500 {
                let mut r = || {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (s >> 11) as f64 / (1u64 << 53) as f64 - 0.5
                };
                let d = Vec3::new(r(), r(), r());
                let cone = decompose(&d, axes);
                let mut back = Vec3::zeros();
                for k in 0..3 {
                    let a = Vec3::from(axes[cone.axis[k]]);
                    back += if cone.negative[k] { -a } else { a } * cone.weight[k];
                }
                assert!((back - d).norm() < 1e-12, "{n}: {back} vs {d}");
            }
        }
    }

    #[test]
    fn unit_cube_26dop_is_the_cube() {
        let mut k = Kdop26::empty();
        for i in 0..8 {
            k.grow(&Point3::new(
                (i & 1) as f64,
                ((i >> 1) & 1) as f64,
                ((i >> 2) & 1) as f64,
            ));
        }
        assert!((BoundingVolume::volume(&k) - 1.0).abs() < 1e-12);
        // A tetrahedron's 14-DOP cuts the cube's corners off.
        let mut t = Kdop14::empty();
        for p in [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ] {
            t.grow(&Point3::from(p));
        }
        assert!(
            (BoundingVolume::volume(&t) - 1.0 / 6.0).abs() < 1e-12,
            "{}",
            BoundingVolume::volume(&t)
        );
    }
}

use super::{Point3, Real, Triangle, Vec3};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ray {
    pub origin: Point3,
    pub dir: Vec3,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RayHit {
    /// Parameter along the ray: the hit point is `origin + t * dir`.
    pub t: Real,
    pub triangle: usize,
    pub point: Point3,
    /// Unit normal of the hit triangle by its winding (counter-clockwise is the front); it
    /// points away from the ray's origin when the ray hit the back of the triangle.
    pub normal: Vec3,
}

impl Ray {
    pub fn new(origin: Point3, dir: Vec3) -> Self {
        Self { origin, dir }
    }

    pub fn at(&self, t: Real) -> Point3 {
        self.origin + self.dir * t
    }

    /// Möller–Trumbore (spec 004 §5.7). Returns `t` and the barycentrics `(u, v)`;
    /// both faces count, and hits on edges count.
    pub fn intersect_triangle(&self, tri: &Triangle) -> Option<(Real, Real, Real)> {
        let e1 = tri.b - tri.a;
        let e2 = tri.c - tri.a;
        let p = self.dir.cross(&e2);
        let det = e1.dot(&p);
        // The degenerate-triangle test needs three square roots: it is taken last, on the
        // few candidates that pass the barycentric tests (every path before it answers
        // `None` too, so the answers are those of testing it first).
        let inv = 1.0 / det;
        let s = self.origin - tri.a;
        let u = s.dot(&p) * inv;
        if !(0.0..=1.0).contains(&u) {
            return None;
        }
        let q = s.cross(&e1);
        let v = self.dir.dot(&q) * inv;
        if v < 0.0 || u + v > 1.0 {
            return None;
        }
        let scale = e1.norm() * e2.norm() * self.dir.norm();
        if det.abs() <= 1e-14 * scale || scale == 0.0 {
            return None;
        }
        let t = e2.dot(&q) * inv;
        Some((t, u, v))
    }

    /// `1 / dir`, per axis: the slab test's factors, taken once per ray.
    pub fn inverse_dir(&self) -> Vec3 {
        self.dir.map(|d| 1.0 / d)
    }

    /// Ray against an axis-aligned box (slab test); the entry parameter, clamped at 0.
    pub fn intersect_aabb(&self, b: &super::Aabb, max_t: Real) -> Option<Real> {
        self.intersect_aabb_inv(b, &self.inverse_dir(), max_t)
    }

    /// [`Self::intersect_aabb`] with `inv` = [`Self::inverse_dir`] given.
    #[inline]
    pub fn intersect_aabb_inv(&self, b: &super::Aabb, inv: &Vec3, max_t: Real) -> Option<Real> {
        let mut t0: Real = 0.0;
        let mut t1 = max_t;
        for i in 0..3 {
            let mut a = (b.min[i] - self.origin[i]) * inv[i];
            let mut c = (b.max[i] - self.origin[i]) * inv[i];
            if a > c {
                std::mem::swap(&mut a, &mut c);
            }
            // NaN (0 * inf) means the ray runs inside the slab's plane: no constraint.
            if !a.is_nan() {
                t0 = t0.max(a);
            }
            if !c.is_nan() {
                t1 = t1.min(c);
            }
            if t0 > t1 {
                return None;
            }
        }
        Some(t0)
    }
}

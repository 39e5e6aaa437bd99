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
    ///
    /// Most triangles a cast tests are missed, and the barycentric tests that say so are
    /// first taken without the division: `u = (s·p)/det` and `v = (d·q)/det` are rejected
    /// early only where their numerators put them beyond `[0, 1]` by far more than the
    /// rounding of the exact tests, so the answer is the textbook order's, bit for bit
    /// (the tests compare the two).
    pub fn intersect_triangle(&self, tri: &Triangle) -> Option<(Real, Real, Real)> {
        self.intersect_edges(&tri.a, &(tri.b - tri.a), &(tri.c - tri.a))
    }

    /// [`Self::intersect_triangle`] of the triangle with corner `a` and edges `e1 = b − a`
    /// and `e2 = c − a`, for callers that keep the edges.
    #[inline]
    pub fn intersect_edges(&self, a: &Point3, e1: &Vec3, e2: &Vec3) -> Option<(Real, Real, Real)> {
        let p = self.dir.cross(e2);
        let det = e1.dot(&p);
        let s = self.origin - a;
        let u_num = s.dot(&p);
        if surely_outside_unit(u_num, det) {
            return None;
        }
        let q = s.cross(e1);
        let v_num = self.dir.dot(&q);
        if surely_negative(v_num, det) || surely_sum_beyond_one(u_num, v_num, det) {
            return None;
        }
        // The degenerate-triangle test needs three square roots: it is taken last, on the
        // few candidates that pass the barycentric tests (every path before it answers
        // `None` too, so the answers are those of testing it first).
        let inv = 1.0 / det;
        let u = u_num * inv;
        if !(0.0..=1.0).contains(&u) {
            return None;
        }
        let v = v_num * inv;
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

/// Relative margins of the early rejections, far above the few roundings between a
/// numerator and its quotient, `num · fl(1 / det)` (each at most 2⁻⁵³ relative).
const OUTSIDE_MARGIN: Real = 1e-12;
/// A quotient at least this small relative to its numerator would not underflow to −0
/// (which the exact test takes as 0): far above the smallest normal number's 2⁻¹⁰²².
const NO_UNDERFLOW: Real = 1e-240;

/// Whether `num / det` is certainly below 0: opposite signs and not so small that the
/// quotient rounds to −0. NaN and zeros answer `false`, for the exact test to decide.
#[inline(always)]
fn surely_negative(num: Real, det: Real) -> bool {
    (num < 0.0) != (det < 0.0) && num != 0.0 && det != 0.0 && num.abs() >= det.abs() * NO_UNDERFLOW
}

/// Whether `num / det` is certainly outside `[0, 1]`.
#[inline(always)]
fn surely_outside_unit(num: Real, det: Real) -> bool {
    num.abs() > det.abs() * (1.0 + OUTSIDE_MARGIN) || surely_negative(num, det)
}

/// Whether `u + v = (u_num + v_num) / det` is certainly above 1, for numerators of the sign
/// of `det` (a quotient of the other sign fails its own test): their sum then does not cancel.
#[inline(always)]
fn surely_sum_beyond_one(u_num: Real, v_num: Real, det: Real) -> bool {
    let same_side = |n: Real| (n < 0.0) == (det < 0.0) || n == 0.0;
    same_side(u_num)
        && same_side(v_num)
        && (u_num + v_num).abs() > det.abs() * (1.0 + OUTSIDE_MARGIN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The oracle: Möller–Trumbore in the textbook order, dividing first.
    fn dividing_first(ray: &Ray, tri: &Triangle) -> Option<(Real, Real, Real)> {
        let e1 = tri.b - tri.a;
        let e2 = tri.c - tri.a;
        let p = ray.dir.cross(&e2);
        let det = e1.dot(&p);
        let inv = 1.0 / det;
        let s = ray.origin - tri.a;
        let u = s.dot(&p) * inv;
        if !(0.0..=1.0).contains(&u) {
            return None;
        }
        let q = s.cross(&e1);
        let v = ray.dir.dot(&q) * inv;
        if v < 0.0 || u + v > 1.0 {
            return None;
        }
        let scale = e1.norm() * e2.norm() * ray.dir.norm();
        if det.abs() <= 1e-14 * scale || scale == 0.0 {
            return None;
        }
        Some((e2.dot(&q) * inv, u, v))
    }

    fn bits(x: Option<(Real, Real, Real)>) -> Option<[u64; 3]> {
        x.map(|(t, u, v)| [t.to_bits(), u.to_bits(), v.to_bits()])
    }

    fn coordinate() -> impl Strategy<Value = Real> {
        prop_oneof![
            6 => -2.0..2.0f64,
            1 => Just(0.0),
            1 => Just(-0.0),
            1 => -1e-160..1e-160f64,
            1 => -1e150..1e150f64,
            1 => any::<Real>(),
        ]
    }

    fn point() -> impl Strategy<Value = Point3> {
        (coordinate(), coordinate(), coordinate()).prop_map(|(x, y, z)| Point3::new(x, y, z))
    }

    /// A point of the triangle's plane given by barycentrics near its edges and corners
    /// (where the early rejections sit closest to the exact tests), nudged by a few ulps.
    fn aim(tri: &Triangle, u: Real, v: Real, ulps: i64) -> Point3 {
        let p = tri.a + (tri.b - tri.a) * u + (tri.c - tri.a) * v;
        p.map(|mut x| {
            for _ in 0..ulps.unsigned_abs() {
                x = if ulps > 0 { x.next_up() } else { x.next_down() };
            }
            x
        })
    }

    fn barycentric() -> impl Strategy<Value = Real> {
        prop_oneof![
            Just(0.0),
            Just(1.0),
            Just(0.5),
            -1e-12..1e-12f64,
            1.0 - 1e-12..1.0 + 1e-12f64,
            -0.5..1.5f64,
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn the_early_rejections_answer_what_the_textbook_order_answers(
            a in point(), b in point(), c in point(), origin in point(), dir in point(),
        ) {
            let (tri, ray) = (Triangle::new(a, b, c), Ray::new(origin, dir.coords));
            prop_assert_eq!(bits(ray.intersect_triangle(&tri)), bits(dividing_first(&ray, &tri)));
        }

        #[test]
        fn rays_at_edges_and_corners_are_answered_as_the_textbook_order_does(
            a in point(), b in point(), c in point(), origin in point(),
            u in barycentric(), v in barycentric(), ulps in -4i64..4,
            degenerate in 0usize..4,
        ) {
            // Some triangles flat or collapsed, with det at or near zero.
            let c = match degenerate {
                0 => a,
                1 => a + (b - a) * 0.5,
                _ => c,
            };
            let tri = Triangle::new(a, b, c);
            let ray = Ray::new(origin, aim(&tri, u, v, ulps) - origin);
            prop_assert_eq!(bits(ray.intersect_triangle(&tri)), bits(dividing_first(&ray, &tri)));
        }
    }

    #[test]
    fn a_ray_through_the_middle_hits_and_one_beside_misses() {
        let tri = Triangle::new(
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
        );
        let down = Vec3::new(0.0, 0.0, -1.0);
        let hit = Ray::new(Point3::new(0.25, 0.25, 1.0), down).intersect_triangle(&tri);
        assert_eq!(hit, Some((1.0, 0.25, 0.25)));
        for beside in [(-0.1, 0.2), (0.2, -0.1), (0.6, 0.6), (1.1, 0.0)] {
            let ray = Ray::new(Point3::new(beside.0, beside.1, 1.0), down);
            assert_eq!(ray.intersect_triangle(&tri), None, "{beside:?}");
        }
    }
}

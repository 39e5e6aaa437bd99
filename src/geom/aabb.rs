use super::{Point3, Real, Vec3};
use serde::{Deserialize, Serialize};

/// Axis-aligned box given by its two extreme corners.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Aabb {
    pub min: Point3,
    pub max: Point3,
}

impl Aabb {
    pub fn new(min: Point3, max: Point3) -> Self {
        Self { min, max }
    }

    /// The empty box: the identity of `merge`.
    pub fn empty() -> Self {
        Self {
            min: Point3::new(Real::INFINITY, Real::INFINITY, Real::INFINITY),
            max: Point3::new(Real::NEG_INFINITY, Real::NEG_INFINITY, Real::NEG_INFINITY),
        }
    }

    pub fn from_points<'a>(points: impl IntoIterator<Item = &'a Point3>) -> Self {
        Self::around(points.into_iter().copied())
    }

    /// [`Aabb::from_points`] over points made on the fly (a shape's vertices moved to a pose),
    /// with nothing collected.
    pub fn around(points: impl IntoIterator<Item = Point3>) -> Self {
        let mut b = Self::empty();
        for p in points {
            b.grow(&p);
        }
        b
    }

    pub fn from_center_half_extents(center: Point3, half: Vec3) -> Self {
        Self {
            min: center - half,
            max: center + half,
        }
    }

    pub fn is_empty(&self) -> bool {
        (0..3).any(|i| self.min[i] > self.max[i])
    }

    pub fn grow(&mut self, p: &Point3) {
        self.min = self.min.inf(p);
        self.max = self.max.sup(p);
    }

    pub fn merged(&self, other: &Aabb) -> Aabb {
        Aabb {
            min: self.min.inf(&other.min),
            max: self.max.sup(&other.max),
        }
    }

    #[inline]
    pub fn loosened(&self, margin: Real) -> Aabb {
        let m = Vec3::repeat(margin);
        Aabb {
            min: self.min - m,
            max: self.max + m,
        }
    }

    pub fn center(&self) -> Point3 {
        nalgebra::center(&self.min, &self.max)
    }

    pub fn half_extents(&self) -> Vec3 {
        (self.max - self.min) * 0.5
    }

    pub fn extents(&self) -> Vec3 {
        self.max - self.min
    }

    pub fn volume(&self) -> Real {
        if self.is_empty() {
            return 0.0;
        }
        let e = self.extents();
        e.x * e.y * e.z
    }

    pub fn surface_area(&self) -> Real {
        if self.is_empty() {
            return 0.0;
        }
        let e = self.extents();
        2.0 * (e.x * e.y + e.y * e.z + e.z * e.x)
    }

    /// The course's rule (spec 004 §5.4) in 3D: the boxes are apart when any of the six
    /// min/max differences is positive, so touching boxes intersect.
    #[inline]
    pub fn intersects(&self, other: &Aabb) -> bool {
        for i in 0..3 {
            if other.min[i] - self.max[i] > 0.0 || self.min[i] - other.max[i] > 0.0 {
                return false;
            }
        }
        true
    }

    pub fn contains_point(&self, p: &Point3) -> bool {
        (0..3).all(|i| p[i] >= self.min[i] && p[i] <= self.max[i])
    }

    pub fn intersection(&self, other: &Aabb) -> Aabb {
        Aabb {
            min: self.min.sup(&other.min),
            max: self.max.inf(&other.max),
        }
    }

    pub fn closest_point(&self, p: &Point3) -> Point3 {
        p.sup(&self.min).inf(&self.max)
    }

    pub fn corners(&self) -> [Point3; 8] {
        let (a, b) = (self.min, self.max);
        std::array::from_fn(|i| {
            Point3::new(
                if i & 1 == 0 { a.x } else { b.x },
                if i & 2 == 0 { a.y } else { b.y },
                if i & 4 == 0 { a.z } else { b.z },
            )
        })
    }

    /// The box enclosing this one after a rigid motion.
    pub fn transformed(&self, pose: &super::Pose) -> Aabb {
        let r = pose.rotation.to_rotation_matrix();
        let abs = r.matrix().abs();
        let c = pose * self.center();
        let h = abs * self.half_extents();
        Aabb::from_center_half_extents(c, h)
    }

    pub fn longest_axis(&self) -> usize {
        self.extents().imax()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn arb_box() -> impl Strategy<Value = Aabb> {
        (
            prop::array::uniform3(-5i32..5),
            prop::array::uniform3(0i32..4),
        )
            .prop_map(|(c, e)| {
                let min = Point3::new(c[0] as f64, c[1] as f64, c[2] as f64);
                Aabb::new(min, min + Vec3::new(e[0] as f64, e[1] as f64, e[2] as f64))
            })
    }

    proptest! {
        // Oracle: two boxes intersect exactly when some grid point lies in both. Integer
        // corners make touching (shared face, edge, corner) and zero-size boxes common.
        #[test]
        fn aabb_intersection_matches_sampling(a in arb_box(), b in arb_box()) {
            let mut shared = false;
            for x in -10..=10 { for y in -10..=10 { for z in -10..=10 {
                let p = Point3::new(x as f64, y as f64, z as f64);
                if a.contains_point(&p) && b.contains_point(&p) { shared = true; }
            }}}
            prop_assert_eq!(a.intersects(&b), shared);
        }
    }

    #[test]
    fn transformed_box_contains_transformed_corners() {
        let b = Aabb::new(Point3::new(-1.0, -2.0, 0.5), Point3::new(2.0, 1.0, 3.0));
        let pose = super::super::Pose::new(Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.3, -0.7, 1.1));
        let t = b.transformed(&pose).loosened(1e-12);
        for c in b.corners() {
            assert!(t.contains_point(&(pose * c)));
        }
    }
}

use super::{Point3, Real, Vec3};
use serde::{Deserialize, Serialize};

/// The points `x` with `normal · x = d`; `normal` is unit length.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plane {
    pub normal: Vec3,
    pub d: Real,
}

impl Plane {
    /// Normalises `normal`; `None` when it has no direction.
    pub fn new(normal: Vec3, d: Real) -> Option<Self> {
        let len = normal.norm();
        if !(len > 1e-300) || !len.is_finite() || !d.is_finite() {
            return None;
        }
        Some(Self {
            normal: normal / len,
            d: d / len,
        })
    }

    /// The course's plane `ax + by + cz + d = 0` (spec 004 §5.6); note the opposite sign of `d`.
    pub fn from_coefficients(a: Real, b: Real, c: Real, d: Real) -> Option<Self> {
        Self::new(Vec3::new(a, b, c), -d)
    }

    pub fn from_point_normal(p: &Point3, normal: &Vec3) -> Option<Self> {
        let n = normal.try_normalize(1e-300)?;
        Some(Self {
            normal: n,
            d: n.dot(&p.coords),
        })
    }

    #[inline]
    pub fn signed_distance(&self, p: &Point3) -> Real {
        self.normal.dot(&p.coords) - self.d
    }

    pub fn project(&self, p: &Point3) -> Point3 {
        p - self.normal * self.signed_distance(p)
    }
}

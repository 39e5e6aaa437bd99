//! Triangles, and the normal of three corners that most geometry here starts from.

use super::{Point3, Real, Vec3};
use serde::{Deserialize, Serialize};
use std::ops::Sub;

/// The normal of the triangle `a b c`, twice its area long, counter-clockwise winding:
/// `(b − a) × (c − a)`, for corners given as points or as vectors.
pub fn scaled_normal<P>(a: P, b: P, c: P) -> Vec3
where
    P: Sub<Output = Vec3> + Copy,
{
    (b - a).cross(&(c - a))
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Triangle {
    pub a: Point3,
    pub b: Point3,
    pub c: Point3,
}

impl Triangle {
    pub fn new(a: Point3, b: Point3, c: Point3) -> Self {
        Self { a, b, c }
    }

    pub fn vertices(&self) -> [Point3; 3] {
        [self.a, self.b, self.c]
    }

    /// Unnormalised normal, twice the area long, counter-clockwise winding.
    pub fn scaled_normal(&self) -> Vec3 {
        scaled_normal(self.a, self.b, self.c)
    }

    pub fn normal(&self) -> Option<Vec3> {
        self.scaled_normal().try_normalize(1e-300)
    }

    pub fn area(&self) -> Real {
        self.scaled_normal().norm() * 0.5
    }

    pub fn centroid(&self) -> Point3 {
        Point3::from((self.a.coords + self.b.coords + self.c.coords) / 3.0)
    }
}

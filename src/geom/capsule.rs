use super::{Point3, Real, Segment, Sphere, closest};
use serde::{Deserialize, Serialize};

/// The points within `radius` of the inner segment `a`–`b` (spec 004 §6.1: two centres, one radius).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Capsule {
    pub segment: Segment,
    pub radius: Real,
}

impl Capsule {
    pub fn new(a: Point3, b: Point3, radius: Real) -> Self {
        Self {
            segment: Segment::new(a, b),
            radius,
        }
    }

    /// Signed distance between the surfaces of a sphere and this capsule.
    pub fn distance_to_sphere(&self, s: &Sphere) -> Real {
        let q = closest::point_segment(&s.center, &self.segment).0;
        (s.center - q).norm() - s.radius - self.radius
    }

    /// Touching counts as intersecting, as for spheres.
    pub fn intersects_sphere(&self, s: &Sphere) -> bool {
        self.distance_to_sphere(s) <= 0.0
    }

    pub fn distance_to_capsule(&self, other: &Capsule) -> Real {
        let (p, q) = closest::segment_segment(&self.segment, &other.segment);
        (p.point - q.point).norm() - self.radius - other.radius
    }

    pub fn intersects_capsule(&self, other: &Capsule) -> bool {
        self.distance_to_capsule(other) <= 0.0
    }

    pub fn contains_point(&self, p: &Point3) -> bool {
        let q = closest::point_segment(p, &self.segment).0;
        (p - q).norm_squared() <= self.radius * self.radius
    }
}

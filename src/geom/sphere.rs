use super::{Plane, Point3, Real};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sphere {
    pub center: Point3,
    pub radius: Real,
}

impl Sphere {
    pub fn new(center: Point3, radius: Real) -> Self {
        Self { center, radius }
    }

    /// Signed distance between the surfaces: negative is the penetration depth.
    pub fn distance_to_sphere(&self, other: &Sphere) -> Real {
        (self.center - other.center).norm() - self.radius - other.radius
    }

    /// Spec 004 §5.7's table counts touching spheres as intersecting (`R1 + R2 ≥ d`).
    pub fn intersects_sphere(&self, other: &Sphere) -> bool {
        let r = self.radius + other.radius;
        (self.center - other.center).norm_squared() <= r * r
    }

    /// Signed distance from the sphere's surface to the plane, along the plane's side.
    pub fn distance_to_plane(&self, plane: &Plane) -> Real {
        plane.signed_distance(&self.center).abs() - self.radius
    }

    /// Table §5.7: "distance of center to plane ≤ radius".
    pub fn intersects_plane(&self, plane: &Plane) -> bool {
        plane.signed_distance(&self.center).abs() <= self.radius
    }

    pub fn contains_point(&self, p: &Point3) -> bool {
        (p - self.center).norm_squared() <= self.radius * self.radius
    }
}

use super::{Aabb, Mat3, Point3, Real, Vec3};
use serde::{Deserialize, Serialize};

/// Oriented box: a centre, three orthonormal axes (the columns of `axes`) and half extents.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Obb {
    pub center: Point3,
    pub axes: Mat3,
    pub half_extents: Vec3,
}

impl Obb {
    pub fn from_aabb(b: &Aabb) -> Self {
        Self {
            center: b.center(),
            axes: Mat3::identity(),
            half_extents: b.half_extents(),
        }
    }

    pub fn transformed(&self, pose: &super::Pose) -> Obb {
        let r = pose.rotation.to_rotation_matrix();
        Obb {
            center: pose * self.center,
            axes: r.matrix() * self.axes,
            half_extents: self.half_extents,
        }
    }

    pub fn corners(&self) -> [Point3; 8] {
        std::array::from_fn(|i| {
            let s = Vec3::new(
                if i & 1 == 0 { -1.0 } else { 1.0 },
                if i & 2 == 0 { -1.0 } else { 1.0 },
                if i & 4 == 0 { -1.0 } else { 1.0 },
            );
            self.center + self.axes * s.component_mul(&self.half_extents)
        })
    }

    pub fn volume(&self) -> Real {
        8.0 * self.half_extents.x * self.half_extents.y * self.half_extents.z
    }

    pub fn surface_area(&self) -> Real {
        let e = self.half_extents * 2.0;
        2.0 * (e.x * e.y + e.y * e.z + e.z * e.x)
    }

    pub fn aabb(&self) -> Aabb {
        let h = self.axes.abs() * self.half_extents;
        Aabb::from_center_half_extents(self.center, h)
    }

    pub fn contains_point(&self, p: &Point3) -> bool {
        let local = self.axes.transpose() * (p - self.center);
        (0..3).all(|i| local[i].abs() <= self.half_extents[i])
    }

    /// The point of the box closest to `p`.
    pub fn closest_point(&self, p: &Point3) -> Point3 {
        let local = self.axes.transpose() * (p - self.center);
        let clamped =
            Vec3::from_fn(|i, _| local[i].clamp(-self.half_extents[i], self.half_extents[i]));
        self.center + self.axes * clamped
    }
}

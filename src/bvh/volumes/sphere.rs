//! Bounding spheres as a hierarchy volume: the smallest enclosing sphere of each node.

use super::{BoundingVolume, BvKind, BvTest};
use crate::bvh::miniball::min_sphere;
use crate::bvh::obb_fit::triangle_points;
use crate::geom::{Mat3, Point3, Pose, Ray, Real, Sphere, TriMesh, Vec3};
use crate::trace::Volume;
use std::f64::consts::PI;

#[derive(Clone, Debug)]
pub struct SphereRelative {
    rotation: Mat3,
    translation: Vec3,
    slack: Real,
}

impl BoundingVolume for Sphere {
    const KIND: BvKind = BvKind::Sphere;
    const MERGES_EXACTLY: bool = false;
    type Relative = SphereRelative;

    fn fit(mesh: &TriMesh, triangles: &[u32]) -> Self {
        min_sphere(&triangle_points(mesh, triangles))
    }

    /// The smallest sphere enclosing both spheres.
    fn merge(a: &Self, b: &Self) -> Self {
        let d = (b.center - a.center).norm();
        if d + b.radius <= a.radius {
            return *a;
        }
        if d + a.radius <= b.radius {
            return *b;
        }
        let r = 0.5 * (d + a.radius + b.radius);
        let c = a.center + (b.center - a.center) * ((r - a.radius) / d);
        // Rounding may leave either sphere a hair out: grow to cover both for sure.
        let r = r
            .max((c - a.center).norm() + a.radius)
            .max((c - b.center).norm() + b.radius);
        Sphere::new(c, r)
    }

    fn relative(b_in_a: &Pose, slack: Real) -> SphereRelative {
        SphereRelative {
            rotation: *b_in_a.rotation.to_rotation_matrix().matrix(),
            translation: b_in_a.translation.vector,
            slack,
        }
    }

    #[inline]
    fn test(&self, other: &Self, rel: &SphereRelative) -> BvTest {
        let c = rel.rotation * other.center.coords + rel.translation;
        let reach = self.radius + other.radius + rel.slack;
        if (c - self.center.coords).norm_squared() > reach * reach {
            BvTest::Separated { axis: None }
        } else {
            BvTest::Overlap
        }
    }

    #[inline]
    fn size(&self) -> Real {
        self.radius
    }

    fn surface_area(&self) -> Real {
        4.0 * PI * self.radius * self.radius
    }

    fn volume(&self) -> Real {
        4.0 / 3.0 * PI * self.radius.powi(3)
    }

    /// The lens where two balls meet.
    fn overlap_volume(&self, other: &Self) -> Real {
        let (r1, r2) = (self.radius, other.radius);
        let d = (other.center - self.center).norm();
        if d >= r1 + r2 {
            return 0.0;
        }
        if d <= (r1 - r2).abs() {
            return 4.0 / 3.0 * PI * r1.min(r2).powi(3);
        }
        PI * (r1 + r2 - d).powi(2) * (d * d + 2.0 * d * (r1 + r2) - 3.0 * (r1 - r2).powi(2))
            / (12.0 * d)
    }

    fn reach(&self) -> Real {
        self.center.coords.abs().max() + self.radius
    }

    fn ray_entry(&self, ray: &Ray, max_t: Real, slack: Real) -> Option<Real> {
        let r = self.radius + slack;
        let m = ray.origin - self.center;
        let a = ray.dir.norm_squared();
        let c = m.norm_squared() - r * r;
        if c <= 0.0 {
            return Some(0.0);
        }
        if !(a > 0.0) {
            return None;
        }
        let b = m.dot(&ray.dir);
        let disc = b * b - a * c;
        if b > 0.0 || disc < 0.0 {
            return None;
        }
        let t = (-b - disc.sqrt()) / a;
        (t <= max_t).then_some(t.max(0.0))
    }

    fn principal_axes(&self) -> [Vec3; 3] {
        [Vec3::x(), Vec3::y(), Vec3::z()]
    }

    fn to_volume(&self) -> Volume {
        Volume::Sphere(*self)
    }

    fn to_world_volume(&self, pose: &Pose) -> Volume {
        Volume::Sphere(Sphere::new(pose * self.center, self.radius))
    }

    fn contains_point(&self, p: &Point3, slack: Real) -> bool {
        (p - self.center).norm() <= self.radius + slack
    }

    fn enclosing_aabb(&self) -> crate::geom::Aabb {
        crate::geom::Aabb::from_center_half_extents(self.center, Vec3::repeat(self.radius))
    }
}

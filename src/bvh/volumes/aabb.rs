//! Axis-aligned boxes as a hierarchy volume (the geometry lives in `geom::Aabb`).

use super::{BoundingVolume, BvKind, BvTest, axes_by_extent};
use crate::geom::{Aabb, Mat3, Obb, Point3, Pose, Ray, Real, TriMesh, Vec3};
use crate::trace::Volume;

/// B's boxes in A's frame: a pure translation keeps them exact (min + t stays below every
/// translated vertex, rounding being monotonic); a rotation makes them the box of the rotated
/// box, which is what the three face axes of A see.
#[derive(Clone, Debug)]
pub struct AabbRelative {
    rotation: Mat3,
    abs_rotation: Mat3,
    translation: Vec3,
    pure_translation: bool,
    slack: Real,
}

impl BoundingVolume for Aabb {
    const KIND: BvKind = BvKind::Aabb;
    const MERGES_EXACTLY: bool = true;
    type Relative = AabbRelative;

    fn fit(mesh: &TriMesh, triangles: &[u32]) -> Self {
        let mut b = Aabb::empty();
        for &t in triangles {
            for &v in &mesh.triangles[t as usize] {
                b.grow(&mesh.vertices[v as usize]);
            }
        }
        b
    }

    fn merge(a: &Self, b: &Self) -> Self {
        a.merged(b)
    }

    fn relative(b_in_a: &Pose, slack: Real) -> AabbRelative {
        let rotation = *b_in_a.rotation.to_rotation_matrix().matrix();
        AabbRelative {
            rotation,
            abs_rotation: rotation.abs(),
            translation: b_in_a.translation.vector,
            pure_translation: rotation == Mat3::identity(),
            slack,
        }
    }

    #[inline]
    fn test(&self, other: &Self, rel: &AabbRelative) -> BvTest {
        let s = rel.slack;
        if rel.pure_translation {
            let t = &rel.translation;
            for i in 0..3 {
                if other.min[i] + t[i] - self.max[i] > s || self.min[i] - (other.max[i] + t[i]) > s
                {
                    return BvTest::Separated {
                        axis: Some(i as u8),
                    };
                }
            }
        } else {
            let c = rel.rotation * other.center().coords + rel.translation;
            let h = rel.abs_rotation * other.half_extents();
            for i in 0..3 {
                let ca = 0.5 * (self.min[i] + self.max[i]);
                let ha = 0.5 * (self.max[i] - self.min[i]);
                if (c[i] - ca).abs() > ha + h[i] + s {
                    return BvTest::Separated {
                        axis: Some(i as u8),
                    };
                }
            }
        }
        BvTest::Overlap
    }

    #[inline]
    fn size(&self) -> Real {
        let e = self.extents();
        e.x + e.y + e.z
    }

    fn surface_area(&self) -> Real {
        Aabb::surface_area(self)
    }

    fn volume(&self) -> Real {
        Aabb::volume(self)
    }

    fn overlap_volume(&self, other: &Self) -> Real {
        self.intersection(other).volume()
    }

    fn reach(&self) -> Real {
        self.min.coords.abs().max().max(self.max.coords.abs().max())
    }

    fn ray_entry(&self, ray: &Ray, max_t: Real, slack: Real) -> Option<Real> {
        ray.intersect_aabb(&self.loosened(slack), max_t)
    }

    #[inline]
    fn ray_entry_inv(&self, ray: &Ray, inv: &Vec3, max_t: Real, slack: Real) -> Option<Real> {
        ray.intersect_aabb_inv(&self.loosened(slack), inv, max_t)
    }

    fn principal_axes(&self) -> [Vec3; 3] {
        axes_by_extent(&self.extents())
    }

    fn to_volume(&self) -> Volume {
        Volume::Aabb(*self)
    }

    fn to_world_volume(&self, pose: &Pose) -> Volume {
        if pose.rotation.to_rotation_matrix().matrix() == &Mat3::identity() {
            let t = pose.translation.vector;
            Volume::Aabb(Aabb::new(self.min + t, self.max + t))
        } else {
            Volume::Obb(Obb::from_aabb(self).transformed(pose))
        }
    }

    fn contains_point(&self, p: &Point3, slack: Real) -> bool {
        self.loosened(slack).contains_point(p)
    }

    fn enclosing_aabb(&self) -> Aabb {
        *self
    }
}

//! Oriented boxes as a hierarchy volume: RAPID's fit, the 15-axis test.

use super::{BoundingVolume, BvKind, BvTest};
use crate::bvh::obb_fit::{box_with_axes, fit_obb, triangle_points};
use crate::bvh::sat_obb::obb_separating_axis;
use crate::geom::polytope::Polytope;
use crate::geom::{Aabb, Mat3, Obb, Point3, Pose, Ray, Real, TriMesh, Vec3};
use crate::trace::Volume;

#[derive(Clone, Debug)]
pub struct ObbRelative {
    rotation: Mat3,
    translation: Vec3,
    slack: Real,
}

impl BoundingVolume for Obb {
    const KIND: BvKind = BvKind::Obb;
    const MERGES_EXACTLY: bool = false;
    type Relative = ObbRelative;

    fn fit(mesh: &TriMesh, triangles: &[u32]) -> Self {
        fit_obb(mesh, triangles)
    }

    /// Keeps the larger box's axes and encloses both boxes' corners.
    fn merge(a: &Self, b: &Self) -> Self {
        let axes = if a.volume() >= b.volume() {
            a.axes
        } else {
            b.axes
        };
        let corners: Vec<Point3> = a.corners().into_iter().chain(b.corners()).collect();
        box_with_axes(&corners, axes)
    }

    fn refit_leaf(&self, mesh: &TriMesh, triangles: &[u32]) -> Self {
        box_with_axes(&triangle_points(mesh, triangles), self.axes)
    }

    fn refit_internal(&self, left: &Self, right: &Self) -> Self {
        let corners: Vec<Point3> = left.corners().into_iter().chain(right.corners()).collect();
        box_with_axes(&corners, self.axes)
    }

    fn relative(b_in_a: &Pose, slack: Real) -> ObbRelative {
        ObbRelative {
            rotation: *b_in_a.rotation.to_rotation_matrix().matrix(),
            translation: b_in_a.translation.vector,
            slack,
        }
    }

    #[inline]
    fn test(&self, other: &Self, rel: &ObbRelative) -> BvTest {
        let moved = Obb {
            center: Point3::from(rel.rotation * other.center.coords + rel.translation),
            axes: rel.rotation * other.axes,
            half_extents: other.half_extents,
        };
        match obb_separating_axis(self, &moved, rel.slack) {
            None => BvTest::Overlap,
            Some(axis) => BvTest::Separated { axis: Some(axis) },
        }
    }

    #[inline]
    fn size(&self) -> Real {
        self.half_extents.sum()
    }

    fn surface_area(&self) -> Real {
        Obb::surface_area(self)
    }

    fn volume(&self) -> Real {
        Obb::volume(self)
    }

    fn overlap_volume(&self, other: &Self) -> Real {
        let mut p = Polytope::from_obb(self);
        for i in 0..3 {
            let n = other.axes.column(i).into_owned();
            let c = n.dot(&other.center.coords);
            p.clip(&n, c + other.half_extents[i]);
            p.clip(&-n, -(c - other.half_extents[i]));
        }
        p.volume()
    }

    fn reach(&self) -> Real {
        let b = self.aabb();
        b.min.coords.abs().max().max(b.max.coords.abs().max())
    }

    fn ray_entry(&self, ray: &Ray, max_t: Real, slack: Real) -> Option<Real> {
        let at = self.axes.transpose();
        let local = Ray::new(Point3::from(at * (ray.origin - self.center)), at * ray.dir);
        let h = self.half_extents.add_scalar(slack);
        local.intersect_aabb(&Aabb::new(Point3::from(-h), Point3::from(h)), max_t)
    }

    fn principal_axes(&self) -> [Vec3; 3] {
        let mut order = [0usize, 1, 2];
        order.sort_by(|&a, &b| self.half_extents[b].total_cmp(&self.half_extents[a]));
        order.map(|i| self.axes.column(i).into_owned())
    }

    fn to_volume(&self) -> Volume {
        Volume::Obb(*self)
    }

    fn to_world_volume(&self, pose: &Pose) -> Volume {
        Volume::Obb(self.transformed(pose))
    }

    fn contains_point(&self, p: &Point3, slack: Real) -> bool {
        let local = self.axes.transpose() * (p - self.center);
        (0..3).all(|i| local[i].abs() <= self.half_extents[i] + slack)
    }

    fn enclosing_aabb(&self) -> Aabb {
        self.aabb()
    }
}

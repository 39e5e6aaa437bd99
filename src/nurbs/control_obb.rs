//! The thesis' box (§2.1): covariance of the Cartesian control points about their true mean,
//! its eigenvectors as axes, extents from the projections. Positive weights keep the surface
//! inside the control points' convex hull, hence inside this box.

use super::surface::NurbsSurface;
use crate::bvh::obb_fit::{box_with_axes, orthonormal_eigenvectors};
use crate::geom::{Mat3, Obb, Point3, Vec3};

/// The box of a surface's control points.
pub fn control_point_obb(surface: &NurbsSurface) -> Obb {
    let points = surface.cartesian_points();
    obb_of_points(&points)
}

/// The box of a set of control points (the mean divides by the real count, not the
/// thesis' `nm`: §8 of the digest).
pub fn obb_of_points(points: &[Point3]) -> Obb {
    let count = points.len().max(1) as f64;
    let mean = points.iter().map(|p| p.coords).sum::<Vec3>() / count;
    // `obb_fit`'s point covariance is private to the hierarchy module; the scale of this sum
    // does not change its eigenvectors, so no division.
    let scatter = points
        .iter()
        .map(|p| (p.coords - mean) * (p.coords - mean).transpose())
        .sum::<Mat3>();
    box_with_axes(points, orthonormal_eigenvectors(&scatter))
}

//! The thesis' box (§2.1): covariance of the Cartesian control points about their true mean,
//! its eigenvectors as axes, extents from the projections. Positive weights keep the surface
//! inside the control points' convex hull, hence inside this box.

use super::surface::NurbsSurface;
use crate::bvh::obb_fit::{box_with_axes, orthonormal_eigenvectors, point_covariance};
use crate::geom::{Obb, Point3};

/// The box of a surface's control points.
pub fn control_point_obb(surface: &NurbsSurface) -> Obb {
    let points = surface.cartesian_points();
    obb_of_points(&points)
}

/// The box of a set of control points. The hierarchy's covariance divides by the real count
/// (the thesis' `nm` is off by one per direction: §8 of the digest); its scale does not move
/// the eigenvectors, the mean does.
pub fn obb_of_points(points: &[Point3]) -> Obb {
    box_with_axes(points, orthonormal_eigenvectors(&point_covariance(points)))
}

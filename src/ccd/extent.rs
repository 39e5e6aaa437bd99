//! How big a body is for continuous collision: the rim (furthest point from the centre,
//! for the advancement bound) and the inner radius (the largest ball about the centre inside
//! the shape: a body that moves less than it per step cannot skip over anything).

use crate::geom::Shape;
use crate::geom::{Pose, Real};

/// Half the diagonal of the local box: every point of the shape is within it of the centre.
pub fn rim_radius(shape: &Shape) -> Real {
    shape.aabb(&Pose::identity()).half_extents().norm()
}

/// The radius of the largest ball about the centre inside the shape; `None` for meshes,
/// which are surfaces and may not even contain their centre.
pub fn inner_radius(shape: &Shape) -> Option<Real> {
    match shape {
        Shape::Sphere { radius } | Shape::Capsule { radius, .. } => Some(*radius),
        Shape::Box { half_extents, .. } => Some(half_extents.min()),
        Shape::Convex(poly) => (!poly.faces.is_empty()).then_some(poly.inner_radius),
        Shape::Mesh(_) => None,
    }
}

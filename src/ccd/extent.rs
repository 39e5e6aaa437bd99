//! How big a body is for continuous collision: the rim (furthest point from the centre,
//! for the advancement bound) and the inner radius (the largest ball about the centre inside
//! the shape: a body that moves less than it per step cannot skip over anything).

use crate::geom::Shape;
use crate::geom::{Pose, Real};

/// The distance from the centre to the furthest corner of the local box: every point of the
/// shape is within it. (A hull or mesh centred on its mass sits off-centre in its box, so
/// half the box's diagonal can fall short of its far side.)
pub fn rim_radius(shape: &Shape) -> Real {
    let local = shape.aabb(&Pose::identity());
    local.min.coords.abs().sup(&local.max.coords.abs()).norm()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{ConvexPolyhedron, Point3};
    use proptest::prelude::*;
    use std::sync::Arc;

    /// A cone centred on its mass, apex 3 above it and base 1 below: the box's half diagonal
    /// (2.45) falls short of the apex.
    #[test]
    fn the_rim_reaches_the_apex_of_a_cone_centred_on_its_mass() {
        let mut points = vec![Point3::new(0.0, 3.0, 0.0)];
        points.extend((0..16).map(|k| {
            let a = Real::from(k) * std::f64::consts::TAU / 16.0;
            Point3::new(a.cos(), -1.0, a.sin())
        }));
        let hull = ConvexPolyhedron::hull(&points).expect("a cone");
        let rim = rim_radius(&Shape::Convex(Arc::new(hull)));
        assert!(rim >= 3.0, "rim {rim}");
        assert!(rim <= 3.0 * 3f64.sqrt(), "rim {rim}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        /// Every vertex of a hull anywhere around the centre lies within the rim.
        #[test]
        fn every_vertex_of_a_hull_is_within_the_rim(
            points in prop::collection::vec(
                (-5.0..5.0_f64, -5.0..5.0_f64, -5.0..5.0_f64).prop_map(|(x, y, z)| Point3::new(x, y, z)),
                4..24,
            ),
            offset in (-4.0..4.0_f64, -4.0..4.0_f64, -4.0..4.0_f64),
        ) {
            let shifted: Vec<Point3> = points
                .iter()
                .map(|p| p + crate::geom::Vec3::new(offset.0, offset.1, offset.2))
                .collect();
            let Ok(hull) = ConvexPolyhedron::hull(&shifted) else {
                return Ok(());
            };
            let furthest = hull.vertices.iter().map(|v| v.coords.norm()).fold(0.0, Real::max);
            let rim = rim_radius(&Shape::Convex(Arc::new(hull)));
            prop_assert!(rim >= furthest, "rim {} < furthest vertex {}", rim, furthest);
            prop_assert!(rim <= furthest * 3f64.sqrt() + 1e-12);
        }
    }
}

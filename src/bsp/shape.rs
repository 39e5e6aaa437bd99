use crate::geom::{Real, Vec3};
use serde::{Deserialize, Serialize};

/// A bounding shape swept through a level. It only translates, so its thickness against a
/// plane depends on the plane's normal alone. Every shape is centred on its position, so the
/// thickness against a plane and against the flipped plane are equal. Cylinders and capsules
/// stand along y (the level's up axis in scenes and the query protocol).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    Sphere { radius: Real },
    Box { half_extents: Vec3 },
    Ellipsoid { radii: Vec3 },
    Cylinder { radius: Real, half_height: Real },
    Capsule { radius: Real, half_height: Real },
}

impl Shape {
    /// Support distance along `n` (unit): how far the position must stay from a plane with
    /// normal `n` for the whole shape to be on its front side.
    #[inline]
    pub fn offset(&self, n: &Vec3) -> Real {
        match *self {
            Shape::Sphere { radius } => radius,
            Shape::Box { half_extents: e } => e.x * n.x.abs() + e.y * n.y.abs() + e.z * n.z.abs(),
            Shape::Ellipsoid { radii: r } => {
                ((r.x * n.x).powi(2) + (r.y * n.y).powi(2) + (r.z * n.z).powi(2)).sqrt()
            }
            Shape::Cylinder {
                radius,
                half_height,
            } => radius * (1.0 - n.y * n.y).max(0.0).sqrt() + half_height * n.y.abs(),
            Shape::Capsule {
                radius,
                half_height,
            } => radius + half_height * n.y.abs(),
        }
    }

    /// Half extents of the shape's bounding box: its offsets along the three axes.
    #[inline]
    pub fn half_extents(&self) -> Vec3 {
        Vec3::new(
            self.offset(&Vec3::x()),
            self.offset(&Vec3::y()),
            self.offset(&Vec3::z()),
        )
    }

    /// An upper bound of the offset for every normal: the traversal's margin must cover the
    /// bevelled, pushed-out brush, which lies inside the brush grown by the shape's box.
    #[inline]
    pub fn box_offset(half: &Vec3, n: &Vec3) -> Real {
        half.x * n.x.abs() + half.y * n.y.abs() + half.z * n.z.abs()
    }

    /// Non-negative finite sizes: shapes from files and queries are checked with this.
    pub fn validate(&self) -> Result<(), String> {
        let sizes: Vec<Real> = match *self {
            Shape::Sphere { radius } => vec![radius],
            Shape::Box { half_extents: e } | Shape::Ellipsoid { radii: e } => {
                vec![e.x, e.y, e.z]
            }
            Shape::Cylinder {
                radius,
                half_height,
            }
            | Shape::Capsule {
                radius,
                half_height,
            } => vec![radius, half_height],
        };
        if sizes.iter().all(|s| s.is_finite() && *s >= 0.0) {
            Ok(())
        } else {
            Err("shape sizes must be finite and non-negative".into())
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Shape::Sphere { .. } => "sphere",
            Shape::Box { .. } => "box",
            Shape::Ellipsoid { .. } => "ellipsoid",
            Shape::Cylinder { .. } => "cylinder",
            Shape::Capsule { .. } => "capsule",
        }
    }
}

/// Any of the shapes, sized up to `size`; an ellipsoid's radii start at `least_radius`
/// (a flat one is a degenerate case some tests leave out).
#[cfg(test)]
pub(super) fn any_shape(
    size: f64,
    least_radius: f64,
) -> impl proptest::strategy::Strategy<Value = Shape> {
    use proptest::prelude::*;
    prop_oneof![
        (0.0..size).prop_map(|radius| Shape::Sphere { radius }),
        (0.0..size, 0.0..size, 0.0..size).prop_map(|(x, y, z)| Shape::Box {
            half_extents: Vec3::new(x, y, z)
        }),
        (0.0..size, 0.0..size).prop_map(|(radius, half_height)| Shape::Cylinder {
            radius,
            half_height
        }),
        (0.0..size, 0.0..size).prop_map(|(radius, half_height)| Shape::Capsule {
            radius,
            half_height
        }),
        (least_radius..size, least_radius..size, least_radius..size).prop_map(|(x, y, z)| {
            Shape::Ellipsoid {
                radii: Vec3::new(x, y, z),
            }
        }),
    ]
}

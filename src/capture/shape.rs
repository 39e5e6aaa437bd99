//! A captured shape as one of Collidoscope's shapes, so the viewer draws it and the bodies'
//! catalog knows it. Shapes Collidoscope has no exact twin for (a cylinder, a height field,
//! a plane) become the nearest it has, and say so.

use super::item::{CapturedShape, PoseItem};
use crate::scene::ShapeDesc;

/// Sides of the prism that draws a cylinder.
const CYLINDER_SIDES: usize = 24;
/// Half the side of the slab that draws a plane, in metres, and half its thickness.
const PLANE_HALF_SIDE_M: f64 = 50.0;
const PLANE_HALF_THICKNESS_M: f64 = 0.05;

/// How a captured shape is drawn.
pub struct Mapped {
    pub desc: ShapeDesc,
    /// Where the drawn shape's origin sits in the collider's frame: a plane's slab below
    /// its surface, a hull's or a mesh's centre of mass (the engine recentres those).
    pub frame: PoseItem,
    /// What is drawn instead of the shape, when it is not the shape itself.
    pub note: Option<String>,
}

pub fn map_shape(shape: &CapturedShape, approximates: Option<&str>) -> Mapped {
    let (desc, frame, mut note) = describe(shape);
    if let Some(what) = approximates {
        note = Some(format!(
            "stands for a {what} the engine's capture could not map"
        ));
    }
    match desc.validate().and_then(|()| crate::world::shape_of(&desc)) {
        Ok((_, offset)) => Mapped {
            frame: then(&frame, offset.into()),
            desc,
            note,
        },
        Err(why) => {
            let (min, max) = bounds(shape);
            let half = [0, 1, 2].map(|k| ((max[k] - min[k]) / 2.0).max(1e-4));
            let centre = [0, 1, 2].map(|k| (max[k] + min[k]) / 2.0);
            Mapped {
                desc: ShapeDesc::Box { half_extents: half },
                frame: PoseItem {
                    translation: centre,
                    rotation: PoseItem::IDENTITY.rotation,
                },
                note: Some(format!("drawn as its bounding box: {why}")),
            }
        }
    }
}

/// `frame` followed by a translation `offset` in its own axes.
fn then(frame: &PoseItem, offset: [f64; 3]) -> PoseItem {
    let q = quat(frame.rotation);
    let moved = q * crate::geom::Vec3::from(offset);
    PoseItem {
        translation: [0, 1, 2].map(|k| frame.translation[k] + moved[k]),
        rotation: frame.rotation,
    }
}

pub fn quat(wxyz: [f64; 4]) -> crate::geom::Quat {
    crate::geom::Quat::new_unchecked(nalgebra::Quaternion::new(
        wxyz[0], wxyz[1], wxyz[2], wxyz[3],
    ))
}

fn describe(shape: &CapturedShape) -> (ShapeDesc, PoseItem, Option<String>) {
    let at_origin = PoseItem::IDENTITY;
    match shape {
        CapturedShape::Sphere { radius } => {
            (ShapeDesc::Sphere { radius: *radius }, at_origin, None)
        }
        CapturedShape::Cuboid { half_extents } => (
            ShapeDesc::Box {
                half_extents: *half_extents,
            },
            at_origin,
            None,
        ),
        // A capsule with no segment is a sphere, which is how Collidoscope holds it.
        CapturedShape::Capsule {
            radius,
            half_height,
        } if *half_height == 0.0 => (ShapeDesc::Sphere { radius: *radius }, at_origin, None),
        CapturedShape::Capsule {
            radius,
            half_height,
        } => (
            ShapeDesc::Capsule {
                radius: *radius,
                half_height: *half_height,
            },
            at_origin,
            None,
        ),
        CapturedShape::Cylinder {
            radius,
            half_height,
        } => (
            ShapeDesc::ConvexHull {
                points: cylinder_points(*radius, *half_height),
            },
            at_origin,
            Some(format!("drawn as a {CYLINDER_SIDES}-sided prism")),
        ),
        CapturedShape::Convex { points } => (
            ShapeDesc::ConvexHull {
                points: points.clone(),
            },
            at_origin,
            None,
        ),
        CapturedShape::TriMesh {
            vertices,
            triangles,
        } => (
            ShapeDesc::TriMesh {
                vertices: vertices.clone(),
                triangles: triangles.clone(),
            },
            at_origin,
            None,
        ),
        CapturedShape::HeightField { heights, scale } => {
            (height_field_mesh(heights, *scale), at_origin, None)
        }
        CapturedShape::Plane { normal, d } => plane_slab(*normal, *d),
    }
}

fn cylinder_points(radius: f64, half_height: f64) -> Vec<[f64; 3]> {
    let mut points = Vec::with_capacity(2 * CYLINDER_SIDES);
    for i in 0..CYLINDER_SIDES {
        let a = std::f64::consts::TAU * i as f64 / CYLINDER_SIDES as f64;
        let (x, z) = (radius * a.cos(), radius * a.sin());
        points.push([x, -half_height, z]);
        points.push([x, half_height, z]);
    }
    points
}

/// Rows along z, columns along x, centred on the origin.
fn height_field_mesh(heights: &[Vec<f64>], scale: [f64; 3]) -> ShapeDesc {
    let rows = heights.len();
    let cols = heights.first().map_or(0, Vec::len);
    let at = |r: usize, c: usize| -> [f64; 3] {
        let x = (c as f64 / (cols - 1) as f64 - 0.5) * scale[0];
        let z = (r as f64 / (rows - 1) as f64 - 0.5) * scale[2];
        [x, heights[r][c] * scale[1], z]
    };
    let mut vertices = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            vertices.push(at(r, c));
        }
    }
    let mut triangles = Vec::with_capacity(2 * (rows - 1) * (cols - 1));
    let id = |r: usize, c: usize| (r * cols + c) as u32;
    for r in 0..rows - 1 {
        for c in 0..cols - 1 {
            triangles.push([id(r, c), id(r + 1, c), id(r, c + 1)]);
            triangles.push([id(r, c + 1), id(r + 1, c), id(r + 1, c + 1)]);
        }
    }
    ShapeDesc::TriMesh {
        vertices,
        triangles,
    }
}

/// A thin square slab whose top face is the plane `normal · x = d`.
fn plane_slab(normal: [f64; 3], d: f64) -> (ShapeDesc, PoseItem, Option<String>) {
    let n = crate::geom::Vec3::from(normal);
    let len = n.norm();
    let n = n / len;
    let rotation =
        crate::geom::Quat::rotation_between(&crate::geom::Vec3::y(), &n).unwrap_or_else(|| {
            crate::geom::Quat::from_axis_angle(&crate::geom::Vec3::x_axis(), std::f64::consts::PI)
        });
    let centre = n * (d / len - PLANE_HALF_THICKNESS_M);
    let q = rotation.into_inner();
    (
        ShapeDesc::Box {
            half_extents: [PLANE_HALF_SIDE_M, PLANE_HALF_THICKNESS_M, PLANE_HALF_SIDE_M],
        },
        PoseItem {
            translation: centre.into(),
            rotation: [q.w, q.i, q.j, q.k],
        },
        Some(format!(
            "an infinite plane, drawn as a {} m square",
            2.0 * PLANE_HALF_SIDE_M
        )),
    )
}

/// The shape's bounding box in its collider's frame.
pub fn bounds(shape: &CapturedShape) -> ([f64; 3], [f64; 3]) {
    let of_points = |ps: &mut dyn Iterator<Item = [f64; 3]>| {
        let mut min = [f64::INFINITY; 3];
        let mut max = [f64::NEG_INFINITY; 3];
        for p in ps {
            for k in 0..3 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
        if min[0] > max[0] {
            ([0.0; 3], [0.0; 3])
        } else {
            (min, max)
        }
    };
    match shape {
        CapturedShape::Sphere { radius } => ([-radius; 3], [*radius; 3]),
        CapturedShape::Cuboid { half_extents: h } => (h.map(|x| -x), *h),
        CapturedShape::Capsule {
            radius: r,
            half_height: h,
        } => ([-r, -h - r, -r], [*r, h + r, *r]),
        CapturedShape::Cylinder {
            radius: r,
            half_height: h,
        } => ([-r, -h, -r], [*r, *h, *r]),
        CapturedShape::Convex { points } => of_points(&mut points.iter().copied()),
        CapturedShape::TriMesh { vertices, .. } => of_points(&mut vertices.iter().copied()),
        CapturedShape::HeightField { .. } | CapturedShape::Plane { .. } => {
            match describe(shape).0 {
                ShapeDesc::TriMesh { vertices, .. } => of_points(&mut vertices.iter().copied()),
                _ => (
                    [
                        -PLANE_HALF_SIDE_M,
                        -PLANE_HALF_THICKNESS_M,
                        -PLANE_HALF_SIDE_M,
                    ],
                    [PLANE_HALF_SIDE_M, PLANE_HALF_THICKNESS_M, PLANE_HALF_SIDE_M],
                ),
            }
        }
    }
}

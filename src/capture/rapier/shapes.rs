//! A parry shape (rapier's colliders) as a capture-stream shape.
//!
//! Ball, cuboid, cylinder, convex polyhedron, triangle mesh and height field have exact twins
//! in the stream. A capsule is declared as the stream's y-axis capsule, with its segment's
//! frame (centre and direction) carried into the collider's pose, so a capsule along any
//! segment is exact too; likewise a half-space becomes a plane and a triangle a one-triangle
//! mesh. Every other shape (compounds, cones, segments, polylines, voxels, the rounded
//! shapes, custom shapes) is declared as the cuboid of its local bounding box, centred by the
//! collider's pose, with `approximates` naming what it stands for.

use crate::capture::EngineId;
use crate::capture::{CapturedShape, PoseItem, ShapeItem};
use rapier3d::parry::shape::{Capsule, HeightField, Shape, TypedShape};

/// A shape as it is declared, and where it sits in its collider's frame.
pub struct Declared {
    pub item: ShapeItem,
    /// Composed after the collider's pose on its body (identity for most shapes).
    pub offset: PoseItem,
}

/// f32 to f64 is exact: every value the stream carries is the one rapier holds.
pub fn v3(v: rapier3d::math::Vector) -> [f64; 3] {
    v.to_array().map(f64::from)
}

/// A rapier pose as the stream's: translation, then the quaternion as `[w, x, y, z]`.
pub fn pose(p: &rapier3d::math::Pose) -> PoseItem {
    let [x, y, z, w] = p.rotation.to_array().map(f64::from);
    PoseItem {
        translation: v3(p.translation),
        rotation: [w, x, y, z],
    }
}

pub fn declare(id: EngineId, shape: &dyn Shape) -> Declared {
    let exact = |shape| (shape, PoseItem::IDENTITY, None);
    let (captured, offset, approximates) = match shape.as_typed_shape() {
        TypedShape::Ball(b) => exact(CapturedShape::Sphere {
            radius: f64::from(b.radius),
        }),
        TypedShape::Cuboid(c) => exact(CapturedShape::Cuboid {
            half_extents: v3(c.half_extents),
        }),
        TypedShape::Capsule(c) => {
            let (shape, offset) = capsule(c);
            (shape, offset, None)
        }
        TypedShape::Cylinder(c) => exact(CapturedShape::Cylinder {
            radius: f64::from(c.radius),
            half_height: f64::from(c.half_height),
        }),
        TypedShape::ConvexPolyhedron(c) => exact(CapturedShape::Convex {
            points: c.points().iter().map(|p| v3(*p)).collect(),
        }),
        TypedShape::TriMesh(m) => exact(CapturedShape::TriMesh {
            vertices: m.vertices().iter().map(|p| v3(*p)).collect(),
            triangles: m.indices().to_vec(),
        }),
        TypedShape::Triangle(t) => exact(CapturedShape::TriMesh {
            vertices: vec![v3(t.a), v3(t.b), v3(t.c)],
            triangles: vec![[0, 1, 2]],
        }),
        TypedShape::HeightField(h) => exact(height_field(h)),
        TypedShape::HalfSpace(h) => exact(CapturedShape::Plane {
            normal: v3(h.normal),
            d: 0.0,
        }),
        other => {
            let (shape, offset) = bounding_box(shape);
            (shape, offset, Some(type_name(&other).to_string()))
        }
    };
    Declared {
        item: ShapeItem {
            id,
            shape: captured,
            approximates,
        },
        offset,
    }
}

/// The stream's capsule lies on the y axis, centred: the segment's midpoint and direction
/// become the offset. A degenerate segment (a ball) keeps the y axis.
fn capsule(c: &Capsule) -> (CapturedShape, PoseItem) {
    let (a, b) = (
        crate::geom::Vec3::from(v3(c.segment.a)),
        crate::geom::Vec3::from(v3(c.segment.b)),
    );
    let axis = b - a;
    let half_height = axis.norm() / 2.0;
    let centre = (a + b) / 2.0;
    let rotation = crate::geom::Quat::rotation_between(&crate::geom::Vec3::y(), &axis)
        // Antiparallel to y (or zero length): a half turn about x flips y, identity is fine
        // for a point.
        .unwrap_or_else(|| {
            if axis.y < 0.0 {
                crate::geom::Quat::from_axis_angle(
                    &crate::geom::Vec3::x_axis(),
                    std::f64::consts::PI,
                )
            } else {
                crate::geom::Quat::identity()
            }
        });
    let q = rotation.into_inner();
    let offset = if centre == crate::geom::Vec3::zeros() && axis.x == 0.0 && axis.z == 0.0 {
        // Already the stream's capsule (either end first): nothing computed, nothing rounded.
        PoseItem::IDENTITY
    } else {
        PoseItem {
            translation: centre.into(),
            rotation: [q.w, q.i, q.j, q.k],
        }
    };
    (
        CapturedShape::Capsule {
            radius: f64::from(c.radius),
            half_height,
        },
        offset,
    )
}

/// Parry's height field has the stream's layout: row `i` along z, column `j` along x,
/// centred, spanning `scale.x` by `scale.z`, heights times `scale.y`. Removed cells are
/// drawn anyway.
fn height_field(h: &HeightField) -> CapturedShape {
    let heights = h.heights();
    let rows = (0..heights.nrows())
        .map(|i| {
            (0..heights.ncols())
                .map(|j| f64::from(heights[(i, j)]))
                .collect()
        })
        .collect();
    CapturedShape::HeightField {
        heights: rows,
        scale: v3(h.scale()),
    }
}

/// The cuboid of the shape's local bounding box, and the box's centre as the offset.
fn bounding_box(shape: &dyn Shape) -> (CapturedShape, PoseItem) {
    let aabb = shape.compute_local_aabb();
    let (min, max) = (v3(aabb.mins), v3(aabb.maxs));
    let half_extents = [0, 1, 2].map(|k| (max[k] - min[k]) / 2.0);
    let centre = [0, 1, 2].map(|k| (max[k] + min[k]) / 2.0);
    (
        CapturedShape::Cuboid { half_extents },
        PoseItem {
            translation: centre,
            rotation: PoseItem::IDENTITY.rotation,
        },
    )
}

/// What an unmapped shape is, as the viewer's note names it.
fn type_name(shape: &TypedShape<'_>) -> &'static str {
    match shape {
        TypedShape::Segment(_) => "segment",
        TypedShape::Voxels(_) => "voxels",
        TypedShape::Polyline(_) => "polyline",
        TypedShape::Compound(_) => "compound",
        TypedShape::Cone(_) => "cone",
        TypedShape::RoundCuboid(_) => "round cuboid",
        TypedShape::RoundTriangle(_) => "round triangle",
        TypedShape::RoundCylinder(_) => "round cylinder",
        TypedShape::RoundCone(_) => "round cone",
        TypedShape::RoundConvexPolyhedron(_) => "round convex polyhedron",
        TypedShape::Custom(_) => "custom shape",
        _ => "shape",
    }
}

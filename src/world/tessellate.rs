//! Triangle meshes that show each shape, in body-local coordinates. The viewer draws these;
//! they are made here so that it never has to know a shape's geometry.

use super::procedural;
use crate::dynamics::Shape;
use crate::geom::TriMesh;

pub fn display_mesh(shape: &Shape) -> TriMesh {
    match shape {
        Shape::Sphere { radius } => procedural::icosphere(*radius, 2),
        Shape::Capsule {
            radius,
            half_height,
        } => procedural::capsule(*radius, *half_height, 16),
        Shape::Box { polyhedron, .. } | Shape::Convex(polyhedron) => TriMesh {
            vertices: polyhedron.vertices.clone(),
            triangles: polyhedron.triangles(),
        },
        Shape::Mesh(mesh) => (**mesh).clone(),
    }
}

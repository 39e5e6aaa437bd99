//! A convex polyhedron seen through borrowed slices, so the vertices and normals can be a
//! placed copy (in the world, or in the other body's frame) while the faces and edges stay the
//! shape's own: no hull is cloned to place it.

use crate::geom::{ConvexPolyhedron, Point3, Vec3, farthest_along};

#[derive(Clone, Copy, Debug)]
pub struct HullView<'a> {
    pub vertices: &'a [Point3],
    /// Outward unit normal of each face, in the same frame as `vertices`.
    pub normals: &'a [Vec3],
    pub faces: &'a [Vec<u32>],
    pub edges: &'a [[u32; 2]],
}

impl<'a> From<&'a ConvexPolyhedron> for HullView<'a> {
    fn from(p: &'a ConvexPolyhedron) -> Self {
        HullView {
            vertices: &p.vertices,
            normals: &p.normals,
            faces: &p.faces,
            edges: &p.edges,
        }
    }
}

impl HullView<'_> {
    /// The index of the vertex furthest along `dir`.
    pub fn support(&self, dir: &Vec3) -> usize {
        farthest_along(self.vertices, dir)
    }

    pub fn vertex(&self, i: u32) -> Point3 {
        self.vertices[i as usize]
    }
}

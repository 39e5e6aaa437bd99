//! A polyhedron placed in the world by a pose. The walk touches a handful of features per
//! query, so features are moved into the world one at a time, never the whole shape.

use super::{Feature, Polyhedron};
use crate::geom::{Point3, Pose, Real, Segment, Triangle, Vec3};

#[derive(Clone, Copy)]
pub struct Placed<'a> {
    pub shape: &'a Polyhedron,
    pub pose: &'a Pose,
}

impl<'a> Placed<'a> {
    pub fn new(shape: &'a Polyhedron, pose: &'a Pose) -> Self {
        Placed { shape, pose }
    }

    #[inline]
    pub fn vertex(&self, v: u32) -> Point3 {
        self.pose * self.shape.vertices[v as usize]
    }

    #[inline]
    pub fn edge(&self, e: u32) -> Segment {
        let [a, b] = self.shape.edges[e as usize];
        Segment::new(self.vertex(a), self.vertex(b))
    }

    #[inline]
    pub fn normal(&self, f: u32) -> Vec3 {
        self.pose.rotation * self.shape.normals[f as usize]
    }

    /// The face's plane as (unit normal, offset) in the world.
    #[inline]
    pub fn face_plane(&self, f: u32) -> (Vec3, Real) {
        let n = self.normal(f);
        let v0 = self.vertex(self.shape.faces[f as usize][0]);
        (n, n.dot(&v0.coords))
    }

    /// The face as a fan of world triangles.
    pub fn face_triangles(&self, f: u32) -> impl Iterator<Item = Triangle> + '_ {
        let face = &self.shape.faces[f as usize];
        let v0 = self.vertex(face[0]);
        (1..face.len().saturating_sub(1)).map(move |i| Triangle {
            a: v0,
            b: self.vertex(face[i]),
            c: self.vertex(face[i + 1]),
        })
    }

    /// A point of the feature: where a drawing or a fallback starts.
    pub fn anchor(&self, f: Feature) -> Point3 {
        match f {
            Feature::Vertex(v) => self.vertex(v),
            Feature::Edge(e) => self.edge(e).at(0.5),
            Feature::Face(f) => {
                let face = &self.shape.faces[f as usize];
                let sum: Vec3 = face.iter().map(|&v| self.vertex(v).coords).sum();
                Point3::from(sum / face.len() as Real)
            }
        }
    }

    /// The tolerance of sign tests on this shape: rounding grows with its size and with its
    /// distance from the origin.
    pub fn tolerance(&self) -> Real {
        1e-12 * (self.shape.radius + self.pose.translation.vector.norm()).max(1e-300)
    }
}

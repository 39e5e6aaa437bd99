//! A convex polyhedron with the adjacency the closest-feature walk moves along: each edge's
//! endpoints and two faces, each vertex's edges, each face's boundary edges.

use super::Feature;
use crate::geom::{ConvexPolyhedron, HullError, Point3, Real, Vec3};
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq)]
pub struct Polyhedron {
    pub vertices: Vec<Point3>,
    /// Vertex indices of each face, counter-clockwise seen from outside.
    pub faces: Vec<Vec<u32>>,
    /// Outward unit normal of each face.
    pub normals: Vec<Vec3>,
    /// Each edge as (tail, head), tail < head.
    pub edges: Vec<[u32; 2]>,
    /// The faces of each edge: `[left, right]`, where tail → head runs counter-clockwise
    /// around `left` (seen from outside) and clockwise around `right`.
    pub edge_faces: Vec<[u32; 2]>,
    pub vertex_edges: Vec<Vec<u32>>,
    /// The boundary edges of each face, in the face's vertex order (edge k joins vertex k to
    /// vertex k + 1).
    pub face_edges: Vec<Vec<u32>>,
    /// The radius of the bounding sphere about the origin of the shape's frame: the scale for
    /// tolerances.
    pub radius: Real,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PolyhedronError {
    #[error(transparent)]
    Hull(#[from] HullError),
    #[error("edge {0}-{1} does not border exactly two faces")]
    OpenEdge(u32, u32),
}

impl Polyhedron {
    /// The convex hull of a point set, with its adjacency.
    pub fn hull(points: &[Point3]) -> Result<Self, PolyhedronError> {
        Self::from_convex(&ConvexPolyhedron::hull(points)?)
    }

    pub fn from_convex(c: &ConvexPolyhedron) -> Result<Self, PolyhedronError> {
        let index: HashMap<[u32; 2], u32> = c
            .edges
            .iter()
            .enumerate()
            .map(|(i, &e)| (e, i as u32))
            .collect();
        let mut edge_faces = vec![[u32::MAX; 2]; c.edges.len()];
        let mut face_edges = Vec::with_capacity(c.faces.len());
        for (f, face) in c.faces.iter().enumerate() {
            let mut boundary = Vec::with_capacity(face.len());
            for k in 0..face.len() {
                let (a, b) = (face[k], face[(k + 1) % face.len()]);
                let e = *index
                    .get(&[a.min(b), a.max(b)])
                    .ok_or(PolyhedronError::OpenEdge(a, b))?;
                let side = usize::from(a > b);
                if edge_faces[e as usize][side] != u32::MAX {
                    return Err(PolyhedronError::OpenEdge(a, b));
                }
                edge_faces[e as usize][side] = f as u32;
                boundary.push(e);
            }
            face_edges.push(boundary);
        }
        if let Some(e) = edge_faces.iter().position(|f| f.contains(&u32::MAX)) {
            let [a, b] = c.edges[e];
            return Err(PolyhedronError::OpenEdge(a, b));
        }
        let mut vertex_edges = vec![Vec::new(); c.vertices.len()];
        for (e, &[a, b]) in c.edges.iter().enumerate() {
            vertex_edges[a as usize].push(e as u32);
            vertex_edges[b as usize].push(e as u32);
        }
        let radius = c
            .vertices
            .iter()
            .map(|v| v.coords.norm())
            .fold(0.0, Real::max);
        Ok(Polyhedron {
            vertices: c.vertices.clone(),
            faces: c.faces.clone(),
            normals: c.normals.clone(),
            edges: c.edges.clone(),
            edge_faces,
            vertex_edges,
            face_edges,
            radius,
        })
    }

    pub fn feature_count(&self) -> usize {
        self.vertices.len() + self.edges.len() + self.faces.len()
    }

    /// Every feature, vertices first.
    pub fn features(&self) -> impl Iterator<Item = Feature> + '_ {
        (0..self.vertices.len() as u32)
            .map(Feature::Vertex)
            .chain((0..self.edges.len() as u32).map(Feature::Edge))
            .chain((0..self.faces.len() as u32).map(Feature::Face))
    }

    pub fn contains(&self, f: Feature) -> bool {
        match f {
            Feature::Vertex(i) => (i as usize) < self.vertices.len(),
            Feature::Edge(i) => (i as usize) < self.edges.len(),
            Feature::Face(i) => (i as usize) < self.faces.len(),
        }
    }

    /// The other end of edge `e` from vertex `v`.
    pub fn other_end(&self, e: u32, v: u32) -> u32 {
        let [a, b] = self.edges[e as usize];
        if a == v { b } else { a }
    }

    /// The face's plane offset: points x of the plane have `normal · x = offset`.
    pub fn face_offset(&self, f: u32) -> Real {
        let v0 = self.vertices[self.faces[f as usize][0] as usize];
        self.normals[f as usize].dot(&v0.coords)
    }

    /// The features adjacent to `f`: the neighbours a walk may move to.
    pub fn neighbours(&self, f: Feature) -> Vec<Feature> {
        match f {
            Feature::Vertex(v) => self.vertex_edges[v as usize]
                .iter()
                .map(|&e| Feature::Edge(e))
                .collect(),
            Feature::Edge(e) => {
                let [a, b] = self.edges[e as usize];
                let [l, r] = self.edge_faces[e as usize];
                vec![
                    Feature::Vertex(a),
                    Feature::Vertex(b),
                    Feature::Face(l),
                    Feature::Face(r),
                ]
            }
            Feature::Face(f) => self.face_edges[f as usize]
                .iter()
                .map(|&e| Feature::Edge(e))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cube_adjacency() {
        let p =
            Polyhedron::from_convex(&ConvexPolyhedron::cuboid(Vec3::new(1.0, 2.0, 3.0))).unwrap();
        assert_eq!(p.feature_count(), 26);
        assert!(p.vertex_edges.iter().all(|e| e.len() == 3));
        assert!(p.face_edges.iter().all(|e| e.len() == 4));
        for (e, &[a, b]) in p.edges.iter().enumerate() {
            let [l, r] = p.edge_faces[e];
            // tail → head runs counter-clockwise around the left face.
            let lf = &p.faces[l as usize];
            let k = lf.iter().position(|&v| v == a).unwrap();
            assert_eq!(lf[(k + 1) % lf.len()], b);
            let rf = &p.faces[r as usize];
            let k = rf.iter().position(|&v| v == b).unwrap();
            assert_eq!(rf[(k + 1) % rf.len()], a);
        }
    }
}

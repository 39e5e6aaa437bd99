//! The polyhedron as the closest-feature walk sees it: the geometry layer's `ConvexPolyhedron`
//! (which carries the adjacency), its features named and their neighbours.

use super::Feature;
use crate::geom::{ConvexPolyhedron, Point3, Real};

/// The feature walks' name for the crate's one polyhedron type.
pub use crate::geom::{ConvexPolyhedron as Polyhedron, PolyhedronError};

impl ConvexPolyhedron {
    /// The convex hull of a point set, known closed (see `check_closed`).
    pub fn closed_hull(points: &[Point3]) -> Result<Self, PolyhedronError> {
        Self::from_convex(&ConvexPolyhedron::hull(points)?)
    }

    /// A copy of `c` known closed, as the feature walks need it.
    pub fn from_convex(c: &ConvexPolyhedron) -> Result<Self, PolyhedronError> {
        c.check_closed()?;
        Ok(c.clone())
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
    use crate::geom::Vec3;

    #[test]
    fn cube_adjacency() {
        let p = ConvexPolyhedron::cuboid(Vec3::new(1.0, 2.0, 3.0));
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

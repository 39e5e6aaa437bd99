//! Convex polyhedra: vertices, polygonal faces (counter-clockwise seen from outside), edges
//! and their adjacency, as collision tests and the V-Clip walk need them.

use super::{Point3, Real, Vec3};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConvexPolyhedron {
    pub vertices: Vec<Point3>,
    /// Vertex indices of each face, counter-clockwise seen from outside.
    pub faces: Vec<Vec<u32>>,
    /// Outward unit normal of each face.
    pub normals: Vec<Vec3>,
    /// Each undirected edge once, as (smaller index, larger index).
    pub edges: Vec<[u32; 2]>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum HullError {
    #[error("a convex hull needs at least 4 points, got {0}")]
    TooFewPoints(usize),
    #[error("point {0} is not finite")]
    NonFinite(usize),
    #[error("the points are {0}: they span no volume")]
    Degenerate(&'static str),
}

impl ConvexPolyhedron {
    /// A box centred on the origin with six quadrilateral faces.
    pub fn cuboid(half: Vec3) -> Self {
        let vertices: Vec<Point3> = (0..8)
            .map(|i| {
                Point3::new(
                    if i & 1 == 0 { -half.x } else { half.x },
                    if i & 2 == 0 { -half.y } else { half.y },
                    if i & 4 == 0 { -half.z } else { half.z },
                )
            })
            .collect();
        let faces = vec![
            vec![0, 4, 6, 2], // -x
            vec![1, 3, 7, 5], // +x
            vec![0, 1, 5, 4], // -y
            vec![2, 6, 7, 3], // +y
            vec![0, 2, 3, 1], // -z
            vec![4, 5, 7, 6], // +z
        ];
        Self::from_faces(vertices, faces)
    }

    /// Builds normals and edges from vertices and counter-clockwise faces.
    pub fn from_faces(vertices: Vec<Point3>, faces: Vec<Vec<u32>>) -> Self {
        let normals = faces.iter().map(|f| polygon_normal(&vertices, f)).collect();
        let mut edges: Vec<[u32; 2]> = faces
            .iter()
            .flat_map(|f| {
                (0..f.len()).map(move |i| {
                    let (a, b) = (f[i], f[(i + 1) % f.len()]);
                    [a.min(b), a.max(b)]
                })
            })
            .collect();
        edges.sort_unstable();
        edges.dedup();
        Self {
            vertices,
            faces,
            normals,
            edges,
        }
    }

    /// The convex hull of a point set (incremental, then coplanar triangles merged into
    /// polygons). Fine for the tens to hundreds of points of a collision hull.
    pub fn hull(points: &[Point3]) -> Result<Self, HullError> {
        super::hull::convex_hull(points)
    }

    pub fn face_plane_distance(&self, face: usize, p: &Point3) -> Real {
        let v0 = self.vertices[self.faces[face][0] as usize];
        self.normals[face].dot(&(p - v0))
    }

    /// The vertex furthest along `dir`.
    pub fn support(&self, dir: &Vec3) -> usize {
        farthest_along(&self.vertices, dir)
    }

    pub fn contains_point(&self, p: &Point3, tolerance: Real) -> bool {
        (0..self.faces.len()).all(|f| self.face_plane_distance(f, p) <= tolerance)
    }

    pub fn transformed(&self, pose: &super::Pose) -> Self {
        Self {
            vertices: self.vertices.iter().map(|v| pose * v).collect(),
            faces: self.faces.clone(),
            normals: self.normals.iter().map(|n| pose.rotation * n).collect(),
            edges: self.edges.clone(),
        }
    }

    /// Faces as a fan of triangles, for drawing and for closest-point queries.
    pub fn triangles(&self) -> Vec<[u32; 3]> {
        self.faces
            .iter()
            .flat_map(|f| (1..f.len().saturating_sub(1)).map(move |i| [f[0], f[i], f[i + 1]]))
            .collect()
    }
}

/// The index of the point furthest along `dir` (the first on ties; 0 when empty).
pub fn farthest_along(points: &[Point3], dir: &Vec3) -> usize {
    let mut best = (Real::NEG_INFINITY, 0);
    for (i, v) in points.iter().enumerate() {
        let d = v.coords.dot(dir);
        if d > best.0 {
            best = (d, i);
        }
    }
    best.1
}

fn polygon_normal(vertices: &[Point3], face: &[u32]) -> Vec3 {
    // Newell's method: robust for polygons with nearly collinear consecutive vertices.
    let mut n = Vec3::zeros();
    for i in 0..face.len() {
        let a = vertices[face[i] as usize];
        let b = vertices[face[(i + 1) % face.len()] as usize];
        n.x += (a.y - b.y) * (a.z + b.z);
        n.y += (a.z - b.z) * (a.x + b.x);
        n.z += (a.x - b.x) * (a.y + b.y);
    }
    n.try_normalize(1e-300).unwrap_or_else(Vec3::y)
}

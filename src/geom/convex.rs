//! Convex polyhedra: vertices, polygonal faces (counter-clockwise seen from outside), edges
//! and their adjacency, as collision tests and the V-Clip walk need them.

use super::adjacency::{Adjacency, adjacency};
use super::{Point3, Real, Triangle, Vec3};
use std::sync::{Arc, LazyLock};

/// The crate's one polyhedron type. The adjacency is shared between a shape and its moved
/// copies (it does not change with a pose), so placing a hull copies no topology.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolyhedron {
    pub vertices: Vec<Point3>,
    /// Vertex indices of each face, counter-clockwise seen from outside.
    pub faces: Vec<Vec<u32>>,
    /// Outward unit normal of each face.
    pub normals: Vec<Vec3>,
    /// Each undirected edge once, as (smaller index, larger index), sorted: edge (tail, head).
    pub edges: Vec<[u32; 2]>,
    /// The faces of each edge: `[left, right]`, where tail → head runs counter-clockwise
    /// around `left` (seen from outside) and clockwise around `right`.
    pub edge_faces: Arc<[[u32; 2]]>,
    pub vertex_edges: Arc<[Vec<u32>]>,
    /// The boundary edges of each face, in the face's vertex order (edge k joins vertex k to
    /// vertex k + 1).
    pub face_edges: Arc<[Vec<u32>]>,
    /// The radius of the bounding sphere about the origin of the shape's frame: the scale for
    /// tolerances.
    pub radius: Real,
    /// The radius of the largest ball about the origin inside the shape (0 when the origin
    /// is outside or on it): how far the shape may move without leaving its own start.
    pub inner_radius: Real,
    /// The first edge that does not border exactly two faces (then the three adjacency lists
    /// are empty): see `check_closed`.
    pub open_edge: Option<[u32; 2]>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PolyhedronError {
    #[error(transparent)]
    Hull(#[from] HullError),
    #[error("edge {0}-{1} does not border exactly two faces")]
    OpenEdge(u32, u32),
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
        let normals: Vec<Vec3> = faces.iter().map(|f| polygon_normal(&vertices, f)).collect();
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
        let (topology, open_edge) = match adjacency(vertices.len(), &faces, &edges) {
            Ok(a) => (a, None),
            Err(e) => (Adjacency::default(), Some(e)),
        };
        Self {
            radius: radius_about_origin(&vertices),
            inner_radius: inner_radius_about_origin(&vertices, &faces, &normals),
            vertices,
            faces,
            normals,
            edges,
            edge_faces: topology.edge_faces.into(),
            vertex_edges: topology.vertex_edges.into(),
            face_edges: topology.face_edges.into(),
            open_edge,
        }
    }

    /// A triangle as a flat polyhedron with a face each way: what `from_faces` builds from
    /// its three corners and faces `[0, 1, 2]` and `[0, 2, 1]`, with the adjacency (the same
    /// for every triangle) built once. A mesh's narrow phase makes one per triangle it tests.
    pub fn two_faced_triangle(tri: &Triangle) -> Self {
        static SHAPE: LazyLock<ConvexPolyhedron> = LazyLock::new(|| {
            let corners = [
                Point3::origin(),
                Point3::new(1.0, 0.0, 0.0),
                Point3::new(0.0, 1.0, 0.0),
            ];
            ConvexPolyhedron::from_faces(corners.to_vec(), vec![vec![0, 1, 2], vec![0, 2, 1]])
        });
        let vertices = tri.vertices().to_vec();
        let normals: Vec<Vec3> = SHAPE
            .faces
            .iter()
            .map(|f| polygon_normal(&vertices, f))
            .collect();
        Self {
            radius: radius_about_origin(&vertices),
            inner_radius: inner_radius_about_origin(&vertices, &SHAPE.faces, &normals),
            normals,
            vertices,
            faces: SHAPE.faces.clone(),
            edges: SHAPE.edges.clone(),
            edge_faces: SHAPE.edge_faces.clone(),
            vertex_edges: SHAPE.vertex_edges.clone(),
            face_edges: SHAPE.face_edges.clone(),
            open_edge: SHAPE.open_edge,
        }
    }

    /// Every edge borders exactly two faces, once each way round: the surface the feature
    /// walks and the Gauss-map test need.
    pub fn check_closed(&self) -> Result<(), PolyhedronError> {
        match self.open_edge {
            Some([a, b]) => Err(PolyhedronError::OpenEdge(a, b)),
            None => Ok(()),
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
        let vertices: Vec<Point3> = self.vertices.iter().map(|v| pose * v).collect();
        let normals: Vec<Vec3> = self.normals.iter().map(|n| pose.rotation * n).collect();
        Self {
            radius: radius_about_origin(&vertices),
            inner_radius: inner_radius_about_origin(&vertices, &self.faces, &normals),
            vertices,
            faces: self.faces.clone(),
            normals,
            edges: self.edges.clone(),
            edge_faces: self.edge_faces.clone(),
            vertex_edges: self.vertex_edges.clone(),
            face_edges: self.face_edges.clone(),
            open_edge: self.open_edge,
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

fn inner_radius_about_origin(vertices: &[Point3], faces: &[Vec<u32>], normals: &[Vec3]) -> Real {
    faces
        .iter()
        .zip(normals)
        .filter_map(|(f, n)| Some(n.dot(&vertices[*f.first()? as usize].coords)))
        .fold(Real::INFINITY, Real::min)
        .max(0.0)
}

fn radius_about_origin(vertices: &[Point3]) -> Real {
    vertices
        .iter()
        .map(|v| v.coords.norm())
        .fold(0.0, Real::max)
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn a_two_faced_triangle_is_the_one_from_faces(
            c in prop::array::uniform9(-1e3f64..1e3),
        ) {
            let [a, b, d] = [0, 3, 6].map(|i| Point3::new(c[i], c[i + 1], c[i + 2]));
            let tri = Triangle::new(a, b, d);
            let general = ConvexPolyhedron::from_faces(
                vec![a, b, d],
                vec![vec![0, 1, 2], vec![0, 2, 1]],
            );
            prop_assert_eq!(ConvexPolyhedron::two_faced_triangle(&tri), general);
        }

        /// Against each face's plane taken through the mean of its corners, and against
        /// points on the ball: all inside, and one just past it outside.
        #[test]
        fn the_inner_radius_is_the_largest_ball_about_the_origin_inside(
            cloud in prop::collection::vec(prop::array::uniform3(-2.0f64..2.0), 4..30),
            directions in prop::collection::vec(prop::array::uniform3(-1.0f64..1.0), 50),
        ) {
            let mut points: Vec<Point3> = cloud.iter().map(|c| Point3::new(c[0], c[1], c[2])).collect();
            // An octahedron of radius 0.1 keeps the origin inside every hull.
            for axis in 0..3 {
                for sign in [-0.1, 0.1] {
                    let mut p = Point3::origin();
                    p[axis] = sign;
                    points.push(p);
                }
            }
            let Ok(hull) = ConvexPolyhedron::hull(&points) else {
                return Ok(());
            };
            let (nearest, depth) = hull
                .faces
                .iter()
                .zip(&hull.normals)
                .map(|(f, n)| {
                    let mean = f.iter().fold(Vec3::zeros(), |s, &v| s + hull.vertices[v as usize].coords)
                        / f.len() as Real;
                    (*n, n.dot(&mean))
                })
                .min_by(|x, y| x.1.total_cmp(&y.1))
                .expect("a hull has faces");
            let r = hull.inner_radius;
            prop_assert!((r - depth).abs() <= 1e-9, "{} against {}", r, depth);
            for d in &directions {
                if let Some(u) = Vec3::new(d[0], d[1], d[2]).try_normalize(1e-6) {
                    prop_assert!(hull.contains_point(&Point3::from(u * r), 1e-9));
                }
            }
            prop_assert!(!hull.contains_point(&Point3::from(nearest * (r + 1e-6)), 0.0));
        }
    }
}

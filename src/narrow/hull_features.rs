//! What the pruned separating-axis test needs of a hull beyond its faces and edges, computed
//! once per shape: each edge's two faces (from the hull's adjacency), the arc each
//! edge draws on the Gauss map, and how far the hull reaches along each of its face normals.
//! A hull placed by a pose gets the same data moved into the other body's frame.

use super::view::HullView;
use crate::geom::{ConvexPolyhedron, Point3, Pose, Real, Vec3};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct HullFeatures {
    pub hull: Arc<ConvexPolyhedron>,
    /// The two faces of each edge.
    pub edge_faces: Vec<[u32; 2]>,
    /// `n_right × n_left` for each edge: the normal of the plane of its Gauss-map arc.
    pub arcs: Vec<Vec3>,
    /// `max over vertices of normal · v` for each face.
    pub reach: Vec<Real>,
    /// The cosine of half the angle between each edge's two face normals: how much shorter
    /// the arc's chord is than its ends.
    pub half_cos: Vec<Real>,
    /// Two balls about one centre, inside and around the hull, which bound how shallow or
    /// deep any axis can find two hulls.
    pub balls: Balls,
}

/// Two balls about the mean of a hull's vertices: the largest inside it (as far as the
/// nearest face plane) and the smallest around it (as far as the furthest vertex). Along
/// any unit `u` the hull reaches between `u · centre + inner` and `u · centre + outer`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Balls {
    pub centre: Point3,
    pub inner: Real,
    pub outer: Real,
}

impl Balls {
    fn of(vertices: &[Point3], normals: &[Vec3], reach: &[Real]) -> Self {
        let sum = vertices.iter().fold(Vec3::zeros(), |s, v| s + v.coords);
        let centre = Point3::from(sum / vertices.len().max(1) as Real);
        let inner = normals
            .iter()
            .zip(reach)
            .map(|(n, r)| r - n.dot(&centre.coords))
            .fold(Real::INFINITY, Real::min)
            .max(0.0);
        let outer = vertices
            .iter()
            .map(|v| (v - centre).norm())
            .fold(0.0, Real::max);
        Balls {
            centre,
            inner,
            outer,
        }
    }
}

impl HullFeatures {
    /// None when the hull's faces do not close up edge by edge (then only the reference
    /// test applies).
    pub fn new(hull: Arc<ConvexPolyhedron>) -> Option<Self> {
        hull.check_closed().ok()?;
        let edge_faces = hull.edge_faces.to_vec();
        let arcs = arcs(&hull.normals, &edge_faces);
        let reach = hull
            .normals
            .iter()
            .map(|n| reach_along(&hull.vertices, n))
            .collect::<Vec<_>>();
        let balls = Balls::of(&hull.vertices, &hull.normals, &reach);
        let half_cos = edge_faces
            .iter()
            .map(|&[l, r]| {
                let cos = hull.normals[l as usize].dot(&hull.normals[r as usize]);
                (0.5 * (1.0 + cos)).max(0.0).sqrt()
            })
            .collect();
        Some(HullFeatures {
            hull,
            edge_faces,
            arcs,
            reach,
            half_cos,
            balls,
        })
    }

    /// The hull where it is defined (its own frame).
    pub fn side(&self) -> SatSide<'_> {
        SatSide {
            view: HullView::from(&*self.hull),
            edge_faces: &self.edge_faces,
            arcs: &self.arcs,
            reach: &self.reach,
            half_cos: &self.half_cos,
            balls: self.balls,
        }
    }
}

fn arcs(normals: &[Vec3], edge_faces: &[[u32; 2]]) -> Vec<Vec3> {
    edge_faces
        .iter()
        .map(|&[l, r]| normals[r as usize].cross(&normals[l as usize]))
        .collect()
}

fn reach_along(vertices: &[Point3], n: &Vec3) -> Real {
    vertices
        .iter()
        .map(|v| n.dot(&v.coords))
        .fold(Real::NEG_INFINITY, Real::max)
}

/// One hull as the separating-axis test reads it, every vector in the test's frame.
#[derive(Clone, Copy, Debug)]
pub struct SatSide<'a> {
    pub view: HullView<'a>,
    pub edge_faces: &'a [[u32; 2]],
    pub arcs: &'a [Vec3],
    pub reach: &'a [Real],
    pub half_cos: &'a [Real],
    pub balls: Balls,
}

/// A hull's vertices, normals, arcs and reaches moved by a pose, in buffers kept between
/// calls so placing a hull allocates nothing once they have grown.
#[derive(Clone, Debug, Default)]
pub struct PlacedHull {
    vertices: Vec<Point3>,
    normals: Vec<Vec3>,
    arcs: Vec<Vec3>,
    reach: Vec<Real>,
    balls: Balls,
}

impl PlacedHull {
    pub fn place(&mut self, f: &HullFeatures, pose: &Pose) {
        let hull = &*f.hull;
        self.vertices.clear();
        self.vertices.extend(hull.vertices.iter().map(|v| pose * v));
        self.normals.clear();
        self.normals
            .extend(hull.normals.iter().map(|n| pose.rotation * n));
        self.arcs.clear();
        let normals = &self.normals;
        self.arcs.extend(
            f.edge_faces
                .iter()
                .map(|&[l, r]| normals[r as usize].cross(&normals[l as usize])),
        );
        // A rigid motion moves the supporting plane with the normal: the reach gains the
        // offset of the new origin along it.
        let shift = pose.translation.vector;
        self.reach.clear();
        self.reach
            .extend(f.reach.iter().zip(normals).map(|(r, n)| r + n.dot(&shift)));
        self.balls = Balls {
            centre: pose * f.balls.centre,
            ..f.balls
        };
    }

    /// The placed hull; `f` must be the features it was placed from.
    pub fn side<'a>(&'a self, f: &'a HullFeatures) -> SatSide<'a> {
        SatSide {
            view: HullView {
                vertices: &self.vertices,
                normals: &self.normals,
                faces: &f.hull.faces,
                edges: &f.hull.edges,
            },
            edge_faces: &f.edge_faces,
            arcs: &self.arcs,
            reach: &self.reach,
            half_cos: &f.half_cos,
            balls: self.balls,
        }
    }
}

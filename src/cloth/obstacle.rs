//! A rigid body as the cloth sees it during one step: its mesh in world coordinates with the
//! hierarchy, adjacency, planes and normals every ray test reads.

use crate::bvh::{BuildOptions, Bvh};
use crate::geom::triangle::scaled_normal;
use crate::geom::{Aabb, Point3, Real, TriMesh, Vec3};
use crate::raycast::TriangleAdjacency;

/// A rigid body the cloth collides with, in world coordinates at this step.
#[derive(Clone, Debug)]
pub struct ObstacleGeometry {
    pub body: u32,
    pub mesh: TriMesh,
    pub bvh: Bvh<Aabb>,
    pub adjacency: TriangleAdjacency,
    pub mean_triangle_m: Real,
    /// Each triangle's plane as the signed volume of a vertex against it computes it, so the
    /// side tests of the inversion check reuse it bit for bit.
    pub planes: Vec<FacePlane>,
    /// Every edge has a triangle across it: the obstacle bounds an inside.
    pub closed: bool,
    /// Area-weighted vertex normals: the directions of the volume → cloth rays.
    pub vertex_normals: Vec<Vec3>,
    /// Distance from the bounding box's centre to the farthest vertex.
    pub radius_m: Real,
    /// How far any point of the obstacle moved during the step: the largest vertex
    /// displacement, exact for a rigid motion since surface points are affine combinations
    /// of vertices (zero for a static obstacle).
    pub moved_m: Real,
}

/// A triangle's `(b − a) × (c − a)` and `a`, side by side: the inversion check reads both for
/// four triangles per vertex.
#[derive(Clone, Copy, Debug)]
pub struct FacePlane {
    pub scaled_normal: Vec3,
    pub corner: Point3,
}

impl ObstacleGeometry {
    pub fn new(body: u32, mesh: TriMesh) -> Self {
        let bvh = Bvh::build(&mesh, &BuildOptions::default());
        let adjacency = TriangleAdjacency::build(&mesh.triangles);
        let mean_triangle_m = mesh
            .triangles()
            .map(|t| ((t.b - t.a).norm() + (t.c - t.b).norm() + (t.a - t.c).norm()) / 3.0)
            .sum::<Real>()
            / mesh.triangles.len().max(1) as Real;
        let planes = mesh
            .triangles()
            .map(|t| FacePlane {
                scaled_normal: t.scaled_normal(),
                corner: t.a,
            })
            .collect();
        let closed = (0..mesh.triangles.len() as u32)
            .all(|t| (0..3).all(|edge| adjacency.across(t, edge).is_some()));
        let mut vertex_normals = vec![Vec3::zeros(); mesh.vertices.len()];
        for tri in &mesh.triangles {
            let [a, b, c] = tri.map(|i| mesh.vertices[i as usize]);
            let n = scaled_normal(a, b, c);
            for &i in tri {
                vertex_normals[i as usize] += n;
            }
        }
        let vertex_normals = vertex_normals
            .into_iter()
            .map(|n| n.try_normalize(1e-300).unwrap_or_else(Vec3::y))
            .collect();
        let centre = Aabb::from_points(&mesh.vertices).center();
        let radius_m = mesh
            .vertices
            .iter()
            .map(|p| (p - centre).norm())
            .fold(0.0, Real::max);
        Self {
            body,
            mesh,
            bvh,
            adjacency,
            mean_triangle_m,
            planes,
            closed,
            vertex_normals,
            radius_m,
            moved_m: 0.0,
        }
    }

    pub(super) fn unit_normal(&self, triangle: u32) -> Option<Vec3> {
        let plane = self.planes.get(triangle as usize)?;
        plane.scaled_normal.try_normalize(1e-300)
    }

    /// Whether a point moving from `previous` to `current` may have changed side of the
    /// triangle's plane: false when it is strictly on one side at both ends (the obstacle is
    /// static within a step), the common case, decided without forming the triangle.
    pub(super) fn may_cross(&self, triangle: u32, previous: &Point3, current: &Point3) -> bool {
        let Some(FacePlane {
            scaled_normal: n,
            corner: a,
        }) = self.planes.get(triangle as usize)
        else {
            return false;
        };
        let (before, now) = (n.dot(&(previous - a)), n.dot(&(current - a)));
        !((before > 0.0 && now > 0.0) || (before < 0.0 && now < 0.0))
    }
}

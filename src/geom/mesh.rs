use super::{Aabb, Point3, Ray, RayHit, Real, Triangle, is_finite_point};
use serde::{Deserialize, Serialize};

/// An indexed triangle mesh.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TriMesh {
    pub vertices: Vec<Point3>,
    pub triangles: Vec<[u32; 3]>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum MeshError {
    #[error("vertex {0} is not finite")]
    NonFiniteVertex(usize),
    #[error("triangle {triangle} refers to vertex {index}, but the mesh has {count} vertices")]
    IndexOutOfRange {
        triangle: usize,
        index: u32,
        count: usize,
    },
    #[error("the mesh has no triangles")]
    Empty,
}

impl TriMesh {
    /// Checks indices and coordinates: meshes come from users and are untrusted.
    pub fn new(vertices: Vec<Point3>, triangles: Vec<[u32; 3]>) -> Result<Self, MeshError> {
        if let Some(i) = vertices.iter().position(|p| !is_finite_point(p)) {
            return Err(MeshError::NonFiniteVertex(i));
        }
        for (t, tri) in triangles.iter().enumerate() {
            for &index in tri {
                if index as usize >= vertices.len() {
                    return Err(MeshError::IndexOutOfRange {
                        triangle: t,
                        index,
                        count: vertices.len(),
                    });
                }
            }
        }
        if triangles.is_empty() {
            return Err(MeshError::Empty);
        }
        Ok(Self {
            vertices,
            triangles,
        })
    }

    #[inline]
    pub fn triangle(&self, i: usize) -> Triangle {
        let [a, b, c] = self.triangles[i];
        Triangle::new(
            self.vertices[a as usize],
            self.vertices[b as usize],
            self.vertices[c as usize],
        )
    }

    pub fn triangles(&self) -> impl Iterator<Item = Triangle> + '_ {
        (0..self.triangles.len()).map(|i| self.triangle(i))
    }

    pub fn aabb(&self) -> Aabb {
        Aabb::from_points(&self.vertices)
    }

    pub fn transformed(&self, pose: &super::Pose) -> TriMesh {
        TriMesh {
            vertices: self.vertices.iter().map(|p| pose * p).collect(),
            triangles: self.triangles.clone(),
        }
    }

    /// Closest hit with `t` in `[0, max_t]`, testing every triangle (the oracle for BVH casts).
    pub fn cast_ray_brute_force(&self, ray: &Ray, max_t: Real) -> Option<RayHit> {
        let mut best: Option<RayHit> = None;
        for (i, tri) in self.triangles().enumerate() {
            if let Some((t, _, _)) = ray.intersect_triangle(&tri)
                && t >= 0.0
                && t <= max_t
                && best.is_none_or(|b| t < b.t)
            {
                let n = tri.normal().unwrap_or_default();
                best = Some(RayHit {
                    t,
                    triangle: i,
                    point: ray.at(t),
                    normal: n,
                });
            }
        }
        best
    }

    /// Volume, centre of mass and inertia about it, for a closed mesh of uniform density 1
    /// (signed tetrahedra from the origin; Mirtich-style canonical tetrahedron integrals).
    pub fn mass_properties(&self) -> (Real, Point3, super::Mat3) {
        let mut vol = 0.0;
        let mut c = super::Vec3::zeros();
        // second moments: ∫ x x^T dV
        let mut m2 = super::Mat3::zeros();
        for t in self.triangles() {
            let (a, b, cc) = (t.a.coords, t.b.coords, t.c.coords);
            let det = a.dot(&b.cross(&cc));
            let v = det / 6.0;
            vol += v;
            c += (a + b + cc) * (v / 4.0);
            let s = a + b + cc;
            let outer =
                a * a.transpose() + b * b.transpose() + cc * cc.transpose() + s * s.transpose();
            m2 += outer * (det / 120.0);
        }
        if vol.abs() < 1e-300 {
            return (0.0, Point3::origin(), super::Mat3::zeros());
        }
        let com = c / vol;
        // shift the second moment to the centre of mass
        let m2c = m2 - com * com.transpose() * vol;
        let inertia = super::Mat3::identity() * m2c.trace() - m2c;
        (vol, Point3::from(com), inertia)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Vec3;

    pub(crate) fn unit_cube() -> TriMesh {
        let v: Vec<Point3> = (0..8)
            .map(|i| Point3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
            .collect();
        let t = vec![
            [0, 2, 3],
            [0, 3, 1],
            [4, 5, 7],
            [4, 7, 6],
            [0, 1, 5],
            [0, 5, 4],
            [2, 6, 7],
            [2, 7, 3],
            [0, 4, 6],
            [0, 6, 2],
            [1, 3, 7],
            [1, 7, 5],
        ];
        TriMesh::new(v, t).unwrap()
    }

    #[test]
    fn cube_mass_properties() {
        let (vol, com, inertia) = unit_cube().mass_properties();
        assert!((vol - 1.0).abs() < 1e-12);
        assert!((com - Point3::new(0.5, 0.5, 0.5)).norm() < 1e-12);
        // solid cube of side 1, mass 1: I = 1/6 on the diagonal
        assert!(
            (inertia - crate::geom::Mat3::identity() / 6.0).norm() < 1e-12,
            "{inertia}"
        );
    }

    #[test]
    fn rejects_bad_indices_and_nan() {
        assert!(matches!(
            TriMesh::new(vec![Point3::origin()], vec![[0, 0, 1]]),
            Err(MeshError::IndexOutOfRange { index: 1, .. })
        ));
        assert_eq!(
            TriMesh::new(vec![Point3::new(f64::NAN, 0.0, 0.0)], vec![]),
            Err(MeshError::NonFiniteVertex(0))
        );
    }

    #[test]
    fn ray_hits_cube_face() {
        let ray = Ray::new(Point3::new(0.25, 0.5, -2.0), Vec3::z());
        let hit = unit_cube()
            .cast_ray_brute_force(&ray, f64::INFINITY)
            .unwrap();
        assert!((hit.t - 2.0).abs() < 1e-12);
        // the face at z = 0 winds counter-clockwise seen from -z: its normal points out, to -z
        assert!((hit.normal + Vec3::z()).norm() < 1e-12);
    }
}

//! Fitting an oriented box to triangles, RAPID style (Gottschalk, Lin, Manocha 1996).
//!
//! The axes are the eigenvectors of the area-weighted covariance of the **convex hull's
//! triangles**, not of the vertices: vertex covariance follows how densely a region happens
//! to be tessellated, the hull's surface does not. With hull triangle i = (p, q, r), area
//! a_i, centroid m_i, total area a_H and area-weighted centroid m_H (spec 003 §2.4):
//!
//! ```text
//! C_jk = (1/a_H) Σ_i (a_i/12)·(9·m_ij·m_ik + p_ij·p_ik + q_ij·q_ik + r_ij·r_ik) − m_Hj·m_Hk
//! ```
//!
//! The thesis's "Welzl's ellipsoid" description is not what RAPID does (spec 003 §7) and is not
//! followed. The extents come from projecting every vertex on the axes, so the box always
//! encloses the triangles, whatever the hull did. When the points are flat or collinear the
//! hull does not exist; the covariance then comes from the triangles themselves, and failing
//! that from the points.

use crate::geom::hull_triangles;
use crate::geom::triangle::scaled_normal;
use crate::geom::{Mat3, Obb, Point3, Real, TriMesh, Vec3};

/// The distinct vertices of the given triangles.
pub fn triangle_points(mesh: &TriMesh, triangles: &[u32]) -> Vec<Point3> {
    let mut ids: Vec<u32> = triangles
        .iter()
        .flat_map(|&t| mesh.triangles[t as usize])
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter().map(|i| mesh.vertices[i as usize]).collect()
}

/// The RAPID box of the given triangles of `mesh`.
pub fn fit_obb(mesh: &TriMesh, triangles: &[u32]) -> Obb {
    let points = triangle_points(mesh, triangles);
    let Some(first) = points.first() else {
        return Obb::from_aabb(&crate::geom::Aabb::new(Point3::origin(), Point3::origin()));
    };
    // Covariance about a point of the set: large coordinates would otherwise cancel.
    let origin = first.coords;
    let local: Vec<Point3> = points
        .iter()
        .map(|p| Point3::from(p.coords - origin))
        .collect();
    let cov = hull_triangles(&local)
        .ok()
        .and_then(|hull| {
            let tris: Vec<[Point3; 3]> = hull.iter().map(|t| t.map(|i| local[i])).collect();
            area_covariance(&tris)
        })
        .or_else(|| {
            let tris: Vec<[Point3; 3]> = triangles
                .iter()
                .map(|&t| {
                    mesh.triangles[t as usize]
                        .map(|v| Point3::from(mesh.vertices[v as usize].coords - origin))
                })
                .collect();
            area_covariance(&tris)
        })
        .unwrap_or_else(|| point_covariance(&local));
    let axes = orthonormal_eigenvectors(&cov);
    box_with_axes(&points, axes)
}

/// The smallest box with the given orthonormal axes (columns) enclosing the points.
pub fn box_with_axes(points: &[Point3], axes: Mat3) -> Obb {
    let mut lo = Vec3::repeat(Real::INFINITY);
    let mut hi = Vec3::repeat(Real::NEG_INFINITY);
    let at = axes.transpose();
    for p in points {
        let q = at * p.coords;
        lo = lo.inf(&q);
        hi = hi.sup(&q);
    }
    if points.is_empty() {
        lo = Vec3::zeros();
        hi = Vec3::zeros();
    }
    let mid = (lo + hi) * 0.5;
    Obb {
        center: Point3::from(axes * mid),
        axes,
        half_extents: (hi - lo) * 0.5,
    }
}

/// Area-weighted covariance of triangles as surfaces; `None` when their area is zero.
pub fn area_covariance(tris: &[[Point3; 3]]) -> Option<Mat3> {
    let mut total = 0.0;
    let mut mean = Vec3::zeros();
    let mut second = Mat3::zeros();
    for [p, q, r] in tris {
        let area = 0.5 * scaled_normal(p, q, r).norm();
        if !(area > 0.0) {
            continue;
        }
        let m = (p.coords + q.coords + r.coords) / 3.0;
        total += area;
        mean += m * area;
        second += (m * m.transpose() * 9.0
            + p.coords * p.coords.transpose()
            + q.coords * q.coords.transpose()
            + r.coords * r.coords.transpose())
            * (area / 12.0);
    }
    if !(total > 0.0) || !total.is_finite() {
        return None;
    }
    let mean = mean / total;
    Some(second / total - mean * mean.transpose())
}

pub(crate) fn point_covariance(points: &[Point3]) -> Mat3 {
    if points.is_empty() {
        return Mat3::identity();
    }
    let n = points.len() as Real;
    let mean = points.iter().map(|p| p.coords).sum::<Vec3>() / n;
    points
        .iter()
        .map(|p| (p.coords - mean) * (p.coords - mean).transpose())
        .sum::<Mat3>()
        / n
}

/// A right-handed orthonormal basis of eigenvectors, re-orthogonalised against rounding;
/// the identity when the matrix gives nothing usable.
pub fn orthonormal_eigenvectors(cov: &Mat3) -> Mat3 {
    if !cov.iter().all(|x| x.is_finite()) {
        return Mat3::identity();
    }
    let eig = nalgebra::SymmetricEigen::new(*cov);
    let mut order = [0usize, 1, 2];
    order.sort_by(|&a, &b| eig.eigenvalues[b].total_cmp(&eig.eigenvalues[a]));
    let e = |i: usize| eig.eigenvectors.column(order[i]).into_owned();
    let Some(a0) = e(0).try_normalize(1e-12) else {
        return Mat3::identity();
    };
    let Some(a1) = (e(1) - a0 * a0.dot(&e(1))).try_normalize(1e-12) else {
        return Mat3::identity();
    };
    let a2 = a0.cross(&a1);
    Mat3::from_columns(&[a0, a1, a2])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A box tessellated unevenly (one face split into many slivers): vertex covariance
    /// would tilt, the hull's does not.
    #[test]
    fn uneven_tessellation_still_gives_the_box_axes() {
        let rot = nalgebra::Rotation3::new(Vec3::new(0.3, -0.5, 0.8));
        let (hx, hy, hz) = (3.0, 1.0, 0.5);
        let mut vertices: Vec<Point3> = (0..8)
            .map(|i| {
                Point3::new(
                    if i & 1 == 0 { -hx } else { hx },
                    if i & 2 == 0 { -hy } else { hy },
                    if i & 4 == 0 { -hz } else { hz },
                )
            })
            .collect();
        // many vertices crowded along one edge of the top face
        for k in 0..50 {
            vertices.push(Point3::new(-hx + 0.01 * k as f64, hy, hz));
        }
        let vertices: Vec<Point3> = vertices.iter().map(|p| rot * p).collect();
        let triangles: Vec<[u32; 3]> = (0..vertices.len() as u32 - 2)
            .map(|i| [i, i + 1, i + 2])
            .collect();
        let mesh = TriMesh::new(vertices, triangles).unwrap();
        let all: Vec<u32> = (0..mesh.triangles.len() as u32).collect();
        let obb = fit_obb(&mesh, &all);
        let volume = obb.volume();
        assert!((volume - 8.0 * hx * hy * hz).abs() < 1e-9, "{volume}");
        for p in &mesh.vertices {
            assert!(obb.aabb().loosened(1e-9).contains_point(p));
        }
    }

    #[test]
    fn flat_and_point_inputs() {
        let mesh = TriMesh::new(
            vec![
                Point3::new(0.0, 0.0, 1.0),
                Point3::new(2.0, 0.0, 1.0),
                Point3::new(0.0, 1.0, 1.0),
            ],
            vec![[0, 1, 2]],
        )
        .unwrap();
        let obb = fit_obb(&mesh, &[0]);
        assert!(obb.half_extents.min() < 1e-12);
        let dot = TriMesh::new(vec![Point3::new(1.0, 2.0, 3.0)], vec![[0, 0, 0]]).unwrap();
        let obb = fit_obb(&dot, &[0]);
        assert_eq!(obb.center, Point3::new(1.0, 2.0, 3.0));
    }
}

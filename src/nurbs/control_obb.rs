//! The thesis' box (§2.1): covariance of the Cartesian control points about their true mean,
//! its eigenvectors as axes, extents from the projections. Positive weights keep the surface
//! inside the control points' convex hull, hence inside this box.
//!
//! Built at every level of every query, so it allocates nothing: one pass for the moments,
//! a cyclic Jacobi eigen-solver on the 3×3 covariance, one pass for the extents.

use super::surface::{HPoint, NurbsSurface};
use crate::geom::{Mat3, Obb, Point3, Vec3};

/// The box of a surface's control points.
pub fn control_point_obb(surface: &NurbsSurface) -> Obb {
    obb_of_homogeneous(&surface.points)
}

/// The box of Cartesian points (the same construction).
pub fn obb_of_points(points: &[Point3]) -> Obb {
    let h: Vec<HPoint> = points
        .iter()
        .map(|p| HPoint::new(p.x, p.y, p.z, 1.0))
        .collect();
    obb_of_homogeneous(&h)
}

/// The box of homogeneous control points, from their Cartesian positions.
pub fn obb_of_homogeneous(points: &[HPoint]) -> Obb {
    let Some(first) = points.first() else {
        return Obb {
            center: Point3::origin(),
            axes: Mat3::identity(),
            half_extents: Vec3::zeros(),
        };
    };
    // Moments about the first point: large coordinates would otherwise cancel. The mean
    // divides by the real count (the thesis' `nm` is off by one per direction: §8 of the
    // digest); the covariance's scale does not move the eigenvectors, the mean does.
    let origin = first.xyz() / first.w;
    let (mut sum, mut xx, mut xy, mut xz, mut yy, mut yz, mut zz) =
        (Vec3::zeros(), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    // Most nets are polynomial (unit weights): no division for them.
    let cartesian = |h: &HPoint| {
        if h.w == 1.0 {
            h.xyz()
        } else {
            h.xyz() * (1.0 / h.w)
        }
    };
    for h in points {
        let d = cartesian(h) - origin;
        sum += d;
        xx += d.x * d.x;
        xy += d.x * d.y;
        xz += d.x * d.z;
        yy += d.y * d.y;
        yz += d.y * d.z;
        zz += d.z * d.z;
    }
    let n = points.len() as f64;
    let m = sum / n;
    let cov = [
        [xx / n - m.x * m.x, xy / n - m.x * m.y, xz / n - m.x * m.z],
        [xy / n - m.x * m.y, yy / n - m.y * m.y, yz / n - m.y * m.z],
        [xz / n - m.x * m.z, yz / n - m.y * m.z, zz / n - m.z * m.z],
    ];
    let axes = eigen_frame(cov);
    let at = axes.transpose();
    let mut lo = Vec3::repeat(f64::INFINITY);
    let mut hi = Vec3::repeat(f64::NEG_INFINITY);
    for h in points {
        let q = at * (cartesian(h) - origin);
        lo = lo.inf(&q);
        hi = hi.sup(&q);
    }
    let mid = (lo + hi) * 0.5;
    Obb {
        center: Point3::from(origin + axes * mid),
        axes,
        half_extents: (hi - lo) * 0.5,
    }
}

/// A right-handed orthonormal frame of eigenvectors of a symmetric 3×3 matrix, largest
/// eigenvalue first; the identity when the matrix is not finite or is isotropic. Any
/// orthonormal frame gives a valid (conservative) box, so rounding in the eigenvectors only
/// changes tightness.
///
/// Closed form, as the query builds a box at every level: the smallest eigenvalue by the
/// trigonometric solution of the characteristic cubic (Smith 1961), its eigenvector as the
/// longest cross product of two rows of `A - λI` (the thickness of a flat piece, the axis
/// tightness depends on most), then one plane rotation for the other two.
pub fn eigen_frame(a: [[f64; 3]; 3]) -> Mat3 {
    if !a.iter().flatten().all(|x| x.is_finite()) {
        return Mat3::identity();
    }
    let m = Mat3::from_fn(|i, j| a[i][j]);
    let q = (a[0][0] + a[1][1] + a[2][2]) / 3.0;
    let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    let diag = (a[0][0] - q).powi(2) + (a[1][1] - q).powi(2) + (a[2][2] - q).powi(2);
    let p = ((diag + 2.0 * off) / 6.0).sqrt();
    let scale = a.iter().flatten().map(|x| x.abs()).fold(0.0, f64::max);
    if !(p > 1e-14 * scale) {
        return Mat3::identity();
    }
    let b = (m - Mat3::identity() * q) / p;
    let r = (b.determinant() * 0.5).clamp(-1.0, 1.0);
    let phi = r.acos() / 3.0;
    let smallest = q + 2.0 * p * (phi + 2.0 * std::f64::consts::FRAC_PI_3).cos();
    let shifted = m - Mat3::identity() * smallest;
    let rows = [
        shifted.row(0).transpose(),
        shifted.row(1).transpose(),
        shifted.row(2).transpose(),
    ];
    let crosses = [
        rows[0].cross(&rows[1]),
        rows[0].cross(&rows[2]),
        rows[1].cross(&rows[2]),
    ];
    let best = crosses
        .iter()
        .copied()
        .max_by(|x, y| x.norm_squared().total_cmp(&y.norm_squared()))
        .unwrap_or_else(Vec3::zeros);
    let longest_row = rows.iter().map(|r| r.norm_squared()).fold(0.0, f64::max);
    let thin = if best.norm_squared() > 1e-20 * longest_row * longest_row {
        best.normalize()
    } else {
        // `A - λI` has rank one: the smallest eigenvalue is double, its plane is normal to
        // the remaining row, and any unit vector in that plane will do.
        let Some(top) = rows
            .iter()
            .copied()
            .max_by(|x, y| x.norm_squared().total_cmp(&y.norm_squared()))
            .and_then(|r| r.try_normalize(1e-300))
        else {
            return Mat3::identity();
        };
        perpendicular(&top)
    };
    // The other two axes: the 2×2 problem in the plane normal to `thin`.
    let e1 = perpendicular(&thin);
    let e2 = thin.cross(&e1);
    let (b11, b22, b12) = (e1.dot(&(m * e1)), e2.dot(&(m * e2)), e1.dot(&(m * e2)));
    let (mut a0, mut a1) = (e1, e2);
    let (mut l0, mut l1) = (b11, b22);
    if b12.abs() > 1e-300 {
        let theta = (b22 - b11) / (2.0 * b12);
        let t = if theta == 0.0 {
            1.0
        } else {
            theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt())
        };
        let c = 1.0 / (t * t + 1.0).sqrt();
        let s = t * c;
        a0 = e1 * c - e2 * s;
        a1 = e1 * s + e2 * c;
        l0 = b11 - t * b12;
        l1 = b22 + t * b12;
    }
    if l1 > l0 {
        std::mem::swap(&mut a0, &mut a1);
    }
    let Some(a0) = a0.try_normalize(1e-300) else {
        return Mat3::identity();
    };
    let Some(a1) = (a1 - a0 * a0.dot(&a1)).try_normalize(1e-300) else {
        return Mat3::identity();
    };
    Mat3::from_columns(&[a0, a1, a0.cross(&a1)])
}

/// A unit vector perpendicular to the unit vector `n`.
fn perpendicular(n: &Vec3) -> Vec3 {
    let helper = if n.x.abs() <= n.y.abs() && n.x.abs() <= n.z.abs() {
        Vec3::x()
    } else if n.y.abs() <= n.z.abs() {
        Vec3::y()
    } else {
        Vec3::z()
    };
    n.cross(&helper).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against nalgebra's solver: same eigenvalues (the frame diagonalises the matrix).
    #[test]
    #[allow(clippy::needless_range_loop)]
    fn jacobi_frame_diagonalises_random_symmetric_matrices() {
        let mut rng = crate::world::scene_kit::Lcg(5);
        for case in 0..500 {
            let mut m = [[0.0; 3]; 3];
            for i in 0..3 {
                for j in i..3 {
                    let x = rng.range(-2.0, 2.0);
                    m[i][j] = x;
                    m[j][i] = x;
                }
            }
            if case % 5 == 0 {
                // Repeated eigenvalues: a planar or round net, turned.
                let rot = nalgebra::Rotation3::new(Vec3::new(rng.unit(), rng.unit(), 0.3));
                let d = [[1.0, 1.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]][case % 3];
                let r =
                    rot.matrix() * Mat3::from_diagonal(&Vec3::from(d)) * rot.matrix().transpose();
                m = [
                    [r[(0, 0)], r[(0, 1)], r[(0, 2)]],
                    [r[(1, 0)], r[(1, 1)], r[(1, 2)]],
                    [r[(2, 0)], r[(2, 1)], r[(2, 2)]],
                ];
            }
            if case % 7 == 0 {
                // A thin flat piece: the thickness axis must come out right.
                let rot = nalgebra::Rotation3::new(Vec3::new(rng.unit(), 0.2, rng.unit()));
                let dm = Mat3::from_diagonal(&Vec3::new(1.0, 0.3, 1e-9));
                let r = rot.matrix() * dm * rot.matrix().transpose();
                m = [
                    [r[(0, 0)], r[(0, 1)], r[(0, 2)]],
                    [r[(1, 0)], r[(1, 1)], r[(1, 2)]],
                    [r[(2, 0)], r[(2, 1)], r[(2, 2)]],
                ];
            }
            let frame = eigen_frame(m);
            let mat = Mat3::from_fn(|i, j| m[i][j]);
            let d = frame.transpose() * mat * frame;
            let expected = nalgebra::SymmetricEigen::new(mat).eigenvalues;
            let mut got = [d[(0, 0)], d[(1, 1)], d[(2, 2)]];
            let mut want = [expected[0], expected[1], expected[2]];
            got.sort_by(f64::total_cmp);
            want.sort_by(f64::total_cmp);
            for k in 0..3 {
                assert!((got[k] - want[k]).abs() < 1e-7, "{got:?} vs {want:?}");
            }
            let off = d[(0, 1)].abs() + d[(0, 2)].abs() + d[(1, 2)].abs();
            // The cubic's trigonometric root loses half the digits next to a double root
            // (acos near ±1), where the eigenvectors are ill-defined anyway.
            assert!(off < 1e-7, "case {case}: off-diagonal {off}");
            // Largest eigenvalue first, smallest last.
            assert!(d[(0, 0)] >= d[(1, 1)] - 1e-9 && d[(1, 1)] >= d[(2, 2)] - 1e-9);
            assert!((frame.determinant() - 1.0).abs() < 1e-12);
        }
    }
}

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
    let origin = cartesian(first);
    obb_along(points, covariance_axes(points, origin), origin)
}

/// Cartesian position of a homogeneous point; most nets are polynomial (unit weights), and
/// need no division.
#[inline(always)]
fn cartesian(h: &HPoint) -> Vec3 {
    if h.w == 1.0 {
        h.xyz()
    } else {
        h.xyz() * (1.0 / h.w)
    }
}

/// The eigenvectors of the points' covariance, largest spread first.
///
/// Moments are taken about `origin` (the first point): large coordinates would otherwise
/// cancel. The mean divides by the real count (the thesis' `nm` is off by one per direction:
/// §8 of the digest); the covariance's scale does not move the eigenvectors, the mean does.
pub fn covariance_axes(points: &[HPoint], origin: Vec3) -> Mat3 {
    // Polynomial nets (unit weights) take a loop with no division; checking costs a compare
    // per point.
    if points.iter().all(|h| h.w == 1.0) {
        covariance_of(points.iter().map(|h| h.xyz()), points.len(), origin)
    } else {
        covariance_of(points.iter().map(cartesian), points.len(), origin)
    }
}

#[inline(always)]
fn covariance_of(points: impl Iterator<Item = Vec3>, count: usize, origin: Vec3) -> Mat3 {
    let (mut sx, mut sy, mut sz) = (0.0, 0.0, 0.0);
    let (mut xx, mut xy, mut xz, mut yy, mut yz, mut zz) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    for p in points {
        let (x, y, z) = (p.x - origin.x, p.y - origin.y, p.z - origin.z);
        sx += x;
        sy += y;
        sz += z;
        xx += x * x;
        xy += x * y;
        xz += x * z;
        yy += y * y;
        yz += y * z;
        zz += z * z;
    }
    let n = count.max(1) as f64;
    let (mx, my, mz) = (sx / n, sy / n, sz / n);
    eigen_frame([
        [xx / n - mx * mx, xy / n - mx * my, xz / n - mx * mz],
        [xy / n - mx * my, yy / n - my * my, yz / n - my * mz],
        [xz / n - mx * mz, yz / n - my * mz, zz / n - mz * mz],
    ])
}

/// The box with the given orthonormal axes holding every point: extents from the
/// projections (about `origin`, for the same reason as the moments). Any orthonormal frame
/// gives a conservative box; the axes only decide how tight it is.
pub fn obb_along(points: &[HPoint], axes: Mat3, origin: Vec3) -> Obb {
    if points.is_empty() {
        return Obb {
            center: Point3::from(origin),
            axes,
            half_extents: Vec3::zeros(),
        };
    }
    let (lo, hi) = if points.iter().all(|h| h.w == 1.0) {
        extents_of(points.iter().map(|h| h.xyz()), &axes, origin)
    } else {
        extents_of(points.iter().map(cartesian), &axes, origin)
    };
    let lo = Vec3::from(lo);
    let hi = Vec3::from(hi);
    let mid = (lo + hi) * 0.5;
    Obb {
        center: Point3::from(origin + axes * mid),
        axes,
        half_extents: (hi - lo) * 0.5,
    }
}

#[inline(always)]
fn extents_of(
    points: impl Iterator<Item = Vec3>,
    axes: &Mat3,
    origin: Vec3,
) -> ([f64; 3], [f64; 3]) {
    let c = |k: usize| [axes[(0, k)], axes[(1, k)], axes[(2, k)]];
    let (a, b, e) = (c(0), c(1), c(2));
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in points {
        let (x, y, z) = (p.x - origin.x, p.y - origin.y, p.z - origin.z);
        let q = [
            a[0] * x + a[1] * y + a[2] * z,
            b[0] * x + b[1] * y + b[2] * z,
            e[0] * x + e[1] * y + e[2] * z,
        ];
        // Control points are finite (checked on input): plain comparisons suffice.
        for ((l, h), x) in lo.iter_mut().zip(hi.iter_mut()).zip(q) {
            if x < *l {
                *l = x;
            }
            if x > *h {
                *h = x;
            }
        }
    }
    (lo, hi)
}

/// Axes from a piece's four corner control points (points of the surface for clamped
/// knots): the mean u edge, the normal of the two diagonals, and their cross product. On a
/// small, nearly flat piece this is the frame the covariance finds, without the moments or
/// the eigen-solver. `None` when the corners do not span a plane (a collapsed pole).
pub fn corner_axes(s: &NurbsSurface) -> Option<Mat3> {
    let (cu, cv) = (s.count_u.checked_sub(1)?, s.count_v.checked_sub(1)?);
    let at = |i: usize, j: usize| s.points.get(i * s.count_v + j).map(cartesian);
    let (p00, p0v, pu0, puv) = (at(0, 0)?, at(0, cv)?, at(cu, 0)?, at(cu, cv)?);
    let normal = (puv - p00).cross(&(pu0 - p0v));
    let along_u = (pu0 + puv) - (p00 + p0v);
    let along_v = (p0v + puv) - (p00 + pu0);
    let scale = along_u.norm_squared().max(along_v.norm_squared());
    if normal.norm_squared() <= 1e-24 * scale * scale {
        return None;
    }
    let n = normal.try_normalize(1e-150)?;
    let first = if along_u.norm_squared() >= along_v.norm_squared() {
        along_u
    } else {
        along_v
    };
    let e0 = (first - n * n.dot(&first)).try_normalize(1e-150)?;
    let e1 = n.cross(&e0);
    let m = Mat3::from_columns(&[e0, e1, n]);
    m.iter().all(|x| x.is_finite()).then_some(m)
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

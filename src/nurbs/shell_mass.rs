//! A NURBS body's centre of mass and inertia tensor, taken as a thin shell of uniform areal
//! density over its tessellated surfaces. The thesis integrates over the volume (eq. I.8),
//! but its sheet is an open surface with no volume; a shell works for the sheet, the torus and
//! the vase alike, and is exact in the limit of a fine tessellation.

use super::surface::NurbsSurface;
use super::tessellate::tessellate;
use crate::geom::{Mat3, Point3, Vec3};

/// Samples per surface side: 2 × 24² triangles per patch.
const GRID: usize = 24;

/// Centre of mass (in the surfaces' frame) and inertia tensor about it for a shell of total
/// `mass`; `None` for surfaces of no area.
pub fn shell_mass(surfaces: &[NurbsSurface], mass: f64) -> Option<(Point3, Mat3)> {
    let mut area = 0.0;
    let mut first = Vec3::zeros();
    let mut second = Mat3::zeros();
    for s in surfaces {
        for t in tessellate(s, GRID) {
            let (a, b, c) = (t.a.coords, t.b.coords, t.c.coords);
            let da = 0.5 * (b - a).cross(&(c - a)).norm();
            if !da.is_finite() {
                return None;
            }
            let sum = a + b + c;
            area += da;
            first += sum * (da / 3.0);
            // ∫ p pᵀ dA over a triangle, exactly: A/12 (Σ vᵢvᵢᵀ + s sᵀ).
            second +=
                (a * a.transpose() + b * b.transpose() + c * c.transpose() + sum * sum.transpose())
                    * (da / 12.0);
        }
    }
    if !(area > 1e-12) {
        return None;
    }
    let centre = first / area;
    let about_centre = second / area - centre * centre.transpose();
    let inertia = (Mat3::identity() * about_centre.trace() - about_centre) * mass;
    Some((Point3::from(centre), inertia))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nurbs::shapes::{plane, sphere};

    #[test]
    fn a_spherical_shell_has_two_thirds_m_r_squared() {
        let (c, i) = shell_mass(&sphere([0.0; 3], 2.0), 3.0).unwrap();
        assert!(c.coords.norm() < 1e-9);
        let expected = 2.0 / 3.0 * 3.0 * 4.0;
        for k in 0..3 {
            assert!((i[(k, k)] - expected).abs() < 0.01 * expected, "{i}");
        }
        assert!(i[(0, 1)].abs() < 1e-6 && i[(1, 2)].abs() < 1e-6);
    }

    #[test]
    fn a_square_plate_has_the_textbook_moments() {
        // Side a in z = 0: I_x = I_y = m a²/12, I_z = m a²/6.
        let (c, i) = shell_mass(&[plane(3.0, 0.0)], 2.0).unwrap();
        assert!(c.coords.norm() < 1e-9);
        let side = 2.0 * 9.0 / 12.0;
        assert!((i[(0, 0)] - side).abs() < 1e-6 && (i[(1, 1)] - side).abs() < 1e-6);
        assert!((i[(2, 2)] - 2.0 * side).abs() < 1e-6);
    }
}

//! The 15-axis separating-axis test between oriented boxes (Gottschalk, "Separating axis
//! theorem", TR96-024; the order of RAPID's `obb_disjoint`).
//!
//! Axes are tried in RAPID's order and the first that separates is reported as a 0-based
//! index, RAPID's return code minus one:
//!
//! | index | 0  | 1  | 2  | 3  | 4  | 5  | 6..=14                       |
//! |-------|----|----|----|----|----|----|------------------------------|
//! | axis  | A0 | B0 | A1 | A2 | B1 | B2 | A_i × B_j at 6 + 3·i + j     |
//!
//! Each comparison is `|T·L| > r_A + r_B + slack`, with `r_A = Σ a_i |A_i·L|`. For nearly
//! parallel edges the cross product `A_i × B_j` is almost zero and both sides are rounding
//! noise; the absolute `slack` keeps such an axis from "separating" touching boxes (the role
//! of RAPID's `reps` added to |R|, here with a margin tied to the scene's scale).

use crate::geom::{Obb, Real};

/// RAPID's names of the 15 axes, by the index [`obb_separating_axis`] returns.
pub const SAT_AXIS_NAMES: [&str; 15] = [
    "A0", "B0", "A1", "A2", "B1", "B2", "A0×B0", "A0×B1", "A0×B2", "A1×B0", "A1×B1", "A1×B2",
    "A2×B0", "A2×B1", "A2×B2",
];

/// The first separating axis of two boxes given in one frame, or `None` when they overlap.
#[inline]
pub fn obb_separating_axis(a: &Obb, b: &Obb, slack: Real) -> Option<u8> {
    // R[i][j] = A_i · B_j; T = centre offset in A's frame.
    let r = a.axes.transpose() * b.axes;
    let t = a.axes.transpose() * (b.center - a.center);
    let ar = r.abs();
    let (ha, hb) = (&a.half_extents, &b.half_extents);

    let face_a = |i: usize| {
        t[i].abs() > ha[i] + hb[0] * ar[(i, 0)] + hb[1] * ar[(i, 1)] + hb[2] * ar[(i, 2)] + slack
    };
    let face_b = |j: usize| {
        let s = t[0] * r[(0, j)] + t[1] * r[(1, j)] + t[2] * r[(2, j)];
        s.abs() > hb[j] + ha[0] * ar[(0, j)] + ha[1] * ar[(1, j)] + ha[2] * ar[(2, j)] + slack
    };
    if face_a(0) {
        return Some(0);
    }
    if face_b(0) {
        return Some(1);
    }
    if face_a(1) {
        return Some(2);
    }
    if face_a(2) {
        return Some(3);
    }
    if face_b(1) {
        return Some(4);
    }
    if face_b(2) {
        return Some(5);
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let s = t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)];
            let ra = ha[i1] * ar[(i2, j)] + ha[i2] * ar[(i1, j)];
            let rb = hb[j1] * ar[(i, j2)] + hb[j2] * ar[(i, j1)];
            if s.abs() > ra + rb + slack {
                return Some((6 + 3 * i + j) as u8);
            }
        }
    }
    None
}

/// The direction of axis `index` (unnormalised; zero for parallel edges), for drawing and
/// for checking a reported axis.
pub fn sat_axis_direction(a: &Obb, b: &Obb, index: u8) -> crate::geom::Vec3 {
    let (ca, cb) = (
        |i: usize| a.axes.column(i).into_owned(),
        |j: usize| b.axes.column(j).into_owned(),
    );
    match index {
        0 => ca(0),
        1 => cb(0),
        2 => ca(1),
        3 => ca(2),
        4 => cb(1),
        5 => cb(2),
        k if k < 15 => {
            let k = (k - 6) as usize;
            ca(k / 3).cross(&cb(k % 3))
        }
        _ => crate::geom::Vec3::zeros(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Mat3, Point3, Vec3};

    fn boxed(c: [f64; 3], h: [f64; 3], axis_angle: [f64; 3]) -> Obb {
        let rot = nalgebra::Rotation3::new(Vec3::from(axis_angle));
        Obb {
            center: Point3::from(c),
            axes: *rot.matrix(),
            half_extents: Vec3::from(h),
        }
    }

    /// The reported axis must really separate the corner sets.
    fn assert_axis_separates(a: &Obb, b: &Obb, axis: u8) {
        let l = sat_axis_direction(a, b, axis);
        let span = |o: &Obb| {
            let d: Vec<f64> = o.corners().iter().map(|p| p.coords.dot(&l)).collect();
            (
                d.iter().cloned().fold(f64::INFINITY, f64::min),
                d.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
            )
        };
        let ((a0, a1), (b0, b1)) = (span(a), span(b));
        assert!(a1 < b0 || b1 < a0, "axis {axis} does not separate");
    }

    #[test]
    fn face_axes_in_rapid_order() {
        let a = boxed([0.0; 3], [1.0; 3], [0.0; 3]);
        assert_eq!(
            obb_separating_axis(&a, &boxed([3.0, 0.0, 0.0], [1.0; 3], [0.0; 3]), 0.0),
            Some(0)
        );
        assert_eq!(
            obb_separating_axis(&a, &boxed([0.0, 3.0, 0.0], [1.0; 3], [0.0; 3]), 0.0),
            Some(2)
        );
        assert_eq!(
            obb_separating_axis(&a, &boxed([0.0, 0.0, 3.0], [1.0; 3], [0.0; 3]), 0.0),
            Some(3)
        );
        // touching faces overlap
        assert_eq!(
            obb_separating_axis(&a, &boxed([2.0, 0.0, 0.0], [1.0; 3], [0.0; 3]), 0.0),
            None
        );
    }

    #[test]
    fn edge_edge_axis() {
        // Two long bars crossing like an X seen from above, one lifted: only an edge-edge
        // axis (here z-ish) separates them.
        let a = boxed([0.0, 0.0, 0.0], [2.0, 0.1, 0.1], [0.0, 0.0, 0.0]);
        let b = boxed(
            [0.0, 0.0, 0.0],
            [2.0, 0.1, 0.1],
            [0.0, 0.0, std::f64::consts::FRAC_PI_2],
        );
        assert_eq!(obb_separating_axis(&a, &b, 0.0), None);
        let tilt = [std::f64::consts::FRAC_PI_4, 0.0, 0.0];
        let a = boxed([0.0, 0.0, 0.0], [2.0, 0.1, 0.1], tilt);
        let b = boxed([0.0, 0.0, 0.3], [0.1, 2.0, 0.1], [0.0, 0.0, 0.3]);
        if let Some(axis) = obb_separating_axis(&a, &b, 0.0) {
            assert_axis_separates(&a, &b, axis);
        }
        let _ = Mat3::identity();
    }
}

//! The relative-displacement gate of the iterative cast (spec 002 §3.5.1, Eq. 4.2) and its
//! iteration cap (Eq. 4.1). The thesis gives no values: they are parameters.

use crate::geom::{Quat, Real, Vec3};

#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct IterativeGate {
    /// Above this displacement since the last complete cast, cast completely again (D_thr).
    pub threshold_m: Real,
    /// Eq. 4.1's confidence (>= 1): an underestimated cap gives false negatives.
    pub confidence: Real,
}

impl Default for IterativeGate {
    fn default() -> Self {
        Self {
            threshold_m: 0.05,
            confidence: 4.0,
        }
    }
}

impl IterativeGate {
    pub fn allows(&self, displacement_m: Real) -> bool {
        displacement_m.is_finite() && displacement_m <= self.threshold_m
    }

    /// Eq. 4.1, `confidence * D_thr / mean triangle size`, plus the crossings of one vertex
    /// fan: Eq. 4.1 counts triangle lengths travelled, but a hit moving a short way past a
    /// vertex crosses up to half its fan (three edges at the usual valence of six) without
    /// travelling a triangle length.
    pub fn max_iterations(&self, mean_triangle_size_m: Real) -> u32 {
        const FAN_CROSSINGS: Real = 3.0;
        let n = self.confidence.max(1.0) * self.threshold_m / mean_triangle_size_m.max(1e-12);
        if n.is_finite() {
            (n.ceil() + FAN_CROSSINGS).clamp(1.0, 1e6) as u32
        } else {
            FAN_CROSSINGS as u32
        }
    }
}

/// Eq. 4.2: `|t_ni - t| + angle(q_ni, q) * r_max`, an upper bound of how far any point of the
/// pair moved relative to the other since the last complete cast. The angle is
/// `2 acos |q1·q2|` (the thesis does not say).
pub fn rigid_max_displacement(
    t_last: &Vec3,
    q_last: &Quat,
    t_now: &Vec3,
    q_now: &Quat,
    r_max: Real,
) -> Real {
    let dot = q_last.coords.dot(&q_now.coords).abs().min(1.0);
    (t_last - t_now).norm() + 2.0 * dot.acos() * r_max
}

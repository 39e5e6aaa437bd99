//! What the user sets: tolerances and which checks run.

use super::finding::Check;

/// Distances within this are the same: reported depths and ours, overlaps the engine did not
/// report, reported contacts beyond the prediction distance. See `docs/audit.md` for the
/// measurements it was chosen from.
pub const DEFAULT_DEPTH_TOLERANCE_M: f64 = 0.005;
/// Normals within this angle are the same.
pub const DEFAULT_NORMAL_TOLERANCE_DEG: f64 = 5.0;
/// A body's speed may grow by this much in a step beyond what gravity gives (m/s).
pub const DEFAULT_SPEED_GAIN_MPS: f64 = 5.0;

#[derive(Clone, Debug, PartialEq)]
pub struct AuditOptions {
    pub depth_tolerance_m: f64,
    pub normal_tolerance_deg: f64,
    pub speed_gain_mps: f64,
    /// The engine's prediction distance, when the user overrides the capture's.
    pub prediction_distance_m: Option<f64>,
    /// Whether the step's contacts are of its start poses, when the user overrides the
    /// capture's header.
    pub contacts_at_start: Option<bool>,
    /// The checks that do not run.
    pub off: Vec<Check>,
}

impl Default for AuditOptions {
    fn default() -> Self {
        Self {
            depth_tolerance_m: DEFAULT_DEPTH_TOLERANCE_M,
            normal_tolerance_deg: DEFAULT_NORMAL_TOLERANCE_DEG,
            speed_gain_mps: DEFAULT_SPEED_GAIN_MPS,
            prediction_distance_m: None,
            contacts_at_start: None,
            off: Vec::new(),
        }
    }
}

impl AuditOptions {
    pub fn runs(&self, check: Check) -> bool {
        !self.off.contains(&check)
    }
}

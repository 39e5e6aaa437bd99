//! What a scene sets for the ray-traced narrow phase. The thesis gives no values (spec 002,
//! "No numeric values"): these defaults suit bodies of a few decimetres stepped at 60 Hz.

use crate::geom::Real;
use crate::raycast::IterativeGate;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RaySettings {
    /// `d_pred`: an outer ray is kept as a prediction up to this length, and the target's
    /// bounding box is inflated by it when culling source vertices (§3.3).
    pub prediction_m: Real,
    /// Eq. 3.3: a contact's depth is the ray projected on the hit triangle's normal, and its
    /// direction that normal. Off: the raw ray length and direction (Hermann's rays).
    pub reproject: bool,
    /// Walk from last step's triangle while the pair moved less than the gate's threshold
    /// since its last complete cast (Eq. 4.2), with the iteration cap of Eq. 4.1.
    pub iterative: bool,
    pub gate: IterativeGate,
}

impl Default for RaySettings {
    fn default() -> Self {
        Self {
            prediction_m: 0.05,
            reproject: true,
            iterative: true,
            gate: IterativeGate::default(),
        }
    }
}

impl RaySettings {
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// Why the settings cannot run, naming the field.
    pub fn check(&self) -> Result<(), String> {
        if !(self.prediction_m.is_finite() && self.prediction_m >= 0.0) {
            return Err(format!(
                "rays.prediction_m must be a finite length ≥ 0, not {}",
                self.prediction_m
            ));
        }
        if !(self.gate.threshold_m.is_finite() && self.gate.threshold_m >= 0.0) {
            return Err(format!(
                "rays.gate.threshold_m must be a finite length ≥ 0, not {}",
                self.gate.threshold_m
            ));
        }
        if !(self.gate.confidence.is_finite() && self.gate.confidence >= 1.0) {
            return Err(format!(
                "rays.gate.confidence must be a finite number ≥ 1, not {}",
                self.gate.confidence
            ));
        }
        Ok(())
    }
}

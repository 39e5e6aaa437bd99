//! Every threshold the thesis leaves without a value, as a parameter (spec 002 §8).

use super::self_gate::GateMeasure;
use crate::geom::{Real, Vec3};
use crate::raycast::IterativeGate;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClothParams {
    /// `e`: the cloth is a shell reaching this far on both sides of its mid-surface.
    pub half_thickness_m: Real,
    /// Outer rays longer than this (after re-projection) are rejected, not predictions.
    pub prediction_distance_m: Real,
    pub gravity_mps2: Vec3,
    /// Air velocity; the force on a vertex is along its normal, by the normal component.
    pub wind_mps: Vec3,
    pub wind_drag: Real,
    /// Constraint iterations per step (position-based dynamics).
    pub solver_iterations: u32,
    /// 0..=1 per iteration; bending softer than stretching so sheets fold.
    pub stretch_stiffness: Real,
    pub shear_stiffness: Real,
    pub bend_stiffness: Real,
    pub damping: Real,
    /// Coulomb coefficient of the position-based friction of contacts: a contact of depth
    /// `d` removes at most `friction * d` of the vertex's tangential motion in the step.
    /// Without it a sheet draped on a sphere, an unstable balance, slides off.
    pub friction: Real,
    pub self_collision: bool,
    /// When set, casts walk from last step's triangles while the gate lets them.
    pub iterative_cast: bool,
    pub gate: IterativeGate,
    /// Side length, in vertices, of the square clusters whose accumulated displacement gates
    /// the iterative cast on deformables (§3.5.2).
    pub cluster_side: u32,
    /// volume → cloth rays from the closed bodies' vertices (§4.3 a): a body's cap or corner
    /// poking between the cloth's vertices is seen by the body's own vertices. On when absent
    /// (appended last, so recordings made before it keep their schema).
    #[serde(default = "on")]
    pub volume_rays: bool,
    /// The fixes of the thesis, each switchable so that the failure it prevents can be shown
    /// on the frame it happens. Appended with defaults for the same reason as `volume_rays`.
    #[serde(default)]
    pub switches: ClothSwitches,
    /// How the self gate measures two clusters' relative displacement (§3.5.2, Table 4.2).
    #[serde(default)]
    pub gate_measure: GateMeasure,
}

fn on() -> bool {
    true
}

/// Each one on by default. Turned off, the engine stops using the fix; the debugger still
/// observes what the fix would have caught (an inversion is still recorded, uncorrected).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClothSwitches {
    /// A vertex that went through a triangle during the step is pushed back to its side
    /// (§4.5). Off: nothing catches a vertex that crossed a thin surface between two steps.
    pub inversion_detection: bool,
    /// Ray lengths and contact directions are projected on the hit triangle's normal
    /// (Eq. 3.3). Off: the raw ray (Hermann's), whose length overstates the depth and whose
    /// direction is the vertex normal, not the surface's.
    pub reprojection: bool,
    /// The displacement gate against rigid obstacles (§3.5). Off: a walk runs whatever the
    /// displacement since the last complete cast, so its errors persist.
    pub rigid_gate: bool,
    /// The cluster gate of the self rays (§3.5.2). Off: self rays walk whatever the sheet's
    /// displacement.
    pub self_gate: bool,
    /// A walk that fails (§3.4.5, "ray loss") is cast completely at once. Off: the ray stays
    /// lost until the gate next asks for a complete cast, as in the thesis.
    pub recast_lost_rays: bool,
    /// Which side of a body a volume → cloth inner ray pushes the cloth to: the side the hit
    /// point was nearer before the step. Off: the thesis' half-way rule (§4.3 a), which
    /// judges where the cloth is now, so a sheet that crossed a body's middle within one step
    /// (a thin part of a sphere, a long step) is pushed on through it.
    pub volume_side_before_step: bool,
}

impl Default for ClothSwitches {
    fn default() -> Self {
        Self {
            inversion_detection: true,
            reprojection: true,
            rigid_gate: true,
            self_gate: true,
            recast_lost_rays: true,
            volume_side_before_step: true,
        }
    }
}

impl Default for ClothParams {
    fn default() -> Self {
        Self {
            half_thickness_m: 0.01,
            prediction_distance_m: 0.05,
            gravity_mps2: Vec3::new(0.0, -9.81, 0.0),
            wind_mps: Vec3::zeros(),
            wind_drag: 0.5,
            solver_iterations: 8,
            stretch_stiffness: 1.0,
            shear_stiffness: 0.8,
            bend_stiffness: 0.2,
            damping: 0.01,
            friction: 0.5,
            self_collision: true,
            iterative_cast: true,
            volume_rays: true,
            gate: IterativeGate::default(),
            cluster_side: 4,
            switches: ClothSwitches::default(),
            gate_measure: GateMeasure::default(),
        }
    }
}

impl ClothParams {
    /// Checks the values a scene file may carry: named field and cause.
    pub fn validate(&self) -> Result<(), String> {
        let positive = [
            ("half_thickness_m", self.half_thickness_m),
            ("prediction_distance_m", self.prediction_distance_m),
            ("gate.threshold_m", self.gate.threshold_m),
        ];
        for (name, value) in positive {
            if !(value.is_finite() && value > 0.0) {
                return Err(format!(
                    "{name} must be a positive finite number, got {value}"
                ));
            }
        }
        let unit = [
            ("stretch_stiffness", self.stretch_stiffness),
            ("shear_stiffness", self.shear_stiffness),
            ("bend_stiffness", self.bend_stiffness),
            ("damping", self.damping),
        ];
        for (name, value) in unit {
            if !(0.0..=1.0).contains(&value) {
                return Err(format!("{name} must lie in [0, 1], got {value}"));
            }
        }
        if self.prediction_distance_m < self.half_thickness_m {
            return Err("prediction_distance_m must be at least half_thickness_m".into());
        }
        if !(self.gravity_mps2.iter().all(|c| c.is_finite())
            && self.wind_mps.iter().all(|c| c.is_finite()))
        {
            return Err("gravity_mps2 and wind_mps must be finite".into());
        }
        if !(self.friction.is_finite() && (0.0..=10.0).contains(&self.friction)) {
            return Err(format!(
                "friction must lie in [0, 10], got {}",
                self.friction
            ));
        }
        if self.solver_iterations == 0 || self.solver_iterations > 1000 {
            return Err(format!(
                "solver_iterations must lie in 1..=1000, got {}",
                self.solver_iterations
            ));
        }
        if self.cluster_side == 0 {
            return Err("cluster_side must be at least 1".into());
        }
        Ok(())
    }
}

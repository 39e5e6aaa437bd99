//! What the cloth family adds to a scene (a sheet, its parameters, scripted rigid motions)
//! and what a frame records (the sheet's state, the cast memory, the inversions).

use super::detect::CastMemory;
use super::inversion::InversionRecord;
use super::params::ClothParams;
use crate::geom::{Point3, Real, Vec3};
use serde::{Deserialize, Serialize};

/// A rigid body the scene moves at constant velocities (a rotating box, a pusher): rigid
/// bodies are the cloth's obstacles, and a fixed body only moves when scripted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScriptedBody {
    /// Index of the body in the scene's list.
    pub body: u32,
    pub linear_mps: Vec3,
    /// Axis times angular speed, rad/s.
    pub angular_rps: Vec3,
    /// The motion stops after this many frames (a push that stays pushed).
    pub frames: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClothScene {
    /// Vertices along `u` and along `v`.
    pub columns: u32,
    pub rows: u32,
    pub corner: Point3,
    pub u: Vec3,
    pub v: Vec3,
    pub pinned: Vec<u32>,
    pub initial_velocity: Vec3,
    pub params: ClothParams,
    /// Substeps per frame: a large time step is the scene's point when it is 1.
    pub substeps: u32,
    pub scripted: Vec<ScriptedBody>,
}

/// The sheet's exact state (restoring a frame must give the same next step bit for bit) and
/// what the step found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClothFrame {
    pub positions: Vec<Point3>,
    pub velocities: Vec<Vec3>,
    pub memory: CastMemory,
    /// Inversions detected this frame, with whether the response corrected them.
    pub inversions: Vec<InversionRecord>,
    /// The frame of the recording's first inversion so far (a timeline marker).
    pub first_inversion: Option<u64>,
    /// Ray–triangle tests and complete / walked casts of the frame.
    pub ray_triangle_tests: u64,
    pub iterative_casts: u64,
    pub full_casts: u64,
}

impl ClothScene {
    pub fn validate(&self) -> Result<(), String> {
        self.params.validate()?;
        if !(1..=64).contains(&self.substeps) {
            return Err(format!(
                "substeps must lie in 1..=64, got {}",
                self.substeps
            ));
        }
        let finite = |v: &Vec3| v.iter().all(|c| c.is_finite());
        if !(finite(&self.corner.coords)
            && finite(&self.u)
            && finite(&self.v)
            && finite(&self.initial_velocity))
        {
            return Err("corner, u, v and initial_velocity must be finite".into());
        }
        let count = self.columns as u64 * self.rows as u64;
        if let Some(p) = self.pinned.iter().find(|&&p| p as u64 >= count) {
            return Err(format!(
                "pinned vertex {p} is not among the {count} vertices"
            ));
        }
        for (i, s) in self.scripted.iter().enumerate() {
            if !(finite(&s.linear_mps) && finite(&s.angular_rps)) {
                return Err(format!("scripted[{i}]: velocities must be finite"));
            }
        }
        Ok(())
    }

    pub fn half_thickness_m(&self) -> Real {
        self.params.half_thickness_m
    }
}

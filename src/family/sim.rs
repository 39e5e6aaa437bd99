use super::{DynProbe, StageClock};
use crate::dynamics::RigidBody;
use crate::families::FamilyFrameData;
use crate::frame::{Frame, Marker};
use crate::geom::{Real, Vec3};
use crate::scene::{Scene, SceneError};
use std::path::Path;

/// What a family's simulation is built from besides its own scene data.
pub struct SimSetup<'a> {
    pub scene: &'a Scene,
    /// The rigid bodies as built from the scene (meshes, hulls, poses).
    pub bodies: &'a [RigidBody],
    /// The scene's file, for errors (`<built-in>` for built-in scenes).
    pub file: &'a Path,
}

impl SimSetup<'_> {
    /// Family `family` refuses the scene's data for `cause`, naming the scene's file.
    pub fn refused(&self, family: &'static str, cause: String) -> SceneError {
        SceneError::Family {
            entry: None,
            line: None,
            file: self.file.to_path_buf(),
            family,
            cause,
        }
    }
}

/// One step as a family sees it: the rigid bodies after the rigid pipeline's step, which a
/// family may read (cloth against rigid meshes) or move (a kinematic walker, a scripted orbit).
pub struct StepContext<'a> {
    pub bodies: &'a mut [RigidBody],
    pub gravity: Vec3,
    pub dt_s: Real,
    /// The index of the frame this step produces.
    pub frame_index: u64,
    pub time_s: Real,
    /// Timeline markers of this frame ("inverted vertex", "tunnelled").
    pub markers: &'a mut Vec<Marker>,
    /// The time of each of the family's stages (`EngineFamily::STAGES`), started by the world
    /// before the family's step.
    pub stages: StageClock,
}

/// Input for one family's next step, sent by its viewer (the shell only carries it).
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyInput {
    pub family: &'static str,
    pub values: Vec<f64>,
}

/// The running state of a family inside a world. It steps after the rigid pipeline, records
/// its per-frame data, and can be put back in a recorded state (seek, fork, validate).
pub trait FamilySim: Send + Sync {
    fn step(&mut self, ctx: &mut StepContext<'_>, probe: &mut dyn DynProbe);

    /// What this frame records for the family.
    fn frame_data(&self) -> FamilyFrameData;

    /// Puts the family back in the state a frame recorded. Data of another family is ignored.
    fn restore(&mut self, data: &FamilyFrameData);

    fn clone_box(&self) -> Box<dyn FamilySim>;

    /// Input from the viewer for the next step (a walker driven by the keys). A family acts
    /// only on input addressed to it (`input.family`, its `EngineFamily::NAME`).
    fn drive(&mut self, input: &FamilyInput) {
        let _ = input;
    }

    /// Invariants `validate` checks on a recorded frame, beyond the rigid bodies' (an inverted
    /// vertex left uncorrected, a walker inside solid): one message per violation.
    fn violations(&self, frame: &Frame) -> Vec<String> {
        let _ = frame;
        Vec::new()
    }
}

impl Clone for Box<dyn FamilySim> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

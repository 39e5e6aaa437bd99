//! Algorithm families: the engine's unit of extension.
//!
//! A family (the rigid pipeline, the broad phase, hierarchies, convex polyhedra, BSP slides,
//! NURBS, cloth, continuous collision) is one folder that implements [`EngineFamily`], plus one
//! line in `src/families.rs`. That line gives the family its variant in every recorded enum:
//! its trace events in [`EventKind`](crate::trace::EventKind), the data it adds to a scene in
//! [`FamilySceneData`](crate::families::FamilySceneData) and what it records each frame in
//! [`FamilyFrameData`](crate::families::FamilyFrameData); its built-in scenes and its query ops
//! join the global lists. Nothing else in the engine names a family.
//!
//! `docs/adding-a-family.md` walks through the hierarchy family as the worked example.

mod dyn_probe;
mod nothing;
mod registry;
mod sim;
mod stage_clock;

pub use dyn_probe::DynProbe;
pub use nothing::Nothing;
pub use sim::{FamilyInput, FamilySim, SimSetup, StepContext};
pub use stage_clock::StageClock;

/// Re-exported so family code names one module.
pub use crate::families::{FamilyFrameData, FamilySceneData};
pub use crate::scene::BuiltinScene;
pub use crate::trace::FamilyEvent;

use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;

use crate::scene::{Scene, SceneError};

/// A family's summary of a whole recording, for `collidoscope info`.
pub trait RecordingReport {
    fn add_frame(&mut self, frame: &crate::frame::Frame);
    /// The lines `info` prints; empty when the recording holds nothing of the family.
    fn lines(&self) -> Vec<String>;
    /// The same, for `info --json`.
    fn json(&self) -> serde_json::Value;
}

/// A query op of the JSON-lines protocol (`collidoscope query`).
pub type QueryOp = crate::query::Op;

/// The engine side of an algorithm family.
pub trait EngineFamily: 'static {
    /// Short lower-case name ("bvh", "convex"): the family's key in menus and file notes.
    const NAME: &'static str;

    /// How menus and listings head the family's scenes ("Rigid pipeline").
    const TITLE: &'static str;

    /// A scene carrying this family's data is replayed and never stepped on: a captured run
    /// of another engine, which Collidoscope cannot continue.
    const REPLAY_ONLY: bool = false;

    /// The stages of its simulation's step, named as the stage-time plot and the inspector
    /// show them, in the order the step runs them. With one, the world times the whole step;
    /// with more, the step adds each stage's time to `StepContext::stages` (the time it does
    /// not attribute counts to the last). Empty: no time is recorded (a replayed run).
    const STAGES: &'static [&'static str] = &["step"];

    /// Its trace events.
    type Event: FamilyEvent;

    /// What it adds to a scene (a BSP level and its walker, a cloth, NURBS surfaces), written
    /// in scene files as `families: [Name((...))]`. [`Nothing`] when it adds nothing.
    type SceneData: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;

    /// What it records every frame beyond the rigid bodies (a walker's position, cloth
    /// vertices). [`Nothing`] when it records nothing.
    type FrameData: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;

    /// Its built-in scenes, listed by `collidoscope scenes`.
    fn scenes() -> Vec<BuiltinScene> {
        Vec::new()
    }

    /// Its query ops, by name.
    fn query_ops() -> Vec<(&'static str, QueryOp)> {
        Vec::new()
    }

    /// File endings (lower case, no dot: `"map"`) of scene files this family reads, so that
    /// `collidoscope level.map` and `record --scene level.map` open them.
    fn scene_file_extensions() -> &'static [&'static str] {
        &[]
    }

    /// Reads a scene file with one of [`Self::scene_file_extensions`]. Errors name the file,
    /// the line and the cause.
    fn load_scene_file(path: &std::path::Path) -> Result<Scene, SceneError> {
        Err(SceneError::Family {
            entry: None,
            line: None,
            file: path.to_path_buf(),
            family: Self::NAME,
            cause: "this family reads no scene files".into(),
        })
    }

    /// Reads the files this family's scene data names (a cloth's OBJ pieces) into it, their
    /// paths relative to `dir`, the scene file's folder: called when a scene is loaded from a
    /// file, so that the data (and a recording's header) holds what it needs without them.
    /// Errors name the field and the file.
    fn read_files(data: &mut Self::SceneData, dir: &std::path::Path) -> Result<(), String> {
        let _ = (data, dir);
        Ok(())
    }

    /// Traces the enums nested inside this family's event, scene and frame types (a reason
    /// enum inside an event variant, say) for the recording's schema manifest: the event,
    /// scene-data and frame-data types themselves are traced already, but serde-reflection
    /// sees only the first variant of an enum it meets inside another type.
    fn trace_nested_enums(
        tracer: &mut serde_reflection::Tracer,
    ) -> Result<(), serde_reflection::Error> {
        let _ = tracer;
        Ok(())
    }

    /// What `collidoscope info` says about a recording for this family (the cloth family's
    /// inverted vertices, say): fed every frame in order. `None` when it has nothing to say.
    fn recording_report() -> Option<Box<dyn RecordingReport>> {
        None
    }

    /// The pairs, contact ids and impulses this family's frame data holds, for `diff` (a
    /// captured run keeps them there rather than in trace events).
    fn frame_parts(
        frame: &crate::frame::Frame,
        data: &Self::FrameData,
        out: &mut crate::trace::FrameParts,
    ) {
        let _ = (frame, data, out);
    }

    /// About how many bytes a world built from `data` holds for this family, estimated
    /// before anything is allocated: a scene over the memory budget is refused with it.
    fn estimated_bytes(data: &Self::SceneData) -> u64 {
        let _ = data;
        0
    }

    /// The running state of the family in a world whose scene carries `data`. Called once
    /// when the world is built; errors name the scene's file and the place.
    fn simulation(
        data: &Self::SceneData,
        setup: &SimSetup<'_>,
    ) -> Result<Box<dyn FamilySim>, SceneError> {
        let _ = data;
        Err(setup.refused(Self::NAME, "this family adds nothing to scenes".into()))
    }
}

//! The BSP family: a level of brushes, a walker sliding through it, its events and scenes.

use super::level::{BspFrame, BspScene};
use crate::family::{BuiltinScene, EngineFamily, FamilySim, QueryOp, SimSetup};
use crate::world::{Scene, SceneError};
use std::path::Path;

pub struct BspFamily;

impl EngineFamily for BspFamily {
    const NAME: &'static str = "bsp";
    const TITLE: &'static str = "BSP levels and slide moves";
    const STAGES: &'static [&'static str] = &["walker slide"];
    type Event = super::BspEvent;
    type SceneData = BspScene;
    type FrameData = BspFrame;

    fn scenes() -> Vec<BuiltinScene> {
        super::scenes::scenes()
    }

    fn query_ops() -> Vec<(&'static str, QueryOp)> {
        super::query_ops::OPS.to_vec()
    }

    fn scene_file_extensions() -> &'static [&'static str] {
        &["map"]
    }

    fn load_scene_file(path: &Path) -> Result<Scene, SceneError> {
        super::scenes::from_map_file(path)
    }

    fn trace_nested_enums(
        tracer: &mut serde_reflection::Tracer,
    ) -> Result<(), serde_reflection::Error> {
        tracer.trace_simple_type::<super::event::NodeSide>()?;
        tracer.trace_simple_type::<super::event::ClipOutcome>()?;
        tracer.trace_simple_type::<super::clip::MissReason>()?;
        tracer.trace_simple_type::<super::event::SlideBranch>()?;
        tracer.trace_simple_type::<super::event::SlideEnd>()?;
        tracer.trace_simple_type::<super::Shape>()?;
        tracer.trace_simple_type::<super::level::BspSweepMode>()?;
        Ok(())
    }

    fn simulation(data: &BspScene, setup: &SimSetup<'_>) -> Result<Box<dyn FamilySim>, SceneError> {
        let sim = super::sim::walker(data).map_err(|cause| setup.refused(Self::NAME, cause))?;
        Ok(Box::new(sim))
    }
}

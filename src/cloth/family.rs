//! The cloth family: a sheet against the rigid bodies and itself, ray-traced (spec 002 §4).

use super::scene_data::{ClothFrame, ClothScene};
use crate::family::{BuiltinScene, EngineFamily, FamilySim, QueryOp, RecordingReport, SimSetup};
use crate::world::SceneError;

pub struct ClothFamily;

impl EngineFamily for ClothFamily {
    const NAME: &'static str = "cloth";
    const TITLE: &'static str = "Cloth and ray-traced collision";
    /// The first four are `StepOutcome::stage_s`; placing the obstacles and the trace are
    /// the rest.
    const STAGES: &'static [&'static str] =
        &["integrate", "springs", "ray casts", "response", "other"];
    type Event = super::event::ClothEvent;
    type SceneData = ClothScene;
    type FrameData = ClothFrame;

    fn scenes() -> Vec<BuiltinScene> {
        super::scenes::scenes()
    }

    fn query_ops() -> Vec<(&'static str, QueryOp)> {
        super::query_ops::OPS.to_vec()
    }

    /// Measured: a 600 × 600 sheet peaks at 582 MB (about 1,600 bytes a vertex: positions,
    /// springs, adjacency, the triangles' hierarchy and the step's buffers).
    fn estimated_bytes(data: &ClothScene) -> u64 {
        let grids: u64 = data
            .grid_specs()
            .iter()
            .map(|g| g.columns as u64 * g.rows as u64)
            .sum();
        // A mesh piece's vertices are its `v` lines (counted, not parsed: this runs before
        // anything is checked).
        let pieces: u64 = data
            .obj_pieces
            .iter()
            .map(|p| {
                p.text
                    .lines()
                    .filter(|l| l.trim_start().starts_with("v "))
                    .count() as u64
            })
            .sum();
        grids.saturating_add(pieces).saturating_mul(1_700)
    }

    fn read_files(data: &mut ClothScene, dir: &std::path::Path) -> Result<(), String> {
        data.read_files(dir)
    }

    fn trace_nested_enums(
        tracer: &mut serde_reflection::Tracer,
    ) -> Result<(), serde_reflection::Error> {
        tracer.trace_simple_type::<super::classify::RaySide>()?;
        tracer.trace_simple_type::<super::classify::Target>()?;
        tracer.trace_simple_type::<super::classify::RayKind>()?;
        tracer.trace_simple_type::<super::classify::RejectReason>()?;
        tracer.trace_simple_type::<crate::raycast::WalkStop>()?;
        Ok(())
    }

    fn recording_report() -> Option<Box<dyn RecordingReport>> {
        Some(Box::new(
            super::recording_report::ClothRecordingReport::default(),
        ))
    }

    fn simulation(
        data: &ClothScene,
        setup: &SimSetup<'_>,
    ) -> Result<Box<dyn FamilySim>, SceneError> {
        let sim = super::world_sim::build(data, setup.bodies)
            .map_err(|cause| setup.refused(Self::NAME, cause))?;
        Ok(Box::new(sim))
    }
}

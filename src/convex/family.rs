//! The convex family: pairs of convex bodies whose closest features are tracked frame by
//! frame with V-Clip, cross-checked by GJK.

use super::scene::{ConvexFrame, ConvexScene};
use crate::family::{BuiltinScene, EngineFamily, FamilySim, QueryOp, SimSetup};
use crate::world::SceneError;

pub struct ConvexFamily;

impl EngineFamily for ConvexFamily {
    const NAME: &'static str = "convex";
    const TITLE: &'static str = "Convex polyhedra: V-Clip and GJK";
    const STAGES: &'static [&'static str] = &["V-Clip walks", "GJK cross-check", "other"];
    type Event = super::ConvexEvent;
    type SceneData = ConvexScene;
    type FrameData = ConvexFrame;

    fn scenes() -> Vec<BuiltinScene> {
        super::scenes::scenes()
    }

    fn query_ops() -> Vec<(&'static str, QueryOp)> {
        super::query_ops::OPS.to_vec()
    }

    fn trace_nested_enums(
        tracer: &mut serde_reflection::Tracer,
    ) -> Result<(), serde_reflection::Error> {
        tracer.trace_simple_type::<super::Feature>()?;
        tracer.trace_simple_type::<super::Reason>()?;
        tracer.trace_simple_type::<super::Outcome>()?;
        tracer.trace_simple_type::<super::scene::Path>()?;
        tracer.trace_simple_type::<super::gjk::GjkStatus>()?;
        tracer.trace_simple_type::<super::gjk::GjkStep>()?;
        Ok(())
    }

    fn simulation(
        data: &ConvexScene,
        setup: &SimSetup<'_>,
    ) -> Result<Box<dyn FamilySim>, SceneError> {
        let sim = super::sim::simulation(data, setup.bodies)
            .map_err(|cause| setup.refused(Self::NAME, cause))?;
        Ok(Box::new(sim))
    }
}

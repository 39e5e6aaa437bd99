//! The NURBS family: bodies made of NURBS surfaces, queried pairwise every frame with the
//! thesis' OBB subdivision.

use super::scene_data::{NurbsFrame, NurbsScene};
use crate::family::{BuiltinScene, EngineFamily, FamilySim, QueryOp, SimSetup};
use crate::world::SceneError;

pub struct NurbsFamily;

impl EngineFamily for NurbsFamily {
    const NAME: &'static str = "nurbs";
    const TITLE: &'static str = "NURBS surfaces and their OBB trees";
    /// The response and the markers are what the step does besides these.
    const STAGES: &'static [&'static str] = &["integrate", "surface tests", "response"];
    type Event = super::NurbsEvent;
    type SceneData = NurbsScene;
    type FrameData = NurbsFrame;

    fn scenes() -> Vec<BuiltinScene> {
        super::scenes::scenes()
    }

    fn query_ops() -> Vec<(&'static str, QueryOp)> {
        super::query_ops::OPS.to_vec()
    }

    fn trace_nested_enums(
        tracer: &mut serde_reflection::Tracer,
    ) -> Result<(), serde_reflection::Error> {
        tracer.trace_simple_type::<super::scene_data::Motion>()?;
        tracer.trace_simple_type::<super::HitMode>()?;
        Ok(())
    }

    fn simulation(
        data: &NurbsScene,
        setup: &SimSetup<'_>,
    ) -> Result<Box<dyn FamilySim>, SceneError> {
        let sim =
            super::sim::NurbsSim::new(data).map_err(|cause| setup.refused(Self::NAME, cause))?;
        Ok(Box::new(sim))
    }
}

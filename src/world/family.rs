//! The rigid pipeline as a family: integration, shape tests, contacts, impulses. Its scenes
//! are the general demos; its query ops are the course's basic tests.

use crate::family::{BuiltinScene, EngineFamily, Nothing, QueryOp};

pub struct PipelineFamily;

impl EngineFamily for PipelineFamily {
    const NAME: &'static str = "pipeline";
    const TITLE: &'static str = "Rigid pipeline";
    type Event = super::PipelineEvent;
    type SceneData = Nothing;
    type FrameData = Nothing;

    fn scenes() -> Vec<BuiltinScene> {
        super::scenes::scenes()
    }

    fn query_ops() -> Vec<(&'static str, QueryOp)> {
        crate::query::basic_ops::OPS.to_vec()
    }

    fn trace_nested_enums(
        tracer: &mut serde_reflection::Tracer,
    ) -> Result<(), serde_reflection::Error> {
        tracer.trace_simple_type::<super::ContactPoint>()?;
        use crate::narrow::rays as r;
        tracer.trace_simple_type::<r::RigidRaySide>()?;
        tracer.trace_simple_type::<r::RigidRayClass>()?;
        tracer.trace_simple_type::<r::RigidRayReject>()?;
        tracer.trace_simple_type::<crate::raycast::WalkStop>()?;
        tracer.trace_simple_type::<r::RigidRayCaster>()?;
        Ok(())
    }
}

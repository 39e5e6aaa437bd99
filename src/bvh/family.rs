//! Bounding-volume hierarchies as a family: their events, scenes and query ops.

use crate::family::{BuiltinScene, EngineFamily, Nothing, QueryOp};

pub struct BvhFamily;

impl EngineFamily for BvhFamily {
    const NAME: &'static str = "hierarchy";
    const TITLE: &'static str = "Mesh hierarchies";
    type Event = super::BvhEvent;
    type SceneData = Nothing;
    type FrameData = Nothing;

    fn scenes() -> Vec<BuiltinScene> {
        super::scenes::scenes()
    }

    fn query_ops() -> Vec<(&'static str, QueryOp)> {
        super::query_ops::OPS.to_vec()
    }
}

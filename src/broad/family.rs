//! The broad phase as a family.

use crate::family::{BuiltinScene, EngineFamily, Nothing};

pub struct BroadFamily;

impl EngineFamily for BroadFamily {
    const NAME: &'static str = "broad phase";
    const TITLE: &'static str = "Broad phase";
    type Event = super::BroadEvent;
    type SceneData = Nothing;
    type FrameData = Nothing;

    fn scenes() -> Vec<BuiltinScene> {
        super::scenes::scenes()
    }
}

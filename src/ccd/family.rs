//! Continuous collision as a family: its events and its teaching scene. The modes themselves
//! are a scene setting (`Scene::ccd`) that the step pipeline reads.

use crate::family::{BuiltinScene, EngineFamily, Nothing};

pub struct CcdFamily;

impl EngineFamily for CcdFamily {
    const NAME: &'static str = "ccd";
    const TITLE: &'static str = "Continuous collision";
    type Event = super::CcdEvent;
    type SceneData = Nothing;
    type FrameData = Nothing;

    fn scenes() -> Vec<BuiltinScene> {
        super::scenes::scenes()
    }
}

//! The Arka3D family (spec 003 §2.16): balls bouncing in a board of up to 1,000 cubes.

use super::level::{ArkaFrame, ArkaScene};
use crate::family::{BuiltinScene, EngineFamily, FamilySim, RecordingReport, SimSetup};
use crate::world::SceneError;

pub struct ArkaFamily;

impl EngineFamily for ArkaFamily {
    const NAME: &'static str = "arka";
    const TITLE: &'static str = "Arka3D: balls in a board of cubes";
    /// The thesis splits ball–cube time exactly this way (§4.3); walls, ball pairs and the
    /// inside-cube check count to the bounce.
    const STAGES: &'static [&'static str] = &["preselection", "facet tests", "bounce"];
    type Event = super::ArkaEvent;
    type SceneData = ArkaScene;
    type FrameData = ArkaFrame;

    fn scenes() -> Vec<BuiltinScene> {
        super::scenes::scenes()
    }

    fn trace_nested_enums(
        tracer: &mut serde_reflection::Tracer,
    ) -> Result<(), serde_reflection::Error> {
        tracer.trace_simple_type::<super::Region>()?;
        tracer.trace_simple_type::<super::RecoveryKind>()?;
        Ok(())
    }

    fn recording_report() -> Option<Box<dyn RecordingReport>> {
        Some(Box::<super::report::ArkaReport>::default())
    }

    fn estimated_bytes(data: &ArkaScene) -> u64 {
        // The board, its facets (at most six per cube) and the balls.
        (data.board.len() * (1 + 6 * 4) + data.balls.len() * 64) as u64
    }

    fn simulation(
        data: &ArkaScene,
        setup: &SimSetup<'_>,
    ) -> Result<Box<dyn FamilySim>, SceneError> {
        let sim =
            super::sim::ArkaSim::new(data).map_err(|cause| setup.refused(Self::NAME, cause))?;
        Ok(Box::new(sim))
    }
}

//! A captured run as a family: another engine's bodies, pairs, contacts and events, replayed
//! and never re-simulated (Collidoscope does not know how the engine would step them).

use super::event::CaptureEvent;
use super::frame_data::CaptureFrame;
use super::scene_data::CaptureScene;
use crate::families::FamilyFrameData;
use crate::family::{DynProbe, EngineFamily, FamilySim, SimSetup, StepContext};
use crate::scene::SceneError;

pub struct CaptureFamily;

impl EngineFamily for CaptureFamily {
    const NAME: &'static str = "capture";
    const TITLE: &'static str = "Captured runs of other engines";
    /// A replayed step measures nothing of the engine that ran it.
    const STAGES: &'static [&'static str] = &[];
    const REPLAY_ONLY: bool = true;
    type Event = CaptureEvent;
    type SceneData = CaptureScene;
    type FrameData = CaptureFrame;

    fn trace_nested_enums(
        tracer: &mut serde_reflection::Tracer,
    ) -> Result<(), serde_reflection::Error> {
        tracer.trace_simple_type::<super::item::EventValue>()?;
        Ok(())
    }

    fn frame_parts(
        frame: &crate::frame::Frame,
        data: &CaptureFrame,
        out: &mut crate::trace::FrameParts,
    ) {
        out.pairs.extend(data.pairs.iter().map(|p| (p.a, p.b)));
        out.contact_ids = Some(
            data.contacts
                .iter()
                .map(|c| [c.manifold, c.point])
                .collect(),
        );
        for (contact, detail) in frame.contacts.iter().zip(&data.contacts) {
            if detail.normal_impulse.is_none() && detail.tangent_impulse.is_none() {
                continue;
            }
            let [t1, t2] = detail.tangent_impulse.unwrap_or([0.0; 2]);
            out.impulses.push((
                contact.a,
                contact.b,
                [detail.manifold, detail.point],
                vec![detail.normal_impulse.unwrap_or(0.0), t1, t2],
            ));
        }
    }

    fn recording_report() -> Option<Box<dyn crate::family::RecordingReport>> {
        Some(Box::new(super::report::CaptureReport::default()))
    }

    fn simulation(
        _data: &CaptureScene,
        _setup: &SimSetup<'_>,
    ) -> Result<Box<dyn FamilySim>, SceneError> {
        Ok(Box::new(Replayed::default()))
    }
}

/// The family's part of a world built from a captured scene: it holds the frame it was
/// put in and never steps.
#[derive(Clone, Default)]
struct Replayed {
    frame: CaptureFrame,
}

impl FamilySim for Replayed {
    fn step(&mut self, _ctx: &mut StepContext<'_>, _probe: &mut dyn DynProbe) {}

    fn frame_data(&self) -> FamilyFrameData {
        FamilyFrameData::Capture(self.frame.clone())
    }

    fn restore(&mut self, data: &FamilyFrameData) {
        if let FamilyFrameData::Capture(f) = data {
            self.frame = f.clone();
        }
    }

    fn clone_box(&self) -> Box<dyn FamilySim> {
        Box::new(self.clone())
    }
}

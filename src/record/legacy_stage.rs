//! The stages of formats v1 to v5, frozen: until v6 a stage also named the family of an
//! event (`Bvh`, `Convex`, `Bsp`, `Nurbs`, `Cloth`, `Raycast`). Since v6 an event's family is
//! its kind's and its stage says only where in the step it happened. Never edit these types:
//! they are the old encoding (the postcard index of a variant is its position here).

use crate::families::EventKind;
use crate::trace::{Stage, TraceEvent, Verdict};
use serde::Deserialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename = "Stage")]
pub(crate) enum LegacyStage {
    Integrate,
    BroadPhase,
    NarrowPhase,
    Response,
    Bvh,
    Convex,
    Bsp,
    Nurbs,
    Cloth,
    Raycast,
}

impl LegacyStage {
    /// In the order of the v4 and v5 columnar stage codes.
    pub(crate) const ALL: [LegacyStage; 10] = [
        LegacyStage::Integrate,
        LegacyStage::BroadPhase,
        LegacyStage::NarrowPhase,
        LegacyStage::Response,
        LegacyStage::Bvh,
        LegacyStage::Convex,
        LegacyStage::Bsp,
        LegacyStage::Nurbs,
        LegacyStage::Cloth,
        LegacyStage::Raycast,
    ];
}

/// Old files did not say in which pipeline stage a shared algorithm ran: their family
/// stages read as the family step.
impl From<LegacyStage> for Stage {
    fn from(s: LegacyStage) -> Self {
        match s {
            LegacyStage::Integrate => Stage::Integrate,
            LegacyStage::BroadPhase => Stage::BroadPhase,
            LegacyStage::NarrowPhase => Stage::NarrowPhase,
            LegacyStage::Response => Stage::Response,
            LegacyStage::Bvh
            | LegacyStage::Convex
            | LegacyStage::Bsp
            | LegacyStage::Nurbs
            | LegacyStage::Cloth
            | LegacyStage::Raycast => Stage::FamilyStep,
        }
    }
}

/// A trace event of formats v3 to v5, as postcard wrote it.
#[derive(Deserialize)]
#[serde(rename = "TraceEvent")]
pub(crate) struct LegacyTraceEvent {
    stage: LegacyStage,
    verdict: Verdict,
    kind: EventKind,
}

impl From<LegacyTraceEvent> for TraceEvent {
    fn from(e: LegacyTraceEvent) -> Self {
        TraceEvent::staged(e.stage.into(), e.verdict, e.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::PipelineEvent;

    /// The first four stages kept their index: a v5 event of a pipeline stage and a v6 one
    /// are the same bytes.
    #[test]
    fn pipeline_stages_keep_their_encoding() {
        for (old, new) in LegacyStage::ALL.iter().zip(Stage::ALL.iter()).take(4) {
            let kind: EventKind = PipelineEvent::Note {
                text: "n".into(),
                points: vec![],
            }
            .into();
            let bytes =
                postcard::to_allocvec(&TraceEvent::staged(*new, Verdict::Hit, kind.clone()))
                    .unwrap();
            let back: LegacyTraceEvent = postcard::from_bytes(&bytes).unwrap();
            assert_eq!(back.stage, *old);
            assert_eq!(
                TraceEvent::from(back),
                TraceEvent::staged(*new, Verdict::Hit, kind)
            );
        }
    }

    #[test]
    fn family_stages_read_as_the_family_step() {
        for old in &LegacyStage::ALL[4..] {
            assert_eq!(Stage::from(*old), Stage::FamilyStep);
        }
    }
}

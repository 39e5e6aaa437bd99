//! A free event of a captured step: any algorithm step the engine chose to send (a time of
//! impact, a solver iteration), shown in the step timeline.

use super::item::EventValue;
use crate::trace::{BodyId, FamilyEvent, Verdict};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaptureEvent {
    /// As the engine wrote it ("ccd", "solver", "my-stage").
    pub stage: String,
    pub label: String,
    /// The engine bodies it names (indices into the scene's captured bodies).
    pub bodies: Vec<u32>,
    /// Their colliders (scene body ids), for selection.
    pub colliders: Vec<BodyId>,
    pub values: Vec<(String, EventValue)>,
}

impl FamilyEvent for CaptureEvent {
    fn bodies(&self) -> Vec<BodyId> {
        self.colliders.clone()
    }

    fn summary(&self, _verdict: Verdict) -> String {
        let mut s = format!("{}: {}", self.stage, self.label);
        if !self.values.is_empty() {
            let values: Vec<String> = self
                .values
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect();
            s.push_str(&format!(" ({})", values.join(", ")));
        }
        s
    }

    fn heap_bytes(&self) -> usize {
        self.stage.len()
            + self.label.len()
            + self.bodies.len() * 4
            + self.colliders.len() * 4
            + self
                .values
                .iter()
                .map(|(k, v)| {
                    k.len()
                        + std::mem::size_of::<EventValue>()
                        + match v {
                            EventValue::Text(s) => s.len(),
                            EventValue::Vector(x) => x.len() * 8,
                            EventValue::Number(_) => 0,
                        }
                })
                .sum::<usize>()
    }
}

/// The step stage an engine's stage text falls under.
pub fn stage_of(text: &str) -> crate::trace::Stage {
    use crate::trace::Stage;
    match text {
        "integrate" | "integration" => Stage::Integrate,
        "broad" | "broad phase" | "broad_phase" => Stage::BroadPhase,
        "narrow" | "narrow phase" | "narrow_phase" | "ccd" => Stage::NarrowPhase,
        "solver" | "response" => Stage::Response,
        _ => Stage::FamilyStep,
    }
}

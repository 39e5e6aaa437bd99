//! What a captured step records beyond the bodies' poses and the contact points (which go
//! into the frame's own `bodies` and `contacts`): the broad phase's pairs, each contact's
//! manifold and impulses, the bodies' flags, the engine's frame number and state hash, and
//! which stages the engine has sent so far.

use super::item::Captured;
use crate::trace::BodyId;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CaptureFrame {
    /// The frame number the engine gave the step.
    pub engine_frame: u64,
    /// Stages the engine has sent in this run up to and including this step: a stage not
    /// among them is "not captured", which is not zero.
    pub captured: Captured,
    pub pairs: Vec<CapturedPair>,
    /// One per contact of the frame, in the same order.
    pub contacts: Vec<ContactDetail>,
    /// Flags of the engine bodies that have any (by index into the scene's bodies).
    pub flags: Vec<BodyFlags>,
    /// The engine's own hash of its state, as it sent it.
    pub state_hash: Option<String>,
}

/// A pair of colliders (scene body ids) from the broad phase.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapturedPair {
    pub a: BodyId,
    pub b: BodyId,
    pub touching: Option<bool>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ContactDetail {
    pub manifold: u32,
    pub point: u32,
    pub normal_impulse: Option<f64>,
    pub tangent_impulse: Option<[f64; 2]>,
    pub feature_a: Option<String>,
    pub feature_b: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BodyFlags {
    /// Index into the scene's captured bodies.
    pub body: u32,
    pub sleeping: Option<bool>,
    pub ccd: Option<bool>,
}

impl CaptureFrame {
    pub fn flags_of(&self, body: u32) -> Option<&BodyFlags> {
        self.flags.iter().find(|f| f.body == body)
    }
}

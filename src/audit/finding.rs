//! One disagreement between the engine under test and our algorithms.

use crate::geom::{Point3, Vec3};
use crate::trace::{BodyId, TraceEvent};
use serde::Serialize;

/// The checks of the audit, in the order a report lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// Two colliders overlap deeper than the tolerance and the engine reported no contact.
    MissedContact,
    /// A reported contact whose colliders are apart by more than the prediction distance.
    ApartContact,
    /// A reported depth that differs from ours.
    Depth,
    /// A reported normal that differs from ours.
    Normal,
    /// A body passed through another between two steps with no contact of the pair.
    Tunnelling,
    /// A NaN or infinite pose or velocity.
    NonFinite,
    /// A speed that grew by more than gravity and the tolerance allow in one step.
    Exploding,
    /// Two colliders whose bounding boxes overlap, not among the engine's pairs.
    BroadMiss,
    /// Two colliders overlap deeper than the run's penetration tolerance (the capture's
    /// `penetration_tolerance_m`), whatever the engine reported.
    DeepPenetration,
}

impl Check {
    pub const ALL: [Check; 9] = [
        Check::MissedContact,
        Check::ApartContact,
        Check::Depth,
        Check::Normal,
        Check::Tunnelling,
        Check::NonFinite,
        Check::Exploding,
        Check::BroadMiss,
        Check::DeepPenetration,
    ];

    /// The name reports and `--off` use.
    pub fn name(self) -> &'static str {
        match self {
            Check::MissedContact => "missed_contact",
            Check::ApartContact => "apart_contact",
            Check::Depth => "depth",
            Check::Normal => "normal",
            Check::Tunnelling => "tunnelling",
            Check::NonFinite => "non_finite",
            Check::Exploding => "exploding",
            Check::BroadMiss => "broad_miss",
            Check::DeepPenetration => "deep_penetration",
        }
    }

    pub fn from_name(name: &str) -> Option<Check> {
        Check::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The unit of the check's values.
    pub fn unit(self) -> &'static str {
        match self {
            Check::Normal => "deg",
            Check::Exploding => "m/s",
            Check::NonFinite => "",
            _ => "m",
        }
    }
}

/// A contact as one side sees it: where, which way and how deep (negative: apart).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ContactView {
    pub point: Point3,
    /// From the finding's first collider towards its second.
    pub normal: Vec3,
    pub depth: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub check: Check,
    /// The recording's frame index, and the engine's own step number.
    pub frame: u64,
    pub engine_frame: u64,
    /// The colliders (scene bodies) concerned: one for a state, two for a pair.
    pub bodies: Vec<BodyId>,
    /// The same, as the engine names them.
    pub engine_ids: Vec<String>,
    /// Our value and the engine's, in the check's unit (`None`: the engine had none).
    pub ours: Option<f64>,
    pub theirs: Option<f64>,
    pub tolerance: f64,
    /// The contact of each side, for drawing one beside the other.
    pub our_contact: Option<ContactView>,
    pub their_contact: Option<ContactView>,
    /// What the finding means, in a sentence.
    pub sentence: String,
    /// The events of our narrow phase on the pair at this step (the test that ran, each
    /// point), for the viewer's step timeline; empty for a body's state or a tunnelling.
    #[serde(skip)]
    pub our_trace: Vec<TraceEvent>,
}

impl Finding {
    /// The pair or body it is about, for counting per pair.
    pub fn subject(&self) -> String {
        self.engine_ids.join(" – ")
    }
}

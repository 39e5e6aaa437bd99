//! What `diff` makes of a recorded step: the kinds of things two runs are compared on, in
//! pipeline order, each matched by what it is (a pair of ids, a contact's manifold and point)
//! rather than by its place in a list. Families say which of their events and frame data are
//! pairs and impulses; every other event is compared as a whole.

use super::{BodyId, Verdict};

/// What an event is to `diff`.
#[derive(Clone, Debug, PartialEq)]
pub enum DiffRole {
    /// A pair the broad phase reported.
    Pair { a: BodyId, b: BodyId },
    /// The solver's impulse on a contact (`index` tells it from the pair's other contacts).
    Impulse {
        a: BodyId,
        b: BodyId,
        index: [u32; 2],
        values: Vec<f64>,
    },
    /// Any other algorithm step.
    Event,
}

impl DiffRole {
    /// The default of [`FamilyEvent::diff_role`](super::FamilyEvent::diff_role).
    pub fn event(_verdict: Verdict) -> Self {
        DiffRole::Event
    }
}

/// Pairs, contact ids and impulses a family's frame data holds (a captured run's).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameParts {
    pub pairs: Vec<(BodyId, BodyId)>,
    /// The id of each of the frame's contacts (a manifold and a point), in order, when the
    /// family knows them; contacts are otherwise told apart by their order within a pair.
    pub contact_ids: Option<Vec<[u32; 2]>>,
    /// `(a, b, id, values)`.
    pub impulses: Vec<(BodyId, BodyId, [u32; 2], Vec<f64>)>,
}

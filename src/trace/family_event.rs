//! What every family's events can say about themselves, whatever the family: the contract
//! that lets one trace hold the events of all of them.

use super::{BodyId, DebugShape, DiffRole, Verdict};
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;

/// The trace events of one family. Events carry ids and what cannot be derived from the
/// recording (fractions, distances, verdict reasons), not copies of geometry the recording
/// already holds.
pub trait FamilyEvent:
    Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The bodies this event concerns, for selection and filtering.
    fn bodies(&self) -> Vec<BodyId>;

    /// One line for the timeline and the event list; `verdict` is the event's own.
    fn summary(&self, verdict: Verdict) -> String;

    /// The geometry this event can draw from its own data. Families whose events carry ids
    /// only draw them in their viewer, which resolves ids against the recorded scene.
    fn shapes(&self, _out: &mut Vec<DebugShape>) {}

    /// Bytes the event holds on the heap (strings, vectors), for the history's memory budget.
    fn heap_bytes(&self) -> usize {
        0
    }

    /// When the event is a contact between two bodies, the two bodies and whether the shapes
    /// touch (rather than a speculative contact ahead of time): what a screenshot or a search
    /// for "the first contact" looks for, whatever the family.
    fn contact(&self) -> Option<([BodyId; 2], bool)> {
        None
    }

    /// What `diff` compares the event as: a broad-phase pair, a contact's impulse, or (by
    /// default) an algorithm step compared as a whole.
    fn diff_role(&self, verdict: Verdict) -> DiffRole {
        DiffRole::event(verdict)
    }
}

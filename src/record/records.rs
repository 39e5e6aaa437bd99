//! The frame records as the schema manifest describes them (the postcard records of format
//! v3, whose parts every later format still decodes into), and what a decoder hands back.

use crate::families::FamilyFrameData;
use crate::frame::{BodyState, Contact, Counters, Frame, Marker, StageTimings};
use crate::trace::TraceEvent;
use serde::{Deserialize, Serialize};

/// The part of a frame that is never delta-encoded (format v3 and older: as is). `E` is the
/// trace event as the file's format wrote it (`legacy_stage.rs` before v6).
#[derive(Serialize, Deserialize)]
pub(crate) struct FrameTail<E = TraceEvent> {
    pub contacts: Vec<Contact>,
    pub timings: StageTimings,
    pub counters: Counters,
    pub trace: Vec<E>,
    pub markers: Vec<Marker>,
    pub families: Vec<FamilyFrameData>,
}

/// One body state in a delta: `slot` is its position in `Frame::bodies`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ChangedBody {
    pub slot: u32,
    pub state: BodyState,
}

/// Payload of a `KEYF` chunk.
#[derive(Serialize, Deserialize)]
pub(crate) struct KeyframeRecord<E = TraceEvent> {
    pub index: u64,
    pub time_s: f64,
    pub bodies: Vec<BodyState>,
    pub tail: FrameTail<E>,
}

/// Payload of a `DELT` chunk.
#[derive(Serialize, Deserialize)]
pub(crate) struct DeltaRecord<E = TraceEvent> {
    pub index: u64,
    pub time_s: f64,
    /// `bodies.len()` of this frame: the previous frame's list is cut or extended to it.
    pub body_count: u32,
    pub changed: Vec<ChangedBody>,
    pub tail: FrameTail<E>,
}

impl<E: Into<TraceEvent>> FrameTail<E> {
    /// The tail with its events converted from an older format's.
    pub fn into_current(self) -> FrameTail {
        FrameTail {
            contacts: self.contacts,
            timings: self.timings,
            counters: self.counters,
            trace: self.trace.into_iter().map(Into::into).collect(),
            markers: self.markers,
            families: self.families,
        }
    }
}

/// A decoded frame record: either the whole frame or only its bodies.
pub(crate) struct Decoded {
    pub index: u64,
    pub time_s: f64,
    pub bodies: Vec<BodyState>,
    pub tail: Option<FrameTail>,
}

impl Decoded {
    pub fn into_frame(self) -> Option<Frame> {
        let tail = self.tail?;
        Some(Frame {
            index: self.index,
            time_s: self.time_s,
            bodies: self.bodies,
            contacts: tail.contacts,
            timings: tail.timings,
            counters: tail.counters,
            trace: tail.trace,
            markers: tail.markers,
            families: tail.families,
        })
    }
}

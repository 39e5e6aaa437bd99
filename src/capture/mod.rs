//! Another engine's run, captured: the capture stream (`docs/capture-stream.md`, one JSON
//! object per line), the Rust API that writes it ([`Capture`]), `ingest` that turns it into
//! a recording, and the family that replays it.
//!
//! The stream's items ([`Item`]) are read one line at a time ([`parse_line`]), put together
//! into frames by the [`Assembler`], and written into a recording by the
//! [`CaptureRecorder`]. A captured run's scene has one rigid body per collider, drawn as its
//! shape; the engine's ids, bodies and flags travel in the family's scene and frame data.

mod api;
mod assemble;
mod event;
mod family;
mod fields;
mod frame_data;
mod id;
mod ingest;
mod item;
mod lines;
mod live;
mod numbers;
mod parse;
#[cfg(feature = "rapier")]
pub mod rapier;
mod recording;
mod report;
mod scene_data;
mod shape;
mod write;

pub use api::{Capture, CaptureError};
pub use assemble::{Assembler, DEFAULT_TOLERANCE_M};
pub use event::{CaptureEvent, stage_of};
pub use family::CaptureFamily;
pub use fields::FieldError;
pub use frame_data::{BodyFlags, CaptureFrame, CapturedPair, ContactDetail};
pub use id::EngineId;
pub use ingest::{
    IngestError, IngestReport, LineError, LineFeeder, StreamReport, ingest, ingest_file,
};
pub use item::*;
pub use lines::{LineRead, MAX_LINE_BYTES, read_line};
pub use live::{LiveEvent, LiveListener, LiveOptions, LiveSink, listen_address};
pub use numbers::{number_json, number_text};
pub use parse::{Parsed, parse_line};
pub use recording::{CaptureRecorder, CaptureSummary, PushError};
pub use scene_data::{CaptureScene, CapturedBody, CapturedCollider, CapturedShapeInfo, body_label};
pub use shape::map_shape;
pub use write::write_item;

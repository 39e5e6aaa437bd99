//! What a run leaves behind: frames ([`Frame`]), the in-memory history ([`History`], with a
//! memory budget and spilling to disk) and the `.cdrec` recording format ([`RecordingWriter`],
//! [`RecordingReader`], recovery of damaged files).
//!
//! # The `.cdrec` format
//!
//! The specification is `docs/recording-format.md` (one copy, so it cannot drift from a second
//! one here). In short: a preamble (magic, format version 6), then checksummed chunks — HEAD
//! (header and schema manifest), one KEYF or DELT per frame (keyframes plus body deltas, each
//! record zstd-compressed on its own behind its index and time), INDX and FOOT — so a cut file
//! is recovered by a scan and any frame is found through the index. Frames of version 4 and 5
//! are read by the current codec (`codec.rs`, `columnar/`; version 4 with the predictions it
//! made), older ones by the legacy readers above it (`legacy.rs`: version 3 through the
//! postcard records of `records.rs`, versions 1 and 2 through frozen types in `legacy_v1.rs`
//! and `legacy_v2.rs`); `decode.rs` picks one by the file's version.
//!

mod background;
mod body_delta;
mod cache;
mod chunk;
mod codec;
mod columnar;
mod compress;
mod decode;
mod error;
mod event_sizes;
mod header;
mod history;
mod index;
mod info;
mod legacy;
mod legacy_stage;
mod legacy_v1;
mod legacy_v2;
mod payload;
mod predict;
mod reader;
mod records;
mod recovery;
mod schema;
mod seek;
mod sizes;
mod streams;
mod writer;

pub use crate::frame::{BodyState, Contact, Counters, Frame, Marker, MarkerKind, StageTimings};
pub use background::{BackgroundWriter, DEFAULT_QUEUE_FRAMES};
pub use chunk::CHUNK_HEADER_LEN;
pub use error::{RecordError, RecordErrorCause};
pub use event_sizes::{EventSizes, PartBytes};
pub use header::{
    FORMAT_VERSION, MAGIC, PREAMBLE_LEN, RecordingHeader, RecordingMeta, is_recording,
};
pub use history::History;
pub use index::FrameEntry;
pub use info::RecordingInfo;
pub use reader::RecordingReader;
pub use recovery::{LossCause, Recovery, RecoveryIssue};
pub use schema::{
    check_compatible as check_schema_compatible, current_manifest as schema_manifest,
};
pub use sizes::FrameBytes;
pub use writer::{RecordingSummary, RecordingWriter, WriterOptions};

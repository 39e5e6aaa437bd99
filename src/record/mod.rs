//! What a run leaves behind: frames ([`Frame`]), the in-memory history ([`History`], with a
//! memory budget and spilling to disk) and the `.cdrec` recording format ([`RecordingWriter`],
//! [`RecordingReader`], recovery of damaged files).
//!
//! # The `.cdrec` format, version 1
//!
//! This section is the specification of the file format (also in `docs/recording-format.md`).
//!
//! A recording is a preamble followed by a sequence of chunks. All fixed-size integers are
//! little-endian. Offsets are in bytes from the start of the file.
//!
//! ```text
//! offset      size  content
//! 0           8     magic: 89 43 44 52 45 43 0D 0A   ("\x89CDREC\r\n")
//! 8           4     format version, u32 (= 1)
//! 12          ...   HEAD chunk: the header
//! ...         ...   one KEYF or DELT chunk per frame, in frame order
//! ...         ...   INDX chunk: the index            (written by finish / checkpoint)
//! len - 28    28    FOOT chunk: points at the index  (always the last 28 bytes)
//! ```
//!
//! # Chunks
//!
//! ```text
//! +0    4     kind: four ASCII bytes (HEAD, KEYF, DELT, INDX, FOOT)
//! +4    4     payload length n, u32
//! +8    4     CRC-32 of (kind ‖ length ‖ payload): the IEEE / zlib / PNG CRC
//!             (reflected polynomial 0xEDB88320, initial value and final xor 0xFFFFFFFF)
//! +12   n     payload
//! ```
//!
//! A reader never trusts a length before checking it against the bytes left in the file, so a
//! corrupt length cannot cause a large allocation. Chunks of an unknown kind with a valid
//! checksum are skipped: a later version may add kinds without breaking older readers.
//!
//! # Payloads
//!
//! Payloads except FOOT are encoded with postcard 1: unsigned integers as LEB128 varints, signed
//! integers zigzag-encoded then varint, `f64` as 8 bytes little-endian (bit for bit: NaN payloads
//! and -0.0 survive), `bool` as one byte, strings and sequences prefixed by their varint length,
//! `Option` as a 0/1 byte then the value, enum variants as the varint of their index, struct
//! fields in declaration order, fixed arrays and tuples as their elements. A point or vector is
//! 3 `f64` (x, y, z); a rotation is a unit quaternion as 4 `f64` (i, j, k, w); a 3×3 matrix is
//! 9 `f64` in column-major order.
//!
//! - **HEAD** `RecordingHeader { app_version: String, created_unix_ms: u64, keyframe_interval:
//!   u32, dt_s: f64, body_names: Vec<String>, scene_ron: String, schema: String }`.
//!   `app_version` is the `CARGO_PKG_VERSION` of the writer; `created_unix_ms` is milliseconds
//!   since the Unix epoch (UTC); `body_names[id]` names body `id`; `scene_ron` is the scene as RON
//!   text (opaque to the recorder); `schema` is the **schema manifest** (below).
//! - **KEYF** (keyframe) `KeyframeRecord { index: u64, time_s: f64, bodies: Vec<BodyState>,
//!   tail: FrameTail }`.
//! - **DELT** (delta) `DeltaRecord { index: u64, time_s: f64, body_count: u32, changed:
//!   Vec<ChangedBody { slot: u32, state: BodyState }>, tail: FrameTail }`. The frame's bodies
//!   are the previous frame's bodies, cut or extended to `body_count`, with `state` put at each
//!   `slot`; every slot past the previous frame's body count must be among the changes. A body
//!   is listed when its state differs bit for bit from the previous frame's.
//! - `FrameTail { contacts: Vec<Contact>, timings: StageTimings, counters: Counters, trace:
//!   Vec<TraceEvent>, markers: Vec<Marker> }`: stored in full in every frame.
//! - **INDX** `IndexRecord { frames: Vec<FrameEntry { offset: u64, len: u32, keyframe: bool,
//!   index: u64, time_s: f64 }>, chunk_count: u64 }`: the offset and payload length of every
//!   frame chunk, whether it is a keyframe, and the frame's index and time (so a timeline needs
//!   no decoding); `chunk_count` counts the chunks before the index, HEAD included.
//! - **FOOT** 16 bytes, not postcard: `index_offset: u64` (offset of the INDX chunk) then
//!   `frame_count: u64`.
//!
//! Frame number `i` of the file (0-based, in file order) is a keyframe when `i %
//! keyframe_interval == 0` (default interval 64). To read frame `i`, decode the last keyframe at
//! or before it and apply the deltas that follow, up to `i`.
//!
//! # The schema manifest
//!
//! A JSON document describing every record type down to fields and enum variants, generated from
//! the code (serde-reflection), so it cannot drift:
//!
//! ```json
//! { "format": "cdrec", "version": 1, "encoding": "postcard 1: ...",
//!   "chunks": { "HEAD": "RecordingHeader", "KEYF": "KeyframeRecord", ... },
//!   "types": { "BodyState": { "STRUCT": [ { "id": "U32" }, ... ] },
//!              "EventKind": { "ENUM": { "0": { "Integrated": { "STRUCT": [...] } }, ... } }, ... } }
//! ```
//!
//! A reader compares the file's manifest with its own. Either side may have enum variants the
//! other lacks at the end: old data still decodes in a newer build, and a newer file opens in an
//! older build, where only the frames that use an unknown variant fail to decode (with a clear
//! error). Any other difference (a renamed, removed, reordered or retyped field or variant) would
//! make the bytes mean something else, so the file is refused with an error that names the type. With the manifest, a tool that has never seen this code can still
//! decode a file.
//!
//! # Writing, crashes and recovery
//!
//! The writer sends each chunk to the OS with one `write` as soon as it is complete (no
//! user-space buffer), so a process killed at any moment (even with SIGKILL) leaves every
//! completed chunk in the file. `finish` (and `checkpoint`) append INDX and FOOT; appending more
//! frames after a checkpoint removes them first, so a file ends with either a complete index and
//! footer or with the last frame (or a partial chunk after a crash). `sync` asks the OS to reach
//! the disk itself (power loss).
//!
//! A reader validates the preamble (wrong magic: "not a Collidoscope recording"; version 0 or
//! newer than it knows: "unsupported version"), the HEAD chunk and the manifest, then reads the
//! footer and the index. When the footer is missing (the writer did not finish) or the footer or
//! index is unusable, the reader rebuilds the index by scanning the chunks after HEAD and reports
//! a `Recovery`: frames recovered, frames and bytes lost, and each problem with its offset:
//!
//! - a file cut inside a chunk or chunk header: the complete chunks before it are kept, the
//!   partial one is lost;
//! - a chunk with a bad checksum: the scan resynchronises at the offset its length points to if
//!   a valid chunk starts there, else at the first later offset where a known kind tag begins a
//!   chunk whose length fits and whose CRC-32 matches (a false match needs a tag and a 32-bit
//!   checksum to agree by chance);
//! - deltas whose base frame was lost are dropped up to the next keyframe (at most
//!   `keyframe_interval - 1` frames);
//! - a second HEAD chunk (another recording glued on) ends the scan: the rest is reported lost.
//!
//! Recovered frames are numbered consecutively; `Frame::index` keeps their original numbers, so
//! a gap shows. With an intact index, damage inside a frame chunk is found when that frame (or
//! one of its keyframe interval) is read, or by `verify`, which reads everything.
//!
//! # Compatibility rules
//!
//! - Readers of version N read every version from 1 to N. `tests/fixtures/v1_small.cdrec` is a
//!   committed version-1 file that every later build must load.
//! - Appending enum variants (new trace event kinds, marker kinds) and adding chunk kinds need
//!   no version change.
//! - Any other change to a record bumps the format version, and the reader keeps a decoder for
//!   each older version.
//!

mod cache;
mod chunk;
mod codec;
mod compress;
mod error;
mod frame;
mod header;
mod history;
mod index;
mod info;
mod legacy_v1;
mod reader;
mod recovery;
mod schema;
mod seek;
mod writer;

pub use chunk::CHUNK_HEADER_LEN;
pub use error::{RecordError, RecordErrorCause};
pub use frame::{BodyState, Contact, Counters, Frame, Marker, MarkerKind, StageTimings};
pub use header::{FORMAT_VERSION, MAGIC, PREAMBLE_LEN, RecordingHeader, RecordingMeta};
pub use history::History;
pub use index::FrameEntry;
pub use info::RecordingInfo;
pub use reader::RecordingReader;
pub use recovery::{LossCause, Recovery, RecoveryIssue};
pub use schema::{
    check_compatible as check_schema_compatible, current_manifest as schema_manifest,
};
pub use writer::{RecordingSummary, RecordingWriter, WriterOptions};

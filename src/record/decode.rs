//! Decoding a frame chunk of any format version: the current codec from v4 on, the legacy
//! readers before.

use super::chunk::Kind;
use super::error::RecordErrorCause;
use super::records::Decoded;
use super::{codec, legacy};
use crate::frame::BodyState;

/// The first format version whose frames are columnar records (`codec.rs`).
const FIRST_COLUMNAR: u32 = 4;

/// Decodes a frame chunk's payload. `previous` is needed for a delta (the bodies of the frame
/// before); `with_tail` false decodes only the bodies, which is all a seek needs on its way.
/// `version` is the file's format version.
pub(crate) fn decode_frame(
    version: u32,
    kind: Kind,
    payload: &[u8],
    previous: Option<&[BodyState]>,
    with_tail: bool,
) -> Result<Decoded, RecordErrorCause> {
    if version >= FIRST_COLUMNAR {
        codec::decode_frame(version, kind, payload, previous, with_tail)
    } else {
        legacy::decode_frame(version, kind, payload, previous, with_tail)
    }
}

/// Decodes a frame chunk whose bodies are already known (decoded before): only its own data
/// is read, so no previous frame is needed.
pub(crate) fn decode_keeping_bodies(
    version: u32,
    kind: Kind,
    payload: &[u8],
    bodies: Vec<BodyState>,
) -> Result<Decoded, RecordErrorCause> {
    if version >= FIRST_COLUMNAR {
        codec::decode_keeping_bodies(version, kind, payload, bodies)
    } else {
        legacy::decode_keeping_bodies(version, kind, payload, bodies)
    }
}

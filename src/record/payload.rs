//! A frame chunk's payload, in every format version: from v2 on, the frame's index and time
//! then the packed record (v1: the record alone). What any frame decoder needs before it
//! reads its own record.

use super::chunk::{self, Kind};
use super::compress;
use super::error::{RecordErrorCause, kind_name};
use serde::Deserialize;

/// The postcard record inside a frame payload of format `version`: v1 payloads are the record
/// itself; v2 payloads put the index and time first and pack the record.
pub(crate) fn record_bytes<'a>(
    version: u32,
    payload: &'a [u8],
    scratch: &'a mut Vec<u8>,
) -> Result<&'a [u8], RecordErrorCause> {
    if version == 1 {
        return Ok(payload);
    }
    let (_, packed) = postcard::take_from_bytes::<(u64, f64)>(payload).map_err(decode_err)?;
    compress::unpack(packed, scratch)
}

pub(crate) fn decode_err(e: impl ToString) -> RecordErrorCause {
    RecordErrorCause::Decode {
        what: "a frame record",
        detail: e.to_string(),
    }
}

pub(crate) fn take_all<'a, T: Deserialize<'a>>(payload: &'a [u8]) -> Result<T, RecordErrorCause> {
    let (value, rest) = postcard::take_from_bytes::<T>(payload).map_err(decode_err)?;
    if !rest.is_empty() {
        return Err(decode_err(format!(
            "{} bytes left over after the record",
            rest.len()
        )));
    }
    Ok(value)
}

/// An error unless `kind` is a frame chunk's.
pub(crate) fn check_frame_kind(kind: Kind) -> Result<(), RecordErrorCause> {
    match kind {
        chunk::KEYFRAME | chunk::DELTA => Ok(()),
        other => Err(decode_err(format!(
            "chunk {} is not a frame",
            kind_name(other)
        ))),
    }
}

/// The frame index and time at the start of a frame chunk's payload, read without decoding
/// the rest: what a scan needs to rebuild the index.
pub(crate) fn peek_index_and_time(payload_start: &[u8]) -> Result<(u64, f64), RecordErrorCause> {
    #[derive(Deserialize)]
    struct Prefix {
        index: u64,
        time_s: f64,
    }
    let (p, _) = postcard::take_from_bytes::<Prefix>(payload_start).map_err(decode_err)?;
    Ok((p.index, p.time_s))
}

/// Enough bytes for `peek_index_and_time`: a 10-byte varint and an 8-byte float.
pub(crate) const PREFIX_MAX_LEN: usize = 18;

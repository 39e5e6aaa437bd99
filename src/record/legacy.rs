//! Frame chunks of formats v1 to v3: postcard records, whole (v3 writes the types of
//! `records.rs`), v1 and v2 through their frozen types (`legacy_v1.rs`, `legacy_v2.rs`).

use super::body_delta::apply_delta;
use super::chunk::{self, Kind};
use super::error::{RecordErrorCause, kind_name};
use super::legacy_stage::LegacyTraceEvent;
use super::payload::{decode_err, record_bytes, take_all};
use super::records::{ChangedBody, Decoded, DeltaRecord, KeyframeRecord};
use super::{legacy_v1, legacy_v2};
use crate::frame::BodyState;
use serde::Deserialize;

/// The leading fields of either frame record: decoding only these skips the trace, which is
/// what walking from a keyframe to the wanted frame needs.
#[derive(Deserialize)]
struct KeyframeHead {
    index: u64,
    time_s: f64,
    bodies: Vec<BodyState>,
}

#[derive(Deserialize)]
struct DeltaHead {
    index: u64,
    time_s: f64,
    body_count: u32,
    changed: Vec<ChangedBody>,
}

/// A whole keyframe record of a file of format `version` (v1 and v2 through their frozen
/// types).
fn take_keyframe(version: u32, payload: &[u8]) -> Result<KeyframeRecord, RecordErrorCause> {
    let mut scratch = Vec::new();
    let payload = record_bytes(version, payload, &mut scratch)?;
    match version {
        1 => {
            let r: legacy_v1::KeyframeRecordV1 = take_all(payload)?;
            Ok(KeyframeRecord {
                index: r.index,
                time_s: r.time_s,
                bodies: r.bodies,
                tail: r.tail.into(),
            })
        }
        2 => {
            let r: legacy_v2::KeyframeRecordV2 = take_all(payload)?;
            Ok(KeyframeRecord {
                index: r.index,
                time_s: r.time_s,
                bodies: r.bodies,
                tail: r.tail.into(),
            })
        }
        _ => {
            let r: KeyframeRecord<LegacyTraceEvent> = take_all(payload)?;
            Ok(KeyframeRecord {
                index: r.index,
                time_s: r.time_s,
                bodies: r.bodies,
                tail: r.tail.into_current(),
            })
        }
    }
}

/// A whole delta record of a file of format `version`.
fn take_delta(version: u32, payload: &[u8]) -> Result<DeltaRecord, RecordErrorCause> {
    let mut scratch = Vec::new();
    let payload = record_bytes(version, payload, &mut scratch)?;
    match version {
        1 => {
            let r: legacy_v1::DeltaRecordV1 = take_all(payload)?;
            Ok(DeltaRecord {
                index: r.index,
                time_s: r.time_s,
                body_count: r.body_count,
                changed: r.changed,
                tail: r.tail.into(),
            })
        }
        2 => {
            let r: legacy_v2::DeltaRecordV2 = take_all(payload)?;
            Ok(DeltaRecord {
                index: r.index,
                time_s: r.time_s,
                body_count: r.body_count,
                changed: r.changed,
                tail: r.tail.into(),
            })
        }
        _ => {
            let r: DeltaRecord<LegacyTraceEvent> = take_all(payload)?;
            Ok(DeltaRecord {
                index: r.index,
                time_s: r.time_s,
                body_count: r.body_count,
                changed: r.changed,
                tail: r.tail.into_current(),
            })
        }
    }
}

/// Decodes a frame chunk's payload of format `version` (1 to 3), as
/// `codec.rs` decodes the current format's.
pub(crate) fn decode_frame(
    version: u32,
    kind: Kind,
    payload: &[u8],
    previous: Option<&[BodyState]>,
    with_tail: bool,
) -> Result<Decoded, RecordErrorCause> {
    match kind {
        chunk::KEYFRAME if with_tail => {
            let r = take_keyframe(version, payload)?;
            Ok(Decoded {
                index: r.index,
                time_s: r.time_s,
                bodies: r.bodies,
                tail: Some(r.tail),
            })
        }
        chunk::KEYFRAME => {
            let mut scratch = Vec::new();
            let record = record_bytes(version, payload, &mut scratch)?;
            let (r, _) = postcard::take_from_bytes::<KeyframeHead>(record).map_err(decode_err)?;
            Ok(Decoded {
                index: r.index,
                time_s: r.time_s,
                bodies: r.bodies,
                tail: None,
            })
        }
        chunk::DELTA => {
            let previous =
                previous.ok_or_else(|| decode_err("a delta frame has no frame before it"))?;
            let (index, time_s, body_count, changed, tail) = if with_tail {
                let r = take_delta(version, payload)?;
                (r.index, r.time_s, r.body_count, r.changed, Some(r.tail))
            } else {
                let mut scratch = Vec::new();
                let record = record_bytes(version, payload, &mut scratch)?;
                let (r, _) = postcard::take_from_bytes::<DeltaHead>(record).map_err(decode_err)?;
                (r.index, r.time_s, r.body_count, r.changed, None)
            };
            Ok(Decoded {
                index,
                time_s,
                bodies: apply_delta(previous, body_count, changed)?,
                tail,
            })
        }
        other => Err(decode_err(format!(
            "chunk {} is not a frame",
            kind_name(other)
        ))),
    }
}

/// Decodes a frame chunk of format `version` (1 to 3) whose bodies are already known (decoded
/// before): only its own data is read, so no previous frame is needed.
pub(crate) fn decode_keeping_bodies(
    version: u32,
    kind: Kind,
    payload: &[u8],
    bodies: Vec<BodyState>,
) -> Result<Decoded, RecordErrorCause> {
    let (index, time_s, tail) = match kind {
        chunk::KEYFRAME => {
            let r = take_keyframe(version, payload)?;
            (r.index, r.time_s, r.tail)
        }
        chunk::DELTA => {
            let r = take_delta(version, payload)?;
            (r.index, r.time_s, r.tail)
        }
        other => {
            return Err(decode_err(format!(
                "chunk {} is not a frame",
                kind_name(other)
            )));
        }
    };
    Ok(Decoded {
        index,
        time_s,
        bodies,
        tail: Some(tail),
    })
}

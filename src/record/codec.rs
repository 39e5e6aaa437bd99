//! The payloads of frame chunks: a keyframe holds every body state, a delta only the states
//! that changed since the previous frame. Both carry the frame's own data (contacts, timings,
//! counters, trace, markers) in full.
//!
//! Encoding is postcard 1 (varint integers, little-endian IEEE floats, length-prefixed
//! sequences, enum variants by index); the schema manifest in the header describes every type.

use super::chunk::{self, Kind};
use super::compress::{self, Packer};
use super::error::RecordErrorCause;
use crate::frame::{BodyState, Contact, Counters, Frame, Marker, StageTimings};
use crate::families::FamilyFrameData;
use crate::trace::TraceEvent;
use serde::{Deserialize, Serialize};

/// The part of a frame that is never delta-encoded (format v3 and older: as is).
#[derive(Serialize, Deserialize)]
pub(crate) struct FrameTail {
    pub contacts: Vec<Contact>,
    pub timings: StageTimings,
    pub counters: Counters,
    pub trace: Vec<TraceEvent>,
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
pub(crate) struct KeyframeRecord {
    pub index: u64,
    pub time_s: f64,
    pub bodies: Vec<BodyState>,
    pub tail: FrameTail,
}

/// Payload of a `DELT` chunk.
#[derive(Serialize, Deserialize)]
pub(crate) struct DeltaRecord {
    pub index: u64,
    pub time_s: f64,
    /// `bodies.len()` of this frame: the previous frame's list is cut or extended to it.
    pub body_count: u32,
    pub changed: Vec<ChangedBody>,
    pub tail: FrameTail,
}

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

/// Bit-for-bit equality: a NaN that stays NaN is unchanged, and -0.0 is not 0.0.
pub(crate) fn same_state(a: &BodyState, b: &BodyState) -> bool {
    a.id == b.id
        && a.position
            .iter()
            .map(|v| v.to_bits())
            .eq(b.position.iter().map(|v| v.to_bits()))
        && a.rotation.coords.iter().map(|v| v.to_bits()).eq(b
            .rotation
            .coords
            .iter()
            .map(|v| v.to_bits()))
        && a.linear_velocity
            .iter()
            .map(|v| v.to_bits())
            .eq(b.linear_velocity.iter().map(|v| v.to_bits()))
        && a.angular_velocity
            .iter()
            .map(|v| v.to_bits())
            .eq(b.angular_velocity.iter().map(|v| v.to_bits()))
}

fn encode_err(e: postcard::Error) -> RecordErrorCause {
    RecordErrorCause::Encode {
        what: "a frame",
        detail: e.to_string(),
    }
}

/// Writes the whole chunk for `frame` into `buf`: a keyframe when `previous` is `None`, else a
/// delta against `previous` (the bodies of the frame just before). Returns the chunk kind.
/// The payload is the frame's index and time, then the record (format v4, `columnar.rs`;
/// `dt` is the recording's time step, which its predictions use) packed by `packer` (see
/// `compress.rs`).
pub(crate) fn encode_frame_chunk(
    frame: &Frame,
    previous: Option<&[BodyState]>,
    dt: f64,
    packer: &mut Packer,
    buf: &mut Vec<u8>,
) -> Result<Kind, RecordErrorCause> {
    u32::try_from(frame.bodies.len()).map_err(|_| RecordErrorCause::Encode {
        what: "a frame",
        detail: "more than 2^32 bodies".into(),
    })?;
    let mut raw = std::mem::take(&mut packer.raw);
    raw.clear();
    let encoded = super::columnar::encode(frame, previous, dt, &mut raw);
    let kind = if previous.is_some() {
        chunk::DELTA
    } else {
        chunk::KEYFRAME
    };
    chunk::begin(buf, kind);
    let taken = std::mem::take(buf);
    let prefixed = postcard::to_extend(&(frame.index, frame.time_s), taken).map_err(encode_err);
    let result = encoded.and(prefixed).map(|b| {
        *buf = b;
        packer.pack(&raw, buf);
    });
    packer.raw = raw;
    result?;
    chunk::seal(buf, "a frame")?;
    Ok(kind)
}

/// The postcard record inside a frame payload of format `version`: v1 payloads are the record
/// itself; v2 payloads put the index and time first and pack the record.
fn record_bytes<'a>(
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

fn decode_err(e: impl ToString) -> RecordErrorCause {
    RecordErrorCause::Decode {
        what: "a frame record",
        detail: e.to_string(),
    }
}

fn take_all<'a, T: Deserialize<'a>>(payload: &'a [u8]) -> Result<T, RecordErrorCause> {
    let (value, rest) = postcard::take_from_bytes::<T>(payload).map_err(decode_err)?;
    if !rest.is_empty() {
        return Err(decode_err(format!(
            "{} bytes left over after the record",
            rest.len()
        )));
    }
    Ok(value)
}

/// Builds this frame's body list from the previous one and a delta's changes.
pub(crate) fn apply_delta(
    previous: &[BodyState],
    body_count: u32,
    changed: Vec<ChangedBody>,
) -> Result<Vec<BodyState>, RecordErrorCause> {
    let count = body_count as usize;
    // Every slot past the previous list must be given by the delta, so a count larger than
    // the changes plus the previous list is corrupt: checking first bounds the allocation.
    if count > previous.len() + changed.len() {
        return Err(decode_err(format!(
            "delta claims {count} bodies but the previous frame has {} and only {} changed",
            previous.len(),
            changed.len()
        )));
    }
    let mut bodies: Vec<Option<BodyState>> =
        previous.iter().take(count).cloned().map(Some).collect();
    bodies.resize(count, None);
    for c in changed {
        let slot = c.slot as usize;
        match bodies.get_mut(slot) {
            Some(b) => *b = Some(c.state),
            None => {
                return Err(decode_err(format!(
                    "delta slot {slot} is past its {count} bodies"
                )));
            }
        }
    }
    bodies
        .into_iter()
        .enumerate()
        .map(|(slot, b)| {
            b.ok_or_else(|| decode_err(format!("delta leaves body slot {slot} unset")))
        })
        .collect()
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

/// A whole keyframe record of a file of format `version` (v1 and v2 through their frozen
/// types).
fn take_keyframe(version: u32, payload: &[u8]) -> Result<KeyframeRecord, RecordErrorCause> {
    let mut scratch = Vec::new();
    let payload = record_bytes(version, payload, &mut scratch)?;
    match version {
        1 => {
            let r: super::legacy_v1::KeyframeRecordV1 = take_all(payload)?;
            Ok(KeyframeRecord {
                index: r.index,
                time_s: r.time_s,
                bodies: r.bodies,
                tail: r.tail.into(),
            })
        }
        2 => {
            let r: super::legacy_v2::KeyframeRecordV2 = take_all(payload)?;
            Ok(KeyframeRecord {
                index: r.index,
                time_s: r.time_s,
                bodies: r.bodies,
                tail: r.tail.into(),
            })
        }
        _ => take_all(payload),
    }
}

/// A whole delta record of a file of format `version`.
fn take_delta(version: u32, payload: &[u8]) -> Result<DeltaRecord, RecordErrorCause> {
    let mut scratch = Vec::new();
    let payload = record_bytes(version, payload, &mut scratch)?;
    match version {
        1 => {
            let r: super::legacy_v1::DeltaRecordV1 = take_all(payload)?;
            Ok(DeltaRecord {
                index: r.index,
                time_s: r.time_s,
                body_count: r.body_count,
                changed: r.changed,
                tail: r.tail.into(),
            })
        }
        2 => {
            let r: super::legacy_v2::DeltaRecordV2 = take_all(payload)?;
            Ok(DeltaRecord {
                index: r.index,
                time_s: r.time_s,
                body_count: r.body_count,
                changed: r.changed,
                tail: r.tail.into(),
            })
        }
        _ => take_all(payload),
    }
}

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
    if version >= 4 {
        return decode_columnar(version, kind, payload, previous, with_tail);
    }
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
            super::error::kind_name(other)
        ))),
    }
}

fn check_frame_kind(kind: Kind) -> Result<(), RecordErrorCause> {
    match kind {
        chunk::KEYFRAME | chunk::DELTA => Ok(()),
        other => Err(decode_err(format!(
            "chunk {} is not a frame",
            super::error::kind_name(other)
        ))),
    }
}

/// A frame record of format v4 or later (`columnar.rs`).
fn decode_columnar(
    version: u32,
    kind: Kind,
    payload: &[u8],
    previous: Option<&[BodyState]>,
    with_tail: bool,
) -> Result<Decoded, RecordErrorCause> {
    check_frame_kind(kind)?;
    let previous = match kind {
        chunk::DELTA => {
            Some(previous.ok_or_else(|| decode_err("a delta frame has no frame before it"))?)
        }
        _ => None,
    };
    let mut scratch = Vec::new();
    let record = record_bytes(version, payload, &mut scratch)?;
    let block = super::columnar::decode_bodies(record, previous)?;
    let tail = if with_tail {
        Some(super::columnar::decode_tail(
            block.rest,
            &block.bodies,
            block.dt,
            version,
        )?)
    } else {
        None
    };
    Ok(Decoded {
        index: block.index,
        time_s: block.time_s,
        bodies: block.bodies,
        tail,
    })
}

/// Decodes a frame chunk whose bodies are already known (decoded before): only its own data
/// is read, so no previous frame is needed.
pub(crate) fn decode_keeping_bodies(
    version: u32,
    kind: Kind,
    payload: &[u8],
    bodies: Vec<BodyState>,
) -> Result<Decoded, RecordErrorCause> {
    if version >= 4 {
        check_frame_kind(kind)?;
        let mut scratch = Vec::new();
        let record = record_bytes(version, payload, &mut scratch)?;
        let (index, time_s, dt, tail) = super::columnar::skip_bodies(record)?;
        let tail = super::columnar::decode_tail(tail, &bodies, dt, version)?;
        return Ok(Decoded {
            index,
            time_s,
            bodies,
            tail: Some(tail),
        });
    }
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
                super::error::kind_name(other)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Point3, Quat, Vec3};

    fn state(id: u32, x: f64) -> BodyState {
        BodyState {
            id,
            position: Point3::new(x, 0.0, 0.0),
            rotation: Quat::identity(),
            linear_velocity: Vec3::zeros(),
            angular_velocity: Vec3::zeros(),
        }
    }

    fn changed(slot: u32, x: f64) -> ChangedBody {
        ChangedBody {
            slot,
            state: state(slot, x),
        }
    }

    #[test]
    fn deltas_grow_and_shrink_the_body_list() {
        let prev = vec![state(0, 1.0), state(1, 2.0)];
        let grown = apply_delta(&prev, 3, vec![changed(2, 9.0)]).unwrap();
        assert_eq!(grown, vec![state(0, 1.0), state(1, 2.0), state(2, 9.0)]);
        let shrunk = apply_delta(&prev, 1, vec![]).unwrap();
        assert_eq!(shrunk, vec![state(0, 1.0)]);
        let replaced = apply_delta(&prev, 2, vec![changed(0, 5.0)]).unwrap();
        assert_eq!(replaced, vec![state(0, 5.0), state(1, 2.0)]);
    }

    #[test]
    fn inconsistent_deltas_are_errors() {
        let prev = vec![state(0, 1.0)];
        // A new slot left unset, a slot past the count, and a count no change can fill.
        assert!(apply_delta(&prev, 3, vec![changed(1, 0.0), changed(1, 0.0)]).is_err());
        assert!(apply_delta(&prev, 1, vec![changed(4, 0.0)]).is_err());
        assert!(apply_delta(&prev, u32::MAX, vec![]).is_err());
    }

    #[test]
    fn only_bit_changes_count_as_changes() {
        let a = state(0, 0.0);
        let mut b = a.clone();
        assert!(same_state(&a, &b));
        b.position.x = -0.0;
        assert!(!same_state(&a, &b), "-0.0 is a change");
        let mut n = a.clone();
        n.linear_velocity.y = f64::NAN;
        assert!(
            same_state(&n, &n.clone()),
            "a NaN that stays NaN is no change"
        );
    }

    #[test]
    fn a_delta_encodes_only_changed_bodies() {
        let mut frame = Frame {
            bodies: (0..10).map(|i| state(i, i as f64)).collect(),
            ..Frame::default()
        };
        let prev = frame.bodies.clone();
        frame.bodies[7].position.y = 1.0;
        let mut buf = Vec::new();
        let kind = encode_frame_chunk(&frame, Some(&prev), 0.01, &mut Packer::default(), &mut buf)
            .unwrap();
        assert_eq!(kind, chunk::DELTA);
        let payload = &buf[chunk::CHUNK_HEADER_LEN as usize..];
        let v = super::super::header::FORMAT_VERSION;
        let mut key = Vec::new();
        encode_frame_chunk(&frame, None, 0.01, &mut Packer::default(), &mut key).unwrap();
        // Nine of the ten bodies are unchanged: the delta holds one state, the keyframe ten.
        assert!(buf.len() < key.len(), "{} vs {}", buf.len(), key.len());
        let d = decode_frame(v, kind, payload, Some(&prev), true).unwrap();
        assert_eq!(d.into_frame().unwrap(), frame);
        let head = decode_frame(v, kind, payload, Some(&prev), false).unwrap();
        assert!(head.tail.is_none());
        assert_eq!(head.bodies, frame.bodies);
        assert!(decode_frame(v, kind, payload, None, true).is_err());
        assert!(decode_frame(v, kind, &payload[..payload.len() - 1], Some(&prev), true).is_err());
    }
}

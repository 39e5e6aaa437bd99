//! Frame chunks of the current format (v5, and v4 whose records it still decodes): the
//! payload's index and time, then the columnar record (`columnar.rs`) packed by the
//! recording's packer (`compress.rs`). Files of older formats are read by `legacy.rs`.

use super::chunk::{self, Kind};
use super::columnar;
use super::compress::Packer;
use super::error::RecordErrorCause;
use super::payload::{check_frame_kind, decode_err, record_bytes};
use super::records::Decoded;
use crate::frame::{BodyState, Frame};

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

/// Decodes a frame chunk's payload of format `version` (4 or later). `previous` is needed for a
/// delta (the bodies of the frame before); `with_tail` false decodes only the bodies, which is
/// all a seek needs on its way.
pub(crate) fn decode_frame(
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
    let block = columnar::decode_bodies(record, previous)?;
    let tail = if with_tail {
        Some(columnar::decode_tail(
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

/// Decodes a frame chunk of format `version` (4 or later) whose bodies are already known
/// (decoded before): only its own data is read, so no previous frame is needed.
pub(crate) fn decode_keeping_bodies(
    version: u32,
    kind: Kind,
    payload: &[u8],
    bodies: Vec<BodyState>,
) -> Result<Decoded, RecordErrorCause> {
    check_frame_kind(kind)?;
    let mut scratch = Vec::new();
    let record = record_bytes(version, payload, &mut scratch)?;
    let (index, time_s, dt, tail) = columnar::skip_bodies(record)?;
    let tail = columnar::decode_tail(tail, &bodies, dt, version)?;
    Ok(Decoded {
        index,
        time_s,
        bodies,
        tail: Some(tail),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::body_delta::tests::state;

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

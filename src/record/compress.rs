//! Compression of frame records (format v2). A frame chunk's payload is
//!
//! ```text
//! index u64 varint | time_s f64 | codec u8 | raw_len u64 varint | body
//! ```
//!
//! where `body` is the postcard frame record, stored as is (`codec` 0) or as one zstd frame
//! (`codec` 1). The index and time stay outside the compressed body so that a scan rebuilding
//! the index reads them without decompressing anything. The chunk's CRC covers the compressed
//! bytes, so damage is still caught before a decoder sees it.
//!
//! zstd over lz4: on recordings of the built-in scenes, zstd level 3 per chunk is 1.2 to 1.7
//! times smaller than lz4, and its decoding (hundreds of MB/s on one core) costs far less
//! than postcard decoding of the same frame (see docs/recording-format.md for the figures).

use super::error::RecordErrorCause;
use std::io::Read;

pub(crate) const RAW: u8 = 0;
pub(crate) const ZSTD: u8 = 1;

/// The zstd level: 3 is zstd's default, the knee of its size/speed curve on our frames.
pub(crate) const LEVEL: i32 = 3;

/// Bodies shorter than this are stored raw: zstd's frame header outweighs what it would save.
const MIN_COMPRESSED: usize = 64;

/// Largest record a frame may decompress to: the 4 GiB that a v1 chunk could hold. Reading
/// grows the buffer with the bytes actually produced, so a lying length costs nothing.
const MAX_RAW_LEN: u64 = u32::MAX as u64;

/// Compresses frame records; keeps its zstd context between frames (creating one per frame
/// costs more than compressing a small frame).
pub(crate) struct Packer {
    zstd: Option<zstd::bulk::Compressor<'static>>,
    scratch: Vec<u8>,
    /// The uncompressed record, reused by the encoder from frame to frame.
    pub raw: Vec<u8>,
}

impl Default for Packer {
    fn default() -> Self {
        Self {
            // Without a context (out of memory) frames are stored raw: still a valid file.
            zstd: zstd::bulk::Compressor::new(LEVEL).ok(),
            scratch: Vec::new(),
            raw: Vec::new(),
        }
    }
}

fn push_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn take_varint(bytes: &[u8]) -> Option<(u64, &[u8])> {
    let mut v: u64 = 0;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        let bits = (b & 0x7f) as u64;
        if i == 9 && bits > 1 {
            return None;
        }
        v |= bits << (7 * i);
        if b & 0x80 == 0 {
            return Some((v, &bytes[i + 1..]));
        }
    }
    None
}

fn corrupt(detail: impl Into<String>) -> RecordErrorCause {
    RecordErrorCause::Decode {
        what: "a compressed frame",
        detail: detail.into(),
    }
}

impl Packer {
    /// Appends `codec | raw_len | body` for the record `raw` to `out`.
    pub fn pack(&mut self, raw: &[u8], out: &mut Vec<u8>) {
        if raw.len() >= MIN_COMPRESSED
            && let Some(z) = &mut self.zstd
        {
            self.scratch.clear();
            self.scratch
                .reserve(zstd::zstd_safe::compress_bound(raw.len()));
            if let Ok(n) = z.compress_to_buffer(raw, &mut self.scratch)
                && n < raw.len()
            {
                out.push(ZSTD);
                push_varint(out, raw.len() as u64);
                out.extend_from_slice(&self.scratch[..n]);
                return;
            }
        }
        out.push(RAW);
        push_varint(out, raw.len() as u64);
        out.extend_from_slice(raw);
    }
}

/// The uncompressed size of a v2 frame payload's record plus its index and time prefix,
/// from the packed header alone.
pub(crate) fn raw_len(payload: &[u8]) -> Result<u64, RecordErrorCause> {
    let (_, packed) = postcard::take_from_bytes::<(u64, f64)>(payload)
        .map_err(|e| corrupt(format!("the frame's index and time: {e}")))?;
    let prefix = (payload.len() - packed.len()) as u64;
    let rest = packed
        .get(1..)
        .ok_or_else(|| corrupt("the payload ends before its codec byte"))?;
    let (len, _) =
        take_varint(rest).ok_or_else(|| corrupt("the record length is not a valid varint"))?;
    Ok(prefix.saturating_add(len))
}

/// The record in `packed` (`codec | raw_len | body`), decompressed into `scratch` when it
/// was compressed. Every length is checked; nothing here trusts the file.
pub(crate) fn unpack<'a>(
    packed: &'a [u8],
    scratch: &'a mut Vec<u8>,
) -> Result<&'a [u8], RecordErrorCause> {
    let (&codec, rest) = packed
        .split_first()
        .ok_or_else(|| corrupt("the payload ends before its codec byte"))?;
    let (raw_len, body) =
        take_varint(rest).ok_or_else(|| corrupt("the record length is not a valid varint"))?;
    match codec {
        RAW => {
            if body.len() as u64 != raw_len {
                return Err(corrupt(format!(
                    "a raw record of {raw_len} bytes holds {} bytes",
                    body.len()
                )));
            }
            Ok(body)
        }
        ZSTD => {
            if raw_len > MAX_RAW_LEN {
                return Err(corrupt(format!(
                    "a record of {raw_len} bytes is over the {MAX_RAW_LEN}-byte limit"
                )));
            }
            scratch.clear();
            let decoder = zstd::stream::read::Decoder::with_buffer(body)
                .map_err(|e| corrupt(format!("zstd: {e}")))?;
            // One byte past the claimed length shows a body that decompresses to more.
            decoder
                .single_frame()
                .take(raw_len + 1)
                .read_to_end(scratch)
                .map_err(|e| corrupt(format!("zstd: {e}")))?;
            if scratch.len() as u64 != raw_len {
                return Err(corrupt(format!(
                    "the record should be {raw_len} bytes, it decompresses to {}{}",
                    scratch.len(),
                    if scratch.len() as u64 > raw_len {
                        " or more"
                    } else {
                        ""
                    }
                )));
            }
            Ok(scratch)
        }
        other => Err(corrupt(format!("unknown codec {other}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(raw: &[u8]) -> Vec<u8> {
        let mut packed = Vec::new();
        Packer::default().pack(raw, &mut packed);
        let mut scratch = Vec::new();
        unpack(&packed, &mut scratch).unwrap().to_vec()
    }

    #[test]
    fn records_round_trip_raw_and_compressed() {
        for raw in [
            Vec::new(),
            b"short".to_vec(),
            b"repetitive ".repeat(1000),
            (0..5000u32)
                .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
                .collect(),
        ] {
            assert_eq!(round_trip(&raw), raw);
        }
    }

    #[test]
    fn repetitive_records_are_compressed() {
        let raw = b"node pair volume ".repeat(500);
        let mut packed = Vec::new();
        Packer::default().pack(&raw, &mut packed);
        assert_eq!(packed[0], ZSTD);
        assert!(packed.len() < raw.len() / 10, "{}", packed.len());
    }

    #[test]
    fn lying_lengths_and_codecs_are_errors() {
        let raw = b"node pair volume ".repeat(500);
        let mut packed = Vec::new();
        Packer::default().pack(&raw, &mut packed);
        let mut scratch = Vec::new();
        // Claim one byte fewer, then one more, than the body holds.
        for claimed in [raw.len() - 1, raw.len() + 1] {
            let mut bad = vec![ZSTD];
            push_varint(&mut bad, claimed as u64);
            let header = 1 + {
                let mut v = Vec::new();
                push_varint(&mut v, raw.len() as u64);
                v.len()
            };
            bad.extend_from_slice(&packed[header..]);
            assert!(unpack(&bad, &mut scratch).is_err(), "claimed {claimed}");
        }
        assert!(unpack(&[7, 0], &mut scratch).is_err());
        assert!(unpack(&[], &mut scratch).is_err());
        assert!(unpack(&[RAW, 5, 1, 2], &mut scratch).is_err());
        assert!(
            unpack(
                &[
                    ZSTD, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f
                ],
                &mut scratch
            )
            .is_err()
        );
        // Every truncation of a compressed record is an error, never a panic.
        for cut in 0..packed.len() {
            assert!(
                unpack(&packed[..cut], &mut scratch).is_err(),
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn varints_round_trip() {
        for v in [0, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut out = Vec::new();
            push_varint(&mut out, v);
            assert_eq!(take_varint(&out), Some((v, &[][..])));
        }
        assert_eq!(take_varint(&[0x80; 11]), None);
    }
}

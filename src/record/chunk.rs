//! Chunk framing: `kind[4] | payload_len u32 LE | crc32 u32 LE | payload`.

use super::error::{RecordError, RecordErrorCause, kind_name};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// Bytes before a chunk's payload.
pub const CHUNK_HEADER_LEN: u64 = 12;

pub(crate) type Kind = [u8; 4];

pub(crate) const HEAD: Kind = *b"HEAD";
pub(crate) const KEYFRAME: Kind = *b"KEYF";
pub(crate) const DELTA: Kind = *b"DELT";
pub(crate) const INDEX: Kind = *b"INDX";
pub(crate) const FOOTER: Kind = *b"FOOT";

/// The chunk kinds this version writes; a scan resynchronises only on these.
pub(crate) const KNOWN_KINDS: [Kind; 5] = [HEAD, KEYFRAME, DELTA, INDEX, FOOTER];

/// CRC-32 (IEEE, as in zlib and PNG) over the kind, the length and the payload, so that a
/// flipped length or tag is caught as surely as a flipped payload byte.
pub(crate) fn checksum(kind: Kind, payload: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&kind);
    h.update(&(payload.len() as u32).to_le_bytes());
    h.update(payload);
    h.finalize()
}

/// Starts a chunk in `buf`: call, append the payload, then [`seal`].
pub(crate) fn begin(buf: &mut Vec<u8>, kind: Kind) {
    buf.clear();
    buf.extend_from_slice(&kind);
    buf.extend_from_slice(&[0; 8]);
}

/// Fills in the length and checksum of the chunk that `begin` started.
pub(crate) fn seal(buf: &mut [u8], what: &'static str) -> Result<(), RecordErrorCause> {
    let payload_len = buf.len() - CHUNK_HEADER_LEN as usize;
    let len = u32::try_from(payload_len).map_err(|_| RecordErrorCause::Encode {
        what,
        detail: format!("{payload_len} bytes is over the 4 GiB chunk limit"),
    })?;
    let kind: Kind = [buf[0], buf[1], buf[2], buf[3]];
    let crc = checksum(kind, &buf[CHUNK_HEADER_LEN as usize..]);
    buf[4..8].copy_from_slice(&len.to_le_bytes());
    buf[8..12].copy_from_slice(&crc.to_le_bytes());
    Ok(())
}

/// A chunk's header as read from disk, not yet checked.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ChunkHeader {
    pub kind: Kind,
    pub len: u32,
    pub crc: u32,
}

impl ChunkHeader {
    pub fn parse(b: &[u8; CHUNK_HEADER_LEN as usize]) -> Self {
        Self {
            kind: [b[0], b[1], b[2], b[3]],
            len: u32::from_le_bytes([b[4], b[5], b[6], b[7]]),
            crc: u32::from_le_bytes([b[8], b[9], b[10], b[11]]),
        }
    }

    /// Offset just past the chunk that starts at `offset`.
    pub fn end(&self, offset: u64) -> u64 {
        offset + CHUNK_HEADER_LEN + self.len as u64
    }
}

/// Reads and checks the chunk at `offset` into `payload`. The length field is checked against
/// `file_len` before anything is allocated, so a corrupt length never causes a huge allocation.
pub(crate) fn read_chunk<R: Read + Seek>(
    file: &mut R,
    path: &Path,
    offset: u64,
    file_len: u64,
    payload: &mut Vec<u8>,
) -> Result<ChunkHeader, RecordError> {
    let available = file_len.saturating_sub(offset);
    if available < CHUNK_HEADER_LEN {
        return Err(RecordError::at(
            path,
            offset,
            RecordErrorCause::Truncated {
                what: "a chunk header",
                needed: CHUNK_HEADER_LEN - available,
                available: file_len,
            },
        ));
    }
    let mut head = [0u8; CHUNK_HEADER_LEN as usize];
    file.seek(SeekFrom::Start(offset))
        .and_then(|_| file.read_exact(&mut head))
        .map_err(|e| RecordError::io(path, Some(offset), e))?;
    let header = ChunkHeader::parse(&head);
    let left = available - CHUNK_HEADER_LEN;
    if header.len as u64 > left {
        return Err(RecordError::at(
            path,
            offset,
            RecordErrorCause::ChunkTooLong {
                kind: kind_name(header.kind),
                len: header.len as u64,
                available: left,
            },
        ));
    }
    payload.clear();
    payload.resize(header.len as usize, 0);
    file.read_exact(payload)
        .map_err(|e| RecordError::io(path, Some(offset + CHUNK_HEADER_LEN), e))?;
    let computed = checksum(header.kind, payload);
    if computed != header.crc {
        return Err(RecordError::at(
            path,
            offset,
            RecordErrorCause::BadChecksum {
                kind: kind_name(header.kind),
                stored: header.crc,
                computed,
            },
        ));
    }
    Ok(header)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn chunk(kind: Kind, payload: &[u8]) -> Vec<u8> {
        let mut buf = Vec::new();
        begin(&mut buf, kind);
        buf.extend_from_slice(payload);
        seal(&mut buf, "test").unwrap();
        buf
    }

    #[test]
    fn a_sealed_chunk_reads_back() {
        let bytes = chunk(DELTA, b"hello");
        let mut payload = Vec::new();
        let h = read_chunk(
            &mut Cursor::new(&bytes),
            Path::new("t"),
            0,
            bytes.len() as u64,
            &mut payload,
        )
        .unwrap();
        assert_eq!(h.kind, DELTA);
        assert_eq!(payload, b"hello");
        assert_eq!(h.end(0), bytes.len() as u64);
    }

    #[test]
    fn every_single_bit_flip_is_caught() {
        let bytes = chunk(KEYFRAME, b"some payload bytes");
        for i in 0..bytes.len() * 8 {
            let mut bad = bytes.clone();
            bad[i / 8] ^= 1 << (i % 8);
            let mut payload = Vec::new();
            let r = read_chunk(
                &mut Cursor::new(&bad),
                Path::new("t"),
                0,
                bad.len() as u64,
                &mut payload,
            );
            assert!(r.is_err(), "flip of bit {i} went unnoticed");
        }
    }

    #[test]
    fn a_huge_length_is_refused_before_allocating() {
        let mut bytes = chunk(KEYFRAME, b"x");
        bytes[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        let mut payload = Vec::new();
        let err = read_chunk(
            &mut Cursor::new(&bytes),
            Path::new("t"),
            0,
            bytes.len() as u64,
            &mut payload,
        )
        .unwrap_err();
        assert!(
            matches!(err.cause, RecordErrorCause::ChunkTooLong { .. }),
            "{err}"
        );
        assert_eq!(err.offset, Some(0));
        assert!(payload.capacity() < 1024);
    }
}

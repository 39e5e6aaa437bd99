//! Where every frame is in the file: the in-memory frame table, the `INDX` chunk that stores
//! it and the `FOOT` chunk that points at the index.

use super::chunk::{self, CHUNK_HEADER_LEN};
use super::error::RecordErrorCause;
use serde::{Deserialize, Serialize};

/// One frame chunk of the file.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrameEntry {
    /// Byte offset of the chunk (its header).
    pub offset: u64,
    /// Payload length of the chunk.
    pub len: u32,
    /// True for a `KEYF` chunk, false for a `DELT` one.
    pub keyframe: bool,
    /// `Frame::index` of the frame.
    pub index: u64,
    /// `Frame::time_s` of the frame.
    pub time_s: f64,
    /// [`Frame::content_hash`](crate::frame::Frame::content_hash) of the frame: equal hashes
    /// mean equal frames, so `diff` compares them without decoding. Absent in files before
    /// format v7 and in an index rebuilt by a scan.
    pub content_hash: Option<u64>,
}

impl FrameEntry {
    pub fn end(&self) -> u64 {
        self.offset + CHUNK_HEADER_LEN + self.len as u64
    }
}

/// The frames of a file in order, with the positions of the keyframes for seeking.
#[derive(Clone, Debug, Default)]
pub(crate) struct FrameTable {
    entries: Vec<FrameEntry>,
    keyframes: Vec<usize>,
}

impl FrameTable {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn entries(&self) -> &[FrameEntry] {
        &self.entries
    }

    pub fn get(&self, pos: usize) -> Option<&FrameEntry> {
        self.entries.get(pos)
    }

    pub fn last(&self) -> Option<&FrameEntry> {
        self.entries.last()
    }

    pub fn keyframe_count(&self) -> usize {
        self.keyframes.len()
    }

    /// Appends a frame; the first frame of a table must be a keyframe (else a delta would have
    /// nothing to apply to), which the callers guarantee and `from_entries` checks.
    pub fn push(&mut self, entry: FrameEntry) {
        if entry.keyframe {
            self.keyframes.push(self.entries.len());
        }
        self.entries.push(entry);
    }

    pub fn truncate(&mut self, len: usize) {
        self.entries.truncate(len);
        let k = self.keyframes.partition_point(|&p| p < len);
        self.keyframes.truncate(k);
    }

    /// The position of the last keyframe at or before `pos`.
    pub fn keyframe_at_or_before(&self, pos: usize) -> Option<usize> {
        let k = self.keyframes.partition_point(|&p| p <= pos);
        k.checked_sub(1).map(|k| self.keyframes[k])
    }

    /// Builds a table from a stored index, checking that it describes chunks that can exist:
    /// in file order, between `first_chunk` and `limit`, starting with a keyframe.
    pub fn from_entries(
        entries: Vec<FrameEntry>,
        first_chunk: u64,
        limit: u64,
    ) -> Result<Self, String> {
        let mut table = FrameTable::default();
        let mut next_free = first_chunk;
        for (pos, e) in entries.into_iter().enumerate() {
            if pos == 0 && !e.keyframe {
                return Err("the first frame is not a keyframe".into());
            }
            if e.offset < next_free || e.end() > limit {
                return Err(format!(
                    "frame {pos} is at bytes {}..{}, outside {next_free}..{limit}",
                    e.offset,
                    e.end()
                ));
            }
            next_free = e.end();
            table.push(e);
        }
        Ok(table)
    }
}

/// Payload of the `INDX` chunk.
#[derive(Serialize, Deserialize)]
pub(crate) struct IndexRecord {
    pub frames: Vec<FrameEntry>,
    /// Every chunk of the file before the index, the `HEAD` chunk included.
    pub chunk_count: u64,
}

/// A frame's entry in the index of formats v1 to v6, frozen: before the content hash.
#[derive(Deserialize)]
struct LegacyFrameEntry {
    offset: u64,
    len: u32,
    keyframe: bool,
    index: u64,
    time_s: f64,
}

#[derive(Deserialize)]
struct LegacyIndexRecord {
    frames: Vec<LegacyFrameEntry>,
    chunk_count: u64,
}

/// The format version whose index first holds content hashes.
const HASHED_SINCE: u32 = 7;

/// Decodes an `INDX` payload of format `version`, with nothing left over.
pub(crate) fn decode_index(version: u32, payload: &[u8]) -> Result<IndexRecord, String> {
    let (record, rest) = if version >= HASHED_SINCE {
        postcard::take_from_bytes::<IndexRecord>(payload).map_err(|e| e.to_string())?
    } else {
        let (old, rest) =
            postcard::take_from_bytes::<LegacyIndexRecord>(payload).map_err(|e| e.to_string())?;
        let frames = old
            .frames
            .into_iter()
            .map(|e| FrameEntry {
                offset: e.offset,
                len: e.len,
                keyframe: e.keyframe,
                index: e.index,
                time_s: e.time_s,
                content_hash: None,
            })
            .collect();
        let record = IndexRecord {
            frames,
            chunk_count: old.chunk_count,
        };
        (record, rest)
    };
    if !rest.is_empty() {
        return Err(format!("{} bytes after the index record", rest.len()));
    }
    Ok(record)
}

/// Payload of the `FOOT` chunk, always the last 28 bytes of a finished file.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct FooterRecord {
    /// Offset of the `INDX` chunk.
    pub index_offset: u64,
    /// Number of frames in the index, to cross-check it.
    pub frame_count: u64,
}

/// The footer is fixed-size (little-endian integers rather than varints) so that a reader
/// finds it at `file_len - FOOTER_CHUNK_LEN` without searching.
pub(crate) const FOOTER_PAYLOAD_LEN: u64 = 16;
pub(crate) const FOOTER_CHUNK_LEN: u64 = CHUNK_HEADER_LEN + FOOTER_PAYLOAD_LEN;

impl FooterRecord {
    pub fn to_bytes(self) -> [u8; FOOTER_PAYLOAD_LEN as usize] {
        let mut b = [0u8; FOOTER_PAYLOAD_LEN as usize];
        b[..8].copy_from_slice(&self.index_offset.to_le_bytes());
        b[8..].copy_from_slice(&self.frame_count.to_le_bytes());
        b
    }

    pub fn from_bytes(b: &[u8]) -> Option<Self> {
        if b.len() != FOOTER_PAYLOAD_LEN as usize {
            return None;
        }
        Some(Self {
            index_offset: u64::from_le_bytes(b[..8].try_into().ok()?),
            frame_count: u64::from_le_bytes(b[8..].try_into().ok()?),
        })
    }
}

/// Encodes the `INDX` chunk followed by the `FOOT` chunk, the index starting at `at`.
pub(crate) fn encode_index_and_footer(
    frames: &[FrameEntry],
    chunk_count: u64,
    at: u64,
    out: &mut Vec<u8>,
) -> Result<(), RecordErrorCause> {
    #[derive(Serialize)]
    struct IndexRef<'a> {
        frames: &'a [FrameEntry],
        chunk_count: u64,
    }
    chunk::begin(out, chunk::INDEX);
    let taken = std::mem::take(out);
    *out = postcard::to_extend(
        &IndexRef {
            frames,
            chunk_count,
        },
        taken,
    )
    .map_err(|e| RecordErrorCause::Encode {
        what: "the index",
        detail: e.to_string(),
    })?;
    chunk::seal(out, "the index")?;
    let mut footer = Vec::new();
    chunk::begin(&mut footer, chunk::FOOTER);
    footer.extend_from_slice(
        &FooterRecord {
            index_offset: at,
            frame_count: frames.len() as u64,
        }
        .to_bytes(),
    );
    chunk::seal(&mut footer, "the footer")?;
    out.extend_from_slice(&footer);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(offset: u64, keyframe: bool) -> FrameEntry {
        FrameEntry {
            offset,
            len: 8,
            keyframe,
            index: offset,
            time_s: 0.0,
            content_hash: None,
        }
    }

    #[test]
    fn keyframe_lookup_matches_a_linear_search() {
        let mut t = FrameTable::default();
        let flags = [true, false, false, true, false, true, true, false];
        for (i, k) in flags.iter().enumerate() {
            t.push(entry(i as u64 * 20, *k));
        }
        for pos in 0..flags.len() {
            let expected = (0..=pos).rev().find(|&p| flags[p]);
            assert_eq!(t.keyframe_at_or_before(pos), expected, "pos {pos}");
        }
        t.truncate(5);
        assert_eq!(t.keyframe_count(), 2);
        assert_eq!(t.keyframe_at_or_before(4), Some(3));
    }

    #[test]
    fn an_index_pointing_outside_the_file_is_refused() {
        let ok = vec![entry(12, true), entry(40, false)];
        assert!(FrameTable::from_entries(ok.clone(), 12, 60).is_ok());
        assert!(FrameTable::from_entries(ok.clone(), 12, 59).is_err());
        assert!(FrameTable::from_entries(vec![entry(40, true), entry(12, false)], 12, 60).is_err());
        assert!(FrameTable::from_entries(vec![entry(12, false)], 12, 60).is_err());
    }
}

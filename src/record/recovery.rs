//! Rebuilding the frame table of a file whose index is missing or unreadable, by walking its
//! chunks from the header on. Every complete chunk is kept; what could not be used is
//! reported in a [`Recovery`].

use super::chunk::{self, CHUNK_HEADER_LEN, ChunkHeader, KNOWN_KINDS};
use super::error::{RecordError, kind_name};
use super::index::{FrameEntry, FrameTable};
use super::payload::{PREFIX_MAX_LEN, peek_index_and_time};
use std::fmt;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// What a reader had to do to open a damaged or unfinished file.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovery {
    /// Frames found by the scan (all readable).
    pub recovered_frames: usize,
    /// Frame chunks that were intact but unusable: deltas whose base was lost.
    pub frames_lost: usize,
    /// Bytes of the file that belong to no usable chunk.
    pub bytes_lost: u64,
    /// Why the scan was needed and what it met, in file order.
    pub issues: Vec<RecoveryIssue>,
}

/// One reason for a scan, or one damaged stretch of the file.
#[derive(Clone, Debug, PartialEq)]
pub struct RecoveryIssue {
    /// Where it starts.
    pub offset: u64,
    /// Bytes skipped from there (0 when nothing was lost, e.g. a missing index).
    pub bytes_lost: u64,
    pub cause: LossCause,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LossCause {
    /// The file ends without an index: the recording was not finished (crash, kill).
    IndexMissing,
    /// The footer or the index is there but unusable; the reason says why.
    IndexCorrupt(String),
    /// The index is intact but the chunk of this frame (its position in the index) is
    /// damaged: the file was scanned to keep every other frame.
    DamagedFrame { frame: usize },
    /// The file ends inside a chunk: `missing` more bytes were needed to complete it.
    TruncatedMidChunk { kind: String, missing: u64 },
    /// The file ends inside a chunk header.
    TruncatedChunkHeader,
    /// A chunk whose checksum does not match, or bytes that are no chunk at all (when the
    /// length or tag is what broke).
    BadChunk { kind: String, detail: String },
    /// An intact chunk that does not decode.
    Undecodable { kind: String, detail: String },
    /// A second `HEAD` chunk: another recording follows, and is not read.
    SecondHeader,
    /// Delta frames after lost data: they need the frame before them, so they are dropped
    /// until the next keyframe.
    OrphanDeltas { frames: usize },
}

impl fmt::Display for LossCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LossCause::IndexMissing => write!(f, "no index (the recording was not finished)"),
            LossCause::IndexCorrupt(why) => write!(f, "unusable index: {why}"),
            LossCause::DamagedFrame { frame } => {
                write!(
                    f,
                    "the chunk of frame {frame} is damaged (the index is intact)"
                )
            }
            LossCause::TruncatedMidChunk { kind, missing } => {
                write!(f, "truncated mid-chunk ({kind}, {missing} bytes missing)")
            }
            LossCause::TruncatedChunkHeader => write!(f, "truncated inside a chunk header"),
            LossCause::BadChunk { kind, detail } => write!(f, "bad chunk {kind}: {detail}"),
            LossCause::Undecodable { kind, detail } => {
                write!(f, "undecodable chunk {kind}: {detail}")
            }
            LossCause::SecondHeader => write!(f, "a second header (another recording follows)"),
            LossCause::OrphanDeltas { frames } => {
                write!(
                    f,
                    "{frames} delta frames lost with the frame they depend on"
                )
            }
        }
    }
}

impl fmt::Display for Recovery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "recovered {} frames, lost {} bytes",
            self.recovered_frames, self.bytes_lost
        )?;
        if self.frames_lost > 0 {
            write!(f, " and {} frames", self.frames_lost)?;
        }
        for issue in &self.issues {
            write!(f, "; {} at offset {}", issue.cause, issue.offset)?;
            if issue.bytes_lost > 0 {
                write!(f, " ({} bytes)", issue.bytes_lost)?;
            }
        }
        Ok(())
    }
}

/// The result of a scan: the frames found, how many chunks were intact, what was lost.
pub(crate) struct Scan {
    pub table: FrameTable,
    pub chunk_count: u64,
    pub recovery: Recovery,
}

/// Reads chunks without ever holding more than a fixed buffer: a corrupt length cannot make
/// it allocate.
struct Walker<'a, R> {
    file: &'a mut R,
    path: &'a Path,
    file_len: u64,
    buf: Vec<u8>,
}

enum Probe {
    /// A complete chunk with a valid checksum.
    Valid(ChunkHeader),
    TooShortForHeader,
    /// The header is readable but the file ends before the payload does.
    Truncated(ChunkHeader, u64),
    Corrupt(ChunkHeader, String),
}

impl<R: Read + Seek> Walker<'_, R> {
    fn read_exact_at(&mut self, offset: u64, out: &mut [u8]) -> Result<(), RecordError> {
        self.file
            .seek(SeekFrom::Start(offset))
            .and_then(|_| self.file.read_exact(out))
            .map_err(|e| RecordError::io(self.path, Some(offset), e))
    }

    fn probe(&mut self, offset: u64) -> Result<Probe, RecordError> {
        let left = self.file_len.saturating_sub(offset);
        if left < CHUNK_HEADER_LEN {
            return Ok(Probe::TooShortForHeader);
        }
        let mut head = [0u8; CHUNK_HEADER_LEN as usize];
        self.read_exact_at(offset, &mut head)?;
        let header = ChunkHeader::parse(&head);
        let payload_left = left - CHUNK_HEADER_LEN;
        if header.len as u64 > payload_left {
            return Ok(Probe::Truncated(header, header.len as u64 - payload_left));
        }
        // Stream the payload through the checksum.
        let mut h = crc32fast::Hasher::new();
        h.update(&header.kind);
        h.update(&header.len.to_le_bytes());
        let mut at = offset + CHUNK_HEADER_LEN;
        let mut remaining = header.len as u64;
        self.buf.resize(64 * 1024, 0);
        let mut buf = std::mem::take(&mut self.buf);
        while remaining > 0 {
            let n = remaining.min(buf.len() as u64) as usize;
            if let Err(e) = self.read_exact_at(at, &mut buf[..n]) {
                self.buf = buf;
                return Err(e);
            }
            h.update(&buf[..n]);
            at += n as u64;
            remaining -= n as u64;
        }
        self.buf = buf;
        let computed = h.finalize();
        if computed != header.crc {
            return Ok(Probe::Corrupt(
                header,
                format!(
                    "checksum {:08x} stored, {computed:08x} computed",
                    header.crc
                ),
            ));
        }
        Ok(Probe::Valid(header))
    }

    /// The next offset after `from` where a known, complete, intact chunk starts.
    fn resync(&mut self, from: u64) -> Result<Option<u64>, RecordError> {
        const WINDOW: u64 = 64 * 1024;
        let mut start = from;
        let mut window = vec![0u8; WINDOW as usize];
        while start + CHUNK_HEADER_LEN <= self.file_len {
            let n = (self.file_len - start).min(WINDOW) as usize;
            self.read_exact_at(start, &mut window[..n])?;
            // A tag may straddle two windows: they overlap by 3 bytes.
            let mut i = 0;
            while i + 4 <= n {
                let tag = [window[i], window[i + 1], window[i + 2], window[i + 3]];
                if KNOWN_KINDS.contains(&tag) {
                    let at = start + i as u64;
                    if let Probe::Valid(_) = self.probe(at)? {
                        return Ok(Some(at));
                    }
                }
                i += 1;
            }
            if n < WINDOW as usize {
                break;
            }
            start += WINDOW - 3;
        }
        Ok(None)
    }

    fn peek_prefix(&mut self, offset: u64, len: u32) -> Result<Vec<u8>, RecordError> {
        let n = (len as usize).min(PREFIX_MAX_LEN);
        let mut prefix = vec![0u8; n];
        self.read_exact_at(offset + CHUNK_HEADER_LEN, &mut prefix)?;
        Ok(prefix)
    }
}

/// A run of delta chunks skipped for want of a base.
#[derive(Default)]
struct Orphans {
    offset: u64,
    frames: usize,
    bytes: u64,
}

impl Orphans {
    fn flush(&mut self, issues: &mut Vec<RecoveryIssue>) {
        if self.frames > 0 {
            issues.push(RecoveryIssue {
                offset: self.offset,
                bytes_lost: self.bytes,
                cause: LossCause::OrphanDeltas {
                    frames: self.frames,
                },
            });
            *self = Orphans::default();
        }
    }
}

/// What a scan has found so far.
struct Scanner<'a, R> {
    walker: Walker<'a, R>,
    table: FrameTable,
    chunk_count: u64,
    issues: Vec<RecoveryIssue>,
    bytes_lost: u64,
    orphans: Orphans,
    total_orphans: usize,
    /// The frame chunk before was kept: a delta has its base.
    chain: bool,
}

impl<R: Read + Seek> Scanner<'_, R> {
    /// An intact keyframe or delta at `at`: indexed, unless it is a delta without its base
    /// or its index and time do not decode.
    fn frame_chunk(&mut self, at: u64, header: &ChunkHeader) -> Result<(), RecordError> {
        let end = header.end(at);
        let keyframe = header.kind == chunk::KEYFRAME;
        if !keyframe && !self.chain {
            let orphans = &mut self.orphans;
            if orphans.frames == 0 {
                orphans.offset = at;
            }
            orphans.frames += 1;
            orphans.bytes += end - at;
            self.total_orphans += 1;
            self.bytes_lost += end - at;
            return Ok(());
        }
        self.orphans.flush(&mut self.issues);
        let prefix = self.walker.peek_prefix(at, header.len)?;
        match peek_index_and_time(&prefix) {
            Ok((index, time_s)) => {
                self.table.push(FrameEntry {
                    offset: at,
                    len: header.len,
                    keyframe,
                    index,
                    time_s,
                    content_hash: None,
                });
                self.chain = true;
            }
            Err(e) => {
                self.chain = false;
                self.bytes_lost += end - at;
                self.issues.push(RecoveryIssue {
                    offset: at,
                    bytes_lost: end - at,
                    cause: LossCause::Undecodable {
                        kind: kind_name(header.kind),
                        detail: e.to_string(),
                    },
                });
            }
        }
        Ok(())
    }

    /// A second header at `at`: another recording glued on, whose frames belong to another
    /// scene, so the rest of the file is lost.
    fn second_header(&mut self, at: u64) {
        self.orphans.flush(&mut self.issues);
        let lost = self.walker.file_len - at;
        self.bytes_lost += lost;
        self.issues.push(RecoveryIssue {
            offset: at,
            bytes_lost: lost,
            cause: LossCause::SecondHeader,
        });
    }

    /// A chunk at `at` that runs past the end of the file, `missing` bytes short: the file
    /// was cut, or its length or tag broke. Returns the cause and where the next intact chunk
    /// starts (none: the file ends).
    fn truncated(
        &mut self,
        at: u64,
        header: ChunkHeader,
        missing: u64,
    ) -> Result<(LossCause, Option<u64>), RecordError> {
        let kind = kind_name(header.kind);
        if !KNOWN_KINDS.contains(&header.kind) {
            let detail = "unknown tag and a length past the end of the file".into();
            return Ok((
                LossCause::BadChunk { kind, detail },
                self.walker.resync(at + 1)?,
            ));
        }
        Ok(match self.walker.resync(at + 1)? {
            // Something intact follows: the length was damaged, not the file cut.
            Some(next) => (
                LossCause::BadChunk {
                    kind,
                    detail: format!("its length {} runs past the end of the file", header.len),
                },
                Some(next),
            ),
            None => (LossCause::TruncatedMidChunk { kind, missing }, None),
        })
    }

    /// A chunk at `at` whose checksum does not match. Returns the cause and where the next
    /// intact chunk starts.
    fn corrupt(
        &mut self,
        at: u64,
        header: ChunkHeader,
        detail: String,
    ) -> Result<(LossCause, Option<u64>), RecordError> {
        let w = &mut self.walker;
        // When only the payload broke, the next chunk starts where the length says.
        let next = header.end(at);
        let skip = if next < w.file_len && matches!(w.probe(next)?, Probe::Valid(_)) {
            Some(next)
        } else {
            w.resync(at + 1)?
        };
        let cause = LossCause::BadChunk {
            kind: kind_name(header.kind),
            detail,
        };
        Ok((cause, skip))
    }

    /// Records the loss of the bytes from `at` to `skip_to` (or to the end of the file).
    fn lose(&mut self, at: u64, cause: LossCause, skip_to: Option<u64>) {
        self.orphans.flush(&mut self.issues);
        self.chain = false;
        let lost = skip_to.unwrap_or(self.walker.file_len) - at;
        self.bytes_lost += lost;
        self.issues.push(RecoveryIssue {
            offset: at,
            bytes_lost: lost,
            cause,
        });
    }
}

/// Walks the chunks from `first_chunk` to the end of the file. `why` is the reason the scan
/// was needed (missing or corrupt index), reported first.
pub(crate) fn scan<R: Read + Seek>(
    file: &mut R,
    path: &Path,
    file_len: u64,
    first_chunk: u64,
    why: RecoveryIssue,
) -> Result<Scan, RecordError> {
    let mut s = Scanner {
        walker: Walker {
            file,
            path,
            file_len,
            buf: Vec::new(),
        },
        table: FrameTable::default(),
        chunk_count: 1, // HEAD
        issues: vec![why],
        bytes_lost: 0,
        orphans: Orphans::default(),
        total_orphans: 0,
        chain: false,
    };
    let mut at = first_chunk;
    while at < file_len {
        let (cause, skip_to) = match s.walker.probe(at)? {
            Probe::Valid(header) => {
                s.chunk_count += 1;
                match header.kind {
                    chunk::KEYFRAME | chunk::DELTA => s.frame_chunk(at, &header)?,
                    chunk::HEAD => {
                        s.second_header(at);
                        break;
                    }
                    // The old index and footer are what is being rebuilt; other kinds are
                    // from a newer writer and carry nothing this version reads.
                    _ => {}
                }
                at = header.end(at);
                continue;
            }
            Probe::TooShortForHeader => (LossCause::TruncatedChunkHeader, None),
            Probe::Truncated(header, missing) => s.truncated(at, header, missing)?,
            Probe::Corrupt(header, detail) => s.corrupt(at, header, detail)?,
        };
        s.lose(at, cause, skip_to);
        match skip_to {
            Some(next) => at = next,
            None => break,
        }
    }
    s.orphans.flush(&mut s.issues);
    Ok(Scan {
        recovery: Recovery {
            recovered_frames: s.table.len(),
            frames_lost: s.total_orphans,
            bytes_lost: s.bytes_lost,
            issues: s.issues,
        },
        table: s.table,
        chunk_count: s.chunk_count,
    })
}

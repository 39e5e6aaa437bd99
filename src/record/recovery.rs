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

/// Walks the chunks from `first_chunk` to the end of the file. `why` is the reason the scan
/// was needed (missing or corrupt index), reported first.
pub(crate) fn scan<R: Read + Seek>(
    file: &mut R,
    path: &Path,
    file_len: u64,
    first_chunk: u64,
    why: RecoveryIssue,
) -> Result<Scan, RecordError> {
    let mut w = Walker {
        file,
        path,
        file_len,
        buf: Vec::new(),
    };
    let mut table = FrameTable::default();
    let mut chunk_count = 1; // HEAD
    let mut issues = vec![why];
    let mut bytes_lost = 0;
    let mut orphans = Orphans::default();
    let mut total_orphans = 0usize;
    let mut chain = false;
    let mut at = first_chunk;

    while at < file_len {
        let (cause, skip_to) = match w.probe(at)? {
            Probe::Valid(header) => {
                chunk_count += 1;
                let end = header.end(at);
                match header.kind {
                    chunk::KEYFRAME | chunk::DELTA => {
                        let keyframe = header.kind == chunk::KEYFRAME;
                        if !keyframe && !chain {
                            if orphans.frames == 0 {
                                orphans.offset = at;
                            }
                            orphans.frames += 1;
                            orphans.bytes += end - at;
                            total_orphans += 1;
                            bytes_lost += end - at;
                            at = end;
                            continue;
                        }
                        orphans.flush(&mut issues);
                        let prefix = w.peek_prefix(at, header.len)?;
                        match peek_index_and_time(&prefix) {
                            Ok((index, time_s)) => {
                                table.push(FrameEntry {
                                    offset: at,
                                    len: header.len,
                                    keyframe,
                                    index,
                                    time_s,
                                });
                                chain = true;
                            }
                            Err(e) => {
                                chain = false;
                                bytes_lost += end - at;
                                issues.push(RecoveryIssue {
                                    offset: at,
                                    bytes_lost: end - at,
                                    cause: LossCause::Undecodable {
                                        kind: kind_name(header.kind),
                                        detail: e.to_string(),
                                    },
                                });
                            }
                        }
                    }
                    // A second header is another recording glued on: its frames belong to
                    // another scene, so the scan stops there.
                    chunk::HEAD => {
                        orphans.flush(&mut issues);
                        let lost = file_len - at;
                        bytes_lost += lost;
                        issues.push(RecoveryIssue {
                            offset: at,
                            bytes_lost: lost,
                            cause: LossCause::SecondHeader,
                        });
                        break;
                    }
                    // The old index and footer are what is being rebuilt; other kinds are from
                    // a newer writer and carry nothing this version reads.
                    _ => {}
                }
                at = end;
                continue;
            }
            Probe::TooShortForHeader => (LossCause::TruncatedChunkHeader, None),
            Probe::Truncated(header, missing) if KNOWN_KINDS.contains(&header.kind) => {
                match w.resync(at + 1)? {
                    // Something intact follows: the length was damaged, not the file cut.
                    Some(next) => (
                        LossCause::BadChunk {
                            kind: kind_name(header.kind),
                            detail: format!(
                                "its length {} runs past the end of the file",
                                header.len
                            ),
                        },
                        Some(next),
                    ),
                    None => (
                        LossCause::TruncatedMidChunk {
                            kind: kind_name(header.kind),
                            missing,
                        },
                        None,
                    ),
                }
            }
            Probe::Truncated(header, _) => (
                LossCause::BadChunk {
                    kind: kind_name(header.kind),
                    detail: "unknown tag and a length past the end of the file".into(),
                },
                w.resync(at + 1)?,
            ),
            Probe::Corrupt(header, detail) => {
                // When only the payload broke, the next chunk starts where the length says.
                let next = header.end(at);
                let skip = if next < file_len && matches!(w.probe(next)?, Probe::Valid(_)) {
                    Some(next)
                } else {
                    w.resync(at + 1)?
                };
                let cause = LossCause::BadChunk {
                    kind: kind_name(header.kind),
                    detail,
                };
                (cause, skip)
            }
        };
        orphans.flush(&mut issues);
        chain = false;
        let lost = skip_to.unwrap_or(file_len) - at;
        bytes_lost += lost;
        issues.push(RecoveryIssue {
            offset: at,
            bytes_lost: lost,
            cause,
        });
        match skip_to {
            Some(next) => at = next,
            None => break,
        }
    }
    orphans.flush(&mut issues);
    Ok(Scan {
        recovery: Recovery {
            recovered_frames: table.len(),
            frames_lost: total_orphans,
            bytes_lost,
            issues,
        },
        table,
        chunk_count,
    })
}

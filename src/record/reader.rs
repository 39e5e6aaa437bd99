//! Opening a `.cdrec` file: header checks, the index (or a scan when it is missing or
//! broken), and random access to any frame.

use super::cache::FrameCache;
use super::chunk::{self, read_chunk};
use super::error::{RecordError, RecordErrorCause, kind_name};
use super::header::{self, RecordingHeader};
use super::index::{FOOTER_CHUNK_LEN, FooterRecord, FrameEntry, FrameTable, decode_index};
use super::info::RecordingInfo;
use super::recovery::{self, LossCause, Recovery, RecoveryIssue};
use super::schema;
use super::seek::{Seeker, Source};
use super::sizes::{self, FrameBytes};
use crate::frame::Frame;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Frames read back are kept in a small cache (this many, and at most `CACHE_BYTES`).
const CACHE_FRAMES: usize = 16;
const CACHE_BYTES: usize = 64 << 20;

/// A recording opened for reading.
///
/// Reading takes `&self` (the file handle and caches sit behind a mutex), so a reader can be
/// shared between the timeline and the inspector.
pub struct RecordingReader {
    path: PathBuf,
    header: RecordingHeader,
    table: FrameTable,
    chunk_count: u64,
    file_len: u64,
    recovery: Option<Recovery>,
    state: Mutex<ReadState>,
}

struct ReadState {
    file: File,
    seeker: Seeker,
    cache: FrameCache,
    /// Frames decoded for `frame` (cache misses).
    decoded: u64,
}

impl RecordingReader {
    /// Opens a recording: checks the preamble, the header and the schema, then loads the
    /// index, or rebuilds it by scanning when the file was cut short or its index is damaged
    /// (see [`RecordingReader::recovery`]).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, RecordError> {
        let path = path.as_ref();
        let mut file = File::open(path).map_err(|e| RecordError::io(path, None, e))?;
        let file_len = file
            .metadata()
            .map_err(|e| RecordError::io(path, None, e))?
            .len();
        let (header, first_chunk) = header::read(&mut file, path, file_len)?;
        // An older format's frames are decoded through its frozen types (`legacy_v1`), which
        // are its manifest's by construction; only files of this format are compared.
        if header.format_version == header::FORMAT_VERSION {
            schema::check_compatible(&header.schema).map_err(|why| {
                RecordError::at(
                    path,
                    header::PREAMBLE_LEN,
                    RecordErrorCause::SchemaMismatch(why),
                )
            })?;
        }
        let loaded = load_index(
            &mut file,
            path,
            file_len,
            first_chunk,
            header.format_version,
        )
        .and_then(|indexed| {
            match first_damaged_frame(&mut file, path, file_len, &indexed.0) {
                Some(why) => Err(why),
                None => Ok(indexed),
            }
        });
        let (table, chunk_count, recovery) = match loaded {
            Ok((table, chunk_count)) => (table, chunk_count, None),
            Err(why) => {
                let scan = recovery::scan(&mut file, path, file_len, first_chunk, why)?;
                (scan.table, scan.chunk_count, Some(scan.recovery))
            }
        };
        Ok(Self {
            path: path.to_path_buf(),
            header,
            table,
            chunk_count,
            file_len,
            recovery,
            state: Mutex::new(ReadState {
                file,
                seeker: Seeker::default(),
                cache: FrameCache::new(CACHE_FRAMES),
                decoded: 0,
            }),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn header(&self) -> &RecordingHeader {
        &self.header
    }

    /// Number of readable frames.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    pub fn is_empty(&self) -> bool {
        self.table.len() == 0
    }

    /// Where each frame is, with its index and time: the timeline can lay out the whole
    /// recording without decoding a frame.
    pub fn entries(&self) -> &[FrameEntry] {
        self.table.entries()
    }

    /// `Some` when the file had to be scanned: what was recovered and what was lost.
    pub fn recovery(&self) -> Option<&Recovery> {
        self.recovery.as_ref()
    }

    /// Frame `pos` (0-based position in the file, which equals `Frame::index` for an
    /// undamaged recording made from the start).
    pub fn frame(&self, pos: usize) -> Result<Arc<Frame>, RecordError> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(frame) = state.cache.get(pos) {
            return Ok(frame);
        }
        let ReadState {
            file,
            seeker,
            cache,
            decoded,
        } = &mut *state;
        *decoded += 1;
        let frame = Arc::new(seeker.frame(
            Source {
                file,
                path: &self.path,
                file_len: self.file_len,
                table: &self.table,
                version: self.header.format_version,
            },
            pos,
        )?);
        cache.insert(pos, frame.clone(), frame.estimated_bytes(), CACHE_BYTES);
        Ok(frame)
    }

    /// How many frames [`frame`](Self::frame) has decoded so far (not counting cache hits):
    /// what shows that a reader skipped the frames it did not need.
    pub fn frames_decoded(&self) -> u64 {
        self.state
            .lock()
            .map_or_else(|e| e.into_inner().decoded, |s| s.decoded)
    }

    /// Decodes every frame once, checking every checksum: the index lets `open` trust the
    /// file without reading it all, this reads it all.
    pub fn verify(&self) -> Result<(), RecordError> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let ReadState { file, seeker, .. } = &mut *state;
        for pos in 0..self.table.len() {
            seeker.frame(
                Source {
                    file,
                    path: &self.path,
                    file_len: self.file_len,
                    table: &self.table,
                    version: self.header.format_version,
                },
                pos,
            )?;
        }
        Ok(())
    }

    /// Bytes of the frame chunks, stored and uncompressed: reads every chunk (checking its
    /// checksum) but decompresses none.
    pub fn frame_bytes(&self) -> Result<FrameBytes, RecordError> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        sizes::measure(
            &mut state.file,
            &self.path,
            self.file_len,
            &self.table,
            self.header.format_version,
        )
    }

    /// What `collidoscope info` shows.
    pub fn info(&self) -> RecordingInfo {
        RecordingInfo::new(
            &self.path,
            &self.header,
            &self.table,
            self.chunk_count,
            self.file_len,
            self.recovery.clone(),
        )
    }
}

/// Reads every frame chunk the index lists and checks its checksum (no decoding): a damaged
/// chunk in a finished file is then found at open, and the file is scanned as a cut one is,
/// so every other frame is kept and the damage reported. Returns the first damaged chunk.
fn first_damaged_frame(
    file: &mut File,
    path: &Path,
    file_len: u64,
    table: &FrameTable,
) -> Option<RecoveryIssue> {
    // A file that cannot seek fails at its first frame read instead.
    let pos = std::io::Seek::stream_position(file).unwrap_or(0);
    let mut reader = Buffered {
        inner: std::io::BufReader::with_capacity(1 << 20, file),
        pos,
    };
    let mut payload = Vec::new();
    for (frame, entry) in table.entries().iter().enumerate() {
        if read_chunk(&mut reader, path, entry.offset, file_len, &mut payload).is_err() {
            return Some(RecoveryIssue {
                offset: entry.offset,
                bytes_lost: 0,
                cause: LossCause::DamagedFrame { frame },
            });
        }
    }
    None
}

/// Reads the footer and the index it points at. The error is the reason a scan is needed.
fn load_index(
    file: &mut File,
    path: &Path,
    file_len: u64,
    first_chunk: u64,
    version: u32,
) -> Result<(FrameTable, u64), RecoveryIssue> {
    let missing = || RecoveryIssue {
        offset: file_len,
        bytes_lost: 0,
        cause: LossCause::IndexMissing,
    };
    if file_len < first_chunk + FOOTER_CHUNK_LEN {
        return Err(missing());
    }
    let footer_at = file_len - FOOTER_CHUNK_LEN;
    let corrupt = |offset: u64, why: String| RecoveryIssue {
        offset,
        bytes_lost: 0,
        cause: LossCause::IndexCorrupt(why),
    };
    let mut payload = Vec::new();
    let footer = match read_chunk(file, path, footer_at, file_len, &mut payload) {
        Ok(h) if h.kind == chunk::FOOTER => FooterRecord::from_bytes(&payload)
            .ok_or_else(|| corrupt(footer_at, "the footer has the wrong size".into()))?,
        // No footer at the end: the writer never finished.
        Ok(_) => return Err(missing()),
        Err(e) if payload_starts_with_footer_tag(file, footer_at) => {
            return Err(corrupt(footer_at, e.cause.to_string()));
        }
        Err(_) => return Err(missing()),
    };
    let index_at = footer.index_offset;
    if index_at < first_chunk || index_at >= footer_at {
        return Err(corrupt(
            footer_at,
            format!("the footer points at byte {index_at}, outside the file's chunks"),
        ));
    }
    let h = read_chunk(file, path, index_at, footer_at, &mut payload)
        .map_err(|e| corrupt(index_at, e.cause.to_string()))?;
    if h.kind != chunk::INDEX {
        return Err(corrupt(
            index_at,
            format!(
                "the footer points at a {} chunk, not INDX",
                kind_name(h.kind)
            ),
        ));
    }
    if h.end(index_at) != footer_at {
        return Err(corrupt(
            index_at,
            "the index does not end where the footer starts".into(),
        ));
    }
    let record = decode_index(version, &payload)
        .map_err(|e| corrupt(index_at, format!("cannot decode the index: {e}")))?;
    if record.frames.len() as u64 != footer.frame_count {
        return Err(corrupt(
            index_at,
            format!(
                "the index lists {} frames, the footer {}",
                record.frames.len(),
                footer.frame_count
            ),
        ));
    }
    let table = FrameTable::from_entries(record.frames, first_chunk, index_at)
        .map_err(|why| corrupt(index_at, why))?;
    Ok((table, record.chunk_count.saturating_add(2)))
}

/// A buffered reader whose seeks keep the buffer: `BufReader::seek` empties it on every call,
/// so reading the chunks in file order, each behind a seek to where the reader already is,
/// would read the whole buffer again for every chunk.
struct Buffered<'a> {
    inner: std::io::BufReader<&'a mut File>,
    pos: u64,
}

impl std::io::Read for Buffered<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl std::io::Seek for Buffered<'_> {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        match to {
            std::io::SeekFrom::Start(at) => {
                let by = i64::try_from(at as i128 - self.pos as i128)
                    .map_err(|_| std::io::Error::other("a seek out of range"))?;
                self.inner.seek_relative(by)?;
                self.pos = at;
            }
            other => self.pos = self.inner.seek(other)?,
        }
        Ok(self.pos)
    }
}

fn payload_starts_with_footer_tag(file: &mut File, at: u64) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let mut tag = [0u8; 4];
    file.seek(SeekFrom::Start(at))
        .and_then(|_| file.read_exact(&mut tag))
        .is_ok()
        && tag == chunk::FOOTER
}

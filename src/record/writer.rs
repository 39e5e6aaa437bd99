//! Writing a `.cdrec` file, one chunk per frame, each handed to the OS as soon as it is
//! complete.

use super::chunk::{self, CHUNK_HEADER_LEN};
use super::codec;
use super::compress::Packer;
use super::error::{RecordError, RecordErrorCause};
use super::header::{self, FORMAT_VERSION, RecordingHeader, RecordingMeta};
use super::index::{self, FrameEntry, FrameTable};
use super::schema;
use super::seek::{Seeker, Source};
use crate::frame::{BodyState, Frame, StageTimings};
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// How a recording is written.
#[derive(Clone, Debug, PartialEq)]
pub struct WriterOptions {
    /// A keyframe every this many frames (at least 1). Larger saves space, smaller makes
    /// seeking cheaper: a seek decodes at most this many chunks.
    pub keyframe_interval: u32,
    /// Milliseconds since the Unix epoch to store as the creation time; `None` uses the clock
    /// (set it to make byte-identical files, e.g. fixtures).
    pub created_unix_ms: Option<u64>,
    /// Writes nothing that depends on when or how fast the run went: no creation time
    /// (unless `created_unix_ms` gives one) and every frame's wall-clock stage timings as
    /// zero, so two recordings of the same run are byte for byte the same file.
    pub reproducible: bool,
}

impl WriterOptions {
    /// 32: a random seek walks half as many deltas as at 64 (the `record` bench's median
    /// was about 1 ms there), for 0.3 % more bytes a frame in mixed-drop and 0.03 % in
    /// convex-pile, whose frames are mostly trace.
    pub const DEFAULT_KEYFRAME_INTERVAL: u32 = 32;
}

impl Default for WriterOptions {
    fn default() -> Self {
        Self {
            keyframe_interval: Self::DEFAULT_KEYFRAME_INTERVAL,
            created_unix_ms: None,
            reproducible: false,
        }
    }
}

/// What a finished recording holds.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordingSummary {
    pub path: PathBuf,
    pub frames: usize,
    pub keyframes: usize,
    pub bytes: u64,
}

/// What the writer does with its file when dropped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum OnDrop {
    /// A recording: write the index if `finish` was not called, so the file opens without
    /// a scan.
    Finish,
    /// A scratch spill file at a path: remove it.
    Remove,
    /// An anonymous temporary file: the OS removes it.
    Nothing,
}

/// Appends frames to a `.cdrec` file.
///
/// Each frame becomes one chunk written with a single `write` call straight to the file (no
/// user-space buffer), so a process killed at any moment leaves every completed chunk in the
/// OS and a reader recovers them. `finish` (or `checkpoint`) appends the index and footer;
/// writing more frames after a checkpoint first cuts them off again, so the file always ends
/// either with a complete index or with the last frame.
pub struct RecordingWriter {
    path: PathBuf,
    file: File,
    header: RecordingHeader,
    first_chunk: u64,
    table: FrameTable,
    /// Where the next chunk goes: just past the last frame chunk.
    end: u64,
    /// True when the index and footer follow `end`.
    indexed: bool,
    previous: Option<Vec<BodyState>>,
    buf: Vec<u8>,
    packer: Packer,
    seeker: Seeker,
    on_drop: OnDrop,
    /// See [`WriterOptions::reproducible`].
    reproducible: bool,
}

fn now_unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

impl RecordingWriter {
    /// Creates (or replaces) the recording at `path` and writes its header.
    pub fn create(
        path: impl AsRef<Path>,
        meta: RecordingMeta,
        options: WriterOptions,
    ) -> Result<Self, RecordError> {
        let path = path.as_ref();
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .map_err(|e| RecordError::io(path, None, e))?;
        Self::start(path.to_path_buf(), file, meta, options, OnDrop::Finish)
    }

    /// A scratch file for the history's spilled frames: anonymous (never visible, removed by
    /// the OS even after a crash) when `path` is `None`.
    pub(crate) fn spill(path: Option<&Path>) -> Result<Self, RecordError> {
        let meta = RecordingMeta {
            scene_ron: String::new(),
            body_names: Vec::new(),
            dt_s: 0.0,
        };
        let options = WriterOptions::default();
        match path {
            Some(path) => {
                let file = OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .open(path)
                    .map_err(|e| RecordError::io(path, None, e))?;
                Self::start(path.to_path_buf(), file, meta, options, OnDrop::Remove)
            }
            None => {
                let label = PathBuf::from("<history spill file>");
                let file = tempfile::tempfile().map_err(|e| RecordError::io(&label, None, e))?;
                Self::start(label, file, meta, options, OnDrop::Nothing)
            }
        }
    }

    fn start(
        path: PathBuf,
        file: File,
        meta: RecordingMeta,
        options: WriterOptions,
        on_drop: OnDrop,
    ) -> Result<Self, RecordError> {
        let schema = schema::current_manifest()
            .map_err(|e| RecordError::new(&path, None, RecordErrorCause::Invalid(e)))?;
        let header = RecordingHeader {
            format_version: FORMAT_VERSION,
            app_version: env!("CARGO_PKG_VERSION").to_string(),
            created_unix_ms: match (options.created_unix_ms, options.reproducible) {
                (Some(ms), _) => ms,
                (None, true) => 0,
                (None, false) => now_unix_ms(),
            },
            keyframe_interval: options.keyframe_interval.max(1),
            dt_s: meta.dt_s,
            body_names: meta.body_names,
            scene_ron: meta.scene_ron,
            schema: schema.to_string(),
        };
        let mut buf = Vec::new();
        header::encode(&header, &mut buf).map_err(|c| RecordError::new(&path, Some(0), c))?;
        let mut writer = Self {
            path,
            file,
            header,
            first_chunk: buf.len() as u64,
            table: FrameTable::default(),
            end: 0,
            indexed: false,
            previous: None,
            buf: Vec::new(),
            packer: Packer::default(),
            seeker: Seeker::default(),
            on_drop,
            reproducible: options.reproducible,
        };
        writer.write_at_end(&buf)?;
        writer.buf = buf;
        Ok(writer)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn header(&self) -> &RecordingHeader {
        &self.header
    }

    pub fn frame_count(&self) -> usize {
        self.table.len()
    }

    /// The chunk of every frame written so far, in order.
    pub fn frame_entries(&self) -> &[FrameEntry] {
        self.table.entries()
    }

    /// Offset of the first chunk after the header, i.e. the size of a recording without frames.
    pub fn header_len(&self) -> u64 {
        self.first_chunk
    }

    /// Bytes of frames and header on disk (the index not included).
    pub fn bytes_written(&self) -> u64 {
        self.end
    }

    /// Writes `bytes` at `end` and moves `end` past them. On failure the file is cut back to
    /// `end`, so a half-written chunk never sits before later ones.
    fn write_at_end(&mut self, bytes: &[u8]) -> Result<(), RecordError> {
        let at = self.end;
        let result = self
            .file
            .seek(SeekFrom::Start(at))
            .and_then(|_| self.file.write_all(bytes));
        if let Err(e) = result {
            let _ = self.file.set_len(at);
            return Err(RecordError::io(&self.path, Some(at), e));
        }
        self.end += bytes.len() as u64;
        Ok(())
    }

    /// Removes the index and footer that a checkpoint left, before appending frames.
    fn drop_index(&mut self) -> Result<(), RecordError> {
        if self.indexed {
            self.file
                .set_len(self.end)
                .map_err(|e| RecordError::io(&self.path, Some(self.end), e))?;
            self.indexed = false;
        }
        Ok(())
    }

    /// Appends one frame: a keyframe every `keyframe_interval` frames, else a delta.
    pub fn write_frame(&mut self, frame: &Frame) -> Result<(), RecordError> {
        let untimed;
        let frame = if self.reproducible && frame.timings != StageTimings::default() {
            untimed = Frame {
                timings: StageTimings::default(),
                ..frame.clone()
            };
            &untimed
        } else {
            frame
        };
        self.drop_index()?;
        let pos = self.table.len();
        let keyframe = pos.is_multiple_of(self.header.keyframe_interval as usize);
        let previous = if keyframe {
            None
        } else {
            self.previous.as_deref()
        };
        let mut buf = std::mem::take(&mut self.buf);
        let kind = codec::encode_frame_chunk(
            frame,
            previous,
            self.header.dt_s,
            &mut self.packer,
            &mut buf,
        )
        .map_err(|c| RecordError::new(&self.path, Some(self.end), c));
        let result = kind.and_then(|kind| {
            let offset = self.end;
            self.write_at_end(&buf)?;
            self.table.push(FrameEntry {
                offset,
                len: (buf.len() as u64 - CHUNK_HEADER_LEN) as u32,
                keyframe: kind == chunk::KEYFRAME,
                index: frame.index,
                time_s: frame.time_s,
                content_hash: Some(frame.content_hash()),
            });
            Ok(())
        });
        self.buf = buf;
        result?;
        match &mut self.previous {
            Some(p) => p.clone_from(&frame.bodies),
            None => self.previous = Some(frame.bodies.clone()),
        }
        Ok(())
    }

    /// Writes the index and footer after the frames so far, making the file complete as it
    /// stands. More frames can follow: the next `write_frame` removes them first.
    pub fn checkpoint(&mut self) -> Result<(), RecordError> {
        if self.indexed {
            return Ok(());
        }
        let mut buf = std::mem::take(&mut self.buf);
        let chunk_count = 1 + self.table.len() as u64;
        let result =
            index::encode_index_and_footer(self.table.entries(), chunk_count, self.end, &mut buf)
                .map_err(|c| RecordError::new(&self.path, Some(self.end), c))
                .and_then(|_| {
                    let at = self.end;
                    self.write_at_end(&buf)?;
                    self.end = at;
                    Ok(())
                });
        self.buf = buf;
        result?;
        self.indexed = true;
        Ok(())
    }

    /// Asks the OS to put everything on the disk itself (survives a power cut, not only a
    /// crash of the process).
    pub fn sync(&mut self) -> Result<(), RecordError> {
        self.file
            .sync_data()
            .map_err(|e| RecordError::io(&self.path, None, e))
    }

    /// Writes the index and footer and closes the file.
    pub fn finish(mut self) -> Result<RecordingSummary, RecordError> {
        self.checkpoint()?;
        let bytes = self
            .file
            .metadata()
            .map(|m| m.len())
            .map_err(|e| RecordError::io(&self.path, None, e))?;
        Ok(RecordingSummary {
            path: self.path.clone(),
            frames: self.table.len(),
            keyframes: self.table.keyframe_count(),
            bytes,
        })
    }

    /// Reads frame `pos` back from the file.
    pub fn read_frame(&mut self, pos: usize) -> Result<Frame, RecordError> {
        let src = Source {
            file: &mut self.file,
            path: &self.path,
            file_len: self.end,
            table: &self.table,
            version: super::header::FORMAT_VERSION,
        };
        self.seeker.frame(src, pos)
    }

    fn read_bodies(&mut self, pos: usize) -> Result<Vec<BodyState>, RecordError> {
        let src = Source {
            file: &mut self.file,
            path: &self.path,
            file_len: self.end,
            table: &self.table,
            version: super::header::FORMAT_VERSION,
        };
        self.seeker.bodies(src, pos)
    }

    /// Keeps the first `len` frames and cuts the file after them; the next frame written
    /// follows frame `len - 1` (a delta against it, or a keyframe on the usual schedule).
    pub fn truncate_frames(&mut self, len: usize) -> Result<(), RecordError> {
        if len >= self.table.len() {
            return Ok(());
        }
        let previous = match len {
            0 => None,
            _ => Some(self.read_bodies(len - 1)?),
        };
        let new_end = match len {
            0 => self.first_chunk,
            _ => self
                .table
                .get(len - 1)
                .map_or(self.first_chunk, |e| e.end()),
        };
        self.file
            .set_len(new_end)
            .map_err(|e| RecordError::io(&self.path, Some(new_end), e))?;
        self.table.truncate(len);
        self.seeker.forget_from(len);
        self.end = new_end;
        self.indexed = false;
        self.previous = previous;
        Ok(())
    }
}

impl Drop for RecordingWriter {
    fn drop(&mut self) {
        match self.on_drop {
            OnDrop::Finish => {
                // Best effort: an unfinished file is still readable through a scan.
                let _ = self.checkpoint();
            }
            OnDrop::Remove => {
                let _ = std::fs::remove_file(&self.path);
            }
            OnDrop::Nothing => {}
        }
    }
}

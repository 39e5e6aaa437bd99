//! The in-memory history of a run: every frame stays readable, the newest ones in memory
//! within a budget, older ones on disk.

use super::cache::FrameCache;
use super::error::{RecordError, RecordErrorCause};
use super::writer::{RecordingSummary, RecordingWriter};
use crate::frame::Frame;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Frames read back from disk that are kept for scrubbing.
const CACHE_FRAMES: usize = 8;

/// The frames of a run, newest in memory, oldest on disk.
///
/// # Memory budget
/// Frames are measured with [`Frame::estimated_bytes`]. Three quarters of the budget hold the
/// newest frames ("resident"); the last quarter is for a small LRU cache of frames read back
/// from disk. When a push takes the resident frames over their share, the oldest ones
/// *spill*: with a recording attached they are already in the recording file and are simply
/// dropped from memory; otherwise they are written to a spill file (an anonymous temporary
/// file, or the path given to [`History::with_spill_file`], created on the first spill). The
/// newest frame always stays resident, so [`History::memory_bytes`] never exceeds the budget
/// by more than that one frame. `Arc<Frame>`s handed out by [`History::get`] live as long as
/// their holders keep them and are not counted.
///
/// # Forking
/// [`History::truncate`] is the viewer's "resume from this frame": frames from `len` on are
/// dropped, and the next pushed frame follows frame `len - 1`. When the cut falls among the
/// spilled frames, the spill or recording file is cut after frame `len - 1` as well (the
/// frames past the cut are gone from disk too, so a recording always holds exactly the
/// history); the frames kept remain on disk and are read back on demand.
pub struct History {
    budget_bytes: usize,
    /// Frames `spilled..len()`, oldest first, with their estimated size.
    resident: VecDeque<(Arc<Frame>, usize)>,
    resident_bytes: usize,
    /// Frames `0..spilled` are only on disk.
    spilled: usize,
    spill_path: Option<PathBuf>,
    disk: Mutex<Disk>,
}

#[derive(Default)]
struct Disk {
    store: Option<Store>,
    cache: FrameCache,
}

struct Store {
    writer: RecordingWriter,
    /// A recording holds every frame (written at push); a spill file only `0..spilled`.
    recording: bool,
}

impl Default for FrameCache {
    fn default() -> Self {
        FrameCache::new(CACHE_FRAMES)
    }
}

fn memory_path() -> &'static Path {
    Path::new("<history>")
}

impl History {
    /// 256 MiB: an hour of a 60-body scene at 60 Hz without traces stays in memory.
    pub const DEFAULT_BUDGET_BYTES: usize = 256 << 20;

    pub fn new(budget_bytes: usize) -> Self {
        Self {
            budget_bytes,
            resident: VecDeque::new(),
            resident_bytes: 0,
            spilled: 0,
            spill_path: None,
            disk: Mutex::new(Disk::default()),
        }
    }

    /// Spills to a file at `path` (created on the first spill, removed when the history is
    /// dropped) rather than to an anonymous temporary file.
    pub fn with_spill_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.spill_path = Some(path.into());
        self
    }

    /// A history that records every frame into `writer` as it is pushed.
    pub fn recording(budget_bytes: usize, writer: RecordingWriter) -> Result<Self, RecordError> {
        let mut h = Self::new(budget_bytes);
        h.attach_recording(writer)?;
        Ok(h)
    }

    fn disk(&self) -> std::sync::MutexGuard<'_, Disk> {
        self.disk.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn len(&self) -> usize {
        self.spilled + self.resident.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Frames only on disk (the first `spilled_len()` ones).
    pub fn spilled_len(&self) -> usize {
        self.spilled
    }

    pub fn budget_bytes(&self) -> usize {
        self.budget_bytes
    }

    /// Estimated bytes of the frames held: the resident ones and the read-back cache.
    pub fn memory_bytes(&self) -> usize {
        self.resident_bytes + self.disk().cache.bytes()
    }

    fn resident_limit(&self) -> usize {
        self.budget_bytes - self.cache_limit()
    }

    fn cache_limit(&self) -> usize {
        self.budget_bytes / 4
    }

    pub fn is_recording(&self) -> bool {
        self.disk().store.as_ref().is_some_and(|s| s.recording)
    }

    /// The recording file, when one is attached.
    pub fn recording_path(&self) -> Option<PathBuf> {
        let disk = self.disk();
        disk.store
            .as_ref()
            .filter(|s| s.recording)
            .map(|s| s.writer.path().to_path_buf())
    }

    /// Changes the budget; frames spill at once if the history is now over it.
    pub fn set_budget_bytes(&mut self, budget_bytes: usize) -> Result<(), RecordError> {
        self.budget_bytes = budget_bytes;
        let limit = self.cache_limit();
        self.disk().cache.shrink_to(limit);
        self.spill_excess()
    }

    /// Appends a frame. With a recording attached it is written to the file first; if that
    /// fails, the error is returned and the frame is not added.
    pub fn push(&mut self, frame: Frame) -> Result<(), RecordError> {
        {
            let mut disk = self.disk();
            if let Some(store) = disk.store.as_mut().filter(|s| s.recording) {
                store.writer.write_frame(&frame)?;
            }
        }
        let bytes = frame.estimated_bytes();
        self.resident.push_back((Arc::new(frame), bytes));
        self.resident_bytes += bytes;
        self.spill_excess()
    }

    /// Moves the oldest resident frames to disk until the resident ones fit their share of
    /// the budget, keeping at least the newest frame.
    fn spill_excess(&mut self) -> Result<(), RecordError> {
        let limit = self.resident_limit();
        while self.resident_bytes > limit && self.resident.len() > 1 {
            let Some((frame, bytes)) = self.resident.front().cloned() else {
                break;
            };
            {
                let mut disk = self.disk();
                let store = match &mut disk.store {
                    Some(store) => store,
                    slot @ None => slot.insert(Store {
                        writer: RecordingWriter::spill(self.spill_path.as_deref())?,
                        recording: false,
                    }),
                };
                if !store.recording {
                    store.writer.write_frame(&frame)?;
                }
            }
            self.resident.pop_front();
            self.resident_bytes -= bytes;
            self.spilled += 1;
        }
        Ok(())
    }

    /// Frame `i`, from memory or read back from disk.
    pub fn get(&self, i: usize) -> Result<Arc<Frame>, RecordError> {
        if i >= self.len() {
            return Err(RecordError::new(
                memory_path(),
                None,
                RecordErrorCause::FrameOutOfRange {
                    index: i,
                    len: self.len(),
                },
            ));
        }
        if i >= self.spilled {
            return Ok(self.resident[i - self.spilled].0.clone());
        }
        let cache_limit = self.cache_limit();
        let mut disk = self.disk();
        if let Some(frame) = disk.cache.get(i) {
            return Ok(frame);
        }
        let Some(store) = disk.store.as_mut() else {
            return Err(RecordError::new(
                memory_path(),
                None,
                RecordErrorCause::Invalid(format!(
                    "frame {i} was spilled but there is no spill file"
                )),
            ));
        };
        let frame = Arc::new(store.writer.read_frame(i)?);
        disk.cache
            .insert(i, frame.clone(), frame.estimated_bytes(), cache_limit);
        Ok(frame)
    }

    /// The newest frame.
    pub fn latest(&self) -> Option<Arc<Frame>> {
        self.resident.back().map(|(f, _)| f.clone())
    }

    /// Keeps frames `0..len` and drops the rest (see "Forking" above). Does nothing when
    /// `len >= self.len()`.
    pub fn truncate(&mut self, len: usize) -> Result<(), RecordError> {
        if len >= self.len() {
            return Ok(());
        }
        let mut disk = self.disk();
        if let Some(store) = disk.store.as_mut()
            && (store.recording || len < self.spilled)
        {
            store.writer.truncate_frames(len)?;
        }
        disk.cache.forget_from(len);
        drop(disk);
        if len >= self.spilled {
            let keep = len - self.spilled;
            for (_, bytes) in self.resident.drain(keep..) {
                self.resident_bytes -= bytes;
            }
        } else {
            self.resident.clear();
            self.resident_bytes = 0;
            self.spilled = len;
        }
        Ok(())
    }

    /// Starts recording into `writer`, which must be new (no frames yet): the frames already
    /// in the history are written first, then every pushed frame. The recording replaces the
    /// spill file.
    pub fn attach_recording(&mut self, mut writer: RecordingWriter) -> Result<(), RecordError> {
        if writer.frame_count() != 0 {
            return Err(RecordError::new(
                writer.path(),
                None,
                RecordErrorCause::Invalid("the recording to attach already has frames".into()),
            ));
        }
        if self.is_recording() {
            return Err(RecordError::new(
                writer.path(),
                None,
                RecordErrorCause::Invalid("the history is already recording".into()),
            ));
        }
        for i in 0..self.len() {
            let frame = self.get(i)?;
            writer.write_frame(&frame)?;
        }
        self.disk().store = Some(Store {
            writer,
            recording: true,
        });
        Ok(())
    }

    /// Stops recording: finishes the file (index and footer) and returns its summary. The
    /// spilled frames are first copied to a spill file so that they stay readable.
    pub fn finish_recording(&mut self) -> Result<Option<RecordingSummary>, RecordError> {
        let mut disk = self.disk();
        if !disk.store.as_ref().is_some_and(|s| s.recording) {
            return Ok(None);
        }
        let mut spill = None;
        if self.spilled > 0 {
            let mut writer = RecordingWriter::spill(self.spill_path.as_deref())?;
            if let Some(store) = disk.store.as_mut() {
                for i in 0..self.spilled {
                    let frame = store.writer.read_frame(i)?;
                    writer.write_frame(&frame)?;
                }
            }
            spill = Some(Store {
                writer,
                recording: false,
            });
        }
        let old = std::mem::replace(&mut disk.store, spill);
        match old {
            Some(store) => store.writer.finish().map(Some),
            None => Ok(None),
        }
    }
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("History")
            .field("len", &self.len())
            .field("spilled", &self.spilled)
            .field("memory_bytes", &self.memory_bytes())
            .field("budget_bytes", &self.budget_bytes)
            .finish()
    }
}

//! The frames of a session: an opened recording (read in place, never copied) followed by the
//! frames stepped in the app, which go to a memory-budgeted [`History`].
//!
//! A fork inside the recording keeps its first frames and drops the rest of it from the
//! session (the file itself is untouched); a fork inside the history truncates the history.

use crate::record::{Frame, History, RecordError, RecordingReader};
use std::sync::Arc;

pub struct FrameStore {
    base: Option<Arc<RecordingReader>>,
    /// Frames of `base` that belong to the session.
    base_len: usize,
    history: History,
}

impl FrameStore {
    pub fn in_memory(budget_bytes: usize) -> Self {
        Self {
            base: None,
            base_len: 0,
            history: History::new(budget_bytes),
        }
    }

    pub fn over_recording(reader: Arc<RecordingReader>, budget_bytes: usize) -> Self {
        Self {
            base_len: reader.len(),
            base: Some(reader),
            history: History::new(budget_bytes),
        }
    }

    pub fn len(&self) -> usize {
        self.base_len + self.history.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn recording(&self) -> Option<&Arc<RecordingReader>> {
        self.base.as_ref()
    }

    /// Frames read from the recording (the rest were stepped in the app).
    pub fn recorded_len(&self) -> usize {
        self.base_len
    }

    pub fn frame(&self, pos: usize) -> Result<Arc<Frame>, RecordError> {
        match &self.base {
            Some(reader) if pos < self.base_len => reader.frame(pos),
            // Without a recording `base_len` is 0.
            _ => self.history.get(pos.saturating_sub(self.base_len)),
        }
    }

    pub fn push(&mut self, frame: Frame) -> Result<(), RecordError> {
        self.history.push(frame)
    }

    /// Keeps frames `0..len`.
    pub fn truncate(&mut self, len: usize) -> Result<(), RecordError> {
        if len <= self.base_len {
            self.base_len = len;
            self.history.truncate(0)
        } else {
            self.history.truncate(len - self.base_len)
        }
    }

    pub fn memory_bytes(&self) -> usize {
        self.history.memory_bytes()
    }

    pub fn budget_bytes(&self) -> usize {
        self.history.budget_bytes()
    }

    pub fn set_budget_bytes(&mut self, bytes: usize) -> Result<(), RecordError> {
        self.history.set_budget_bytes(bytes)
    }

    /// Frames of the history that were spilled to disk.
    pub fn spilled_len(&self) -> usize {
        self.history.spilled_len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(index: u64) -> Frame {
        Frame {
            index,
            time_s: index as f64,
            ..Default::default()
        }
    }

    #[test]
    fn history_only_push_get_truncate() {
        let mut s = FrameStore::in_memory(1 << 20);
        for i in 0..5 {
            s.push(frame(i)).expect("push");
        }
        assert_eq!(s.len(), 5);
        assert_eq!(s.frame(3).expect("frame").index, 3);
        assert!(s.frame(5).is_err());
        s.truncate(2).expect("truncate");
        assert_eq!(s.len(), 2);
        s.push(frame(42)).expect("push");
        assert_eq!(s.frame(2).expect("frame").index, 42);
    }

    #[test]
    fn recording_then_history() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("r.cdrec");
        let meta = crate::record::RecordingMeta {
            scene_ron: String::new(),
            body_names: vec![],
            dt_s: 1.0,
        };
        let mut w = crate::record::RecordingWriter::create(&path, meta, Default::default())
            .expect("create");
        for i in 0..4 {
            w.write_frame(&frame(i)).expect("write");
        }
        w.finish().expect("finish");
        let reader = Arc::new(RecordingReader::open(&path).expect("open"));
        let mut s = FrameStore::over_recording(reader, 1 << 20);
        assert_eq!(s.len(), 4);
        s.push(frame(100)).expect("push");
        assert_eq!(s.frame(4).expect("frame").index, 100);
        assert_eq!(s.frame(1).expect("frame").index, 1);
        // Fork inside the recording: the history goes, the recording is cut short.
        s.truncate(2).expect("truncate");
        assert_eq!((s.len(), s.recorded_len()), (2, 2));
        s.push(frame(7)).expect("push");
        assert_eq!(s.frame(2).expect("frame").index, 7);
        assert!(s.frame(3).is_err());
    }
}

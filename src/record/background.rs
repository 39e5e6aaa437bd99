//! Writing a recording on a thread of its own, so that encoding, predicting and compressing a
//! frame (most of what recording costs) overlap the next step instead of lengthening it.
//!
//! The stepping thread hands each frame over through a short bounded queue: when the disk or
//! the encoder falls behind, stepping waits rather than memory growing. A frame is on the OS
//! once the writer thread has taken it from the queue and written its chunk; a process killed
//! before that loses at most the queued frames, and every chunk written before stays
//! recoverable, as with [`RecordingWriter`].

use super::error::{RecordError, RecordErrorCause};
use super::writer::{RecordingSummary, RecordingWriter};
use crate::frame::Frame;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread::JoinHandle;

/// Frames that may wait for the writer thread: enough to ride out one slow frame (a keyframe,
/// a burst of trace events) without the stepper waiting, few enough that a crash loses little.
pub const DEFAULT_QUEUE_FRAMES: usize = 4;

enum Job {
    Frame(Arc<Frame>),
    /// Answers once every frame sent before it is written.
    Flush(mpsc::Sender<()>),
}

/// A [`RecordingWriter`] driven from a thread of its own.
///
/// A write error stops the writer thread; the frames written before it keep their chunks and
/// the file gets its index (as when a [`RecordingWriter`] is dropped). The error is returned
/// by the next [`write_frame`](Self::write_frame), [`flush`](Self::flush) or
/// [`finish`](Self::finish).
pub struct BackgroundWriter {
    path: PathBuf,
    jobs: Option<SyncSender<Job>>,
    worker: Option<JoinHandle<Result<RecordingWriter, RecordError>>>,
    sent: usize,
}

impl BackgroundWriter {
    /// Starts the writer thread with a queue of `queue_frames` frames (at least 1).
    pub fn spawn(writer: RecordingWriter, queue_frames: usize) -> Result<Self, RecordError> {
        let path = writer.path().to_path_buf();
        let (jobs, queue) = mpsc::sync_channel(queue_frames.max(1));
        let worker = std::thread::Builder::new()
            .name("recording writer".into())
            .spawn(move || drain(writer, queue))
            .map_err(|e| RecordError::io(&path, None, e))?;
        Ok(Self {
            path,
            jobs: Some(jobs),
            worker: Some(worker),
            sent: 0,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Frames handed over so far (written, or waiting in the queue).
    pub fn frames_sent(&self) -> usize {
        self.sent
    }

    /// Queues `frame`; waits only while the queue is full.
    pub fn write_frame(&mut self, frame: impl Into<Arc<Frame>>) -> Result<(), RecordError> {
        self.send(Job::Frame(frame.into()))?;
        self.sent += 1;
        Ok(())
    }

    /// Waits until every frame queued so far is written.
    pub fn flush(&mut self) -> Result<(), RecordError> {
        let (done, wait) = mpsc::channel();
        self.send(Job::Flush(done))?;
        match wait.recv() {
            Ok(()) => Ok(()),
            Err(_) => Err(self.stopped()),
        }
    }

    /// Writes the queued frames, then the index and footer, and closes the file.
    pub fn finish(mut self) -> Result<RecordingSummary, RecordError> {
        self.jobs = None;
        self.join()?.finish()
    }

    fn send(&mut self, job: Job) -> Result<(), RecordError> {
        let sent = self.jobs.as_ref().map(|jobs| jobs.send(job));
        match sent {
            Some(Ok(())) => Ok(()),
            _ => Err(self.stopped()),
        }
    }

    /// Why the writer thread stopped: its error, once; afterwards that it has stopped.
    fn stopped(&mut self) -> RecordError {
        self.jobs = None;
        match self.join() {
            Err(e) => e,
            Ok(_) => RecordError::new(
                &self.path,
                None,
                RecordErrorCause::Invalid("the recording writer has stopped".into()),
            ),
        }
    }

    fn join(&mut self) -> Result<RecordingWriter, RecordError> {
        let Some(worker) = self.worker.take() else {
            return Err(RecordError::new(
                &self.path,
                None,
                RecordErrorCause::Invalid(
                    "the recording writer stopped after an earlier error".into(),
                ),
            ));
        };
        worker.join().unwrap_or_else(|_| {
            Err(RecordError::new(
                &self.path,
                None,
                RecordErrorCause::Invalid("the recording writer thread panicked".into()),
            ))
        })
    }
}

impl Drop for BackgroundWriter {
    /// Writes what is queued; the file gets its index when the writer inside is dropped.
    fn drop(&mut self) {
        self.jobs = None;
        let _ = self.join();
    }
}

fn drain(
    mut writer: RecordingWriter,
    queue: Receiver<Job>,
) -> Result<RecordingWriter, RecordError> {
    for job in queue {
        match job {
            Job::Frame(frame) => writer.write_frame(&frame)?,
            Job::Flush(done) => {
                let _ = done.send(());
            }
        }
    }
    Ok(writer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{RecordingMeta, RecordingReader, WriterOptions};

    fn meta() -> RecordingMeta {
        RecordingMeta {
            scene_ron: String::new(),
            body_names: vec!["a".into()],
            dt_s: 0.01,
        }
    }

    fn frame(index: u64) -> Frame {
        Frame {
            index,
            time_s: index as f64 * 0.01,
            ..Default::default()
        }
    }

    #[test]
    fn frames_arrive_in_order_and_finish_indexes_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bg.cdrec");
        let w = RecordingWriter::create(&path, meta(), WriterOptions::default()).unwrap();
        let mut bg = BackgroundWriter::spawn(w, 2).unwrap();
        for i in 0..100 {
            bg.write_frame(frame(i)).unwrap();
        }
        bg.flush().unwrap();
        assert_eq!(bg.frames_sent(), 100);
        let summary = bg.finish().unwrap();
        assert_eq!(summary.frames, 100);
        let r = RecordingReader::open(&path).unwrap();
        assert!(r.recovery().is_none());
        let indices: Vec<u64> = (0..r.len()).map(|i| r.frame(i).unwrap().index).collect();
        assert_eq!(indices, (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn flush_puts_every_queued_frame_on_the_os() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bg.cdrec");
        let w = RecordingWriter::create(&path, meta(), WriterOptions::default()).unwrap();
        let mut bg = BackgroundWriter::spawn(w, 8).unwrap();
        for i in 0..7 {
            bg.write_frame(frame(i)).unwrap();
        }
        bg.flush().unwrap();
        // Read while the writer is still open: a scan finds all seven chunks.
        let r = RecordingReader::open(&path).unwrap();
        assert_eq!(r.len(), 7);
        drop(bg);
        assert!(RecordingReader::open(&path).unwrap().recovery().is_none());
    }
}

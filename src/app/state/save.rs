//! Writing the session's frames to a `.cdrec` a slice at a time, between UI frames, so a long
//! history saves with a progress bar and the UI keeps answering.

use super::session::Session;
use crate::record::{RecordingMeta, RecordingWriter, WriterOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub struct SaveJob {
    pub path: PathBuf,
    writer: Option<RecordingWriter>,
    next: usize,
    pub total: usize,
}

pub enum SaveProgress {
    Working,
    Done(String),
    Failed(String),
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

impl SaveJob {
    /// `reproducible`: see [`WriterOptions::reproducible`].
    pub fn start(session: &Session, path: PathBuf, reproducible: bool) -> Result<Self, String> {
        if let Some(reader) = session.store().recording()
            && same_file(reader.path(), &path)
        {
            return Err(format!(
                "{} is the recording being replayed: save to another file",
                path.display()
            ));
        }
        let meta = RecordingMeta {
            scene_ron: session.scene.to_ron(),
            body_names: session
                .catalog
                .bodies
                .iter()
                .map(|b| b.name.clone())
                .collect(),
            dt_s: session.dt_s(),
        };
        let options = WriterOptions {
            reproducible,
            ..WriterOptions::default()
        };
        let writer = RecordingWriter::create(&path, meta, options).map_err(|e| e.to_string())?;
        Ok(Self {
            path,
            writer: Some(writer),
            next: 0,
            total: session.len(),
        })
    }

    pub fn fraction(&self) -> f32 {
        if self.total == 0 {
            1.0
        } else {
            self.next as f32 / self.total as f32
        }
    }

    /// Writes frames for about `budget` of time.
    pub fn work(&mut self, session: &Session, budget: Duration) -> SaveProgress {
        let started = Instant::now();
        let Some(writer) = self.writer.as_mut() else {
            return SaveProgress::Failed("the save was already finished".into());
        };
        while self.next < self.total.min(session.len()) {
            let frame = match session.frame(self.next) {
                Ok(f) => f,
                Err(e) => return SaveProgress::Failed(e.to_string()),
            };
            if let Err(e) = writer.write_frame(&frame) {
                return SaveProgress::Failed(e.to_string());
            }
            self.next += 1;
            if started.elapsed() >= budget {
                return SaveProgress::Working;
            }
        }
        match self.writer.take().map(|w| w.finish()) {
            Some(Ok(summary)) => SaveProgress::Done(format!(
                "saved {} frames ({} bytes) to {}",
                summary.frames,
                summary.bytes,
                summary.path.display()
            )),
            Some(Err(e)) => SaveProgress::Failed(e.to_string()),
            None => SaveProgress::Failed("the save was already finished".into()),
        }
    }
}

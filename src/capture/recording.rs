//! Items straight into a `.cdrec` recording: what `ingest` and the Rust API's recording mode
//! share.
//!
//! The recording's header holds the scene, and the scene holds every body; a stream may
//! declare a body after its first step. So the file is started with the scene known at the
//! first step, and when a later declaration changes the scene, `finish` writes the file
//! again with the whole scene (its frames copied over). Each frame reaches the OS as soon as
//! it is encoded, on the writer's own thread: a killed capture keeps every step but the few still
//! queued.

use super::assemble::Assembler;
use super::fields::FieldError;
use super::item::Item;
use crate::record::{
    BackgroundWriter, DEFAULT_QUEUE_FRAMES, RecordError, RecordingMeta, RecordingReader,
    RecordingWriter, WriterOptions,
};
use std::path::{Path, PathBuf};

pub struct CaptureRecorder {
    assembler: Assembler,
    path: PathBuf,
    options: WriterOptions,
    /// Encoding and compressing a step happen on the writer's own thread: the engine's loop
    /// pays for assembling the frame and queueing it.
    writer: Option<BackgroundWriter>,
    /// The scene generation the file's header holds.
    written_generation: u64,
}

/// What a finished capture recording holds.
#[derive(Clone, Debug, PartialEq)]
pub struct CaptureSummary {
    pub path: PathBuf,
    pub engine: String,
    pub frames: u64,
    pub bytes: u64,
    /// The engine frame of a step begun and never ended (lost with the cut).
    pub cut_frame: Option<u64>,
    /// True when a body declared after the first step made `finish` write the file again.
    pub rewritten: bool,
}

impl CaptureRecorder {
    pub fn new(path: impl AsRef<Path>, options: WriterOptions) -> Self {
        Self {
            assembler: Assembler::new(),
            path: path.as_ref().to_path_buf(),
            options,
            writer: None,
            written_generation: 0,
        }
    }

    pub fn assembler(&mut self) -> &mut Assembler {
        &mut self.assembler
    }

    pub fn frames(&self) -> u64 {
        self.assembler.frames()
    }

    /// Takes one item. An item that breaks the contract is refused with the field and the
    /// cause, and changes nothing; a recording error (a full disk) is returned as such.
    pub fn push(&mut self, item: Item) -> Result<(), PushError> {
        let frame = self.assembler.push(item).map_err(PushError::Item)?;
        if let Some(frame) = frame {
            if self.writer.is_none() {
                self.writer = Some(self.start()?);
            }
            if let Some(writer) = self.writer.as_mut() {
                writer.write_frame(frame).map_err(PushError::Record)?;
            }
        }
        Ok(())
    }

    fn start(&mut self) -> Result<BackgroundWriter, PushError> {
        self.written_generation = self.assembler.generation();
        let writer = RecordingWriter::create(&self.path, self.meta(), self.options.clone())
            .map_err(PushError::Record)?;
        BackgroundWriter::spawn(writer, DEFAULT_QUEUE_FRAMES).map_err(PushError::Record)
    }

    fn meta(&self) -> RecordingMeta {
        let scene = self.assembler.scene();
        RecordingMeta {
            scene_ron: scene.to_ron(),
            body_names: self.assembler.body_names(),
            dt_s: scene.solver.dt_s,
        }
    }

    /// Writes the index (and the whole scene, when it grew after the first step).
    pub fn finish(mut self) -> Result<CaptureSummary, RecordError> {
        let cut_frame = self.assembler.open_frame();
        let (summary, rewritten) = match self.writer.take() {
            Some(w) => {
                let grown =
                    self.assembler.generation() != self.written_generation && w.frames_sent() > 0;
                (w.finish()?, grown)
            }
            None => (
                RecordingWriter::create(&self.path, self.meta(), self.options.clone())?.finish()?,
                false,
            ),
        };
        let bytes = if rewritten {
            self.rewrite()?
        } else {
            summary.bytes
        };
        Ok(CaptureSummary {
            path: self.path.clone(),
            engine: self
                .assembler
                .scene()
                .name
                .trim_start_matches("captured from ")
                .into(),
            frames: self.assembler.frames(),
            bytes,
            cut_frame,
            rewritten,
        })
    }

    /// The file again, with the final scene in its header: written next to it, then moved
    /// over it, so a failure leaves the first file whole.
    fn rewrite(&self) -> Result<u64, RecordError> {
        let reader = RecordingReader::open(&self.path)?;
        let tmp = self.path.with_extension("cdrec.rewrite");
        let mut writer = RecordingWriter::create(&tmp, self.meta(), self.options.clone())?;
        for pos in 0..reader.len() {
            writer.write_frame(reader.frame(pos)?.as_ref())?;
        }
        let summary = writer.finish()?;
        std::fs::rename(&tmp, &self.path).map_err(|e| RecordError::io(&self.path, None, e))?;
        Ok(summary.bytes)
    }
}

#[derive(Debug)]
pub enum PushError {
    Item(FieldError),
    Record(RecordError),
}

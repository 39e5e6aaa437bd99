//! The Rust capture API: an engine describes its run to a [`Capture`], which writes the
//! capture stream (to a file, a socket, anything that writes) or a recording directly.

use super::EngineId;
use super::item::*;
use super::recording::{CaptureRecorder, CaptureSummary, PushError};
use super::write::write_item;
use crate::record::WriterOptions;
use std::io::Write;
use std::path::Path;

/// Why a capture call failed.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// The item breaks the contract (an unknown id, a frame number going back): nothing was
    /// written for it, and the capture goes on.
    #[error("{kind}: {field}: {cause}")]
    Item {
        kind: &'static str,
        field: String,
        cause: String,
    },
    #[error("writing the capture stream: {0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Record(#[from] crate::record::RecordError),
}

enum Sink {
    Stream {
        out: Box<dyn Write + Send>,
        line: String,
        /// The items a recording would refuse are refused here too, so a stream and a
        /// recording of the same calls hold the same run.
        check: Box<super::assemble::Assembler>,
        frames: u64,
    },
    Recording(Box<CaptureRecorder>),
}

/// A capture in progress. Calls follow the stream's order: declarations, then per step
/// [`begin_step`](Capture::begin_step), the states, pairs, contacts and events,
/// [`end_step`](Capture::end_step); [`finish`](Capture::finish) at the end.
pub struct Capture {
    sink: Sink,
    engine: String,
}

impl Capture {
    /// Writes the capture stream to `out` (buffer it: each call writes one line).
    pub fn to_stream(
        out: impl Write + Send + 'static,
        header: Header,
    ) -> Result<Self, CaptureError> {
        let engine = header.engine.clone();
        let mut capture = Self {
            sink: Sink::Stream {
                out: Box::new(out),
                line: String::new(),
                check: Box::default(),
                frames: 0,
            },
            engine,
        };
        capture.push(Item::Header(header))?;
        Ok(capture)
    }

    /// Writes a `.cdrec` recording at `path`; every step reaches the file as it ends.
    pub fn to_recording(path: impl AsRef<Path>, header: Header) -> Result<Self, CaptureError> {
        Self::to_recording_with(path, header, WriterOptions::default())
    }

    pub fn to_recording_with(
        path: impl AsRef<Path>,
        header: Header,
        options: WriterOptions,
    ) -> Result<Self, CaptureError> {
        let engine = header.engine.clone();
        let mut capture = Self {
            sink: Sink::Recording(Box::new(CaptureRecorder::new(path, options))),
            engine,
        };
        capture.push(Item::Header(header))?;
        Ok(capture)
    }

    /// Any item. The named calls below are this with the item built for you.
    pub fn push(&mut self, mut item: Item) -> Result<(), CaptureError> {
        let kind = item.kind();
        let refused = |e: super::fields::FieldError| CaptureError::Item {
            kind,
            field: e.field,
            cause: e.cause,
        };
        match &mut self.sink {
            Sink::Stream {
                out,
                line,
                check,
                frames,
            } => {
                line.clear();
                // The line carries the engine's numbers as given; the reader normalises them.
                write_item(&item, line);
                normalise(&mut item).map_err(refused)?;
                if check.push(item).map_err(refused)?.is_some() {
                    *frames += 1;
                }
                out.write_all(line.as_bytes())?;
            }
            Sink::Recording(r) => {
                normalise(&mut item).map_err(refused)?;
                match r.push(item) {
                    Ok(()) => {}
                    Err(PushError::Item(e)) => return Err(refused(e)),
                    Err(PushError::Record(e)) => return Err(e.into()),
                }
            }
        }
        Ok(())
    }

    pub fn declare_shape(
        &mut self,
        id: impl Into<EngineId>,
        shape: CapturedShape,
    ) -> Result<(), CaptureError> {
        self.push(Item::Shape(ShapeItem {
            id: id.into(),
            shape,
            approximates: None,
        }))
    }

    pub fn declare_body(
        &mut self,
        id: impl Into<EngineId>,
        name: Option<&str>,
        motion: Motion,
    ) -> Result<(), CaptureError> {
        self.push(Item::Body(BodyItem {
            id: id.into(),
            name: name.map(str::to_string),
            motion,
        }))
    }

    pub fn declare_collider(&mut self, collider: ColliderItem) -> Result<(), CaptureError> {
        self.push(Item::Collider(collider))
    }

    pub fn remove_body(&mut self, id: impl Into<EngineId>) -> Result<(), CaptureError> {
        self.push(Item::Remove(RemoveItem {
            id: id.into(),
            what: Some(Removed::Body),
        }))
    }

    pub fn remove_collider(&mut self, id: impl Into<EngineId>) -> Result<(), CaptureError> {
        self.push(Item::Remove(RemoveItem {
            id: id.into(),
            what: Some(Removed::Collider),
        }))
    }

    pub fn begin_step(&mut self, frame: u64, time_s: f64) -> Result<(), CaptureError> {
        self.push(Item::Frame(FrameItem {
            frame,
            time_s: Some(time_s),
        }))
    }

    pub fn state(&mut self, state: StateItem) -> Result<(), CaptureError> {
        self.push(Item::State(state))
    }

    pub fn pair(
        &mut self,
        a: impl Into<EngineId>,
        b: impl Into<EngineId>,
        touching: Option<bool>,
    ) -> Result<(), CaptureError> {
        self.push(Item::Pair(PairItem {
            a: a.into(),
            b: b.into(),
            touching,
        }))
    }

    pub fn contact(&mut self, contact: ContactItem) -> Result<(), CaptureError> {
        self.push(Item::Contact(contact))
    }

    pub fn event(&mut self, event: EventItem) -> Result<(), CaptureError> {
        self.push(Item::Event(event))
    }

    pub fn end_step(&mut self, state_hash: Option<String>) -> Result<(), CaptureError> {
        self.push(Item::EndFrame(EndFrameItem { state_hash }))
    }

    /// Flushes the stream, or writes the recording's index.
    pub fn finish(self) -> Result<CaptureSummary, CaptureError> {
        match self.sink {
            Sink::Stream {
                mut out,
                frames,
                check,
                ..
            } => {
                out.flush()?;
                Ok(CaptureSummary {
                    path: Default::default(),
                    engine: self.engine,
                    frames,
                    bytes: 0,
                    cut_frame: check.open_frame(),
                    rewritten: false,
                })
            }
            Sink::Recording(r) => Ok(r.finish()?),
        }
    }
}

/// An item's pose as the stream's reader takes it: the rotation normalised (see
/// [`unit_rotation`](super::fields::unit_rotation)). Without this, a recording made through
/// the API would hold an engine's slightly-off-unit quaternions (an f32 one widened, say) as
/// given, and the same calls through the stream would read back different numbers.
fn normalise(item: &mut Item) -> Result<(), super::fields::FieldError> {
    let pose = match item {
        Item::State(s) => &mut s.pose,
        Item::Collider(c) => &mut c.pose,
        _ => return Ok(()),
    };
    pose.rotation = super::fields::unit_rotation(pose.rotation).ok_or_else(|| {
        super::fields::FieldError::new("pose.rotation", super::fields::ZERO_QUATERNION)
    })?;
    Ok(())
}

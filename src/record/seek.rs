//! Decoding any frame of a file: from the nearest keyframe at or before it, through the
//! deltas. The bodies of the last keyframe and of the last frame decoded are kept, so playing
//! forward costs one delta per frame and jumping around inside a keyframe interval is cheap.

use super::chunk::{self, read_chunk};
use super::decode::{decode_frame, decode_keeping_bodies};
use super::error::{RecordError, RecordErrorCause, kind_name};
use super::index::FrameTable;
use super::records::Decoded;
use crate::frame::{BodyState, Frame};
use std::io::{Read, Seek};
use std::path::Path;

#[derive(Default)]
pub(crate) struct Seeker {
    last: Option<(usize, Vec<BodyState>)>,
    keyframe: Option<(usize, Vec<BodyState>)>,
    payload: Vec<u8>,
    /// The format version of the file last walked.
    version: u32,
}

/// A file to decode frames from, with its frame table.
pub(crate) struct Source<'a, R> {
    pub file: &'a mut R,
    pub path: &'a Path,
    pub file_len: u64,
    pub table: &'a FrameTable,
    /// The file's format version: how its frame records are laid out.
    pub version: u32,
}

impl Seeker {
    /// Forgets what was decoded at `pos` and after (the file was cut there).
    pub fn forget_from(&mut self, pos: usize) {
        if self.last.as_ref().is_some_and(|(p, _)| *p >= pos) {
            self.last = None;
        }
        if self.keyframe.as_ref().is_some_and(|(p, _)| *p >= pos) {
            self.keyframe = None;
        }
    }

    pub fn frame<R: Read + Seek>(
        &mut self,
        src: Source<'_, R>,
        pos: usize,
    ) -> Result<Frame, RecordError> {
        let path = src.path;
        let (frame, bodies) = self.walk(src, pos, true)?;
        let frame = frame.ok_or_else(|| {
            RecordError::new(
                path,
                None,
                RecordErrorCause::Invalid(format!("frame {pos} decoded without its data")),
            )
        })?;
        self.last = Some((pos, bodies));
        Ok(frame)
    }

    /// The bodies of frame `pos` only, skipping its trace.
    pub fn bodies<R: Read + Seek>(
        &mut self,
        src: Source<'_, R>,
        pos: usize,
    ) -> Result<Vec<BodyState>, RecordError> {
        let (_, bodies) = self.walk(src, pos, false)?;
        self.last = Some((pos, bodies.clone()));
        Ok(bodies)
    }

    fn walk<R: Read + Seek>(
        &mut self,
        src: Source<'_, R>,
        pos: usize,
        want_frame: bool,
    ) -> Result<(Option<Frame>, Vec<BodyState>), RecordError> {
        let Source {
            file,
            path,
            file_len,
            table,
            version,
        } = src;
        self.version = version;
        let out_of_range = || {
            RecordError::new(
                path,
                None,
                RecordErrorCause::FrameOutOfRange {
                    index: pos,
                    len: table.len(),
                },
            )
        };
        if pos >= table.len() {
            return Err(out_of_range());
        }
        let key = table.keyframe_at_or_before(pos).ok_or_else(|| {
            RecordError::new(
                path,
                None,
                RecordErrorCause::Invalid(format!("no keyframe at or before frame {pos}")),
            )
        })?;
        let start = match (&self.last, &self.keyframe) {
            (Some((p, b)), _) if key <= *p && *p <= pos => Some((*p, b.clone())),
            (_, Some((p, b))) if *p == key => Some((*p, b.clone())),
            _ => None,
        };
        let mut payload = std::mem::take(&mut self.payload);
        let result = (|| {
            let (mut at, mut bodies) = match start {
                Some(s) => s,
                None => {
                    let d = self.decode_at(
                        file,
                        path,
                        file_len,
                        table,
                        key,
                        None,
                        &mut payload,
                        key == pos && want_frame,
                    )?;
                    self.keyframe = Some((key, d.bodies.clone()));
                    if key == pos {
                        let bodies = d.bodies.clone();
                        return Ok((d.into_frame(), bodies));
                    }
                    (key, d.bodies)
                }
            };
            if at == pos {
                if !want_frame {
                    return Ok((None, bodies));
                }
                // The bodies are known; the rest of the frame is in its own chunk.
                let entry = table.get(pos).ok_or_else(out_of_range)?;
                let header = read_chunk(file, path, entry.offset, file_len, &mut payload)?;
                let d = decode_keeping_bodies(self.version, header.kind, &payload, bodies.clone())
                    .map_err(|c| RecordError::at(path, entry.offset, c))?;
                return Ok((d.into_frame(), bodies));
            }
            let mut frame = None;
            while at < pos {
                at += 1;
                let last = at == pos;
                let d = self.decode_at(
                    file,
                    path,
                    file_len,
                    table,
                    at,
                    Some(&bodies),
                    &mut payload,
                    last && want_frame,
                )?;
                bodies = d.bodies.clone();
                if last {
                    frame = d.into_frame();
                }
            }
            Ok((frame, bodies))
        })();
        self.payload = payload;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn decode_at<R: Read + Seek>(
        &self,
        file: &mut R,
        path: &Path,
        file_len: u64,
        table: &FrameTable,
        pos: usize,
        previous: Option<&[BodyState]>,
        payload: &mut Vec<u8>,
        with_tail: bool,
    ) -> Result<Decoded, RecordError> {
        let entry = table.get(pos).ok_or_else(|| {
            RecordError::new(
                path,
                None,
                RecordErrorCause::FrameOutOfRange {
                    index: pos,
                    len: table.len(),
                },
            )
        })?;
        let header = read_chunk(file, path, entry.offset, file_len, payload)?;
        let expected = if entry.keyframe {
            chunk::KEYFRAME
        } else {
            chunk::DELTA
        };
        if header.kind != expected || header.len != entry.len {
            return Err(RecordError::at(
                path,
                entry.offset,
                RecordErrorCause::Invalid(format!(
                    "the index says frame {pos} is a {}-byte {} chunk here, the file has a {}-byte {}",
                    entry.len,
                    kind_name(expected),
                    header.len,
                    kind_name(header.kind)
                )),
            ));
        }
        let d = decode_frame(self.version, header.kind, payload, previous, with_tail)
            .map_err(|c| RecordError::at(path, entry.offset, c))?;
        if d.index != entry.index {
            return Err(RecordError::at(
                path,
                entry.offset,
                RecordErrorCause::Invalid(format!(
                    "the index says this chunk holds frame index {}, it holds {}",
                    entry.index, d.index
                )),
            ));
        }
        Ok(d)
    }
}

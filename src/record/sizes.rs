//! How many bytes the frames take on disk and how many their records hold once decompressed:
//! the compression ratio and bytes per frame that `collidoscope info` prints. Only each
//! chunk's small packed header is parsed; nothing is decompressed.

use super::chunk::{CHUNK_HEADER_LEN, read_chunk};
use super::compress;
use super::error::{RecordError, RecordErrorCause};
use super::index::FrameTable;
use std::io::{Read, Seek};
use std::path::Path;

/// Sizes of the frame chunks of a recording.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameBytes {
    pub frames: usize,
    /// Frame chunks as stored, chunk headers included.
    pub stored: u64,
    /// The same frames' records uncompressed (what format v1 would have stored), chunk headers
    /// included.
    pub raw: u64,
}

impl FrameBytes {
    /// Raw over stored: 1 for an uncompressed file.
    pub fn ratio(&self) -> f64 {
        match self.stored {
            0 => 1.0,
            s => self.raw as f64 / s as f64,
        }
    }

    pub fn per_frame(&self) -> f64 {
        match self.frames {
            0 => 0.0,
            n => self.stored as f64 / n as f64,
        }
    }
}

pub(crate) fn measure<R: Read + Seek>(
    file: &mut R,
    path: &Path,
    file_len: u64,
    table: &FrameTable,
    version: u32,
) -> Result<FrameBytes, RecordError> {
    let mut sizes = FrameBytes::default();
    let mut payload = Vec::new();
    for entry in table.entries() {
        read_chunk(file, path, entry.offset, file_len, &mut payload)?;
        let raw_len = match version {
            1 => payload.len() as u64,
            _ => compress::raw_len(&payload)
                .map_err(|c: RecordErrorCause| RecordError::at(path, entry.offset, c))?,
        };
        sizes.frames += 1;
        sizes.stored += CHUNK_HEADER_LEN + payload.len() as u64;
        sizes.raw += CHUNK_HEADER_LEN + raw_len;
    }
    Ok(sizes)
}

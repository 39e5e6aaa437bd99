//! The start of a `.cdrec` file: the preamble (magic and format version) and the `HEAD` chunk.

use super::chunk;
use super::error::{RecordError, RecordErrorCause, kind_name};
use serde::{Deserialize, Serialize};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// First bytes of every recording. The high first byte and the CR LF catch a file that went
/// through a text-mode transfer, as PNG's signature does.
pub const MAGIC: [u8; 8] = *b"\x89CDREC\r\n";
/// The format version this build writes (and the newest it reads).
pub const FORMAT_VERSION: u32 = 9;
/// Magic plus the version: the only bytes outside chunks, besides nothing.
pub const PREAMBLE_LEN: u64 = 12;

/// What the caller says about a recording when creating it.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordingMeta {
    /// The scene as RON text (the world module writes and reads it; it is opaque here).
    pub scene_ron: String,
    /// Names of the bodies, indexed by `BodyId`.
    pub body_names: Vec<String>,
    pub dt_s: f64,
}

/// The recording's header as found in the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordingHeader {
    /// Format version from the preamble (not part of the `HEAD` payload).
    #[serde(skip)]
    pub format_version: u32,
    /// `CARGO_PKG_VERSION` of the Collidoscope that wrote the file.
    pub app_version: String,
    /// Milliseconds since the Unix epoch (UTC) when the recording was created.
    pub created_unix_ms: u64,
    /// A keyframe every this many frames.
    pub keyframe_interval: u32,
    pub dt_s: f64,
    pub body_names: Vec<String>,
    pub scene_ron: String,
    /// The schema manifest: a JSON description of every record type (see `schema.rs`).
    pub schema: String,
}

/// Writes the preamble and the `HEAD` chunk into `out`.
pub(crate) fn encode(header: &RecordingHeader, out: &mut Vec<u8>) -> Result<(), RecordErrorCause> {
    let mut buf = Vec::new();
    chunk::begin(&mut buf, chunk::HEAD);
    buf = postcard::to_extend(header, buf).map_err(|e| RecordErrorCause::Encode {
        what: "the header",
        detail: e.to_string(),
    })?;
    chunk::seal(&mut buf, "the header")?;
    out.clear();
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&buf);
    Ok(())
}

/// Reads and checks the preamble and the `HEAD` chunk. Returns the header and the offset of
/// the first chunk after it.
pub(crate) fn read<R: Read + Seek>(
    file: &mut R,
    path: &Path,
    file_len: u64,
) -> Result<(RecordingHeader, u64), RecordError> {
    let mut preamble = [0u8; PREAMBLE_LEN as usize];
    let got = read_up_to(file, &mut preamble).map_err(|e| RecordError::io(path, Some(0), e))?;
    let magic_got = got.min(MAGIC.len());
    if preamble[..magic_got] != MAGIC[..magic_got] || got == 0 {
        return Err(RecordError::at(
            path,
            0,
            RecordErrorCause::NotARecording {
                found: preamble[..magic_got].to_vec(),
            },
        ));
    }
    if (got as u64) < PREAMBLE_LEN {
        return Err(RecordError::at(
            path,
            got as u64,
            RecordErrorCause::Truncated {
                what: "the preamble (magic and version)",
                needed: PREAMBLE_LEN - got as u64,
                available: file_len,
            },
        ));
    }
    let version = u32::from_le_bytes([preamble[8], preamble[9], preamble[10], preamble[11]]);
    if version == 0 || version > FORMAT_VERSION {
        return Err(RecordError::at(
            path,
            8,
            RecordErrorCause::UnsupportedVersion {
                found: version,
                supported: FORMAT_VERSION,
            },
        ));
    }
    let mut payload = Vec::new();
    let head = chunk::read_chunk(file, path, PREAMBLE_LEN, file_len, &mut payload)?;
    if head.kind != chunk::HEAD {
        return Err(RecordError::at(
            path,
            PREAMBLE_LEN,
            RecordErrorCause::UnexpectedChunk {
                expected: "HEAD",
                found: kind_name(head.kind),
            },
        ));
    }
    let (mut header, rest) = postcard::take_from_bytes::<RecordingHeader>(&payload)
        .map_err(|e| RecordError::decode(path, PREAMBLE_LEN, "the header", e))?;
    if !rest.is_empty() {
        return Err(RecordError::decode(
            path,
            PREAMBLE_LEN,
            "the header",
            format!("{} bytes left over", rest.len()),
        ));
    }
    if header.keyframe_interval == 0 {
        return Err(RecordError::decode(
            path,
            PREAMBLE_LEN,
            "the header",
            "keyframe interval 0",
        ));
    }
    header.format_version = version;
    Ok((header, head.end(PREAMBLE_LEN)))
}

fn read_up_to<R: Read + Seek>(file: &mut R, buf: &mut [u8]) -> std::io::Result<usize> {
    file.seek(SeekFrom::Start(0))?;
    let mut got = 0;
    while got < buf.len() {
        match file.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Does the file start like a recording? Decides by content, not by name.
pub fn is_recording(path: &Path) -> bool {
    let mut head = [0u8; MAGIC.len()];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| head == MAGIC)
}

use std::fmt;
use std::path::{Path, PathBuf};

/// Everything that can go wrong with a recording or the history, with where it happened.
///
/// `path` names the file (or `<history>` for an in-memory request), `offset` the byte where the
/// problem was found when there is one, and `cause` what was wrong.
#[derive(Debug, thiserror::Error)]
pub struct RecordError {
    pub path: PathBuf,
    pub offset: Option<u64>,
    #[source]
    pub cause: RecordErrorCause,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(offset) => write!(
                f,
                "{} at byte {offset}: {}",
                self.path.display(),
                self.cause
            ),
            None => write!(f, "{}: {}", self.path.display(), self.cause),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RecordErrorCause {
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    #[error(
        "not a Collidoscope recording: the file starts with {found:02x?} instead of the .cdrec magic bytes"
    )]
    NotARecording { found: Vec<u8> },
    #[error(
        "format version {found} is not supported by this build (it reads versions 1 to {supported}); \
         a newer Collidoscope wrote it"
    )]
    UnsupportedVersion { found: u32, supported: u32 },
    #[error("the file ends after {available} bytes, {needed} more were needed for {what}")]
    Truncated {
        what: &'static str,
        needed: u64,
        available: u64,
    },
    #[error("chunk {kind} says its payload is {len} bytes, but only {available} bytes are left")]
    ChunkTooLong {
        kind: String,
        len: u64,
        available: u64,
    },
    #[error("chunk {kind} is corrupt: checksum {stored:08x} stored, {computed:08x} computed")]
    BadChecksum {
        kind: String,
        stored: u32,
        computed: u32,
    },
    #[error("expected a {expected} chunk, found {found}")]
    UnexpectedChunk {
        expected: &'static str,
        found: String,
    },
    #[error("cannot decode {what}: {detail}")]
    Decode { what: &'static str, detail: String },
    #[error("cannot encode {what}: {detail}")]
    Encode { what: &'static str, detail: String },
    #[error("the recording's schema does not match this build: {0}")]
    SchemaMismatch(String),
    #[error("frame {index} does not exist (there are {len} frames)")]
    FrameOutOfRange { index: usize, len: usize },
    #[error("{0}")]
    Invalid(String),
}

impl RecordError {
    pub fn new(path: impl Into<PathBuf>, offset: Option<u64>, cause: RecordErrorCause) -> Self {
        Self {
            path: path.into(),
            offset,
            cause,
        }
    }

    pub(crate) fn at(path: &Path, offset: u64, cause: RecordErrorCause) -> Self {
        Self::new(path, Some(offset), cause)
    }

    pub(crate) fn io(path: &Path, offset: Option<u64>, err: std::io::Error) -> Self {
        Self::new(path, offset, RecordErrorCause::Io(err))
    }

    pub(crate) fn decode(
        path: &Path,
        offset: u64,
        what: &'static str,
        detail: impl ToString,
    ) -> Self {
        Self::at(
            path,
            offset,
            RecordErrorCause::Decode {
                what,
                detail: detail.to_string(),
            },
        )
    }
}

/// Shows a chunk tag readably even when it is garbage.
pub(crate) fn kind_name(kind: [u8; 4]) -> String {
    if kind.iter().all(|b| b.is_ascii_graphic()) {
        String::from_utf8_lossy(&kind).into_owned()
    } else {
        format!("{kind:02x?}")
    }
}

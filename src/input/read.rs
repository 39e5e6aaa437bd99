//! Reading a file a user named: only a regular file, and only up to the size limit.

use super::limits::max_file_bytes;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Why a file a user named was not read: the file, then the reason.
#[derive(Debug, thiserror::Error)]
#[error("{}: {reason}", file.display())]
pub struct ReadError {
    pub file: PathBuf,
    pub reason: ReadReason,
}

#[derive(Debug, thiserror::Error)]
pub enum ReadReason {
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    #[error("is {0}, not a regular file")]
    NotAFile(&'static str),
    #[error(
        "is {size} bytes, past the {limit}-byte limit for an input file (raise it with \
         --max-file-mib)"
    )]
    TooLarge { size: u64, limit: u64 },
    #[error("is not UTF-8 text (byte {0})")]
    NotText(usize),
}

/// The whole file at `path`, when it is a regular file within the limit.
pub fn read_bounded(path: &Path) -> Result<Vec<u8>, ReadError> {
    let fail = |reason| ReadError {
        file: path.to_path_buf(),
        reason,
    };
    let io = |e| fail(ReadReason::Io(e));
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(fail(ReadReason::NotAFile(kind_of(&meta.file_type()))));
    }
    let limit = max_file_bytes();
    let too_large = |size| fail(ReadReason::TooLarge { size, limit });
    if meta.len() > limit {
        return Err(too_large(meta.len()));
    }
    // The file may grow between the check and the read: read one byte past the limit at most.
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The file at `path` as UTF-8 text (a leading byte-order mark dropped), within the limit.
pub fn read_text_bounded(path: &Path) -> Result<String, ReadError> {
    let mut bytes = read_bounded(path)?;
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| ReadError {
        file: path.to_path_buf(),
        reason: ReadReason::NotText(e.utf8_error().valid_up_to()),
    })
}

fn kind_of(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_fifo() {
            return "a named pipe";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_directories_and_large_files_are_clear_errors() {
        let e = read_bounded(Path::new("/dev/zero"))
            .unwrap_err()
            .to_string();
        assert_eq!(e, "/dev/zero: is a character device, not a regular file");
        let e = read_bounded(Path::new("/tmp")).unwrap_err().to_string();
        assert!(e.ends_with("is a directory, not a regular file"), "{e}");
        let e = read_bounded(Path::new("/no/such/file"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("/no/such/file: cannot read"), "{e}");

        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.map");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(max_file_bytes() + 1).unwrap();
        let e = read_bounded(&big).unwrap_err().to_string();
        assert!(e.contains("past the 67108864-byte limit"), "{e}");
        assert!(e.contains("--max-file-mib"), "{e}");
    }

    #[test]
    fn text_loses_its_byte_order_mark_and_must_be_utf8() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.ron");
        std::fs::write(&p, b"\xEF\xBB\xBF(name: \"a\")").unwrap();
        assert_eq!(read_text_bounded(&p).unwrap(), "(name: \"a\")");
        std::fs::write(&p, b"ok\n\xFF").unwrap();
        let e = read_text_bounded(&p).unwrap_err().to_string();
        assert!(e.ends_with("is not UTF-8 text (byte 3)"), "{e}");
    }
}

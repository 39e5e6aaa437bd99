//! The process-wide limit on the size of an input file. The command line sets it once
//! (`--max-file-mib`), before any file is read; everything else only reads it.

use std::sync::atomic::{AtomicU64, Ordering};

/// 64 MiB: the largest shipped inputs (the Utah teapot, the Quake maps, the bunny) are a
/// few megabytes, and parsing a text level takes about 30 times its size in memory.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 64 << 20;

static MAX_FILE_BYTES: AtomicU64 = AtomicU64::new(DEFAULT_MAX_FILE_BYTES);

/// The largest input file read now, in bytes.
pub fn max_file_bytes() -> u64 {
    MAX_FILE_BYTES.load(Ordering::Relaxed)
}

/// Raises (or lowers) the limit for the rest of the process.
pub fn set_max_file_bytes(bytes: u64) {
    MAX_FILE_BYTES.store(bytes, Ordering::Relaxed);
}

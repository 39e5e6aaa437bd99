//! The process-wide limits on untrusted input: the size of an input file and the memory a
//! scene may take. The command line sets them once (`--max-file-mib`, `--memory-budget`),
//! before any input is read; everything else only reads them.

use std::sync::atomic::{AtomicU64, Ordering};

/// 64 MiB: the largest shipped inputs (the Utah teapot, the Quake maps, the bunny) are a
/// few megabytes, and parsing a text level takes about 30 times its size in memory.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 64 << 20;

static MAX_FILE_BYTES: AtomicU64 = AtomicU64::new(DEFAULT_MAX_FILE_BYTES);

/// 2 GiB: what a scene may take once built (meshes, cloth, bodies), estimated before
/// anything is allocated (`Scene::estimated_bytes`).
pub const DEFAULT_MEMORY_BUDGET_BYTES: u64 = 2 << 30;

static MEMORY_BUDGET_BYTES: AtomicU64 = AtomicU64::new(DEFAULT_MEMORY_BUDGET_BYTES);

/// The memory a scene may take, in bytes.
pub fn memory_budget() -> u64 {
    MEMORY_BUDGET_BYTES.load(Ordering::Relaxed)
}

/// Raises (or lowers) the budget for the rest of the process.
pub fn set_memory_budget(bytes: u64) {
    MEMORY_BUDGET_BYTES.store(bytes, Ordering::Relaxed);
}

/// The largest input file read now, in bytes.
pub fn max_file_bytes() -> u64 {
    MAX_FILE_BYTES.load(Ordering::Relaxed)
}

/// Raises (or lowers) the limit for the rest of the process.
pub fn set_max_file_bytes(bytes: u64) {
    MAX_FILE_BYTES.store(bytes, Ordering::Relaxed);
}

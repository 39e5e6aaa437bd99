//! Untrusted input, read within bounds: files through a size limit and only when they are
//! regular files, and long tokens quoted as short excerpts in messages. Everything that
//! reads a file a user names (scenes, meshes, levels, surfaces, scene files of the families)
//! goes through here, so `/dev/zero`, a named pipe or a 50 MB level is one clear error.

mod excerpt;
mod limits;
mod read;

pub use excerpt::excerpt;
pub use limits::{
    DEFAULT_MAX_FILE_BYTES, DEFAULT_MEMORY_BUDGET_BYTES, max_file_bytes, memory_budget,
    set_max_file_bytes, set_memory_budget,
};
pub use read::{ReadError, ReadReason, read_bounded, read_text_bounded};

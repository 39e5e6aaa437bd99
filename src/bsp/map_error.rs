//! What is wrong with a `.map` level, and where.

use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}:{line}: {cause}", file.display())]
pub struct MapError {
    pub file: PathBuf,
    /// From 1; 0 when the file could not be read at all.
    pub line: usize,
    pub cause: String,
}

//! The files of one kind in a folder of the repository, in name order: the fixtures, scenes
//! and findings several suites walk.

use std::path::{Path, PathBuf};

/// The files under `folder` (relative to the repository) whose extension is `extension`.
pub fn files_in(folder: &str, extension: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == extension))
        .collect();
    files.sort();
    files
}

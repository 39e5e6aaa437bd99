use std::path::PathBuf;

/// Why a scene could not be loaded or built. Every variant names where the problem is.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    #[error("{file}: cannot read: {cause}")]
    Io {
        file: PathBuf,
        #[source]
        cause: std::io::Error,
    },
    #[error("{file}:{line}:{column}: {cause}")]
    Parse {
        file: PathBuf,
        line: usize,
        column: usize,
        cause: String,
    },
    #[error("{file}: body {index} (\"{name}\"): {cause}")]
    Body {
        file: PathBuf,
        index: usize,
        name: String,
        cause: String,
    },
    #[error("{file}: {cause}")]
    Invalid { file: PathBuf, cause: String },
    /// What an algorithm family found wrong in the data it adds to a scene.
    #[error("{file}: {family}: {cause}")]
    Family {
        file: PathBuf,
        family: &'static str,
        cause: String,
    },
    #[error("unknown built-in scene \"{name}\"; the built-in scenes are: {available}")]
    UnknownBuiltin { name: String, available: String },
}

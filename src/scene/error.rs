use std::path::PathBuf;

/// Why a scene could not be loaded or built. Every variant names where the problem is.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// The file is missing, not a regular file, too large or not text.
    #[error(transparent)]
    Read(#[from] crate::input::ReadError),
    #[error("{file}:{line}:{column}: {cause}")]
    Parse {
        file: PathBuf,
        line: usize,
        column: usize,
        cause: String,
    },
    #[error("{}{}: body {index} (\"{name}\"): {cause}", file.display(), at_line(.line))]
    Body {
        file: PathBuf,
        /// The line of the body's entry in the scene file, when it is known.
        line: Option<usize>,
        index: usize,
        name: String,
        cause: String,
    },
    #[error("{file}: {cause}")]
    Invalid { file: PathBuf, cause: String },
    /// What an algorithm family found wrong in the data it adds to a scene.
    #[error("{}{}: {family}: {cause}", file.display(), at_line(.line))]
    Family {
        file: PathBuf,
        /// The family's entry in the scene's `families` list, and its line in the file.
        entry: Option<usize>,
        line: Option<usize>,
        family: &'static str,
        cause: String,
    },
    #[error("unknown built-in scene \"{name}\"; the built-in scenes are: {available}")]
    UnknownBuiltin { name: String, available: String },
}

fn at_line(line: &Option<usize>) -> String {
    line.map(|l| format!(":{l}")).unwrap_or_default()
}

impl SceneError {
    /// The error with the line of the body or family entry it is about, found in the scene
    /// file's text (`text`); errors found after parsing do not know it.
    pub fn located(mut self, text: &str) -> Self {
        match &mut self {
            SceneError::Body { line, index, .. } => {
                *line = line.or_else(|| super::locate::entry_line(text, "bodies", *index));
            }
            SceneError::Family {
                line,
                entry: Some(entry),
                ..
            } => {
                *line = line.or_else(|| super::locate::entry_line(text, "families", *entry));
            }
            _ => {}
        }
        self
    }

    /// A family's error, with the family's place in the scene's list.
    pub fn in_family_entry(mut self, index: usize) -> Self {
        if let SceneError::Family { entry, .. } = &mut self {
            *entry = entry.or(Some(index));
        }
        self
    }
}

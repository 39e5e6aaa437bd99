//! Surface files (`docs/nurbs-format.md`): `{"name", "surfaces": [surface, ...]}` where each
//! surface is the query protocol's NURBS type plus an optional `name`. Errors name the file,
//! the place (line and column for syntax, the field path for content) and the cause.

use super::surface::NurbsSurface;
use super::surface_json::surface_from_json;
use serde_json::Value;
use std::path::Path;

/// A named surface read from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedSurface {
    pub name: String,
    pub surface: NurbsSurface,
}

#[derive(Debug, thiserror::Error)]
pub enum SurfaceFileError {
    #[error("{file}: {cause}")]
    Io { file: String, cause: String },
    #[error("{file}: line {line}, column {column}: {cause}")]
    Syntax {
        file: String,
        line: usize,
        column: usize,
        cause: String,
    },
    #[error("{file}: {field}: {cause}")]
    Content {
        file: String,
        field: String,
        cause: String,
    },
}

/// Reads a surface file.
pub fn load_surfaces(path: &Path) -> Result<Vec<NamedSurface>, SurfaceFileError> {
    let file = path.display().to_string();
    let text = crate::input::read_text_bounded(path).map_err(|e| SurfaceFileError::Io {
        file: file.clone(),
        cause: e.reason.to_string(),
    })?;
    parse_surfaces(&text, &file)
}

/// Parses a surface file's text; `file` names it in errors.
pub fn parse_surfaces(text: &str, file: &str) -> Result<Vec<NamedSurface>, SurfaceFileError> {
    let doc: Value = serde_json::from_str(text).map_err(|e| SurfaceFileError::Syntax {
        file: file.to_string(),
        line: e.line(),
        column: e.column(),
        cause: e.to_string(),
    })?;
    let content = |field: String, cause: String| SurfaceFileError::Content {
        file: file.to_string(),
        field,
        cause,
    };
    let Some(Value::Array(list)) = doc.get("surfaces") else {
        return Err(content(
            "surfaces".into(),
            "missing or not an array of surfaces".into(),
        ));
    };
    if list.is_empty() {
        return Err(content("surfaces".into(), "is empty".into()));
    }
    let mut out = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let at = format!("surfaces[{i}]");
        let surface = surface_from_json(v, &at).map_err(|e| content(e.field, e.cause))?;
        let name = match v.get("name") {
            None => format!("surface {i}"),
            Some(Value::String(s)) => s.clone(),
            Some(_) => return Err(content(format!("{at}.name"), "must be a string".into())),
        };
        out.push(NamedSurface { name, surface });
    }
    Ok(out)
}

/// The shipped Utah teapot (32 bicubic Bézier patches), compiled in so scenes need no files.
pub fn teapot() -> Vec<NamedSurface> {
    // The file is part of the crate and tested to parse; an empty list would only drop the
    // teapot scene's surfaces, never panic.
    parse_surfaces(
        include_str!("../../assets/surfaces/teapot.json"),
        "assets/surfaces/teapot.json",
    )
    .unwrap_or_default()
}

//! `collidoscope diff A B`: exit 0 when the same, 1 when different, 2 on trouble (with the
//! JSON report's `error` under `--json`).

use super::out::{Failure, outln};
use crate::diff::{DiffError, Tolerance, diff};
use crate::record::RecordingReader;
use std::path::{Path, PathBuf};

pub fn run(a: &Path, b: &Path, tolerance: &str, json: bool) -> Result<(), Failure> {
    let trouble = |message: String| -> Failure {
        if json {
            let v = serde_json::json!({"same": false, "frames_compared": 0, "frames_a": 0, "frames_b": 0, "error": message});
            let _ = outln!("{v}");
            Failure::Status(2, None)
        } else {
            Failure::Status(2, Some(message))
        }
    };
    let tol = Tolerance::parse(tolerance).map_err(|e| trouble(format!("--tolerance: {e}")))?;
    let scratch = tempfile::tempdir().map_err(|e| trouble(format!("a scratch directory: {e}")))?;
    let ra = open(a, &scratch.path().join("a.cdrec")).map_err(trouble)?;
    let rb = open(b, &scratch.path().join("b.cdrec")).map_err(trouble)?;
    let report = match diff(&ra, &rb, tol) {
        Ok(r) => r,
        Err(DiffError::Incomparable(why)) => return Err(trouble(why)),
        Err(DiffError::Record(e)) => return Err(trouble(e.to_string())),
    };
    if json {
        outln!("{}", report.json())?;
    } else {
        for line in report.lines() {
            outln!("{line}")?;
        }
    }
    if report.same() {
        Ok(())
    } else {
        Err(Failure::Status(1, None))
    }
}

/// A recording as it is, or a capture stream ingested into `scratch` first.
pub(super) fn open(path: &Path, scratch: &PathBuf) -> Result<RecordingReader, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{}: not a regular file", path.display()));
    }
    if crate::record::is_recording(path) {
        return RecordingReader::open(path).map_err(|e| e.to_string());
    }
    let report = crate::capture::ingest_file(path, scratch)?;
    if report.recording.frames == 0 {
        return Err(format!(
            "{}: neither a recording nor a capture stream with a step in it",
            path.display()
        ));
    }
    if let Some(e) = report.stream.skipped.first() {
        eprintln!(
            "note: {}: {} lines skipped while reading the stream, the first: line {}: {}: {}",
            path.display(),
            report.stream.skipped.len(),
            e.line,
            e.field,
            e.cause
        );
    }
    RecordingReader::open(scratch).map_err(|e| e.to_string())
}

//! Runs captured from another engine, as the viewer holds them: what a capture stream said
//! besides its steps (the lines skipped, with their line numbers, fields and causes), the
//! temporary recording a `.jsonl` is read into, and how a stream file is recognised.

use crate::capture::{LineError, LineRead, StreamReport, read_line};
use std::path::Path;

/// Lines skipped that a session keeps word for word; past them, only counted.
const KEPT: usize = 1000;

/// What a captured run's stream said besides its steps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StreamLog {
    /// The first lines skipped, in order.
    pub skipped: Vec<LineError>,
    /// Every line skipped, kept or not.
    pub skipped_total: u64,
    pub warnings: Vec<LineError>,
    /// Kinds and fields the contract does not name: what, on how many lines, the first.
    pub unknown: Vec<(String, u64, u64)>,
    /// A live capture's connections and drops, in order.
    pub notes: Vec<String>,
}

impl StreamLog {
    pub fn from_report(report: &StreamReport) -> Self {
        let mut log = Self::default();
        for e in &report.skipped {
            log.skip(e.clone());
        }
        log.warnings = report.warnings.iter().take(KEPT).cloned().collect();
        log.unknown = report
            .unknown
            .iter()
            .map(|(what, (n, first))| (what.clone(), *n, *first))
            .collect();
        log
    }

    pub fn skip(&mut self, error: LineError) {
        self.skipped_total += 1;
        if self.skipped.len() < KEPT {
            self.skipped.push(error);
        }
    }

    pub fn warn(&mut self, error: LineError) {
        if self.warnings.len() < KEPT {
            self.warnings.push(error);
        }
    }

    /// "3 lines skipped (line 12: pose: …)", or `None` when none was.
    pub fn skipped_summary(&self) -> Option<String> {
        let first = self.skipped.first()?;
        let s = if self.skipped_total == 1 { "" } else { "s" };
        Some(format!(
            "{} line{s} skipped (first: {first})",
            self.skipped_total
        ))
    }
}

/// A temporary recording, removed when dropped.
pub struct TempRecording(tempfile::TempPath);

impl TempRecording {
    pub fn new() -> Result<Self, String> {
        tempfile::Builder::new()
            .prefix("collidoscope-capture-")
            .suffix(".cdrec")
            .tempfile()
            .map(|f| Self(f.into_temp_path()))
            .map_err(|e| format!("cannot create a temporary recording: {e}"))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

/// The first bytes of a line looked at to recognise a stream.
const SNIFF_BYTES: usize = 1 << 20;

/// Is the file a capture stream? Decided by content (its first line that is not blank is a
/// JSON object with a `"kind"`) when the content says; by the name (`.jsonl`, `.ndjson`)
/// when it does not (a first line too long to look at, or not JSON).
pub fn is_capture_stream(path: &Path) -> bool {
    let by_name = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("jsonl") || e.eq_ignore_ascii_case("ndjson"));
    let Ok(file) = std::fs::File::open(path) else {
        return by_name;
    };
    let mut input = std::io::BufReader::new(file);
    let mut buf = Vec::new();
    for _ in 0..64 {
        match read_line(&mut input, &mut buf, SNIFF_BYTES) {
            Ok(LineRead::Line { .. }) if buf.iter().all(u8::is_ascii_whitespace) => continue,
            Ok(LineRead::Line { .. }) => {
                let text = String::from_utf8_lossy(&buf);
                let text = text.trim_start_matches('\u{feff}');
                return match serde_json::from_str::<serde_json::Value>(text) {
                    Ok(v) => v.get("kind").is_some(),
                    Err(_) => by_name,
                };
            }
            _ => return by_name,
        }
    }
    by_name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_is_recognised_by_its_first_line_then_by_its_name() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |name: &str, text: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).expect("write");
            p
        };
        assert!(is_capture_stream(&write(
            "run.txt",
            "\n  \n{\"kind\":\"header\",\"engine\":\"x\"}\n"
        )));
        assert!(!is_capture_stream(&write("scene.jsonl", "{\"name\": 3}\n")));
        assert!(is_capture_stream(&write("cut.jsonl", "garbage\n")));
        assert!(!is_capture_stream(&write("scene.ron", "(name: \"x\")\n")));
        assert!(!is_capture_stream(&dir.path().join("missing.ron")));
    }
}

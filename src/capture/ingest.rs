//! A capture stream read into a recording, line by line: every good line kept, every bad
//! one skipped with its line number, field and cause.

use super::fields::FieldError;
use super::lines::{LineRead, read_line};
use super::parse::{Parsed, parse_line};
use super::recording::{CaptureRecorder, CaptureSummary, PushError};
use crate::record::{RecordError, WriterOptions};
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

/// A line skipped, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct LineError {
    pub line: u64,
    pub field: String,
    pub cause: String,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}: {}", self.line, self.field, self.cause)
    }
}

impl LineError {
    fn at(line: u64, e: FieldError) -> Self {
        Self {
            line,
            field: e.field,
            cause: e.cause,
        }
    }
}

/// What reading a stream found besides the frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StreamReport {
    pub lines: u64,
    pub bytes: u64,
    /// Lines skipped, in order.
    pub skipped: Vec<LineError>,
    /// Not errors, but worth a word (a step that began before the last one ended).
    pub warnings: Vec<LineError>,
    /// Kinds and fields the contract does not name: how many lines had each, and the first.
    pub unknown: BTreeMap<String, (u64, u64)>,
    /// The stream ended in the middle of a line.
    pub cut_mid_line: bool,
}

impl StreamReport {
    fn unknown(&mut self, what: String, line: u64) {
        self.unknown.entry(what).or_insert((0, line)).0 += 1;
    }
}

/// Feeds lines to a [`CaptureRecorder`], keeping the report.
pub struct LineFeeder {
    pub report: StreamReport,
}

impl Default for LineFeeder {
    fn default() -> Self {
        Self::new()
    }
}

impl LineFeeder {
    pub fn new() -> Self {
        Self {
            report: StreamReport::default(),
        }
    }

    /// One line (its number counted here): parsed, checked and pushed. `ended` is false for
    /// a last line cut before its line break.
    pub fn feed(
        &mut self,
        bytes: &[u8],
        ended: bool,
        push: &mut dyn FnMut(super::Item) -> Result<Vec<FieldError>, PushError>,
    ) -> Result<(), RecordError> {
        self.report.lines += 1;
        self.report.bytes += bytes.len() as u64 + u64::from(ended);
        let line = self.report.lines;
        match parse_line(bytes) {
            Ok(Parsed::Blank) => {}
            Ok(Parsed::UnknownKind(kind)) => self.report.unknown(format!("kind {kind:?}"), line),
            Ok(Parsed::Item {
                item,
                unknown_fields,
            }) => {
                for f in unknown_fields {
                    self.report.unknown(format!("field {f}"), line);
                }
                match push(item) {
                    Ok(warnings) => self
                        .report
                        .warnings
                        .extend(warnings.into_iter().map(|w| LineError::at(line, w))),
                    Err(PushError::Item(e)) => self.report.skipped.push(LineError::at(line, e)),
                    Err(PushError::Record(e)) => return Err(e),
                }
            }
            Err(e) if !ended => {
                self.report.cut_mid_line = true;
                self.report.skipped.push(LineError {
                    line,
                    field: "line".into(),
                    cause: format!("the stream ends in the middle of this line ({})", e.cause),
                });
            }
            Err(e) => self.report.skipped.push(LineError::at(line, e)),
        }
        Ok(())
    }

    pub fn too_long(&mut self, bytes: u64, ended: bool) {
        self.report.lines += 1;
        self.report.bytes += bytes + u64::from(ended);
        self.report.skipped.push(LineError {
            line: self.report.lines,
            field: "line".into(),
            cause: format!(
                "{bytes} bytes, longer than the {} MiB a line may have",
                super::lines::MAX_LINE_BYTES >> 20
            ),
        });
    }
}

/// What `ingest` did.
#[derive(Clone, Debug, PartialEq)]
pub struct IngestReport {
    pub recording: CaptureSummary,
    pub stream: StreamReport,
}

/// Reads the capture stream in the file `path` into the recording `output`, with default
/// writer options: what opening a stream for replay or comparison does. Errors name the file.
pub fn ingest_file(path: &Path, output: &Path) -> Result<IngestReport, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut input = std::io::BufReader::with_capacity(1 << 16, file);
    ingest(&mut input, output, WriterOptions::default(), &mut |_| {})
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads the stream `input` into the recording `output`. `progress` is told the bytes read
/// so far after each line. Only a failure to write the recording is an error: bad lines are
/// in the report.
pub fn ingest(
    input: &mut impl BufRead,
    output: &Path,
    options: WriterOptions,
    progress: &mut dyn FnMut(u64),
) -> Result<IngestReport, IngestError> {
    let mut recorder = CaptureRecorder::new(output, options);
    let mut feeder = LineFeeder::new();
    let mut buf = Vec::new();
    loop {
        let read = read_line(input, &mut buf, super::lines::MAX_LINE_BYTES).map_err(|e| {
            IngestError::Read {
                line: feeder.report.lines + 1,
                cause: e.to_string(),
            }
        });
        let read = match read {
            Ok(r) => r,
            Err(e) => {
                // What was read so far is kept: the recording is finished, then the error said.
                let _ = recorder.finish();
                return Err(e);
            }
        };
        match read {
            LineRead::End => break,
            LineRead::TooLong { bytes, ended } => feeder.too_long(bytes, ended),
            LineRead::Line { ended } => {
                let mut push = |item| {
                    recorder.push(item)?;
                    Ok(recorder.assembler().take_warnings())
                };
                feeder
                    .feed(&buf, ended, &mut push)
                    .map_err(IngestError::Record)?;
            }
        }
        progress(feeder.report.bytes);
    }
    let recording = recorder.finish().map_err(IngestError::Record)?;
    Ok(IngestReport {
        recording,
        stream: feeder.report,
    })
}

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error("reading line {line} of the stream: {cause}")]
    Read { line: u64, cause: String },
    #[error("{0}")]
    Record(RecordError),
}

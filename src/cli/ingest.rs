//! `collidoscope ingest`: a capture stream into a recording.

use super::out::{Failure, outln};
use crate::capture::{IngestReport, LineError, StreamReport};
use crate::record::WriterOptions;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

/// Skipped lines printed one by one; past this many, the rest are counted.
const ERRORS_SHOWN: usize = 50;

pub fn run(input: &str, output: &Path, options: WriterOptions) -> Result<(), Failure> {
    let (mut reader, total, name): (Box<dyn BufRead>, Option<u64>, String) = if input == "-" {
        let stdin = std::io::stdin();
        (
            Box::new(BufReader::with_capacity(1 << 16, stdin)),
            None,
            "<stdin>".into(),
        )
    } else {
        let path = Path::new(input);
        let file = std::fs::File::open(path).map_err(|e| format!("{input}: {e}"))?;
        let meta = file.metadata().map_err(|e| format!("{input}: {e}"))?;
        if meta.is_dir() {
            return Err(format!("{input}: is a directory, not a capture stream").into());
        }
        let len = meta.is_file().then_some(meta.len());
        (
            Box::new(BufReader::with_capacity(1 << 16, file)),
            len,
            input.to_string(),
        )
    };
    let bar = progress_bar(total);
    let mut progress = |bytes: u64| bar.set_position(bytes);
    let result = crate::capture::ingest(&mut reader, output, options, &mut progress);
    bar.finish_and_clear();
    let report = result.map_err(|e| format!("{name}: {e}"))?;
    tell_errors(&name, &report.stream);
    summarise(&name, &report)?;
    let skipped = report.stream.skipped.len();
    if skipped > 0 {
        return Err(format!(
            "{name}: {skipped} line{} skipped (every other line is in {})",
            if skipped == 1 { "" } else { "s" },
            output.display()
        )
        .into());
    }
    Ok(())
}

fn progress_bar(total: Option<u64>) -> ProgressBar {
    let bar = match total {
        Some(len) => ProgressBar::new(len),
        None => ProgressBar::new_spinner(),
    };
    let template = match total {
        Some(_) => "ingesting [{bar:40}] {bytes}/{total_bytes}, {bytes_per_sec}, eta {eta}",
        None => "ingesting {spinner} {bytes}, {bytes_per_sec}",
    };
    bar.set_style(
        ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar
}

fn tell_errors(name: &str, stream: &StreamReport) {
    let mut err = std::io::stderr().lock();
    let line = |e: &LineError| format!("{name}:{}: {}: {}", e.line, e.field, e.cause);
    for e in stream.skipped.iter().take(ERRORS_SHOWN) {
        let _ = writeln!(err, "{} (line skipped)", line(e));
    }
    if stream.skipped.len() > ERRORS_SHOWN {
        let _ = writeln!(
            err,
            "{name}: … and {} more skipped lines",
            stream.skipped.len() - ERRORS_SHOWN
        );
    }
    for w in &stream.warnings {
        let _ = writeln!(err, "{}", line(w));
    }
    for (what, (count, first)) in &stream.unknown {
        let _ = writeln!(
            err,
            "{name}:{first}: {what} is not in the contract: ignored ({count} line{})",
            if *count == 1 { "" } else { "s" }
        );
    }
}

fn summarise(name: &str, report: &IngestReport) -> Result<(), Failure> {
    let r = &report.recording;
    // Bytes per step count the steps' chunks, not the header's scene and schema.
    let per_step = crate::record::RecordingReader::open(&r.path)
        .and_then(|reader| reader.frame_bytes())
        .ok()
        .filter(|_| r.frames > 0)
        .map(|b| format!(", {:.0} bytes per step", b.per_frame()))
        .unwrap_or_default();
    outln!(
        "ingested {} steps of {} from {name} ({} lines) into {}: {} bytes{per_step}",
        r.frames,
        r.engine,
        report.stream.lines,
        r.path.display(),
        r.bytes
    )?;
    if let Some(frame) = r.cut_frame {
        outln!(
            "the stream ends inside frame {frame}: that step is not kept, every one before it is"
        )?;
    }
    Ok(())
}

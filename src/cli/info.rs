use super::out::{Failure, out, outln};
use crate::record::RecordingReader;
use std::path::Path;

/// Each family's summary of the recording (only families that give one), fed every readable
/// frame; a frame that cannot be read is skipped, as `info` reports damage on its own.
fn family_reports(
    reader: &RecordingReader,
) -> Vec<(&'static str, Box<dyn crate::family::RecordingReport>)> {
    let mut reports = crate::families::recording_reports();
    if reports.is_empty() {
        return reports;
    }
    for pos in 0..reader.len() {
        if let Ok(frame) = reader.frame(pos) {
            for (_, r) in &mut reports {
                r.add_frame(&frame);
            }
        }
    }
    reports
}

pub fn run(file: &Path, json: bool) -> Result<(), Failure> {
    let reader = RecordingReader::open(file).map_err(|e| e.to_string())?;
    let info = reader.info();
    let families = family_reports(&reader);
    if json {
        let recovery = info.recovery.as_ref().map(|r| {
            serde_json::json!({
                "recovered_frames": r.recovered_frames,
                "frames_lost": r.frames_lost,
                "bytes_lost": r.bytes_lost,
                "issues": r.issues.iter().map(|i| serde_json::json!({"offset": i.offset, "bytes_lost": i.bytes_lost, "cause": i.cause.to_string()})).collect::<Vec<_>>(),
            })
        });
        let v = serde_json::json!({
            "file": info.path.display().to_string(),
            "bytes": info.file_bytes,
            "format_version": info.format_version,
            "app_version": info.app_version,
            "frames": info.frame_count,
            "keyframes": info.keyframe_count,
            "duration_s": info.duration_s,
            "dt_s": info.dt_s,
            "bodies": info.body_count(),
            "chunks": info.chunk_count,
            "complete": info.recovery.is_none(),
            "recovery": recovery,
            "families": families
                .iter()
                .map(|(name, r)| (name.to_string(), r.json()))
                .collect::<serde_json::Map<_, _>>(),
        });
        outln!("{v}")?;
    } else {
        out!("{info}")?;
        for (name, report) in &families {
            for line in report.lines() {
                outln!("{name}: {line}")?;
            }
        }
    }
    Ok(())
}

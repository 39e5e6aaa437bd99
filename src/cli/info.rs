use super::out::{Failure, out, outln};
use crate::record::{EventSizes, FrameBytes, RecordingReader};
use std::path::Path;

/// What reading every frame tells: the trace events held and dropped, and each family's
/// summary (only families that give one). A frame that cannot be read is counted and
/// skipped, as `info` reports damage on its own.
struct Contents {
    events: u64,
    dropped: u64,
    unreadable: usize,
    families: Vec<(&'static str, Box<dyn crate::family::RecordingReport>)>,
    /// Bytes per part of the frames, when asked for.
    sizes: Option<EventSizes>,
}

fn read_contents(reader: &RecordingReader, sizes: bool) -> Contents {
    let mut c = Contents {
        events: 0,
        dropped: 0,
        unreadable: 0,
        families: crate::families::recording_reports(),
        sizes: sizes.then(EventSizes::default),
    };
    for pos in 0..reader.len() {
        match reader.frame(pos) {
            Ok(frame) => {
                c.events += frame.trace.len() as u64;
                c.dropped += frame.counters.trace_dropped;
                for (_, r) in &mut c.families {
                    r.add_frame(&frame);
                }
                if let Some(s) = &mut c.sizes {
                    s.add_frame(&frame);
                }
            }
            Err(_) => c.unreadable += 1,
        }
    }
    c
}

/// Which engine ran the recorded steps: another engine's name for a captured run, else ours.
fn engine(reader: &RecordingReader) -> (String, bool) {
    let header = reader.header();
    let captured = crate::scene::Scene::from_ron(&header.scene_ron, reader.path())
        .ok()
        .and_then(|scene| {
            scene.families.into_iter().find_map(|f| match f {
                crate::families::FamilySceneData::Capture(c) => Some(c.engine),
                _ => None,
            })
        });
    match captured {
        Some(engine) => (engine, true),
        None => (format!("Collidoscope {}", header.app_version), false),
    }
}

pub fn run(file: &Path, json: bool, events: bool) -> Result<(), Failure> {
    let reader = RecordingReader::open(file).map_err(|e| e.to_string())?;
    let info = reader.info();
    let (engine, captured) = engine(&reader);
    let bytes: FrameBytes = reader.frame_bytes().map_err(|e| e.to_string())?;
    let contents = read_contents(&reader, events);
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
            "engine": engine,
            "captured": captured,
            "frames": info.frame_count,
            "keyframes": info.keyframe_count,
            "duration_s": info.duration_s,
            "dt_s": info.dt_s,
            "bodies": info.body_count(),
            "chunks": info.chunk_count,
            "frame_bytes": bytes.stored,
            "frame_bytes_uncompressed": bytes.raw,
            "compression_ratio": bytes.ratio(),
            "bytes_per_frame": bytes.per_frame(),
            "trace_events": contents.events,
            "trace_events_dropped": contents.dropped,
            "unreadable_frames": contents.unreadable,
            "complete": info.recovery.is_none(),
            "recovery": recovery,
            "parts": contents.sizes.as_ref().map(|s| s.parts.iter().map(|(name, p)| (name.clone(), serde_json::json!({"count": p.count, "raw": p.raw, "compressed": p.compressed}))).collect::<serde_json::Map<_, _>>()),
            "families": contents.families
                .iter()
                .map(|(name, r)| (name.to_string(), r.json()))
                .collect::<serde_json::Map<_, _>>(),
        });
        outln!("{v}")?;
    } else {
        out!("{info}")?;
        outln!(
            "engine:          {engine}{}",
            if captured {
                " (a captured run, ingested)"
            } else {
                ""
            }
        )?;
        outln!(
            "frame bytes:     {} stored, {} uncompressed (ratio {:.1}), {:.0} bytes per frame",
            bytes.stored,
            bytes.raw,
            bytes.ratio(),
            bytes.per_frame()
        )?;
        outln!(
            "trace events:    {} held, {} dropped{}",
            contents.events,
            contents.dropped,
            match contents.dropped {
                0 => "",
                _ => " (the recording's --trace-limit cut them)",
            }
        )?;
        if contents.unreadable > 0 {
            outln!("unreadable:      {} frames", contents.unreadable)?;
        }
        for (name, report) in &contents.families {
            for line in report.lines() {
                outln!("{name}: {line}")?;
            }
        }
        if let Some(sizes) = &contents.sizes {
            for line in sizes.lines() {
                outln!("{line}")?;
            }
        }
    }
    Ok(())
}

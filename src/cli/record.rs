use super::out::{Failure, outln};
use crate::record::{
    BackgroundWriter, DEFAULT_QUEUE_FRAMES, RecordingMeta, RecordingWriter, WriterOptions,
};
use crate::world::{World, load_scene};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;

pub fn run(
    scene: &str,
    frames: u64,
    output: &Path,
    trace_limit: usize,
    options: WriterOptions,
    ccd: Option<&str>,
) -> Result<(), Failure> {
    if options.keyframe_interval == 0 {
        return Err("--keyframe-interval must be at least 1".into());
    }
    let scene_arg = scene;
    let mut scene = load_scene(scene_arg).map_err(|e| e.to_string())?;
    if let Some(text) = ccd {
        scene.solver.ccd = crate::scene::CcdMode::parse(text).map_err(|e| format!("--ccd {e}"))?;
    }
    let origin = crate::scene::scene_file(scene_arg).unwrap_or(Path::new("<built-in>"));
    let mut world = World::with_origin(scene.clone(), origin).map_err(|e| e.to_string())?;
    let meta = RecordingMeta {
        scene_ron: scene.to_ron(),
        body_names: world.bodies.iter().map(|b| b.name.clone()).collect(),
        dt_s: scene.solver.dt_s,
    };
    let writer = RecordingWriter::create(output, meta, options).map_err(|e| e.to_string())?;
    // Encoding and compressing a frame overlaps the next step on the writer's own thread.
    let mut writer =
        BackgroundWriter::spawn(writer, DEFAULT_QUEUE_FRAMES).map_err(|e| e.to_string())?;
    writer
        .write_frame(world.initial_frame())
        .map_err(|e| e.to_string())?;

    let bar = ProgressBar::new(frames);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} frames, {per_sec}, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_message(format!("recording {}", scene.name));
    for _ in 0..frames {
        let frame = if trace_limit > 0 {
            world.step_traced(trace_limit)
        } else {
            world.step(&mut crate::trace::NoProbe)
        };
        // Every frame reaches the OS as soon as its chunk is encoded: a killed run keeps all
        // but the few still queued.
        writer.write_frame(frame).map_err(|e| e.to_string())?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    let summary = writer.finish().map_err(|e| e.to_string())?;
    outln!(
        "wrote {} frames ({} keyframes), {} bytes, to {}",
        summary.frames,
        summary.keyframes,
        summary.bytes,
        summary.path.display()
    )
}

//! What capturing a rapier3d run costs per step, on the `rapier_capture` example's world (a
//! 3 x 4 box wall hit by a fast CCD ball): the rapier step alone, the step and
//! `RapierCapture::record_step` into a recording (a file), and into a stream held in memory.
//!
//! One iteration is a whole 120-step run from the world at rest (the world is built outside
//! the timing): the steps differ (a settling wall, the impact, the wall falling, sleep), so
//! each measurement holds every kind. Criterion's times are per run; the summary printed at
//! the end divides by the steps and gives the ratios.

use collidoscope::capture::rapier::{RapierCapture, example_world};
use criterion::{Criterion, criterion_group, criterion_main};
use std::time::{Duration, Instant};

const STEPS: u64 = 120;

#[derive(Clone, Copy)]
enum Sink {
    None,
    Recording,
    Stream,
}

impl Sink {
    fn name(self) -> &'static str {
        match self {
            Sink::None => "rapier step alone",
            Sink::Recording => "step + record_step to a recording",
            Sink::Stream => "step + record_step to a stream in memory",
        }
    }
}

/// Time spent in `runs` runs of `STEPS` steps, and the bytes the capture wrote in the last.
fn time_runs(runs: u64, sink: Sink, dir: &std::path::Path) -> (Duration, u64) {
    let mut total = Duration::ZERO;
    let mut bytes = 0;
    for run in 0..runs {
        let mut scene = example_world(true);
        let path = dir.join(format!("run-{}.cdrec", run % 2));
        let mut capture = match sink {
            Sink::None => None,
            Sink::Recording => Some(RapierCapture::to_recording(&path, &scene.world)),
            Sink::Stream => Some(RapierCapture::to_stream(Counted::default(), &scene.world)),
        }
        .transpose()
        .unwrap_or_else(|e| panic!("the capture starts: {e}"));
        let start = Instant::now();
        for _ in 0..STEPS {
            scene.world.step();
            if let Some(c) = capture.as_mut() {
                c.record_step(&scene.world)
                    .unwrap_or_else(|e| panic!("the step is captured: {e}"));
            }
        }
        total += start.elapsed();
        if let Some(c) = capture {
            let summary = c
                .finish()
                .unwrap_or_else(|e| panic!("the capture finishes: {e}"));
            bytes = match sink {
                Sink::Stream => STREAM_BYTES.load(std::sync::atomic::Ordering::Relaxed),
                _ => summary.bytes,
            };
        }
    }
    (total, bytes)
}

/// The stream's bytes go to a `Vec<u8>`; the count of the last run is kept for the summary
/// (the capture owns its writer, so the vector itself is not handed back).
static STREAM_BYTES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

#[derive(Default)]
struct Counted(Vec<u8>);

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        STREAM_BYTES.store(self.0.len() as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }
}

fn capture(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("a temporary directory: {e}"));
    let mut group = c.benchmark_group("rapier capture, 120-step run");
    for sink in [Sink::None, Sink::Recording, Sink::Stream] {
        group.bench_function(sink.name(), |b| {
            b.iter_custom(|runs| time_runs(runs, sink, dir.path()).0)
        });
    }
    group.finish();
    summary(dir.path());
}

/// Per step, and the ratios, measured again over a fixed number of runs (criterion's own
/// report is per run).
fn summary(dir: &std::path::Path) {
    const RUNS: u64 = 30;
    let per_step = |sink| {
        let (t, bytes) = time_runs(RUNS, sink, dir);
        (t.as_secs_f64() / (RUNS * STEPS) as f64 * 1e6, bytes)
    };
    let (alone, _) = per_step(Sink::None);
    let (recording, recording_bytes) = per_step(Sink::Recording);
    let (stream, stream_bytes) = per_step(Sink::Stream);
    println!("\nper step, over {RUNS} runs of {STEPS} steps:");
    println!("  rapier step alone           {alone:8.1} µs");
    for (name, t, bytes) in [
        ("+ record_step, recording", recording, recording_bytes),
        ("+ record_step, stream", stream, stream_bytes),
    ] {
        println!(
            "  {name:<27} {t:8.1} µs: capture {:6.1} µs per step, x{:.3} the step alone, \
             {:.0} bytes per step",
            t - alone,
            t / alone,
            bytes as f64 / STEPS as f64
        );
    }
}

criterion_group!(benches, capture);
criterion_main!(benches);

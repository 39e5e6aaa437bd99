//! What auditing a captured run costs per step, on the `rapier_capture` example (a 3 x 4 box
//! wall hit by a fast CCD ball, 120 steps): `audit` over the whole recording (our exact
//! narrow phase on every pair whose boxes overlap, the tunnelling sweep, the state checks),
//! beside rapier's own step on the same world for scale. The summary printed at the end
//! divides by the steps and says how many pairs were checked.

use collidoscope::audit::{AuditOptions, audit};
use collidoscope::capture::Capture;
use collidoscope::capture::rapier::{RapierCapture, example_world};
use collidoscope::record::RecordingReader;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};

const STEPS: u32 = 120;

fn record(path: &std::path::Path) {
    let mut scene = example_world(true);
    let header = RapierCapture::header(&scene.world);
    let mut capture = RapierCapture::new(Capture::to_recording(path, header).unwrap());
    for _ in 0..STEPS {
        scene.world.step();
        capture.record_step(&scene.world).unwrap();
    }
    capture.finish().unwrap();
}

fn rapier_run() -> Duration {
    let mut scene = example_world(true);
    let start = Instant::now();
    for _ in 0..STEPS {
        scene.world.step();
    }
    start.elapsed()
}

fn auditing(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.cdrec");
    record(&path);
    let reader = RecordingReader::open(&path).unwrap();
    let report = audit(&reader, AuditOptions::default()).unwrap();
    let mut group = c.benchmark_group("audit");
    group.bench_function("rapier_example_120_steps", |b| {
        b.iter(|| black_box(audit(&reader, AuditOptions::default()).unwrap()))
    });
    group.bench_function("rapier_step_120_steps", |b| {
        b.iter(|| black_box(rapier_run()))
    });
    group.finish();

    // Criterion reports means per run; this divides medians of a few runs by the steps.
    let median = |f: &mut dyn FnMut() -> Duration| {
        let mut runs: Vec<Duration> = (0..9).map(|_| f()).collect();
        runs.sort();
        runs[4]
    };
    let audited = median(&mut || {
        let start = Instant::now();
        black_box(audit(&reader, AuditOptions::default()).unwrap());
        start.elapsed()
    });
    let stepped = median(&mut || rapier_run());
    let per = |d: Duration| d.as_secs_f64() * 1e6 / f64::from(STEPS);
    eprintln!(
        "audit: {:.1} µs a step ({} pair checks in {} steps, {:.1} a step; {} findings); rapier's \
         own step {:.1} µs: the audit costs {:.2}x the step",
        per(audited),
        report.pairs_checked,
        report.steps,
        report.pairs_checked as f64 / report.steps as f64,
        report.findings.len(),
        per(stepped),
        audited.as_secs_f64() / stepped.as_secs_f64()
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(4));
    targets = auditing
}
criterion_main!(benches);

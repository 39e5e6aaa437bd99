//! Step time of the default scene: without tracing, with tracing, and with recording.
//! Also prints the bytes a recorded frame takes, and the recording's cost as paired ratios.
//!
//! `convex-pile` (300 hulls, 4 substeps) runs with each narrow-phase method in the same run:
//! the `narrow` entries time the narrow phase alone (summed from the frames' stage timings),
//! the `step` entries the whole step. `cargo bench --no-default-features --bench step -- convex`
//!
//! That `NoProbe` costs nothing is shown by comparing against a build with the trace calls
//! compiled out: `scripts/bench-untraced.sh` runs this bench with and without the `untraced`
//! feature and criterion reports the change.

use collidoscope::narrow::NarrowMethod;
use collidoscope::record::{RecordingMeta, RecordingWriter, WriterOptions};
use collidoscope::trace::NoProbe;
use collidoscope::world::{DEFAULT_SCENE, World, builtin_scene};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};

const STEPS: usize = 30;

/// The default scene in its liveliest phase: bodies landing and tumbling.
fn lively_world() -> World {
    let mut w = World::new(builtin_scene(DEFAULT_SCENE).unwrap()).unwrap();
    for _ in 0..40 {
        w.step(&mut NoProbe);
    }
    w
}

fn writer(dir: &std::path::Path, w: &World) -> RecordingWriter {
    let meta = RecordingMeta {
        scene_ron: w.scene().to_ron(),
        body_names: w.bodies.iter().map(|b| b.name.clone()).collect(),
        dt_s: w.scene().solver.dt_s,
    };
    RecordingWriter::create(dir.join("bench.cdrec"), meta, WriterOptions::default()).unwrap()
}

fn bytes_per_frame(dir: &std::path::Path) {
    for (label, traced) in [("without trace", false), ("with trace", true)] {
        let mut w = lively_world();
        let mut rec = writer(dir, &w);
        let start = rec.bytes_written();
        for _ in 0..300 {
            let f = if traced {
                w.step_traced(collidoscope::trace::TraceRecorder::DEFAULT_LIMIT)
            } else {
                w.step(&mut NoProbe)
            };
            rec.write_frame(&f).unwrap();
        }
        let per = (rec.bytes_written() - start) as f64 / 300.0;
        eprintln!("bytes per frame of {DEFAULT_SCENE} {label}: {per:.0}");
    }
}

/// One measured batch of the default scene: `STEPS` steps from `base`, traced or not,
/// written to `rec` or not.
fn batch(base: &World, traced: bool, mut rec: Option<&mut RecordingWriter>) -> Duration {
    let mut w = base.clone();
    let start = Instant::now();
    for _ in 0..STEPS {
        let f = if traced {
            w.step_traced(collidoscope::trace::TraceRecorder::DEFAULT_LIMIT)
        } else {
            w.step(&mut NoProbe)
        };
        if let Some(rec) = rec.as_deref_mut() {
            rec.write_frame(&f).unwrap();
        }
        black_box(f);
    }
    start.elapsed()
}

/// The recording's cost as the median of paired ratios: each round runs the four variants
/// back to back in a rotating order, so a load change on this shared machine hits a round's
/// variants alike instead of one criterion group after another.
fn recording_overhead(dir: &std::path::Path, base: &World) {
    const ROUNDS: usize = 60;
    let mut rec = writer(dir, base);
    let mut ratios = [Vec::new(), Vec::new(), Vec::new()];
    for round in 0..ROUNDS {
        let mut times = [Duration::ZERO; 4];
        for k in 0..4 {
            let variant = (round + k) % 4;
            let (traced, recorded) = (variant & 1 == 1, variant & 2 == 2);
            times[variant] = batch(base, traced, recorded.then_some(&mut rec));
        }
        // times: [plain, traced, plain recorded, traced recorded]
        ratios[0].push(times[2].as_secs_f64() / times[0].as_secs_f64());
        ratios[1].push(times[3].as_secs_f64() / times[1].as_secs_f64());
        ratios[2].push(times[3].as_secs_f64() / times[0].as_secs_f64());
    }
    let labels = [
        "recorded over not, no probe",
        "recorded over not, traced",
        "traced and recorded over neither",
    ];
    for (label, mut r) in labels.into_iter().zip(ratios) {
        r.sort_by(f64::total_cmp);
        eprintln!(
            "step time, {label}: median of {ROUNDS} paired rounds: {:+.1} % \
             (quartiles {:+.1} % / {:+.1} %)",
            (r[ROUNDS / 2] - 1.0) * 100.0,
            (r[ROUNDS / 4] - 1.0) * 100.0,
            (r[3 * ROUNDS / 4] - 1.0) * 100.0,
        );
    }
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    bytes_per_frame(dir.path());
    let base = lively_world();
    recording_overhead(dir.path(), &base);
    let mut g = c.benchmark_group("step");
    g.sample_size(30);
    g.bench_function("no_probe", |b| {
        b.iter_batched(
            || base.clone(),
            |mut w| {
                for _ in 0..STEPS {
                    black_box(w.step(&mut NoProbe));
                }
            },
            BatchSize::SmallInput,
        )
    });
    g.bench_function("traced", |b| {
        b.iter_batched(
            || base.clone(),
            |mut w| {
                for _ in 0..STEPS {
                    black_box(w.step_traced(collidoscope::trace::TraceRecorder::DEFAULT_LIMIT));
                }
            },
            BatchSize::SmallInput,
        )
    });
    let mut rec = writer(dir.path(), &base);
    g.bench_function("no_probe_recorded", |b| {
        b.iter_batched(
            || base.clone(),
            |mut w| {
                for _ in 0..STEPS {
                    let f = w.step(&mut NoProbe);
                    rec.write_frame(&f).unwrap();
                }
            },
            BatchSize::SmallInput,
        )
    });
    g.bench_function("traced_recorded", |b| {
        b.iter_batched(
            || base.clone(),
            |mut w| {
                for _ in 0..STEPS {
                    let f = w.step_traced(collidoscope::trace::TraceRecorder::DEFAULT_LIMIT);
                    rec.write_frame(&f).unwrap();
                }
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

/// Steps per measured iteration of the convex pile.
const PILE_STEPS: usize = 5;

/// The convex pile where it costs most: hulls landing on the floor and on one another.
fn pile_world(method: NarrowMethod) -> World {
    let mut w = World::new(builtin_scene("convex-pile").unwrap()).unwrap();
    w.set_narrow_method(method);
    for _ in 0..100 {
        w.step(&mut NoProbe);
    }
    w
}

fn convex_pile(c: &mut Criterion) {
    let mut g = c.benchmark_group("convex-pile");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(8));
    for method in [NarrowMethod::Reference, NarrowMethod::Coherent] {
        let base = pile_world(method);
        // Each iteration restarts from the same state (the pair memory included), so both
        // methods step through the same frames.
        g.bench_function(format!("narrow/{}", method.label()), |b| {
            b.iter_custom(|iters| {
                let mut narrow = Duration::ZERO;
                for _ in 0..iters {
                    let mut w = base.clone();
                    for _ in 0..PILE_STEPS {
                        let f = black_box(w.step(&mut NoProbe));
                        narrow += Duration::from_secs_f64(f.timings.narrow_s);
                    }
                }
                narrow
            })
        });
        g.bench_function(format!("step/{}", method.label()), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let mut w = base.clone();
                    let start = Instant::now();
                    for _ in 0..PILE_STEPS {
                        black_box(w.step(&mut NoProbe));
                    }
                    total += start.elapsed();
                }
                total
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench, convex_pile);
criterion_main!(benches);

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
use collidoscope::record::{
    BackgroundWriter, DEFAULT_QUEUE_FRAMES, RecordingMeta, RecordingWriter, WriterOptions,
};
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

fn writer(path: &std::path::Path, w: &World) -> RecordingWriter {
    let meta = RecordingMeta {
        scene_ron: w.scene().to_ron(),
        body_names: w.bodies.iter().map(|b| b.name.clone()).collect(),
        dt_s: w.scene().solver.dt_s,
    };
    RecordingWriter::create(path, meta, WriterOptions::default()).unwrap()
}

fn bytes_per_frame(dir: &std::path::Path) {
    for (label, traced) in [("without trace", false), ("with trace", true)] {
        let mut w = lively_world();
        let mut rec = writer(&dir.join("bytes.cdrec"), &w);
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

/// Where a batch's frames go.
enum Sink<'a> {
    Nowhere,
    /// Encoded and written on the stepping thread.
    Inline(&'a mut RecordingWriter),
    /// Handed to the writer's own thread; the batch ends once they are all written.
    Background(&'a mut BackgroundWriter),
}

/// One measured batch of the default scene: `STEPS` steps from `base`, traced or not, with
/// their frames going to `sink`.
fn batch(base: &World, traced: bool, sink: Sink) -> Duration {
    let mut w = base.clone();
    let start = Instant::now();
    let mut sink = sink;
    for _ in 0..STEPS {
        let f = if traced {
            w.step_traced(collidoscope::trace::TraceRecorder::DEFAULT_LIMIT)
        } else {
            w.step(&mut NoProbe)
        };
        match &mut sink {
            Sink::Nowhere => {
                black_box(f);
            }
            Sink::Inline(rec) => rec.write_frame(&f).unwrap(),
            Sink::Background(rec) => rec.write_frame(f).unwrap(),
        }
    }
    if let Sink::Background(rec) = &mut sink {
        rec.flush().unwrap();
    }
    start.elapsed()
}

/// The recording's cost as the median of paired ratios: each round runs the six variants
/// (not recorded, recorded inline, recorded on the writer's thread; each without and with
/// the trace) back to back in a rotating order, so a load change on this shared machine hits
/// a round's variants alike instead of one criterion group after another.
fn recording_overhead(dir: &std::path::Path, base: &World) {
    const ROUNDS: usize = 60;
    let mut inline = writer(&dir.join("inline.cdrec"), base);
    let mut background = BackgroundWriter::spawn(
        writer(&dir.join("background.cdrec"), base),
        DEFAULT_QUEUE_FRAMES,
    )
    .unwrap();
    // [writer][traced]: recorded time over the same variant not recorded.
    let mut ratios = [[Vec::new(), Vec::new()], [Vec::new(), Vec::new()]];
    for round in 0..ROUNDS {
        // times[sink][traced]; sink 0 nowhere, 1 inline, 2 background.
        let mut times = [[Duration::ZERO; 2]; 3];
        for k in 0..6 {
            let variant = (round + k) % 6;
            let (sink, traced) = (variant / 2, variant % 2 == 1);
            let to = match sink {
                0 => Sink::Nowhere,
                1 => Sink::Inline(&mut inline),
                _ => Sink::Background(&mut background),
            };
            times[sink][traced as usize] = batch(base, traced, to);
        }
        for (w, ratios) in ratios.iter_mut().enumerate() {
            for (traced, r) in ratios.iter_mut().enumerate() {
                r.push(times[w + 1][traced].as_secs_f64() / times[0][traced].as_secs_f64());
            }
        }
    }
    for (w, ratios) in ["written inline", "written on its own thread"]
        .iter()
        .zip(ratios)
    {
        for (traced, mut r) in ["no probe", "full trace"].iter().zip(ratios) {
            r.sort_by(f64::total_cmp);
            eprintln!(
                "step time, recorded over not ({w}, {traced}): median of {ROUNDS} paired \
                 rounds: {:+.1} % (quartiles {:+.1} % / {:+.1} %)",
                (r[ROUNDS / 2] - 1.0) * 100.0,
                (r[ROUNDS / 4] - 1.0) * 100.0,
                (r[3 * ROUNDS / 4] - 1.0) * 100.0,
            );
        }
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
    let mut rec = writer(&dir.path().join("inline.cdrec"), &base);
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
    let mut rec = BackgroundWriter::spawn(
        writer(&dir.path().join("background.cdrec"), &base),
        DEFAULT_QUEUE_FRAMES,
    )
    .unwrap();
    // The writer's thread finishes each iteration's frames inside the iteration.
    g.bench_function("traced_recorded_background", |b| {
        b.iter_batched(
            || base.clone(),
            |mut w| {
                for _ in 0..STEPS {
                    let f = w.step_traced(collidoscope::trace::TraceRecorder::DEFAULT_LIMIT);
                    rec.write_frame(f).unwrap();
                }
                rec.flush().unwrap();
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

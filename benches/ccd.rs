//! Continuous collision: step time of the default scene (`mixed-drop`) and of `convex-pile` in
//! each mode, and the ratio to `Speculative` (printed after a plain timing run, then measured
//! by criterion). Also prints the bytes each kind of continuous-collision event takes in a
//! recording (postcard, inside its `TraceEvent`).

use collidoscope::ccd::CcdEvent;
use collidoscope::scene::CcdMode;
use collidoscope::trace::{NoProbe, Stage, TraceEvent, Verdict};
use collidoscope::world::{World, builtin_scene};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant;

const STEPS: usize = 10;
const MODES: [CcdMode; 4] = [
    CcdMode::Off,
    CcdMode::Speculative,
    CcdMode::Substep(4),
    CcdMode::Toi,
];

/// The scene in the given mode, in its liveliest phase: bodies landing and tumbling.
fn lively(scene: &str, mode: CcdMode) -> World {
    let mut s = builtin_scene(scene).unwrap();
    s.solver.ccd = mode;
    let mut w = World::new(s).unwrap();
    for _ in 0..40 {
        w.step(&mut NoProbe);
    }
    w
}

fn steps(w: &mut World) {
    for _ in 0..STEPS {
        black_box(w.step(&mut NoProbe));
    }
}

fn ratios() {
    for scene in ["mixed-drop", "convex-pile"] {
        let mut times = Vec::new();
        for mode in MODES {
            let base = lively(scene, mode);
            let mut best = f64::INFINITY;
            for _ in 0..5 {
                let mut w = base.clone();
                let t = Instant::now();
                steps(&mut w);
                best = best.min(t.elapsed().as_secs_f64() / STEPS as f64);
            }
            times.push((mode, best));
        }
        let spec = times[1].1;
        for (mode, t) in times {
            eprintln!(
                "{scene:12} {:12} {:8.3} ms/step  {:5.2} × Speculative",
                mode.label(),
                t * 1e3,
                t / spec
            );
        }
    }
}

fn event_bytes() {
    let events = CcdEvent::samples();
    for e in events {
        let name = format!("{e:?}");
        let name = name.split([' ', '{']).next().unwrap_or("?").to_string();
        let bytes =
            postcard::to_allocvec(&TraceEvent::staged(Stage::NarrowPhase, Verdict::Info, e))
                .unwrap()
                .len();
        eprintln!("ccd event {name:10} {bytes} bytes");
    }
}

fn bench(c: &mut Criterion) {
    event_bytes();
    ratios();
    for scene in ["mixed-drop", "convex-pile"] {
        let mut g = c.benchmark_group(format!("ccd/{scene}"));
        g.sample_size(10);
        for mode in MODES {
            let base = lively(scene, mode);
            g.bench_function(mode.label(), |b| {
                b.iter_batched(
                    || base.clone(),
                    |mut w| steps(&mut w),
                    BatchSize::LargeInput,
                )
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! The ray-traced narrow phase against the hierarchy one on the same pairs: the `rays-drop`
//! scene is run with the hierarchy to a frame, then every mode restarts from that frame's
//! bodies (so the broad phase hands each the same pairs) and steps on. Prints the narrow
//! phase's time per step in each mode and the ratio to the hierarchy, then the bytes one
//! ray event takes in a recording and the ray events per frame; criterion then measures
//! whole steps.

use collidoscope::frame::PipelineEvent;
use collidoscope::narrow::rays::{RigidRay, RigidRayCaster, RigidRayClass, RigidRaySide};
use collidoscope::scene::NarrowKind;
use collidoscope::trace::{NoProbe, Stage, TraceEvent, TraceRecorder, Verdict};
use collidoscope::world::{World, builtin_scene};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const STEPS: usize = 10;

#[derive(Clone, Copy)]
enum Mode {
    Hierarchy,
    RaysComplete,
    RaysIterative,
}

impl Mode {
    const ALL: [Mode; 3] = [Mode::Hierarchy, Mode::RaysComplete, Mode::RaysIterative];
    fn label(self) -> &'static str {
        match self {
            Mode::Hierarchy => "hierarchy",
            Mode::RaysComplete => "rays, complete casts",
            Mode::RaysIterative => "rays, iterative",
        }
    }
}

/// A world in `mode` at frame `at` of the hierarchy's run (the same bodies, so the same
/// pairs), stepped once so the iterative cast has last step's triangles.
fn world_at(mode: Mode, at: usize) -> World {
    let mut scene = builtin_scene("rays-drop").unwrap();
    scene.solver.narrow = NarrowKind::Hierarchy;
    let mut reference = World::new(scene.clone()).unwrap();
    let mut frame = reference.initial_frame();
    for _ in 0..at {
        frame = reference.step(&mut NoProbe);
    }
    scene.solver.narrow = match mode {
        Mode::Hierarchy => NarrowKind::Hierarchy,
        _ => NarrowKind::Rays,
    };
    scene.solver.rays.iterative = matches!(mode, Mode::RaysIterative);
    let mut w = World::new(scene).unwrap();
    w.restore(&frame);
    w.step(&mut NoProbe);
    w
}

fn narrow_ms(w: &World) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let mut w = w.clone();
        let total: f64 = (0..STEPS)
            .map(|_| w.step(&mut NoProbe).timings.narrow_s)
            .sum();
        best = best.min(total / STEPS as f64);
    }
    best * 1e3
}

fn ratios() {
    for (phase, at) in [("landing", 45), ("resting", 200)] {
        let times: Vec<(Mode, f64)> = Mode::ALL
            .iter()
            .map(|&m| (m, narrow_ms(&world_at(m, at))))
            .collect();
        let base = times[0].1;
        for (mode, t) in times {
            eprintln!(
                "rays-drop {phase:8} {:22} narrow phase {t:8.3} ms/step  {:6.2} × hierarchy",
                mode.label(),
                t / base
            );
        }
    }
}

fn event_bytes() {
    let ray = RigidRay {
        source: 3,
        vertex: 120,
        target: 0,
        side: RigidRaySide::Inner,
        triangle: Some(7),
        t: 0.012,
        class: RigidRayClass::Collision,
        reject: None,
        caster: RigidRayCaster::Walked,
    };
    let event = TraceEvent::staged(Stage::NarrowPhase, Verdict::Hit, PipelineEvent::Ray(ray));
    let bytes = postcard::to_allocvec(&event).unwrap().len();
    let mut w = world_at(Mode::RaysIterative, 200);
    let mut recorder = TraceRecorder::default();
    w.step(&mut recorder);
    let rays = recorder
        .events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                collidoscope::trace::EventKind::Pipeline(PipelineEvent::Ray(_))
            )
        })
        .count();
    eprintln!(
        "ray event: {bytes} bytes (postcard, in its TraceEvent); rays-drop at rest: {rays} ray \
         events per frame, about {} bytes before compression",
        rays * bytes
    );
}

fn bench(c: &mut Criterion) {
    event_bytes();
    ratios();
    let mut g = c.benchmark_group("rays/rays-drop-resting");
    g.sample_size(10);
    for mode in Mode::ALL {
        let base = world_at(mode, 200);
        g.bench_function(mode.label(), |b| {
            b.iter_batched(
                || base.clone(),
                |mut w| {
                    for _ in 0..STEPS {
                        black_box(w.step(&mut NoProbe));
                    }
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

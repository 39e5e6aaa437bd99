//! The Arka3D routine (steps 1–3: preselection, sort, facet tests) per step on scenarios 3–6:
//! the same 120 states of scenario 3's run (its board and its four balls, the first 120 frames after frame 3,000 with a ball inside the board)
//! tested with each scenario's switches, so that only the switch differs and the time shows
//! the work it saves. The summary printed at the end gives each scenario's time per step,
//! its facets preselected and tested, and its ratio to scenario 3.

use collidoscope::arka::board::Board;
use collidoscope::arka::routine::{PassCounts, first_hit};
use collidoscope::arka::scenes::scenario_switches;
use collidoscope::arka::{ArkaScene, Switches};
use collidoscope::families::{FamilyFrameData, FamilySceneData};
use collidoscope::geom::{Point3, Real};
use collidoscope::trace::NoProbe;
use collidoscope::world::{World, builtin_scene};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};

const FIRST: u64 = 3000;
const STATES: u64 = 120;
const DT: Real = 1.0 / 60.0;
const REPEAT: usize = 50;

/// One state: the board and each ball's motion over a step (old centre, new centre, r).
struct State {
    board: Board,
    motions: Vec<(Point3, Point3, Real)>,
}

fn states() -> Vec<State> {
    let scene = builtin_scene("arka-3-hard").unwrap();
    let data: ArkaScene = scene
        .families
        .iter()
        .find_map(|d| match d {
            FamilySceneData::Arka(s) => Some(s.clone()),
            _ => None,
        })
        .unwrap();
    let mut world = World::new(scene).unwrap();
    let mut out = Vec::new();
    while (out.len() as u64) < STATES {
        let frame = world.step(&mut NoProbe);
        if frame.index <= FIRST {
            continue;
        }
        for f in &frame.families {
            if let FamilyFrameData::Arka(f) = f
                && f.balls.iter().any(|b| b.position.z < 10.0)
            {
                out.push(State {
                    board: Board::new(f.board_cells(&data)),
                    motions: f
                        .balls
                        .iter()
                        .zip(&data.balls)
                        .map(|(b, d)| (b.position, b.position + b.velocity * DT, d.radius))
                        .collect(),
                });
            }
        }
    }
    out
}

/// The routine once for every ball of every state; the counts summed.
fn routine(
    states: &[State],
    switches: Switches,
    scratch: &mut Vec<(Real, collidoscope::arka::board::Facet)>,
) -> PassCounts {
    let mut counts = PassCounts::default();
    for s in states {
        for (old, new, r) in &s.motions {
            black_box(first_hit(
                &s.board,
                old,
                new,
                *r,
                switches,
                scratch,
                &mut counts,
            ));
        }
    }
    counts
}

fn arka(c: &mut Criterion) {
    let states = states();
    let mut group = c.benchmark_group("arka_routine_120_steps");
    for n in 3..=6u8 {
        let switches = scenario_switches(n);
        let mut scratch = Vec::new();
        group.bench_function(format!("scenario_{n}"), |b| {
            b.iter(|| routine(&states, switches, &mut scratch))
        });
    }
    group.finish();

    // Medians of a few runs per step, the scenarios interleaved so that the machine's drift
    // falls on all of them alike.
    let mut scratch = Vec::new();
    let mut runs: Vec<Vec<f64>> = vec![Vec::new(); 4];
    for _ in 0..9 {
        for (k, n) in (3..=6u8).enumerate() {
            let switches = scenario_switches(n);
            let start = Instant::now();
            // 50 passes over the 120 states: long enough for the clock.
            for _ in 0..REPEAT {
                routine(&states, switches, &mut scratch);
            }
            runs[k].push(start.elapsed().as_secs_f64() * 1e6 / (states.len() * REPEAT) as f64);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let times: Vec<f64> = runs.iter_mut().map(median).collect();
    for (k, n) in (3..=6u8).enumerate() {
        let counts = routine(&states, scenario_switches(n), &mut Vec::new());
        let m = states.len() as f64;
        eprintln!(
            "arka scenario {n}: {:.2} µs a step (four balls), {:.1} facets preselected and \
             {:.1} tested a step; {:.2}x scenario 3",
            times[k],
            counts.preselected as f64 / m,
            counts.treated as f64 / m,
            times[k] / times[0]
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(3));
    targets = arka
}
criterion_main!(benches);

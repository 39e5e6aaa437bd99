//! The rigid step against rapier3d's on the same scenes, in one run (issue 30): each scene is
//! rebuilt in a rapier world (same shapes, poses, velocities, masses, friction, gravity and
//! time step), and both step through the scene's first `STEPS` frames from the same start.
//! rapier runs with its default 4 solver iterations, with 40, and with as many solver passes as
//! ours takes (iterations × substeps) when that is another count. The ratios print at the end,
//! with the median ratio of runs that took turns back to back.
//!
//! `cargo bench --features rapier --bench rigid_vs_rapier`

#[path = "common/box_wall.rs"]
mod box_wall;
use box_wall::box_wall;
use collidoscope::geom::Shape;
use collidoscope::scene::Scene;
use collidoscope::trace::NoProbe;
use collidoscope::world::{World, builtin_scene};
use criterion::{Criterion, criterion_group, criterion_main};
use rapier3d::prelude::*;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Steps of each run: the landing, tumbling and settling of the scenes, five seconds at
/// 60 Hz, as the issue measured them.
const STEPS: usize = 300;

fn scenes() -> Vec<(&'static str, Scene)> {
    let mut out: Vec<(&'static str, Scene)> = ["convex-pile", "box-stack", "mixed-drop"]
        .into_iter()
        .map(|n| (n, builtin_scene(n).expect("a built-in scene")))
        .collect();
    out.push(("box-wall-1000", box_wall()));
    out
}

fn vector(v: &collidoscope::geom::Vec3) -> Vector {
    Vector::new(v.x as f32, v.y as f32, v.z as f32)
}

fn collider(shape: &Shape) -> Option<ColliderBuilder> {
    let points = |p: &[collidoscope::geom::Point3]| -> Vec<Vector> {
        p.iter().map(|p| vector(&p.coords)).collect()
    };
    Some(match shape {
        Shape::Sphere { radius } => ColliderBuilder::ball(*radius as f32),
        Shape::Box { half_extents, .. } => ColliderBuilder::cuboid(
            half_extents.x as f32,
            half_extents.y as f32,
            half_extents.z as f32,
        ),
        Shape::Capsule {
            radius,
            half_height,
        } => ColliderBuilder::capsule_y(*half_height as f32, *radius as f32),
        Shape::Convex(hull) => ColliderBuilder::convex_hull(&points(&hull.vertices))?,
        Shape::Mesh(mesh) => {
            ColliderBuilder::trimesh(points(&mesh.vertices), mesh.triangles.clone()).ok()?
        }
    })
}

/// The scene's bodies in a rapier world, at their start, with `iterations` solver passes.
fn rapier_world(world: &World, iterations: usize) -> PhysicsWorld {
    let scene = world.scene();
    let mut r = PhysicsWorld::new();
    let g = scene.gravity;
    r.gravity = Vector::new(g[0] as f32, g[1] as f32, g[2] as f32);
    r.integration_parameters.dt = scene.solver.dt_s as f32;
    r.integration_parameters.num_solver_iterations = iterations;
    for b in &world.bodies {
        let body = if b.fixed {
            RigidBodyBuilder::fixed()
        } else {
            RigidBodyBuilder::dynamic()
        }
        .translation(vector(&b.pose.translation.vector))
        .rotation(vector(&b.pose.rotation.scaled_axis()))
        .linvel(vector(&b.linear_velocity))
        .angvel(vector(&b.angular_velocity));
        let Some(c) = collider(&b.shape) else {
            panic!("no rapier collider for body {}", b.name);
        };
        let mut c = c
            .friction(b.material.friction as f32)
            .restitution(b.material.restitution as f32);
        if !b.fixed && b.inv_mass > 0.0 {
            c = c.mass((1.0 / b.inv_mass) as f32);
        }
        r.insert(body, c);
    }
    r
}

/// Time of `runs` runs of `STEPS` steps from the scene's start (the starts untimed).
fn time_runs<W>(runs: u64, mut start: impl FnMut() -> W, mut step: impl FnMut(&mut W)) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..runs {
        let mut w = start();
        let t = Instant::now();
        for _ in 0..STEPS {
            step(&mut w);
        }
        total += t.elapsed();
    }
    total
}

/// The mean step of `runs` runs taking `total`.
fn per_step(total: Duration, runs: u64) -> Duration {
    total.div_f64(runs.max(1) as f64 * STEPS as f64)
}

/// The middle of a benchmark's per-step times (warm-up included): steadier than its last
/// sample on a machine whose other work comes and goes.
fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples.get(samples.len() / 2).copied().unwrap_or_default()
}

/// Rounds in which one run of ours and one of rapier's take turns back to back. This machine's
/// speed drifts over the minutes between criterion's groups, and by as much as the ratios
/// differ; within a round both sides see the same machine, and the median round's ratio is
/// printed beside the ratio of the groups' medians.
const PAIRED_ROUNDS: usize = 5;

/// The median over [`PAIRED_ROUNDS`] of our run's time over rapier's at `iterations`; the
/// side that goes first alternates, so a machine speeding up or slowing down favours neither.
fn paired_ratio(ours: &World, iterations: usize) -> f64 {
    let mine = || {
        time_runs(
            1,
            || ours.clone(),
            |w| {
                black_box(w.step(&mut NoProbe));
            },
        )
    };
    let theirs = || time_runs(1, || rapier_world(ours, iterations), |w| w.step());
    let mut ratios: Vec<f64> = (0..PAIRED_ROUNDS)
        .map(|round| {
            let (a, b) = if round % 2 == 0 {
                let a = mine();
                (a, theirs())
            } else {
                let b = theirs();
                (mine(), b)
            };
            a.as_secs_f64() / b.as_secs_f64()
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios[ratios.len() / 2]
}

/// How one engine's run of a scene ended: how many of its steps began with a body awake, and
/// the speed of its fastest body after the last step. A scene whose bodies fall asleep costs
/// next to nothing from then on, so two engines that settle a stack at different frames
/// differ in their mean step by that alone; and a scene that falls apart in one engine is no
/// longer the same work in both.
struct RunEnd {
    awake: usize,
    fastest: f64,
}

impl std::fmt::Display for RunEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "awake {}, fastest {:.2} m/s", self.awake, self.fastest)
    }
}

/// Steps `world` through the run, counting the steps that begin with a body awake.
fn run_to_end<W>(
    mut world: W,
    awake: impl Fn(&W) -> bool,
    mut step: impl FnMut(&mut W),
    fastest: impl Fn(&W) -> f64,
) -> RunEnd {
    let mut awake_steps = 0;
    for _ in 0..STEPS {
        awake_steps += usize::from(awake(&world));
        step(&mut world);
    }
    RunEnd {
        awake: awake_steps,
        fastest: fastest(&world),
    }
}

fn our_run(ours: &World) -> RunEnd {
    run_to_end(
        ours.clone(),
        // A sleeping body is held as fixed until it wakes.
        |w| w.bodies.iter().any(|body| !body.fixed),
        |w| {
            w.step(&mut NoProbe);
        },
        |w| {
            w.bodies
                .iter()
                .map(|body| body.linear_velocity.norm())
                .fold(0.0, f64::max)
        },
    )
}

fn rapier_run(ours: &World, iterations: usize) -> RunEnd {
    run_to_end(
        rapier_world(ours, iterations),
        |w| w.islands.active_bodies().next().is_some(),
        PhysicsWorld::step,
        |w| {
            w.bodies
                .iter()
                .map(|(_, body)| f64::from(body.linvel().length()))
                .fold(0.0, f64::max)
        },
    )
}

/// rapier's iteration counts to run a scene at: its default 4, the 40 the target was
/// set at, and our own number of solver passes when it is neither.
fn rapier_iterations(passes: usize) -> Vec<usize> {
    let mut counts = vec![4, 40];
    if !counts.contains(&passes) {
        counts.push(passes);
    }
    counts
}

fn bench(c: &mut Criterion) {
    let mut ratios = Vec::new();
    for (name, scene) in scenes() {
        let ours = World::new(scene).expect("the scene builds");
        let passes = ours.scene().solver.passes() as usize;
        let mut g = c.benchmark_group(format!("rigid_step/{name}"));
        g.sample_size(10);
        g.measurement_time(Duration::from_secs(6));
        let mut samples = Vec::new();
        g.bench_function("collidoscope", |b| {
            b.iter_custom(|runs| {
                let d = time_runs(
                    runs,
                    || ours.clone(),
                    |w| {
                        black_box(w.step(&mut NoProbe));
                    },
                );
                samples.push(per_step(d, runs));
                d
            })
        });
        let ours_end = (!samples.is_empty()).then(|| our_run(&ours));
        let mean = median(samples);
        let mut theirs = Vec::new();
        for iterations in rapier_iterations(passes) {
            let mut samples = Vec::new();
            g.bench_function(format!("rapier3d_{iterations}_iterations"), |b| {
                b.iter_custom(|runs| {
                    let d = time_runs(runs, || rapier_world(&ours, iterations), |w| w.step());
                    samples.push(per_step(d, runs));
                    d
                })
            });
            let (paired, end) = if samples.is_empty() {
                (0.0, None)
            } else {
                (
                    paired_ratio(&ours, iterations),
                    Some(rapier_run(&ours, iterations)),
                )
            };
            theirs.push((iterations, median(samples), paired, end));
        }
        g.finish();
        ratios.push((name, passes, mean, ours_end, theirs));
    }
    println!(
        "\nrigid step, mean over the first {STEPS} steps (median of criterion's samples; in \
         brackets the median ratio of {PAIRED_ROUNDS} rounds run back to back; awake: how many \
         steps began with a body awake; fastest: the fastest body's speed after the last step):"
    );
    for (name, passes, ours, ours_end, theirs) in ratios {
        // A scene criterion's filter left out has no times.
        if ours.is_zero() {
            continue;
        }
        let columns: Vec<String> = theirs
            .iter()
            .map(|(iterations, t, paired, end)| {
                let end = end.as_ref().map_or(String::new(), |e| format!(" ({e})"));
                format!(
                    "rapier3d {iterations} it. {:>7.3} ms: x{:.2} [x{paired:.2}]{end}",
                    t.as_secs_f64() * 1e3,
                    ours.as_secs_f64() / t.as_secs_f64()
                )
            })
            .collect();
        let ours_end = ours_end.map_or(String::new(), |e| format!("; {e}"));
        println!(
            "  {name:<15} collidoscope {:>8.3} ms ({passes} passes{ours_end}) | {}",
            ours.as_secs_f64() * 1e3,
            columns.join(" | ")
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);

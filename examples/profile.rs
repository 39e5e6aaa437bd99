//! The benches' workloads alone, for a profiler (`perf record`, `valgrind --tool=callgrind`)
//! and for quick timings with a checksum that shows whether a change altered the results:
//!
//! ```sh
//! cargo run --release --no-default-features --example profile -- step box-wall-1000 300
//! cargo run --release --no-default-features --example profile -- build torus
//! cargo run --release --no-default-features --example profile -- rays teapot
//! ```
//!
//! `step SCENE [STEPS] [RUNS]` steps a built-in scene (or the rigid bench's `box-wall-1000`);
//! `build MESH [RUNS]` and `rays MESH [RUNS]` build a hierarchy over, or cast the hierarchy
//! bench's 20,000 rays at, `torus` (100,000 triangles) or `teapot` (262,144). Each prints
//! its best run.

#[path = "../benches/common/box_wall.rs"]
mod box_wall;
#[path = "../benches/common/meshes.rs"]
mod meshes;

use collidoscope::bvh::{BuildOptions, Bvh};
use collidoscope::geom::{Aabb, Real, TriMesh};
use collidoscope::trace::NoProbe;
use collidoscope::world::{World, builtin_scene};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |k: usize| args.get(k).map(String::as_str);
    let count = |k: usize, default: usize| arg(k).and_then(|s| s.parse().ok()).unwrap_or(default);
    let outcome = match (arg(0), arg(1)) {
        (Some("step"), Some(scene)) => step(scene, count(2, 300), count(3, 1)),
        (Some("build"), Some(mesh)) => mesh_of(mesh).map(|m| build(&m, count(2, 10))),
        (Some("rays"), Some(mesh)) => mesh_of(mesh).map(|m| rays(&m, count(2, 5))),
        _ => Err(
            "usage: profile step SCENE [STEPS] [RUNS] | build MESH [RUNS] | rays MESH [RUNS]"
                .into(),
        ),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("profile: {e}");
            ExitCode::from(2)
        }
    }
}

fn mesh_of(name: &str) -> Result<TriMesh, String> {
    match name {
        "torus" => Ok(meshes::big_mesh()),
        "teapot" => Ok(meshes::teapot_mesh()),
        _ => Err(format!("no mesh {name:?} (torus or teapot)")),
    }
}

/// The best of `runs` runs of `f`, in seconds.
fn best(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn step(name: &str, steps: usize, runs: usize) -> Result<(), String> {
    let scene = if name == "box-wall-1000" {
        box_wall::box_wall()
    } else {
        builtin_scene(name).map_err(|e| e.to_string())?
    };
    let start = World::new(scene).map_err(|e| e.to_string())?;
    // The kinetic energy of every frame, summed: any change to the steps changes it.
    let (mut checksum, mut contacts) = (0.0, 0);
    let seconds = best(runs, || {
        let mut world = start.clone();
        (checksum, contacts) = (0.0, 0);
        for _ in 0..steps {
            let frame = world.step(&mut NoProbe);
            checksum += frame.counters.kinetic_energy_j;
            contacts += frame.contacts.len();
        }
    });
    println!(
        "{name}: {:.3} ms a step, {} contacts a step, checksum {checksum:.17e}",
        seconds / steps.max(1) as f64 * 1e3,
        contacts / steps.max(1)
    );
    Ok(())
}

fn build(mesh: &TriMesh, runs: usize) {
    let seconds = best(runs, || {
        black_box(Bvh::<Aabb>::build(mesh, &BuildOptions::default()));
    });
    println!("build: {:.2} ms", seconds * 1e3);
}

fn rays(mesh: &TriMesh, runs: usize) {
    let tree = Bvh::<Aabb>::build(mesh, &BuildOptions::default());
    let rays = meshes::rays(mesh, 20_000);
    let mut checksum = 0.0;
    let seconds = best(runs, || {
        checksum = rays
            .iter()
            .filter_map(|r| tree.cast_ray(mesh, r, Real::MAX, 0, &mut NoProbe))
            .map(|h| h.t)
            .sum();
    });
    println!(
        "rays: {:.1} ns a ray, checksum {checksum:.17e}",
        seconds / rays.len() as f64 * 1e9
    );
}

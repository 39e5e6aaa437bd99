//! A rapier3d run captured for Collidoscope: a wall of boxes hit by a fast ball with CCD.
//!
//! ```sh
//! cargo run --release --features rapier --example rapier_capture
//! cargo run --release -- rapier-capture.cdrec
//! ```
//!
//! `--stream run.jsonl` writes the capture stream (JSON lines) instead of a recording;
//! `collidoscope ingest run.jsonl -o run.cdrec` turns it into one.

use clap::Parser;
use collidoscope::capture::rapier::{RapierCapture, example_world};
use rapier3d::prelude::{ColliderHandle, PhysicsWorld, RigidBodyHandle};
use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

#[derive(Parser)]
#[command(about = "Runs a rapier3d box wall hit by a fast CCD ball, and captures it")]
struct Args {
    /// The recording to write.
    #[arg(long, default_value = "rapier-capture.cdrec")]
    out: PathBuf,
    /// Write the capture stream (JSON lines) to this file instead of a recording.
    #[arg(long)]
    stream: Option<PathBuf>,
    /// Steps to run, at 60 per second.
    #[arg(long, default_value_t = 180)]
    steps: u64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let mut scene = example_world(true);
    let mut capture = match &args.stream {
        Some(path) => {
            let file = File::create(path)
                .map_err(|e| anyhow::anyhow!("creating {}: {e}", path.display()))?;
            RapierCapture::to_stream(BufWriter::new(file), &scene.world)?
        }
        None => RapierCapture::to_recording(&args.out, &scene.world)?,
    };
    let mut impact = None;
    for step in 0..args.steps {
        scene.world.step();
        capture.record_step(&scene.world)?;
        if impact.is_none() && touches_a_box(&scene.world, scene.ball) {
            impact = Some(step);
        }
    }
    let summary = capture.finish()?;
    let path = args.stream.as_ref().unwrap_or(&args.out);
    let bytes = std::fs::metadata(path)
        .map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?
        .len();
    let ball_z = scene
        .world
        .bodies
        .get(scene.ball)
        .map(|b| b.translation().z);
    println!(
        "{}: {} frames, {bytes} bytes, {:.0} bytes per step",
        path.display(),
        summary.frames,
        bytes as f64 / summary.frames.max(1) as f64
    );
    match impact {
        Some(step) => {
            println!("the ball meets the wall at step {step} (frame {step} in the viewer)")
        }
        None => println!("the ball never touched the wall"),
    }
    if let Some(z) = ball_z {
        println!(
            "the ball ends at z = {z:.2} m (the wall stands at z = 0, the ball came from z = 31)"
        );
    }
    Ok(())
}

/// Whether the ball has an active contact with a collider of a dynamic body (a wall box).
fn touches_a_box(world: &PhysicsWorld, ball: RigidBodyHandle) -> bool {
    let Some(ball) = world.bodies.get(ball) else {
        return false;
    };
    let is_box = |c: ColliderHandle| {
        world
            .colliders
            .get(c)
            .and_then(|c| c.parent())
            .and_then(|b| world.bodies.get(b))
            .is_some_and(|b| b.is_dynamic())
    };
    ball.colliders().iter().any(|&c| {
        world.narrow_phase.contact_pairs_with(c).any(|p| {
            let other = if p.collider1 == c {
                p.collider2
            } else {
                p.collider1
            };
            p.has_any_active_contact() && is_box(other)
        })
    })
}

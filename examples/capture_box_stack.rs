//! A box stack hit by a fast ball, captured through the Rust capture API as another engine
//! would capture its run: Collidoscope's own engine plays that engine here, so the example
//! needs nothing but this crate. Each step's bodies, broad-phase pairs, contacts with the
//! solver's impulses (speculative contacts too: they are how this engine stops a fast
//! body), CCD flags and times of impact go through `Capture`, under engine ids
//! of its own (bodies 100, 101, …, colliders and shapes named), into a recording and, when
//! asked, the same run as a capture stream.
//!
//! ```sh
//! cargo run --release --example capture_box_stack -- box-stack.cdrec box-stack.jsonl
//! collidoscope box-stack.cdrec        # or box-stack.jsonl
//! ```

use collidoscope::capture::{
    Capture, CapturedShape, ColliderItem, ContactItem, EventItem, EventValue, Header, Item, Motion,
    PoseItem, StateItem,
};
use collidoscope::ccd::CcdEvent;
use collidoscope::frame::{ContactPoint, PipelineEvent};
use collidoscope::record::Frame;
use collidoscope::scene::{BodyDesc, CcdMode, Scene, ShapeDesc};
use collidoscope::trace::EventKind;
use collidoscope::world::{World, builtin_scene};
use std::collections::BTreeSet;
use std::error::Error;

const STEPS: u64 = 150;

/// The built-in box stack, and a ball shot at it from the side.
fn scene() -> Result<Scene, Box<dyn Error>> {
    let mut scene = builtin_scene("box-stack")?;
    let mut ball = BodyDesc::new("ball", ShapeDesc::Sphere { radius: 0.3 }, [-5.0, 1.2, 0.0]);
    ball.linear_velocity = [30.0, 1.0, 0.0];
    ball.color = Some([0.95, 0.35, 0.3]);
    scene.bodies.push(ball);
    scene.solver.ccd = CcdMode::Toi;
    Ok(scene)
}

fn engine_id(i: usize) -> u64 {
    100 + i as u64
}

fn shape(desc: &ShapeDesc) -> Option<CapturedShape> {
    match desc {
        ShapeDesc::Sphere { radius } => Some(CapturedShape::Sphere { radius: *radius }),
        ShapeDesc::Box { half_extents } => Some(CapturedShape::Cuboid {
            half_extents: *half_extents,
        }),
        _ => None,
    }
}

fn declarations(scene: &Scene, out: &mut Vec<Item>) {
    for (i, b) in scene.bodies.iter().enumerate() {
        let Some(s) = shape(&b.shape) else { continue };
        out.push(Item::Shape(collidoscope::capture::ShapeItem {
            id: format!("shape-{}", b.name).into(),
            shape: s,
            approximates: None,
        }));
        out.push(Item::Body(collidoscope::capture::BodyItem {
            id: engine_id(i).into(),
            name: Some(b.name.clone()),
            motion: if b.fixed {
                Motion::Fixed
            } else {
                Motion::Dynamic
            },
        }));
        out.push(Item::Collider(ColliderItem {
            id: format!("col-{}", b.name).into(),
            body: engine_id(i).into(),
            shape: format!("shape-{}", b.name).into(),
            pose: PoseItem::IDENTITY,
            sensor: false,
            name: None,
        }));
    }
}

/// A contact the solver worked on: touching (one of the frame's contacts) or speculative (a
/// gap it kept from closing, only in the trace), with the impulse it gave.
struct Solved {
    a: u32,
    b: u32,
    point: [f64; 3],
    normal: [f64; 3],
    /// Negative: penetration depth; positive: the gap of a speculative contact.
    distance: f64,
    impulse: Option<(f64, f64)>,
}

/// The frame's contacts with the solver's final normal and friction impulses, and the
/// speculative contacts that took an impulse (how this engine stops a fast ball).
fn solved(frame: &Frame) -> Vec<Solved> {
    let mut out: Vec<Solved> = frame
        .contacts
        .iter()
        .map(|c| Solved {
            a: c.a,
            b: c.b,
            point: c.point.into(),
            normal: c.normal.into(),
            distance: -c.depth,
            impulse: None,
        })
        .collect();
    let answers = PipelineEvent::impulse_contacts(&frame.trace);
    for (e, contact) in frame.trace.iter().zip(answers) {
        let (
            EventKind::Pipeline(PipelineEvent::Impulse {
                normal_impulse,
                friction_impulse,
                ..
            }),
            Some(at),
        ) = (&e.kind, contact)
        else {
            continue;
        };
        let impulse = Some((*normal_impulse, friction_impulse.norm()));
        match &frame.trace[at].kind {
            EventKind::Pipeline(PipelineEvent::Contact {
                point: ContactPoint::InFrame(i),
                ..
            }) => {
                if let Some(slot) = out.get_mut(*i as usize) {
                    slot.impulse = impulse;
                }
            }
            EventKind::Pipeline(PipelineEvent::Contact {
                a,
                b,
                point:
                    ContactPoint::Inline {
                        point,
                        normal,
                        depth,
                    },
            }) if *normal_impulse > 0.0 => out.push(Solved {
                a: *a,
                b: *b,
                point: (*point).into(),
                normal: (*normal).into(),
                distance: -depth,
                impulse,
            }),
            _ => {}
        }
    }
    out
}

fn step_items(scene: &Scene, world: &World, frame: &Frame, step: u64, out: &mut Vec<Item>) {
    out.push(Item::Frame(collidoscope::capture::FrameItem {
        frame: step,
        time_s: Some(frame.time_s),
    }));
    let dt = scene.solver.dt_s;
    for b in &frame.bodies {
        let i = b.id as usize;
        let q = b.rotation.quaternion();
        let mut s = StateItem::at(
            engine_id(i),
            PoseItem {
                translation: b.position.into(),
                rotation: [q.w, q.i, q.j, q.k],
            },
        );
        s.linvel = Some(b.linear_velocity.into());
        s.angvel = Some(b.angular_velocity.into());
        // This engine sweeps a body that moves more than half its size in a step.
        let size = world
            .bodies
            .get(i)
            .map_or(1.0, |r| collidoscope::ccd::rim_radius(&r.shape));
        s.ccd = Some(!scene.bodies[i].fixed && b.linear_velocity.norm() * dt > 0.5 * size);
        out.push(Item::State(s));
    }
    let name = |id: u32| format!("col-{}", scene.bodies[id as usize].name);
    let touching: BTreeSet<(u32, u32)> = frame
        .contacts
        .iter()
        .map(|c| (c.a.min(c.b), c.a.max(c.b)))
        .collect();
    for e in &frame.trace {
        match &e.kind {
            EventKind::Broad(collidoscope::broad::BroadEvent::BroadPair { a, b, .. })
                if e.verdict == collidoscope::trace::Verdict::Hit =>
            {
                out.push(Item::Pair(collidoscope::capture::PairItem {
                    a: name(*a).into(),
                    b: name(*b).into(),
                    touching: Some(touching.contains(&((*a).min(*b), (*a).max(*b)))),
                }));
            }
            EventKind::Ccd(CcdEvent::Impact { body, other, t, .. }) => {
                let mut ev = EventItem::new("ccd", "time of impact");
                ev.bodies = vec![
                    engine_id(*body as usize).into(),
                    engine_id(*other as usize).into(),
                ];
                ev.values = vec![("toi".into(), EventValue::Number(*t))];
                out.push(Item::Event(ev));
            }
            _ => {}
        }
    }
    let mut points = std::collections::HashMap::new();
    for c in solved(frame) {
        let point: &mut u32 = points.entry((c.a, c.b)).or_default();
        let mut item = ContactItem::new(
            name(c.a).as_str(),
            name(c.b).as_str(),
            c.point,
            c.normal,
            c.distance,
        );
        item.point = *point;
        *point += 1;
        if let Some((n, t)) = c.impulse {
            item.normal_impulse = Some(n);
            // The stream's tangent impulse is in the engine's own tangent basis; this one
            // has none to share, so the friction impulse's size goes first.
            item.tangent_impulse = Some([t, 0.0]);
        }
        out.push(Item::Contact(item));
    }
    out.push(Item::EndFrame(collidoscope::capture::EndFrameItem {
        state_hash: Some(format!("{:016x}", frame.state_hash())),
    }));
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let recording = args
        .next()
        .unwrap_or_else(|| "box-stack-captured.cdrec".into());
    let stream = args.next();
    let scene = scene()?;
    let mut world = World::with_origin(scene.clone(), std::path::Path::new("<example>"))?;
    let header = Header {
        dt_s: Some(scene.solver.dt_s),
        gravity: Some(scene.gravity),
        ..Header::new(format!(
            "collidoscope {} (as another engine)",
            env!("CARGO_PKG_VERSION")
        ))
    };
    let mut sinks = vec![Capture::to_recording(&recording, header.clone())?];
    if let Some(path) = &stream {
        let file = std::io::BufWriter::new(std::fs::File::create(path)?);
        sinks.push(Capture::to_stream(file, header)?);
    }
    let mut items = Vec::new();
    declarations(&scene, &mut items);
    for step in 0..STEPS {
        let frame = world.step_traced(100_000);
        step_items(&scene, &world, &frame, step, &mut items);
        for sink in &mut sinks {
            for item in &items {
                sink.push(item.clone())?;
            }
        }
        items.clear();
    }
    for sink in sinks {
        let summary = sink.finish()?;
        println!(
            "{} steps of {} captured{}",
            summary.frames,
            summary.engine,
            if summary.bytes > 0 {
                format!(" into {} ({} bytes)", summary.path.display(), summary.bytes)
            } else {
                String::new()
            }
        );
    }
    if let Some(path) = stream {
        println!("the same run as a capture stream: {path}");
    }
    Ok(())
}

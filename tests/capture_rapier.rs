//! The Rapier adapter (`collidoscope::capture::rapier`) against rapier3d itself, in the same
//! process: the example's world is stepped, captured, and each recorded frame is compared
//! with what rapier reported after that step. Then the same run through the stream (a file,
//! ingested) gives the same frames as through the API.

use collidoscope::capture::rapier::{ENGINE, RapierCapture, example_world};
use collidoscope::capture::{Capture, CaptureFrame, CaptureScene, EngineId};
use collidoscope::families::{FamilyFrameData, FamilySceneData};
use collidoscope::frame::Frame;
use collidoscope::record::{RecordingReader, WriterOptions};
use rapier3d::prelude::*;
use std::path::Path;
use std::process::Command;

/// As the issue asks: 120 steps at 60 Hz, the ball meets the wall about step 15.
const STEPS: usize = 120;

/// What rapier reports after a step, read from rapier alone (not through the adapter).
struct Reported {
    bodies: usize,
    /// Each collider's handle index and world pose (translation, `[w, x, y, z]`).
    colliders: Vec<(u64, [f64; 3], [f64; 4])>,
    /// The contact graph's and the intersection graph's edges, as handle indices.
    pairs: Vec<(u64, u64)>,
    touching: usize,
    /// Solver contacts of every solver manifold.
    contacts: usize,
}

fn index(h: ColliderHandle) -> u64 {
    h.into_raw_parts().0.into()
}

fn reported(world: &PhysicsWorld) -> Reported {
    let colliders = world
        .colliders
        .iter()
        .map(|(h, c)| {
            let p = c.position();
            let t = p.translation.to_array().map(f64::from);
            let [x, y, z, w] = p.rotation.to_array().map(f64::from);
            (index(h), t, [w, x, y, z])
        })
        .collect();
    let np = &world.narrow_phase;
    let mut pairs: Vec<_> = np
        .contact_pairs()
        .map(|p| (index(p.collider1), index(p.collider2)))
        .collect();
    pairs.extend(
        np.intersection_pairs()
            .map(|(a, b, _)| (index(a), index(b))),
    );
    Reported {
        bodies: world.bodies.len(),
        colliders,
        pairs,
        touching: np
            .contact_pairs()
            .filter(|p| p.has_any_active_contact())
            .count(),
        contacts: np
            .contact_pairs()
            .flat_map(|p| p.solver_manifolds())
            .map(|m| m.data.solver_contacts.len())
            .sum(),
    }
}

fn capture_scene(reader: &RecordingReader) -> CaptureScene {
    let scene =
        collidoscope::scene::Scene::from_ron(&reader.header().scene_ron, Path::new("<recording>"))
            .expect("the recording's scene reads back");
    scene
        .families
        .into_iter()
        .find_map(|f| match f {
            FamilySceneData::Capture(c) => Some(c),
            _ => None,
        })
        .expect("a captured run's scene holds the capture family's data")
}

fn capture_frame(frame: &Frame) -> &CaptureFrame {
    frame
        .families
        .iter()
        .find_map(|f| match f {
            FamilyFrameData::Capture(c) => Some(c),
            _ => None,
        })
        .expect("a captured frame holds the capture family's data")
}

fn engine_index(id: &EngineId) -> u64 {
    match id {
        EngineId::Int(n) => *n,
        EngineId::Text(t) => panic!("rapier ids are integers, found {t:?}"),
    }
}

/// Steps the example's world `STEPS` times, capturing each step through `capture` and
/// returning what rapier reported after each.
fn run(ccd: bool, capture: &mut dyn FnMut(&PhysicsWorld)) -> (Vec<Reported>, PhysicsWorld) {
    let mut scene = example_world(ccd);
    let mut out = Vec::with_capacity(STEPS);
    for _ in 0..STEPS {
        scene.world.step();
        capture(&scene.world);
        out.push(reported(&scene.world));
    }
    (out, scene.world)
}

fn record(path: &Path) -> Vec<Reported> {
    let header = RapierCapture::header(&example_world(true).world);
    let mut capture =
        RapierCapture::new(Capture::to_recording(path, header).expect("the recording starts"));
    let mut step = 0;
    let (out, _) = run(true, &mut |world| {
        if let Err(e) = capture.record_step(world) {
            panic!("step {step}: {e}");
        }
        step += 1;
    });
    let summary = capture.finish().expect("the recording finishes");
    assert_eq!(summary.frames, STEPS as u64);
    assert!(
        !summary.rewritten,
        "every body is declared before the first step"
    );
    out
}

/// One recorded frame against rapier's report of the same step.
fn compare(step: usize, frame: &Frame, scene: &CaptureScene, want: &Reported) {
    let at = |what: &str| format!("step {step}: {what}");
    assert_eq!(
        frame.bodies.len(),
        want.colliders.len(),
        "{}",
        at("colliders")
    );
    let mut bodies: Vec<u32> = frame
        .bodies
        .iter()
        .map(|b| scene.colliders[b.id as usize].body)
        .collect();
    bodies.sort_unstable();
    bodies.dedup();
    assert_eq!(bodies.len(), want.bodies, "{}", at("bodies"));
    for b in &frame.bodies {
        let collider = &scene.colliders[b.id as usize];
        let id = engine_index(&collider.id);
        let (_, t, q) = want
            .colliders
            .iter()
            .find(|c| c.0 == id)
            .unwrap_or_else(|| panic!("{}", at(&format!("rapier has no collider {id}"))));
        // Balls and cuboids are drawn at their collider's origin: the poses are rapier's.
        assert!(collider.pose.is_identity() && collider.shape_frame.is_identity());
        for k in 0..3 {
            assert!(
                (b.position[k] - t[k]).abs() <= 1e-9,
                "{}: {:?} against rapier's {t:?}",
                at(&format!("collider {id} position")),
                b.position
            );
        }
        // Rapier's f32 quaternion is unit within f32's precision; the stream normalises it.
        let norm = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        let r = b.rotation.into_inner();
        let got = [r.w, r.i, r.j, r.k];
        assert!(
            (0..4).all(|k| (got[k] - q[k] / norm).abs() <= 1e-12),
            "{}: {got:?} against rapier's {q:?}",
            at(&format!("collider {id} rotation"))
        );
    }
    let cf = capture_frame(frame);
    let pairs: Vec<(u64, u64)> = cf
        .pairs
        .iter()
        .map(|p| {
            let id = |c: u32| engine_index(&scene.colliders[c as usize].id);
            (id(p.a), id(p.b))
        })
        .collect();
    assert_eq!(pairs, want.pairs, "{}", at("pairs"));
    let touching = cf.pairs.iter().filter(|p| p.touching == Some(true)).count();
    assert_eq!(touching, want.touching, "{}", at("touching pairs"));
    assert_eq!(frame.contacts.len(), want.contacts, "{}", at("contacts"));
    assert_eq!(
        cf.contacts.len(),
        want.contacts,
        "{}",
        at("contact details")
    );
    assert_eq!(frame.counters.contacts as usize, want.contacts);
    assert_eq!(frame.counters.broad_pairs as usize, want.pairs.len());
}

#[test]
fn the_recording_holds_what_rapier_reports_step_by_step() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("rapier.cdrec");
    let want = record(&path);
    let reader = RecordingReader::open(&path).expect("the recording opens");
    assert_eq!(reader.len(), STEPS);
    let scene = capture_scene(&reader);
    assert_eq!(scene.engine, ENGINE);
    for (step, want) in want.iter().enumerate() {
        let frame = reader.frame(step).expect("every frame reads");
        compare(step, &frame, &scene, want);
    }
    // The run is the one the example means to show: the ball meets the wall (its collider
    // touches a box) with CCD active.
    let kind = |c: u32| {
        scene.shapes[scene.colliders[c as usize].shape as usize]
            .kind
            .as_str()
    };
    let hit = (0..STEPS).any(|step| {
        let frame = reader.frame(step).expect("every frame reads");
        frame.contacts.iter().any(|c| {
            let mut kinds = [kind(c.a), kind(c.b)];
            kinds.sort_unstable();
            // The ground is a cuboid too, but the ball never reaches it before the wall.
            kinds == ["cuboid", "sphere"] && c.depth > -0.05
        })
    });
    assert!(hit, "the ball never met the wall");
    let ccd = (0..STEPS).any(|step| {
        let frame = reader.frame(step).expect("every frame reads");
        capture_frame(&frame)
            .flags
            .iter()
            .any(|f| f.ccd == Some(true))
            && !frame.trace.is_empty()
    });
    assert!(ccd, "no step had CCD active, with its event");
}

/// The example's ball is fast enough to need CCD: without it, no step ever sees it touch
/// the wall, and it ends beyond it.
#[test]
fn without_ccd_the_ball_tunnels_through_the_wall() {
    let mut ball_touched = false;
    let (_, world) = run(false, &mut |world| {
        let ball = world
            .colliders
            .iter()
            .find(|(_, c)| c.shape().as_ball().is_some())
            .map(|(h, _)| h);
        let is_box = |h: ColliderHandle| {
            world.colliders[h]
                .parent()
                .is_some_and(|b| world.bodies[b].is_dynamic())
        };
        if let Some(ball) = ball {
            ball_touched |= world.narrow_phase.contact_pairs_with(ball).any(|p| {
                let other = if p.collider1 == ball {
                    p.collider2
                } else {
                    p.collider1
                };
                p.has_any_active_contact() && is_box(other)
            });
        }
    });
    assert!(!ball_touched, "the ball touched a box without CCD");
    let z = world
        .bodies
        .iter()
        .find(|(_, b)| b.linvel().z < -10.0)
        .map(|(_, b)| b.translation().z);
    assert!(
        matches!(z, Some(z) if z < -10.0),
        "the ball should fly on past the wall, found z = {z:?}"
    );
}

/// The same run captured through the stream (written to a file, then ingested) and through
/// the API: the two recordings hold the same frames, state hash for state hash.
#[test]
fn the_stream_and_the_api_give_the_same_recording() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let api_path = dir.path().join("api.cdrec");
    let stream_path = dir.path().join("run.jsonl");
    let ingested_path = dir.path().join("ingested.cdrec");
    let scene = example_world(true);
    let header = RapierCapture::header(&scene.world);
    let mut api = RapierCapture::new(
        Capture::to_recording(&api_path, header.clone()).expect("the recording starts"),
    );
    let file = std::fs::File::create(&stream_path).expect("the stream file");
    let mut stream = RapierCapture::new(
        Capture::to_stream(std::io::BufWriter::new(file), header).expect("the stream starts"),
    );
    // One run, captured twice: the comparison is of the two capture paths, not of rapier's
    // determinism across runs.
    run(true, &mut |world| {
        api.record_step(world)
            .expect("the API capture takes the step");
        stream
            .record_step(world)
            .expect("the stream capture takes the step");
    });
    api.finish().expect("the recording finishes");
    stream.finish().expect("the stream finishes");

    let input = std::fs::File::open(&stream_path).expect("the stream reads");
    let report = collidoscope::capture::ingest(
        &mut std::io::BufReader::new(input),
        &ingested_path,
        WriterOptions::default(),
        &mut |_| {},
    )
    .expect("the stream ingests");
    assert!(
        report.stream.skipped.is_empty(),
        "lines skipped: {:?}",
        report.stream.skipped
    );
    assert_eq!(report.recording.frames, STEPS as u64);
    same_frames(&api_path, &ingested_path);

    // And through the binary: `ingest FILE -o OUT`, and the stream piped to `ingest -`.
    let (from_file, from_pipe) = super::ingest_cli::ingest_file_and_pipe(&stream_path, dir.path());
    same_frames(&api_path, &from_file);
    same_frames(&api_path, &from_pipe);

    // `collidoscope diff` calls them the same, bit for bit: the recordings, and the stream
    // itself against the API's recording.
    for other in [&from_pipe, &stream_path] {
        let out = bin()
            .arg("diff")
            .arg(&api_path)
            .arg(other)
            .output()
            .expect("diff runs");
        assert_eq!(
            out.status.code(),
            Some(0),
            "diff against {}: {}{}",
            other.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_collidoscope"))
}

/// Frame by frame, equal state hashes and equal contacts (which the hash leaves out).
fn same_frames(a: &Path, b: &Path) {
    let a = RecordingReader::open(a).expect("the first recording opens");
    let b = RecordingReader::open(b).expect("the second recording opens");
    assert_eq!(a.len(), b.len(), "frame counts");
    assert_eq!(capture_scene(&a), capture_scene(&b), "the scenes");
    for pos in 0..a.len() {
        let (fa, fb) = (
            a.frame(pos).expect("a frame"),
            b.frame(pos).expect("a frame"),
        );
        assert_eq!(fa.state_hash(), fb.state_hash(), "frame {pos}: state hash");
        assert_eq!(fa.contacts, fb.contacts, "frame {pos}: contacts");
        assert_eq!(fa.trace.len(), fb.trace.len(), "frame {pos}: events");
    }
}

/// The header's engine is the rapier3d the build uses.
#[test]
fn the_engine_named_is_the_one_built() {
    let lock = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock"))
        .expect("Cargo.lock reads");
    let version = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"rapier3d\""))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = ")))
        .map(|v| v.trim_matches('"').to_string())
        .expect("rapier3d is in Cargo.lock");
    assert_eq!(ENGINE, format!("rapier3d {version}"));
}

/// A world with every shape the adapter maps and some it does not, and a collider on no body.
fn shapes_world() -> PhysicsWorld {
    let mut world = PhysicsWorld::new();
    // A collider on no body, a half-space: put on a fixed body of its own, drawn as a plane.
    world.insert_collider(
        ColliderBuilder::new(SharedShape::halfspace(Vector::Y)),
        None,
    );
    let heights = rapier3d::parry::utils::Array2::from_fn(4, 5, |i, j| (i * j) as f32 * 0.05);
    world.insert(
        RigidBodyBuilder::fixed().translation(Vector::new(0.0, 0.0, -30.0)),
        ColliderBuilder::heightfield(heights, Vector::new(8.0, 1.0, 6.0)),
    );
    let tetrahedron = vec![
        Vector::new(0.0, 0.0, 0.0),
        Vector::new(1.0, 0.0, 0.0),
        Vector::new(0.0, 1.0, 0.0),
        Vector::new(0.0, 0.0, 1.0),
    ];
    let colliders = [
        ColliderBuilder::ball(0.3),
        ColliderBuilder::cuboid(0.2, 0.3, 0.4),
        ColliderBuilder::capsule_y(0.5, 0.2),
        ColliderBuilder::capsule_x(0.5, 0.2),
        ColliderBuilder::cylinder(0.4, 0.3),
        ColliderBuilder::convex_hull(&tetrahedron).expect("a tetrahedron's hull"),
        ColliderBuilder::trimesh(
            tetrahedron.clone(),
            vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
        )
        .expect("a tetrahedron's mesh"),
        ColliderBuilder::cone(0.4, 0.3),
    ];
    for (i, collider) in colliders.into_iter().enumerate() {
        world.insert(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(i as f32 * 2.0 - 8.0, 2.0, 0.0))
                .rotation(Vector::new(0.1 * i as f32, 0.2, 0.0)),
            collider,
        );
    }
    world
}

/// Bodies and colliders removed, added (reusing a removed handle's index) and changed while
/// the capture runs; every shape kind. Each step must be taken without an item refused, and
/// every frame must draw every rapier collider.
#[test]
fn every_shape_and_every_change_is_captured() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("shapes.cdrec");
    let mut world = shapes_world();
    let mut capture = RapierCapture::to_recording(&path, &world).expect("the recording starts");
    let mut colliders_per_step = Vec::new();
    for step in 0..12 {
        change(&mut world, step);
        world.step();
        if let Err(e) = capture.record_step(&world) {
            panic!("step {step}: {e}");
        }
        colliders_per_step.push(world.colliders.len());
    }
    let summary = capture.finish().expect("the recording finishes");
    assert!(
        summary.rewritten,
        "a body declared after the first step rewrites the file"
    );
    let reader = RecordingReader::open(&path).expect("the recording opens");
    let scene = capture_scene(&reader);
    let kinds: Vec<&str> = scene.shapes.iter().map(|s| s.kind.as_str()).collect();
    for kind in [
        "plane",
        "heightfield",
        "sphere",
        "cuboid",
        "capsule",
        "cylinder",
        "convex",
        "trimesh",
    ] {
        assert!(kinds.contains(&kind), "no {kind} among {kinds:?}");
    }
    let cone = scene
        .shapes
        .iter()
        .find(|s| s.note.as_deref().is_some_and(|n| n.contains("cone")))
        .expect("the cone is said to be approximated");
    assert_eq!(cone.kind, "cuboid");
    for (step, want) in colliders_per_step.iter().enumerate() {
        let frame = reader.frame(step).expect("every frame reads");
        assert_eq!(frame.bodies.len(), *want, "step {step}: colliders drawn");
    }
    capsule_along_x_is_drawn_along_x(&reader, &scene, &world);
}

/// What changes before step `step`: a body removed with its collider (step 3), a new body
/// that reuses its index (5), a collider's shape replaced (6), the collider on no body
/// removed (8).
fn change(world: &mut PhysicsWorld, step: usize) {
    let nth_dynamic = |world: &PhysicsWorld, n: usize| {
        world
            .bodies
            .iter()
            .filter(|(_, b)| b.is_dynamic())
            .nth(n)
            .map(|(h, _)| h)
    };
    match step {
        3 => {
            let first = nth_dynamic(world, 0).expect("a dynamic body");
            world.remove_body(first);
        }
        5 => {
            world.insert(
                RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 6.0, 3.0)),
                ColliderBuilder::ball(0.25),
            );
        }
        6 => {
            let body = nth_dynamic(world, 1).expect("a dynamic body");
            let collider = world.bodies[body].colliders()[0];
            world.colliders[collider].set_shape(SharedShape::ball(0.35));
        }
        8 => {
            let own = world
                .colliders
                .iter()
                .find(|(_, c)| c.parent().is_none())
                .map(|(h, _)| h)
                .expect("the collider on no body");
            world.remove_collider(own);
        }
        _ => {}
    }
}

/// The capsule along x is declared as the stream's y capsule turned onto x by its collider's
/// pose: drawn, its axis is rapier's segment, in world space, at the last step.
fn capsule_along_x_is_drawn_along_x(
    reader: &RecordingReader,
    scene: &CaptureScene,
    world: &PhysicsWorld,
) {
    let (handle, collider) = world
        .colliders
        .iter()
        .find(|(_, c)| c.shape().as_capsule().is_some_and(|k| k.segment.a.x != 0.0))
        .expect("the capsule along x");
    let capsule = collider.shape().as_capsule().expect("a capsule");
    let p = collider.position();
    let (a, b) = (p * capsule.segment.a, p * capsule.segment.b);
    let last = reader.frame(reader.len() - 1).expect("the last frame");
    let drawn = last
        .bodies
        .iter()
        .find(|d| scene.colliders[d.id as usize].id == EngineId::Int(index(handle)))
        .expect("the capsule is drawn");
    let axis = drawn.rotation * collidoscope::geom::Vec3::y();
    let segment = collidoscope::geom::Vec3::from((b - a).to_array().map(f64::from));
    let centre = (a + b).to_array().map(|x| f64::from(x) / 2.0);
    assert!(
        axis.cross(&segment.normalize()).norm() < 1e-5,
        "drawn axis {axis:?}, rapier's segment {segment:?}"
    );
    for k in 0..3 {
        assert!(
            (drawn.position[k] - centre[k]).abs() < 1e-5,
            "{:?} against {centre:?}",
            drawn.position
        );
    }
}

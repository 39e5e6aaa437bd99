//! `diff` against a brute-force comparison of the decoded frames: the first frame where two
//! recordings differ at all, and which stage of it differs first, found without the diff
//! module's matching; plus the exit codes and the tolerances.

use collidoscope::diff::{Tolerance, diff};
use collidoscope::record::{Frame, RecordingMeta, RecordingReader, RecordingWriter, WriterOptions};
use collidoscope::scene::Scene;
use collidoscope::trace::DiffRole;
use collidoscope::world::World;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Records `frames` steps of `scene` (after its initial frame), reproducibly.
pub fn record(scene: &Scene, frames: u32, path: &Path) -> PathBuf {
    let mut world = World::new(scene.clone()).expect("world");
    let meta = RecordingMeta {
        scene_ron: scene.to_ron(),
        body_names: world.bodies.iter().map(|b| b.name.clone()).collect(),
        dt_s: scene.solver.dt_s,
    };
    let options = WriterOptions {
        reproducible: true,
        ..Default::default()
    };
    let mut writer = RecordingWriter::create(path, meta, options).expect("create");
    writer.write_frame(&world.initial_frame()).expect("write");
    for _ in 0..frames {
        writer
            .write_frame(&world.step_traced(100_000))
            .expect("write");
    }
    writer.finish().expect("finish");
    path.to_path_buf()
}

fn frames(path: &Path) -> Vec<Frame> {
    let r = RecordingReader::open(path).expect("open");
    (0..r.len())
        .map(|i| (*r.frame(i).expect("frame")).clone())
        .collect()
}

/// The frame without what differs between two runs of the same thing (wall-clock timings).
fn content(f: &Frame) -> Frame {
    let mut f = f.clone();
    f.timings = Default::default();
    f
}

/// Sorted lists of what each stage holds, built here from the frame alone.
fn stage_lists(f: &Frame) -> [Vec<String>; 5] {
    let mut pairs = Vec::new();
    let mut impulses = Vec::new();
    let mut events = Vec::new();
    for e in &f.trace {
        match e.kind_diff_role() {
            DiffRole::Pair { a, b } => pairs.push(format!("{}-{}", a.min(b), a.max(b))),
            DiffRole::Impulse { a, b, values, .. } => impulses.push(format!("{a}-{b}:{values:?}")),
            DiffRole::Event => events.push(format!("{e:?}")),
        }
    }
    let contacts = f.contacts.iter().map(|c| format!("{c:?}")).collect();
    let bodies = f.bodies.iter().map(|b| format!("{b:?}")).collect();
    let mut all = [pairs, contacts, impulses, events, bodies];
    for list in &mut all {
        list.sort();
    }
    all
}

/// The first frame that differs at all, and its first differing stage.
fn brute_force(a: &[Frame], b: &[Frame]) -> Option<(u64, &'static str)> {
    let (fa, fb) = a.iter().zip(b).find(|(x, y)| content(x) != content(y))?;
    let (la, lb) = (stage_lists(fa), stage_lists(fb));
    let stage = collidoscope::diff::STAGES
        .iter()
        .zip(la.iter().zip(&lb))
        .find(|(_, (x, y))| x != y)
        .map(|(s, _)| *s)
        .unwrap_or("none");
    Some((fa.index, stage))
}

fn box_stack() -> Scene {
    collidoscope::world::builtin_scene("capsule-pile")
        .or_else(|_| collidoscope::world::builtin_scene("mixed-drop"))
        .expect("a built-in scene")
}

#[test]
fn two_runs_of_every_builtin_scene_are_the_same_bitwise() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, _) in collidoscope::world::builtin_scenes() {
        let scene = collidoscope::world::builtin_scene(name).expect("scene");
        let a = record(&scene, 4, &dir.path().join("a.cdrec"));
        let b = record(&scene, 4, &dir.path().join("b.cdrec"));
        let (ra, rb) = (
            RecordingReader::open(a).expect("a"),
            RecordingReader::open(b).expect("b"),
        );
        let report = diff(&ra, &rb, Tolerance::Bitwise).expect("diff");
        assert!(report.same(), "{name}: {:?}", report.lines());
        assert_eq!(report.frames_compared, 5, "{name}");
    }
}

fn check_against_brute_force(a: &Scene, b: &Scene, frames_n: u32) {
    let dir = tempfile::tempdir().expect("tempdir");
    let pa = record(a, frames_n, &dir.path().join("a.cdrec"));
    let pb = record(b, frames_n, &dir.path().join("b.cdrec"));
    let expected = brute_force(&frames(&pa), &frames(&pb)).expect("the runs differ");
    let (ra, rb) = (
        RecordingReader::open(&pa).expect("a"),
        RecordingReader::open(&pb).expect("b"),
    );
    let report = diff(&ra, &rb, Tolerance::Bitwise).expect("diff");
    let (frame, _, d) = report.first.clone().expect("diff finds a difference");
    assert_eq!((frame, d.stage), expected, "{:?}", report.lines());
    assert!(!report.bodies.is_empty());
    let out = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .arg("diff")
        .arg(&pa)
        .arg(&pb)
        .arg("--json")
        .output()
        .expect("run diff");
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(json["first_divergent_frame"], frame);
    assert_eq!(json["stage"], d.stage);
    assert_eq!(json["same"], false);
}

#[test]
fn four_and_eight_solver_iterations_part_where_brute_force_says() {
    let mut four = box_stack();
    four.solver.iterations = 4;
    let mut eight = four.clone();
    eight.solver.iterations = 8;
    check_against_brute_force(&four, &eight, 90);
}

#[test]
fn a_different_restitution_on_one_body_parts_where_brute_force_says() {
    let a = box_stack();
    let mut b = a.clone();
    let body = b
        .bodies
        .iter_mut()
        .rev()
        .find(|d| !d.fixed)
        .expect("a moving body");
    // Its own material, the same as before but for the restitution.
    let mut bouncy = body
        .material
        .as_ref()
        .and_then(|m| a.materials.iter().find(|x| &x.name == m))
        .cloned()
        .unwrap_or_default();
    bouncy.name = "bouncy".into();
    bouncy.restitution = if bouncy.restitution > 0.5 { 0.1 } else { 0.95 };
    body.material = Some(bouncy.name.clone());
    b.materials.push(bouncy);
    check_against_brute_force(&a, &b, 120);
}

#[test]
fn one_ulp_at_one_frame_is_found_bitwise_and_forgiven_at_two_ulps() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scene = box_stack();
    let pa = record(&scene, 20, &dir.path().join("a.cdrec"));
    let reader = RecordingReader::open(&pa).expect("open");
    let pb = dir.path().join("b.cdrec");
    let meta = RecordingMeta {
        scene_ron: reader.header().scene_ron.clone(),
        body_names: reader.header().body_names.clone(),
        dt_s: reader.header().dt_s,
    };
    let mut w = RecordingWriter::create(&pb, meta, WriterOptions::default()).expect("create");
    for (i, mut f) in frames(&pa).into_iter().enumerate() {
        if i == 12 {
            let x = &mut f.bodies[6].position.x;
            *x = f64::from_bits(x.to_bits() + 1);
        }
        w.write_frame(&f).expect("write");
    }
    w.finish().expect("finish");
    let rb = RecordingReader::open(&pb).expect("open b");
    let report = diff(&reader, &rb, Tolerance::Bitwise).expect("diff");
    let (frame, _, d) = report.first.clone().expect("different");
    assert_eq!(frame, 12);
    assert_eq!(d.stage, "bodies");
    assert_eq!(report.bodies, vec![reader.header().body_names[6].clone()]);
    assert!(d.what.contains("x differs"), "{}", d.what);
    assert!(diff(&reader, &rb, Tolerance::Ulps(2)).expect("diff").same());
    assert!(
        diff(&reader, &rb, Tolerance::Ulps(0))
            .expect("diff")
            .first
            .is_some()
    );
}

#[test]
fn runs_that_cannot_be_compared_exit_two_saying_why() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scene = box_stack();
    let a = record(&scene, 3, &dir.path().join("a.cdrec"));
    let mut other = scene.clone();
    other.solver.dt_s /= 2.0;
    let b = record(&other, 3, &dir.path().join("b.cdrec"));
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "not a recording\n").expect("write");
    let run = |x: &Path, y: &Path, extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_collidoscope"))
            .arg("diff")
            .arg(x)
            .arg(y)
            .args(extra)
            .output()
            .expect("run diff")
    };
    let out = run(&a, &b, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("time steps differ"));
    let out = run(&a, &notes, &["--json"]);
    assert_eq!(out.status.code(), Some(2));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(
        json["error"]
            .as_str()
            .is_some_and(|e| e.contains("notes.txt")),
        "{json}"
    );
    let out = run(&a, &a, &["--tolerance", "close"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&a, &a, &[]);
    assert_eq!(out.status.code(), Some(0));
    // A cut copy: the frames that survive are compared, and the report says so.
    let bytes = std::fs::read(&a).expect("read");
    let cut = dir.path().join("cut.cdrec");
    std::fs::write(&cut, &bytes[..bytes.len() - 200]).expect("write");
    let out = run(&a, &cut, &["--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(out.status.code(), Some(0), "{json}");
    assert!(
        json["notes"][0].as_str().is_some_and(|n| n.contains("cut")),
        "{json}"
    );
}

/// A copy of `from` whose last frame has one body moved by one unit in the last place.
fn parted_at_last_frame(from: &Path, to: &Path) -> u64 {
    let reader = RecordingReader::open(from).expect("open");
    let meta = RecordingMeta {
        scene_ron: reader.header().scene_ron.clone(),
        body_names: reader.header().body_names.clone(),
        dt_s: reader.header().dt_s,
    };
    let mut w = RecordingWriter::create(to, meta, WriterOptions::default()).expect("create");
    let all = frames(from);
    let last = all.len() - 1;
    for (i, mut f) in all.into_iter().enumerate() {
        if i == last {
            let y = &mut f.bodies[1].position.y;
            *y = f64::from_bits(y.to_bits() + 1);
        }
        w.write_frame(&f).expect("write");
    }
    w.finish().expect("finish");
    last as u64
}

/// The index's content hashes let `diff` pass over the frames two runs agree on: none of
/// them is decoded, in any tolerance mode, and a run that parts at its last frame costs the
/// decoding of that frame alone.
#[test]
fn frames_the_runs_agree_on_are_not_decoded() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scene = box_stack();
    let pa = record(&scene, 30, &dir.path().join("a.cdrec"));
    let pb = record(&scene, 30, &dir.path().join("b.cdrec"));
    for tol in [Tolerance::Bitwise, Tolerance::Ulps(4)] {
        let (ra, rb) = (
            RecordingReader::open(&pa).expect("a"),
            RecordingReader::open(&pb).expect("b"),
        );
        let report = diff(&ra, &rb, tol).expect("diff");
        assert!(report.same());
        assert_eq!(report.frames_compared, 31);
        assert_eq!((ra.frames_decoded(), rb.frames_decoded()), (0, 0));
    }
    let pc = dir.path().join("c.cdrec");
    let last = parted_at_last_frame(&pa, &pc);
    let (ra, rc) = (
        RecordingReader::open(&pa).expect("a"),
        RecordingReader::open(&pc).expect("c"),
    );
    let report = diff(&ra, &rc, Tolerance::Bitwise).expect("diff");
    let (frame, _, d) = report.first.clone().expect("they part");
    assert_eq!((frame, d.stage), (last, "bodies"));
    assert_eq!((ra.frames_decoded(), rc.frames_decoded()), (1, 1));
}

/// The fixtures of every format version hold the same frames: each older one compares the
/// same as the current one, by content, whether or not its index has hashes.
#[test]
fn recordings_of_every_format_version_compare_by_content() {
    let fixture = |v: u32| {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/v{v}_small.cdrec"))
    };
    let current = collidoscope::record::FORMAT_VERSION;
    let newest = RecordingReader::open(fixture(current)).expect("current fixture");
    assert!(newest.entries().iter().all(|e| e.content_hash.is_some()));
    for v in 1..current {
        let old = RecordingReader::open(fixture(v)).expect("old fixture");
        // Content hashes came with format v7.
        let hashed = old.entries().iter().map(|e| e.content_hash.is_some());
        assert!(hashed.clone().all(|h| h == (v >= 7)), "v{v}");
        let report = diff(&old, &newest, Tolerance::Bitwise).expect("diff");
        assert!(report.same(), "v{v}: {:?}", report.lines());
        assert_eq!(report.frames_compared, 6, "v{v}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .arg("diff")
        .arg(fixture(1))
        .arg(fixture(current))
        .output()
        .expect("run diff");
    assert_eq!(out.status.code(), Some(0));
}

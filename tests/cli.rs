//! The command line as a user drives it: record, info, validate, query, and bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_collidoscope"))
}

fn run(args: &[&str]) -> Output {
    bin()
        .args(args)
        .output()
        .expect("the collidoscope binary runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn record(dir: &Path, scene: &str, frames: u32) -> PathBuf {
    let out = dir.join(format!("{scene}.cdrec"));
    let o = run(&[
        "record",
        "--scene",
        scene,
        "--frames",
        &frames.to_string(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    out
}

#[test]
fn record_info_validate_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let file = record(dir.path(), "box-stack", 90);
    let o = run(&["info", "--json", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["frames"], 91);
    assert_eq!(v["bodies"], 9);
    assert_eq!(v["complete"], true);
    let o = run(&["validate", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("deterministic"), "{}", text(&o));
}

#[test]
fn validate_reports_the_first_perturbed_frame() {
    use collidoscope::record::{RecordingMeta, RecordingReader, RecordingWriter, WriterOptions};
    let dir = tempfile::tempdir().unwrap();
    let good = record(dir.path(), "box-stack", 40);
    let reader = RecordingReader::open(&good).unwrap();
    let bad = dir.path().join("perturbed.cdrec");
    let meta = RecordingMeta {
        scene_ron: reader.header().scene_ron.clone(),
        body_names: reader.header().body_names.clone(),
        dt_s: reader.header().dt_s,
    };
    let mut w = RecordingWriter::create(&bad, meta, WriterOptions::default()).unwrap();
    for i in 0..reader.len() {
        let mut f = (*reader.frame(i).unwrap()).clone();
        if f.index == 25 {
            f.bodies[3].position.x += 1e-9;
        }
        w.write_frame(&f).unwrap();
    }
    w.finish().unwrap();
    let o = run(&["validate", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(text(&o).contains("DIVERGED at frame 25"), "{}", text(&o));
}

#[test]
fn validate_reports_a_penetration_violation() {
    let dir = tempfile::tempdir().unwrap();
    let file = record(dir.path(), "box-stack", 30);
    // Resting boxes overlap by a few millimetres: with a zero tolerance that is a violation.
    let o = run(&["validate", "--tolerance", "0", file.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(text(&o).contains("VIOLATION at frame"), "{}", text(&o));
}

#[test]
fn sigkill_mid_record_keeps_every_flushed_frame() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("killed.cdrec");
    let mut child = bin()
        .args([
            "record",
            "--scene",
            "mixed-drop",
            "--frames",
            "1000000",
            "-o",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until a good number of frames is on disk, then kill without warning.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0) < 400_000 {
        assert!(
            std::time::Instant::now() < deadline,
            "the recorder wrote too little"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    let size = std::fs::metadata(&out).unwrap().len();
    let o = run(&["info", "--json", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["complete"], false);
    let frames = v["frames"].as_u64().unwrap();
    assert!(frames > 10, "{v}");
    // Every complete chunk is a frame; at most the one being written is lost.
    let lost = v["recovery"]["bytes_lost"].as_u64().unwrap();
    assert!(lost < size / frames * 4, "{v}");
    // And the recovered frames are the real ones: validate re-simulates them all.
    let o = run(&["validate", "--tolerance", "1", out.to_str().unwrap()]);
    assert!(text(&o).contains("deterministic"), "{}", text(&o));
}

#[test]
fn bad_input_gives_a_clear_error_and_no_panic() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.cdrec");
    let garbage = dir.path().join("garbage.cdrec");
    std::fs::write(&garbage, b"this is not a recording at all").unwrap();
    let scene = dir.path().join("bad.ron");
    std::fs::write(
        &scene,
        "(name: \"x\", bodies: [ (name: \"a\", shape: Sphere(radius: -1.0)) ])",
    )
    .unwrap();
    let syntax = dir.path().join("syntax.ron");
    std::fs::write(&syntax, "(name: \"x\",\n bodies: [ oops ])").unwrap();
    let out = dir.path().join("o.cdrec");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["info", missing.to_str().unwrap()], "nope.cdrec"),
        (vec!["info", garbage.to_str().unwrap()], "garbage.cdrec"),
        (vec!["validate", garbage.to_str().unwrap()], "garbage.cdrec"),
        (
            vec![
                "record",
                "--scene",
                scene.to_str().unwrap(),
                "--frames",
                "2",
                "-o",
                out.to_str().unwrap(),
            ],
            "radius",
        ),
        (
            vec![
                "record",
                "--scene",
                syntax.to_str().unwrap(),
                "--frames",
                "2",
                "-o",
                out.to_str().unwrap(),
            ],
            "syntax.ron:2:",
        ),
        (
            vec![
                "record",
                "--scene",
                "no-such-scene",
                "--frames",
                "2",
                "-o",
                out.to_str().unwrap(),
            ],
            "built-in scenes are",
        ),
        (
            vec!["record", "--frames", "lots", "-o", out.to_str().unwrap()],
            "lots",
        ),
        (
            vec!["validate", "--tolerance", "-1", garbage.to_str().unwrap()],
            "tolerance",
        ),
        (vec!["query", missing.to_str().unwrap()], "nope.cdrec"),
    ];
    for (args, expect) in cases {
        let o = run(&args);
        let t = text(&o);
        assert!(!o.status.success(), "{args:?} succeeded: {t}");
        assert!(t.contains(expect), "{args:?}: expected {expect:?} in {t}");
        assert!(!t.contains("panicked"), "{args:?} panicked: {t}");
    }
}

#[test]
fn query_answers_each_line_in_order() {
    let mut child = bin()
        .arg("query")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let stdin = child.stdin.as_mut().unwrap();
        writeln!(stdin, r#"{{"id": 1, "op": "sphere_sphere", "a": {{"center": [0,0,0], "radius": 1}}, "b": {{"center": [3,0,0], "radius": 1}}}}"#).unwrap();
        writeln!(stdin, "not json").unwrap();
        writeln!(stdin, r#"{{"id": "x", "op": "teleport"}}"#).unwrap();
        writeln!(
            stdin,
            r#"{{"id": 4, "op": "sphere_sphere", "a": {{"center": [0,0,0], "radius": 1}}}}"#
        )
        .unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["id"], 1);
    assert_eq!(lines[0]["ok"], true);
    assert_eq!(lines[0]["intersects"], false);
    assert!((lines[0]["distance"].as_f64().unwrap() - 1.0).abs() < 1e-12);
    assert_eq!(lines[1]["ok"], false);
    assert_eq!(lines[2]["id"], "x");
    assert!(lines[2]["error"].as_str().unwrap().contains("teleport"));
    assert!(
        lines[3]["error"].as_str().unwrap().contains("\"b\""),
        "{}",
        lines[3]
    );
}

/// One flipped bit in one frame chunk of a finished recording: `info` and `validate` keep
/// every other frame, say which frame and bytes were lost, and the recovered frames validate
/// (the world steps across the gap).
#[test]
fn a_flipped_bit_in_a_finished_recording_loses_only_its_keyframe_interval() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flip.cdrec");
    let o = run(&[
        "record",
        "--scene",
        "mixed-drop",
        "--frames",
        "30",
        "--keyframe-interval",
        "8",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let reader = collidoscope::record::RecordingReader::open(&path).unwrap();
    let damaged = reader.entries()[12].offset;
    drop(reader);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[damaged as usize + 20] ^= 0x10;
    std::fs::write(&path, bytes).unwrap();

    let info = run(&["info", path.to_str().unwrap()]);
    assert!(info.status.success(), "{}", text(&info));
    let t = text(&info);
    assert!(t.contains("the chunk of frame 12 is damaged"), "{t}");
    assert!(t.contains(&format!("at offset {damaged}")), "{t}");
    // Frame 12 and the deltas up to the keyframe at 16 are lost: 31 - 4 frames remain.
    assert!(t.contains("frames:          27"), "{t}");

    let v = run(&["validate", path.to_str().unwrap()]);
    assert!(v.status.success(), "{}", text(&v));
    assert!(
        text(&v).contains("every frame re-simulates"),
        "{}",
        text(&v)
    );
}

/// An error found while building the world from a scene file (an OBJ that cannot be read, a
/// family's data that does not build) names the scene file and the line of the entry, and
/// a device given as a file is refused without reading it.
#[test]
fn errors_inside_a_scene_file_name_the_file_and_the_entry_line() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("bad.ron");
    let fails_with = |scene_text: &str, expected: &[String]| {
        std::fs::write(&scene, scene_text).unwrap();
        let out = dir.path().join("x.cdrec");
        let o = run(&[
            "record",
            "--scene",
            scene.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(!o.status.success());
        let t = text(&o);
        for e in expected {
            assert!(t.contains(e.as_str()), "{t}");
        }
    };
    fails_with(
        "(\n  name: \"bad\",\n  bodies: [\n    (name: \"floor\", shape: Box(half_extents: (5, 0.1, 5)), fixed: true),\n    (\n      name: \"noise\",\n      shape: Obj(path: \"/dev/urandom\"),\n    ),\n  ],\n)\n",
        &[
            format!("{}:5: body 1 (\"noise\")", scene.display()),
            "/dev/urandom: is a character device, not a regular file".into(),
        ],
    );
    fails_with(
        "(\n  name: \"bad\",\n  bodies: [\n    (name: \"a\", shape: Sphere(radius: 1)),\n  ],\n  families: [\n    Convex((pairs: [(0, 0)])),\n  ],\n)\n",
        &[format!("{}:7: convex: pairs[0]", scene.display())],
    );
}

/// Files that never end or are too large are refused before they are read.
#[test]
fn devices_and_files_past_the_limit_are_refused_with_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.cdrec");
    let o = run(&[
        "record",
        "--scene",
        "/dev/zero",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("/dev/zero: is a character device, not a regular file"),
        "{}",
        text(&o)
    );

    let big = dir.path().join("big.ron");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(3 << 20)
        .unwrap();
    let o = run(&[
        "--max-file-mib",
        "2",
        "record",
        "--scene",
        big.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(
        t.contains("is 3145728 bytes, past the 2097152-byte limit"),
        "{t}"
    );
    assert!(t.contains("--max-file-mib"), "{t}");
}

/// A description of 400,000 line breaks records and validates at once (the embedded scene
/// is written unescaped); a string of 20,000 escapes is refused with its line instead of
/// taking the RON reader minutes.
#[test]
fn long_strings_in_a_scene_stay_linear() {
    let dir = tempfile::tempdir().unwrap();
    let bodies = "bodies: [(name: \"floor\", shape: Box(half_extents: (5, 0.1, 5)), fixed: true)]";
    let scene = dir.path().join("lines.ron");
    let lines = "\n".repeat(400_000);
    std::fs::write(
        &scene,
        format!("(name: \"l\", description: \"{lines}\", {bodies})"),
    )
    .unwrap();
    let out = dir.path().join("lines.cdrec");
    let o = run(&[
        "record",
        "--scene",
        scene.to_str().unwrap(),
        "--frames",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let v = run(&["validate", out.to_str().unwrap()]);
    assert!(v.status.success(), "{}", text(&v));

    let escapes = "\\n".repeat(20_000);
    std::fs::write(
        &scene,
        format!("(\nname: \"l\",\ndescription: \"{escapes}\", {bodies})"),
    )
    .unwrap();
    let o = run(&[
        "record",
        "--scene",
        scene.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(
        t.contains(&format!(
            "{}:3:1: a string with more than 16384 escapes",
            scene.display()
        )),
        "{t}"
    );
}

/// A valid scene that would take gigabytes (a 4096 × 4096-segment torus) is refused with
/// its estimate before anything is allocated, under the default budget or a lowered one.
#[test]
fn a_scene_over_the_memory_budget_is_refused_with_its_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("torus.ron");
    let torus = |segments: u32| {
        format!(
            "(name: \"t\", bodies: [(name: \"ring\", shape: Procedural(Torus(major_radius: 2, \
             minor_radius: 0.5, major_segments: {segments}, minor_segments: {segments})), fixed: true)])"
        )
    };
    let out = dir.path().join("t.cdrec");
    std::fs::write(&scene, torus(4096)).unwrap();
    let o = run(&[
        "record",
        "--scene",
        scene.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(t.contains("body 0 (\"ring\") alone about 6400 MiB"), "{t}");
    assert!(
        t.contains("past the memory budget of 2048 MiB (raise it with --memory-budget)"),
        "{t}"
    );

    std::fs::write(&scene, torus(64)).unwrap();
    let args = [
        "record",
        "--scene",
        scene.to_str().unwrap(),
        "--frames",
        "1",
        "-o",
        out.to_str().unwrap(),
    ];
    assert!(run(&args).status.success());
    let low = [&["--memory-budget", "1"][..], &args[..]].concat();
    let o = run(&low);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("past the memory budget of 1 MiB"),
        "{}",
        text(&o)
    );
}

/// One body line repeated 10,000 times is a valid scene whose first step would pair every
/// body with every other (50 million pairs): it is refused before the step, naming the pairs
/// and the budget. A pile of 300 copies (44,850 pairs) records, unless the budget is lowered.
#[test]
fn bodies_piled_into_one_another_are_refused_past_the_memory_budget() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("pile.ron");
    let pile = |copies: usize| {
        let body = "(name: \"s\", shape: Sphere(radius: 0.5), position: (0, 1, 0))";
        format!(
            "(name: \"p\", bodies: [{}])",
            vec![body; copies].join(",\n")
        )
    };
    let out = dir.path().join("p.cdrec");
    let (scene_arg, out_arg) = (scene.to_str().unwrap(), out.to_str().unwrap());
    let args = [
        "record", "--scene", scene_arg, "--frames", "1", "-o", out_arg,
    ];
    std::fs::write(&scene, pile(10_000)).unwrap();
    let o = run(&args);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(
        t.contains("the bodies start overlapping in more than"),
        "{t}"
    );
    assert!(t.contains("past the memory budget of 2048 MiB"), "{t}");
    assert!(t.contains("--memory-budget"), "{t}");

    std::fs::write(&scene, pile(300)).unwrap();
    let o = run(&args);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(&[&["--memory-budget", "50"][..], &args[..]].concat());
    assert!(!o.status.success());
    assert!(text(&o).contains("more than 25"), "{}", text(&o));
}

/// Found by the NURBS scene generator: a control point at 1e30 with a precision of 0.05 asked
/// the query for 3 GB and aborted the process. A scene's surfaces now meet the query op's
/// limits, and its precision the op's smallest fraction of the surfaces' size.
#[test]
fn a_nurbs_scene_finer_than_its_surfaces_allow_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (o, _) = record_fixture(dir.path(), "nurbs-point-at-1e30.ron");
    assert!(!o.status.success());
    let t = text(&o);
    assert!(t.contains("nurbs-point-at-1e30.ron"), "{t}");
    assert!(
        t.contains("precision 0.05 is finer than 1e-5 of the surfaces' size"),
        "{t}"
    );
}

/// Found by the scene generator: a hull swallowing most of a torus of 352,256 triangles
/// tested each of them (3.6 s for two frames), and two tori of 4096-segment tubes crossing
/// searched the nearest surface for 15,000 corners each (5.4 s); two others, of long slivers,
/// overlapped over 14 million triangle pairs (3.4 s). Past `narrow::thinning`'s bounds a pair
/// tests an even sample, or stops its traversal, says so in a marker, and re-simulates the same.
#[test]
fn a_pair_with_too_many_candidates_tests_a_sample_and_says_so() {
    use collidoscope::narrow::thinning::{
        MAX_PAIR_CORNERS, MAX_PAIR_TRIANGLE_TESTS, MAX_PAIR_TRIANGLES,
    };
    for (fixture, expected) in [
        ("hull-swallowing-dense-torus.ron", "triangles"),
        ("dense-tori-crossing.ron", "corners"),
        ("dense-tori-of-slivers-crossing.ron", "stopped"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = record_fixture_and_validate(dir.path(), fixture);
        let reader = collidoscope::record::RecordingReader::open(&out).expect("opens");
        let frame = reader.frame(1).expect("the first step");
        let sampled: Vec<_> = frame
            .markers
            .iter()
            .filter(|m| m.kind.label() == "sampled pair")
            .collect();
        assert!(
            sampled.iter().any(|m| m.text.contains(expected)),
            "{fixture}: {:?}",
            frame.markers
        );
        for m in sampled {
            assert_eq!(m.bodies.len(), 2, "{fixture}: {m:?}");
            let numbers: Vec<u64> = m
                .text
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|w| w.parse().ok())
                .collect();
            match numbers[..] {
                // "a – b: M of N triangles tested (an even sample) ..."; mesh against mesh
                // samples each mesh's corners, two bounds' worth at most.
                [tested, candidates] => {
                    let most = if m.text.contains("triangles") {
                        MAX_PAIR_TRIANGLES
                    } else {
                        2 * MAX_PAIR_CORNERS
                    };
                    assert!(candidates > tested, "{fixture}: {}", m.text);
                    assert!(tested <= most as u64, "{fixture}: {}", m.text);
                }
                // "a – b: the search stopped after N triangle pairs tested (its budget ..."
                [tested] => {
                    assert!(m.text.contains("stopped"), "{fixture}: {}", m.text);
                    assert_eq!(tested, MAX_PAIR_TRIANGLE_TESTS, "{fixture}: {}", m.text);
                }
                _ => panic!("{fixture}: {}", m.text),
            }
        }
    }
}

/// Found by the surface-file generator: two copies of a strongly self-crossing surface, one
/// falling on the other in all-hits mode, touch all over. Each query stopped at its box budget,
/// but a step ran one per sub-step, then one per bisection of the contact time and one more
/// (4.5 s for two frames). The bisection now ends each query at its first hit, and the step's
/// queries share one budget; the frame says when the budget cut them.
#[test]
fn a_nurbs_step_stops_at_its_box_budget_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out =
        record_fixture_and_validate(dir.path(), "self-crossing-surfaces-touching-all-over.ron");
    let reader = collidoscope::record::RecordingReader::open(&out).expect("opens");
    for pos in 1..reader.len() {
        let frame = reader.frame(pos).expect("a frame");
        let said = frame
            .markers
            .iter()
            .any(|m| m.kind.label() == "box budget" && m.text.contains("cut short"));
        assert!(said, "frame {pos}: {:?}", frame.markers);
    }
}

/// Found by the scene generator: a moving torus of 122,880 triangles deep inside two fixed
/// spheres gives a contact candidate per triangle, and merging them, then matching them to
/// last step's, compared every pair of them (15 s for two frames). Both now look only at
/// their neighbours, and each pair keeps a bounded manifold; the run records and re-simulates
/// to the same state (its bodies start metres deep in one another, which `validate` rightly
/// reports).
#[test]
fn a_mesh_deep_inside_spheres_records_and_validates() {
    use collidoscope::narrow::reduce::MAX_PAIR_CONTACTS;
    let dir = tempfile::tempdir().unwrap();
    let out = record_fixture_and_validate(dir.path(), "slow-torus-in-spheres.ron");
    let reader = collidoscope::record::RecordingReader::open(&out).expect("opens");
    let mut most = 0;
    for pos in 0..reader.len() {
        let frame = reader.frame(pos).expect("a frame");
        let mut per_pair = std::collections::BTreeMap::new();
        for c in &frame.contacts {
            *per_pair.entry((c.a, c.b)).or_insert(0_usize) += 1;
        }
        most = most.max(per_pair.values().copied().max().unwrap_or(0));
    }
    assert!((100..=MAX_PAIR_CONTACTS).contains(&most), "{most}");
}

/// A scene file sets the NURBS query's rules: it records under them (its trace cuts both
/// pieces in four), the recording validates, and a rule the file misspells is named with
/// its line.
#[test]
fn a_scene_file_chooses_the_nurbs_rules() {
    use collidoscope::families::FamilySceneData;
    use collidoscope::nurbs::{BoxRule, NurbsEvent, Recursion, SplitRule};
    use collidoscope::trace::EventKind;
    let dir = tempfile::tempdir().unwrap();
    let mut scene = collidoscope::world::builtin_scene("nurbs-spheres-on-plane").expect("builds");
    for d in &mut scene.families {
        if let FamilySceneData::Nurbs(n) = d {
            n.rules.recursion = Recursion::Subdivide4;
            n.rules.box_rule = BoxRule::CornerFrame;
            n.rules.split_rule = SplitRule::Alternate;
        }
    }
    let ron = scene.to_ron();
    assert!(ron.contains("recursion: Subdivide4"), "{ron}");
    let file = dir.path().join("rules.ron");
    std::fs::write(&file, &ron).unwrap();
    let rec = record(dir.path(), file.to_str().unwrap(), 40);
    let o = run(&["validate", rec.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let reader = collidoscope::record::RecordingReader::open(&rec).expect("opens");
    assert!(reader.header().scene_ron.contains("recursion: Subdivide4"));
    let quartered = (0..reader.len()).any(|k| {
        let frame = reader.frame(k).expect("a frame");
        let kinds: Vec<_> = frame
            .trace
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Nurbs(n) => Some(n.clone()),
                _ => None,
            })
            .collect();
        kinds.windows(3).any(|w| {
            matches!(w[0], NurbsEvent::BoxPair { axis: None, .. })
                && matches!(w[1], NurbsEvent::Split { .. })
                && matches!(w[2], NurbsEvent::Split { .. })
        })
    });
    assert!(quartered, "no frame's query cut both pieces in four");
    let bad = dir.path().join("bad.ron");
    std::fs::write(&bad, ron.replace("Subdivide4", "Subdivide5")).unwrap();
    let line = ron.lines().position(|l| l.contains("Subdivide4")).unwrap() + 1;
    let out = dir.path().join("bad.cdrec");
    let o = run(&[
        "record",
        "--scene",
        bad.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let msg = text(&o);
    assert!(
        msg.contains("Subdivide5") && msg.contains(&format!(":{line}")),
        "{msg}"
    );
}

/// Found by the scene generator: two tori of 192,512 triangles, sunk into each other along
/// a ring. Each corner of a crossing triangle was searched against every crossing triangle of
/// the other mesh (and each contact against every crossing segment): over 19 minutes for two
/// frames. The searches now go through trees of the triangles' and segments' boxes; the run
/// records its contacts and re-simulates to the same state.
#[test]
fn two_dense_meshes_sunk_into_each_other_record_and_validate() {
    let dir = tempfile::tempdir().unwrap();
    let out = record_fixture_and_validate(dir.path(), "dense-tori-sunk.ron");
    let reader = collidoscope::record::RecordingReader::open(&out).expect("opens");
    let last = reader.frame(reader.len() - 1).expect("the last frame");
    assert!(!last.contacts.is_empty(), "the sunk tori report no contact");
}

/// Found by the scene generator, two ways a pose past the arithmetic's range made every node
/// pair of two meshes overlap:
/// - a torus thrown at 1e308 m/s is 1.6e306 m off one step ahead; the traversal's slack
///   squared that distance and overflowed to infinity (10 s for two frames);
/// - a box thrown at 1e308 m/s knocks a loose terrain crossing a dense torus to a NaN pose;
///   every comparison with a NaN box failed and counted as an overlap, so the traversal
///   tested each of 625 million triangle pairs (321 s).
///
/// Both now record at once and re-simulate to the same state.
#[test]
fn poses_past_the_arithmetic_range_meet_no_mesh() {
    records_two_frames_and_validates(&[
        "torus-thrown-at-1e308.ron",
        "nan-pose-terrain-and-torus.ron",
    ]);
}

/// Found by the scene generator: conservative advancement beside a dense torus measured
/// every triangle at every step (26 s for two frames, and 415 s for a box a billion metres
/// tall that spins, so that every step is tiny). It now searches the mesh's hierarchy for
/// the triangles a step can reach. A capsule whose speed overflows the reach to infinity
/// made steps of zero, 200 times over (19 s): a step that cannot move time now gives up.
#[test]
fn advancing_beside_a_dense_mesh_searches_its_hierarchy() {
    records_two_frames_and_validates(&[
        "toi-beside-dense-torus.ron",
        "giant-box-spinning-by-dense-torus.ron",
        "capsule-at-overflowing-speed-by-dense-torus.ron",
    ]);
}

/// Each fixture records its first frame and two steps, which re-simulate to the same state.
fn records_two_frames_and_validates(fixtures: &[&str]) {
    for fixture in fixtures {
        let dir = tempfile::tempdir().unwrap();
        let out = record_fixture_and_validate(dir.path(), fixture);
        let reader = collidoscope::record::RecordingReader::open(&out).expect("opens");
        assert_eq!(reader.len(), 3, "{fixture}");
    }
}

/// Found by the scene generator: a capsule swallows a torus of 303,104 triangles, each a
/// contact, which the merge, the warm start, the solver and the recording all carried
/// (34 s for two frames, 16 MB). The pair now keeps at most `MAX_PAIR_CONTACTS`, spread
/// over the region, and still holds a deep contact.
#[test]
fn a_dense_mesh_inside_a_capsule_keeps_a_bounded_manifold() {
    use collidoscope::narrow::reduce::MAX_PAIR_CONTACTS;
    let dir = tempfile::tempdir().unwrap();
    let out = record_fixture_and_validate(dir.path(), "capsule-around-dense-torus.ron");
    let reader = collidoscope::record::RecordingReader::open(&out).expect("opens");
    let last = reader.frame(reader.len() - 1).expect("the last frame");
    let n = last.contacts.len();
    assert!((100..=MAX_PAIR_CONTACTS).contains(&n), "{n} contacts");
    assert!(
        last.contacts.iter().any(|c| c.depth > 0.5),
        "no deep contact kept"
    );
}

/// A terrain of amplitude 1e308 is refused, naming the file, the body and the bound: its
/// height's rounding made every box of it overlap a dense sphere's.
#[test]
fn a_terrain_steeper_than_a_million_sizes_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (o, _) = record_fixture(dir.path(), "terrain-amplitude-1e308.ron");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("terrain-amplitude-1e308.ron") && t.contains("body 3"),
        "{t}"
    );
    assert!(
        t.contains("terrain amplitude must be at most 1e6 × size"),
        "{t}"
    );
}

/// Records two frames of a hostile scene fixture into `dir`: the run's output and where the
/// recording goes.
fn record_fixture(dir: &Path, fixture: &str) -> (Output, PathBuf) {
    let scene = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hostile/scenes")
        .join(fixture);
    let out = dir.join("fixture.cdrec");
    let (scene, path) = (scene.to_str().unwrap(), out.to_str().unwrap());
    let o = run(&["record", "--scene", scene, "--frames", "2", "-o", path]);
    (o, out)
}

/// Records two frames of a hostile scene fixture into `dir` and checks that they re-simulate
/// to the same state; returns the recording.
fn record_fixture_and_validate(dir: &Path, fixture: &str) -> PathBuf {
    let (o, out) = record_fixture(dir, fixture);
    assert!(o.status.success(), "{}", text(&o));
    let path = out.to_str().unwrap();
    let o = run(&["validate", path]);
    assert!(
        text(&o).contains("deterministic: every frame re-simulates to the same state"),
        "{}",
        text(&o)
    );
    out
}

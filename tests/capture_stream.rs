//! The capture stream, end to end: what an engine sends is what the recording holds (checked
//! against the items themselves, not against the assembler), bad lines are named and
//! skipped with every good line kept, a stream cut anywhere keeps every step that ended, and
//! the stream and the Rust API make the same recording.

use super::toy_engine::{engine_run, stream_text, upright};
use collidoscope::capture::*;
use collidoscope::record::{Frame, RecordingReader, WriterOptions};
use proptest::prelude::*;
use std::io::{BufRead, Cursor, Read};
use std::path::Path;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_collidoscope"))
}

fn ingest_text(text: &[u8], dir: &Path, name: &str) -> (IngestReport, Vec<Frame>) {
    let out = dir.join(name);
    let report = ingest(
        &mut Cursor::new(text.to_vec()),
        &out,
        WriterOptions::default(),
        &mut |_| {},
    )
    .expect("ingest");
    (report, frames(&out))
}

fn frames(path: &Path) -> Vec<Frame> {
    let reader = RecordingReader::open(path).expect("open the recording");
    (0..reader.len())
        .map(|i| (*reader.frame(i).expect("frame")).clone())
        .collect()
}

fn capture_frame(f: &Frame) -> &CaptureFrame {
    f.families
        .iter()
        .find_map(|d| match d {
            collidoscope::families::FamilyFrameData::Capture(c) => Some(c),
            _ => None,
        })
        .expect("a captured frame")
}

/// What each step of `items` sent, counted from the items alone.
struct Sent {
    engine_frame: u64,
    /// Ball index → the pose's translation, for the balls with a state this step.
    balls: Vec<(usize, [f64; 3])>,
    pairs: usize,
    contacts: Vec<f64>,
}

fn sent(items: &[Item]) -> Vec<Sent> {
    let mut out: Vec<Sent> = Vec::new();
    for item in items {
        match item {
            Item::Frame(f) => out.push(Sent {
                engine_frame: f.frame,
                balls: Vec::new(),
                pairs: 0,
                contacts: Vec::new(),
            }),
            Item::State(s) => {
                if let (Some(last), EngineId::Int(i)) = (out.last_mut(), &s.body) {
                    last.balls.push((*i as usize, s.pose.translation));
                }
            }
            Item::Pair(_) => out.last_mut().expect("in a frame").pairs += 1,
            Item::Contact(c) => out
                .last_mut()
                .expect("in a frame")
                .contacts
                .push(c.distance),
            _ => {}
        }
    }
    out
}

#[test]
fn a_recording_holds_what_the_engine_sent() {
    let dir = tempfile::tempdir().expect("tempdir");
    let items = engine_run(3, 40);
    let (report, frames) = ingest_text(stream_text(&items).as_bytes(), dir.path(), "run.cdrec");
    assert!(
        report.stream.skipped.is_empty(),
        "{:?}",
        report.stream.skipped
    );
    let expected = sent(&items);
    assert_eq!(frames.len(), expected.len());
    for (frame, sent) in frames.iter().zip(&expected) {
        let c = capture_frame(frame);
        assert_eq!(c.engine_frame, sent.engine_frame);
        assert_eq!(c.pairs.len(), sent.pairs);
        assert_eq!(frame.contacts.len(), sent.contacts.len());
        for (contact, distance) in frame.contacts.iter().zip(&sent.contacts) {
            assert_eq!(contact.depth, -distance);
        }
        assert_eq!(
            c.contacts.len(),
            frame.contacts.len(),
            "one detail per contact"
        );
        // Body 0 of the scene is the ground; ball i is scene body i + 1, and ball 0's
        // collider is 0.1 m to the side of its body.
        for (ball, t) in &sent.balls {
            let state = frame.body(*ball as u32 + 1).expect("the ball's collider");
            let offset = if *ball == 0 { 0.1 } else { 0.0 };
            assert_eq!(
                state.position.coords.as_slice(),
                &[t[0] + offset, t[1], t[2]]
            );
        }
        // The ground never got a state line: it is not posed, rather than posed at zero.
        assert!(frame.body(0).is_none());
    }
    let first = frames
        .iter()
        .position(|f| !f.contacts.is_empty())
        .expect("the balls reach the ground");
    assert!(
        frames[first]
            .markers
            .iter()
            .any(|m| m.kind == collidoscope::record::MarkerKind::FirstContact),
        "the first contact is marked"
    );
}

#[test]
fn the_scene_names_bodies_by_the_engines_ids() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_, _) = ingest_text(
        stream_text(&engine_run(2, 3)).as_bytes(),
        dir.path(),
        "ids.cdrec",
    );
    let reader = RecordingReader::open(dir.path().join("ids.cdrec")).expect("open");
    let names = &reader.header().body_names;
    assert_eq!(names[0], "the floor (body floor)");
    assert_eq!(names[1], "body 0");
    let scene = collidoscope::scene::Scene::from_ron(&reader.header().scene_ron, reader.path())
        .expect("the scene reads back");
    assert!(scene.replay_only());
    collidoscope::world::World::new(scene).expect("the viewer can build the captured scene");
}

#[test]
fn the_stream_and_the_api_make_the_same_recording() {
    let dir = tempfile::tempdir().expect("tempdir");
    let items = engine_run(4, 30);
    let header = match &items[0] {
        Item::Header(h) => h.clone(),
        _ => unreachable!(),
    };
    let stream_path = dir.path().join("run.jsonl");
    let file = std::fs::File::create(&stream_path).expect("create");
    let mut to_stream =
        Capture::to_stream(std::io::BufWriter::new(file), header.clone()).expect("stream");
    let api_path = dir.path().join("api.cdrec");
    let mut to_recording = Capture::to_recording(&api_path, header).expect("recording");
    for item in &items[1..] {
        to_stream.push(item.clone()).expect("stream item");
        to_recording.push(item.clone()).expect("recording item");
    }
    assert_eq!(to_stream.finish().expect("finish").frames, 30);
    assert_eq!(to_recording.finish().expect("finish").frames, 30);

    let (from_file, from_pipe) = super::ingest_cli::ingest_file_and_pipe(&stream_path, dir.path());

    let hashes = |p: &Path| frames(p).iter().map(Frame::state_hash).collect::<Vec<_>>();
    let api = hashes(&api_path);
    assert_eq!(api.len(), 30);
    assert_eq!(hashes(&from_file), api, "file stream vs API");
    assert_eq!(hashes(&from_pipe), api, "piped stream vs API");
}

/// The stream with `bad` inserted before line `at` (1-based, counted in the result).
fn with_line(text: &str, at: usize, bad: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(at - 1, bad);
    lines.join("\n") + "\n"
}

#[test]
fn every_kind_of_bad_line_is_named_and_skipped() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clean = stream_text(&engine_run(2, 12));
    let (_, good) = ingest_text(clean.as_bytes(), dir.path(), "clean.cdrec");
    // Line 11 is inside the first frame (after the header, 2 shapes, 3 bodies with their
    // colliders and the frame line); lines are numbered in the final stream.
    let cases: &[(&str, &str)] = &[
        (
            r#"{"kind":"state","body":"0","pose":{"translation":[0,0,0],"rotation":[1,0,0,0]}}"#,
            "body",
        ),
        (
            r#"{"kind":"state","body":0,"pose":{"translation":[0,"x",0],"rotation":[1,0,0,0]}}"#,
            "pose.translation",
        ),
        (
            r#"{"kind":"state","body":0,"pose":{"translation":[0,0],"rotation":[1,0,0,0]}}"#,
            "pose.translation",
        ),
        (
            r#"{"kind":"state","body":0,"pose":{"translation":[0,0,0],"rotation":[0,0,0,0]}}"#,
            "pose.rotation",
        ),
        (r#"{"kind":"pair","a":"g","b":"nobody"}"#, "b"),
        (r#"{"kind":"pair","a":-3,"b":"g"}"#, "a"),
        (
            r#"{"kind":"contact","a":"g","b":"ball0","position":[0,0,0],"normal":[0,1,0]}"#,
            "distance",
        ),
        (
            r#"{"kind":"shape","id":"bad","shape":{"type":"sphere","radius":"NaN"}}"#,
            "shape.radius",
        ),
        (
            r#"{"kind":"shape","id":"bad","shape":{"type":"convex","points":[[0,0,0],[1,0,0],[0,1,0],[0,0,"inf"]]}}"#,
            "shape.points[3]",
        ),
        (
            r#"{"kind":"shape","id":"bad","shape":{"type":"torus"}}"#,
            "shape.type",
        ),
        (
            r#"{"kind":"collider","id":"x","body":"nobody","shape":7}"#,
            "body",
        ),
        (r#"{"kind":"body","id":0}"#, "id"),
        (r#"{"kind":"frame","frame":5}"#, "frame"),
        (
            r#"{"kind":"event","stage":"ccd","label":"toi","bodies":[99]}"#,
            "bodies[0]",
        ),
        (
            r#"{"kind":"header","format":"collidoscope-capture","version":1,"engine":"again"}"#,
            "kind",
        ),
        (r#"{"kind": 3}"#, "kind"),
        (r#"[1, 2, 3]"#, ""),
        (r#"{"kind":"state","#, "line"),
        ("\u{fffd}\u{0}", "line"),
    ];
    for (bad, field) in cases {
        let text = with_line(&clean, 11, bad);
        let (report, frames) = ingest_text(text.as_bytes(), dir.path(), "bad.cdrec");
        let skipped = &report.stream.skipped;
        assert_eq!(skipped.len(), 1, "{bad}: {skipped:?}");
        assert_eq!(skipped[0].line, 11, "{bad}: {skipped:?}");
        assert_eq!(skipped[0].field, *field, "{bad}: {skipped:?}");
        assert!(!skipped[0].cause.is_empty());
        let hashes = |f: &[Frame]| f.iter().map(Frame::state_hash).collect::<Vec<_>>();
        assert_eq!(
            hashes(&frames),
            hashes(&good),
            "{bad}: every good line is kept"
        );
    }
}

#[test]
fn a_frame_number_going_back_is_skipped_and_the_run_goes_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clean = stream_text(&engine_run(1, 5));
    let (_, good) = ingest_text(clean.as_bytes(), dir.path(), "clean.cdrec");
    let end_of_first = clean
        .lines()
        .position(|l| l.contains("end_frame"))
        .expect("an end_frame")
        + 1;
    // Between two steps: a frame line whose number goes back, then a state line that is
    // outside any frame because of it.
    let bad = with_line(&clean, end_of_first + 1, r#"{"kind":"frame","frame":3}"#);
    let (report, frames) = ingest_text(bad.as_bytes(), dir.path(), "back.cdrec");
    assert_eq!(
        report.stream.skipped.len(),
        1,
        "{:?}",
        report.stream.skipped
    );
    assert_eq!(report.stream.skipped[0].line, end_of_first as u64 + 1);
    assert!(report.stream.skipped[0].cause.contains("must increase"));
    assert_eq!(frames.len(), good.len());
}

#[test]
fn a_hundred_megabyte_line_is_one_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clean = stream_text(&engine_run(1, 4));
    let (head, tail) = clean.split_at(clean.find("{\"kind\":\"frame\"").expect("a frame"));
    let huge = std::io::repeat(b'x').take(100 << 20);
    let mut input = std::io::BufReader::new(
        Cursor::new(head.as_bytes().to_vec())
            .chain(huge)
            .chain(Cursor::new(b"\n".to_vec()))
            .chain(Cursor::new(tail.as_bytes().to_vec())),
    );
    let out = dir.path().join("huge.cdrec");
    let report = ingest(&mut input, &out, WriterOptions::default(), &mut |_| {}).expect("ingest");
    let skipped = &report.stream.skipped;
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(skipped[0].field, "line");
    assert!(
        skipped[0].cause.contains("104857600 bytes"),
        "{}",
        skipped[0].cause
    );
    assert_eq!(frames(&out).len(), 4);
}

/// Steps whose `end_frame` line is wholly inside the first `cut` bytes.
fn steps_ended_before(text: &str, cut: usize) -> usize {
    let mut ended = 0;
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        if start + body.len() <= cut && body.contains("\"end_frame\"") {
            ended += 1;
        }
        start += line.len();
    }
    ended
}

#[test]
fn a_stream_cut_anywhere_keeps_every_step_that_ended() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = stream_text(&engine_run(2, 6));
    let (_, whole) = ingest_text(text.as_bytes(), dir.path(), "whole.cdrec");
    let n = text.len();
    let mut cuts: Vec<usize> = (0..n).step_by((n / (40 * common_scale())).max(1)).collect();
    // Every byte around each step's end.
    for (i, _) in text.match_indices("end_frame") {
        let line_end = i + text[i..].find('\n').unwrap_or(0);
        cuts.extend(line_end.saturating_sub(3)..(line_end + 3).min(n));
    }
    for cut in cuts {
        let (report, frames) = ingest_text(&text.as_bytes()[..cut], dir.path(), "cut.cdrec");
        let expected = steps_ended_before(&text, cut);
        assert_eq!(frames.len(), expected, "cut at byte {cut}");
        for (a, b) in frames.iter().zip(&whole) {
            assert_eq!(a.state_hash(), b.state_hash(), "cut at byte {cut}");
        }
        // Only a cut inside a line can skip one, and it is the last line.
        assert!(
            report.stream.skipped.len() <= 1,
            "cut at {cut}: {:?}",
            report.stream.skipped
        );
        if let Some(e) = report.stream.skipped.first() {
            assert!(
                e.cause.contains("ends in the middle"),
                "cut at {cut}: {e:?}"
            );
        }
    }
}

fn common_scale() -> usize {
    std::env::var("COLLIDOSCOPE_TEST_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1usize)
        .max(1)
}

#[test]
fn a_body_declared_mid_run_is_in_the_scene_and_earlier_steps_keep() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut items = engine_run(1, 5);
    let late = items
        .iter()
        .rposition(|i| matches!(i, Item::Frame(_)))
        .expect("a frame");
    items.insert(
        late + 1,
        Item::Body(BodyItem {
            id: "late".into(),
            name: Some("latecomer".into()),
            motion: Motion::Kinematic,
        }),
    );
    items.insert(
        late + 2,
        Item::Collider(ColliderItem {
            id: "late-c".into(),
            body: "late".into(),
            shape: 7u64.into(),
            pose: PoseItem::IDENTITY,
            sensor: true,
            name: None,
        }),
    );
    items.insert(
        late + 3,
        Item::State(StateItem::at("late", upright([3.0, 3.0, 3.0]))),
    );
    let (report, frames) = ingest_text(stream_text(&items).as_bytes(), dir.path(), "late.cdrec");
    assert!(report.recording.rewritten);
    assert_eq!(frames.len(), 5);
    let late_body = 2; // ground, ball 0, then the latecomer's collider
    assert!(frames[3].body(late_body).is_none());
    assert_eq!(
        frames[4]
            .body(late_body)
            .expect("posed")
            .position
            .coords
            .as_slice(),
        &[3.0, 3.0, 3.0]
    );
    let reader = RecordingReader::open(dir.path().join("late.cdrec")).expect("open");
    assert_eq!(reader.header().body_names[2], "latecomer (body late)");
}

#[test]
fn every_shape_kind_builds_for_the_viewer() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/capture/shapes.jsonl"),
    )
    .expect("the seed");
    let mut extra = String::new();
    for (i, shape) in [
        // Coplanar points: no hull, so its bounding box, said so.
        r#"{"type":"convex","points":[[0,0,0],[1,0,0],[0,1,0],[1,1,0]]}"#,
        r#"{"type":"capsule","radius":0.5,"half_height":0}"#,
        r#"{"type":"cuboid","half_extents":[1,0,1]}"#,
    ]
    .iter()
    .enumerate()
    {
        extra.push_str(&format!(
            "{{\"kind\":\"shape\",\"id\":\"s{i}\",\"shape\":{shape}}}\n{{\"kind\":\"collider\",\"id\":\"x{i}\",\"body\":\"b\",\"shape\":\"s{i}\"}}\n"
        ));
    }
    let text = text.replacen(
        "{\"kind\":\"frame\"",
        &format!("{extra}{{\"kind\":\"collider\",\"id\":2,\"body\":\"b\",\"shape\":1}}\n{{\"kind\":\"collider\",\"id\":3,\"body\":\"b\",\"shape\":2}}\n{{\"kind\":\"collider\",\"id\":4,\"body\":\"b\",\"shape\":3}}\n{{\"kind\":\"collider\",\"id\":5,\"body\":\"b\",\"shape\":4}}\n{{\"kind\":\"frame\""),
        1,
    );
    let (report, frames) = ingest_text(text.as_bytes(), dir.path(), "shapes.cdrec");
    assert!(
        report.stream.skipped.is_empty(),
        "{:?}",
        report.stream.skipped
    );
    assert_eq!(frames.len(), 1);
    let reader = RecordingReader::open(dir.path().join("shapes.cdrec")).expect("open");
    let scene = collidoscope::scene::Scene::from_ron(&reader.header().scene_ron, reader.path())
        .expect("scene");
    let world = collidoscope::world::World::new(scene.clone()).expect("builds");
    assert_eq!(world.bodies.len(), 8);
    let capture = scene
        .families
        .iter()
        .find_map(|f| match f {
            collidoscope::families::FamilySceneData::Capture(c) => Some(c),
            _ => None,
        })
        .expect("capture data");
    let note = |id: &str| {
        capture
            .shapes
            .iter()
            .find(|s| s.id.to_string() == id)
            .and_then(|s| s.note.clone())
            .unwrap_or_default()
    };
    assert!(note("s0").contains("bounding box"), "{}", note("s0"));
    assert!(note("5").contains("prism"));
    assert!(note("2").contains("plane"));
    // The state was infinite: kept as such, for the user to see.
    assert!(frames[0].bodies.iter().any(|b| !b.position.y.is_finite()));
}

fn item_strategy() -> impl Strategy<Value = Item> {
    let num = prop_oneof![
        any::<f64>(),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(-0.0),
        -1e3..1e3f64
    ];
    let id = prop_oneof![
        any::<u64>().prop_map(EngineId::Int),
        "[a-z\"\\\\é ]{1,6}".prop_map(EngineId::Text)
    ];
    let v3 = [num.clone(), num.clone(), num.clone()];
    prop_oneof![
        (id.clone(), v3.clone(), any::<bool>()).prop_map(|(body, t, ccd)| {
            let mut s = StateItem::at(body, upright(t));
            s.ccd = Some(ccd);
            s.linvel = Some(t);
            Item::State(s)
        }),
        (
            id.clone(),
            id.clone(),
            v3.clone(),
            num.clone(),
            any::<u32>()
        )
            .prop_map(|(a, b, p, d, m)| {
                let mut c = ContactItem::new(a, b, p, [0.0, 1.0, 0.0], d);
                c.manifold = m;
                c.tangent_impulse = Some([d, -d]);
                c.feature_a = Some("face 3".into());
                Item::Contact(c)
            }),
        (id.clone(), id.clone(), any::<Option<bool>>())
            .prop_map(|(a, b, touching)| Item::Pair(PairItem { a, b, touching })),
        (
            "[a-z]{1,5}",
            "[ -~]{0,12}",
            proptest::collection::vec(id.clone(), 0..3),
            num.clone()
        )
            .prop_map(|(stage, label, bodies, x)| {
                let mut e = EventItem::new(stage, label);
                e.bodies = bodies;
                // Values read back sorted by name (the stream's objects are unordered).
                e.values = vec![
                    ("v".into(), EventValue::Vector(vec![x, 1.0])),
                    ("x".into(), EventValue::Number(x)),
                ];
                Item::Event(e)
            }),
        (any::<u64>(), proptest::option::of(num.clone()))
            .prop_map(|(frame, time_s)| Item::Frame(FrameItem { frame, time_s })),
        proptest::option::of("[0-9a-f]{1,16}")
            .prop_map(|state_hash| Item::EndFrame(EndFrameItem { state_hash })),
    ]
}

fn same_number(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256 * common_scale() as u32))]

    /// What the writer writes, the parser reads back, bit for bit (NaN as NaN).
    #[test]
    fn items_read_back_as_written(item in item_strategy()) {
        let mut line = String::new();
        write_item(&item, &mut line);
        prop_assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
        let parsed = parse_line(line.trim_end().as_bytes());
        let Ok(Parsed::Item { item: back, unknown_fields }) = parsed else {
            return Err(TestCaseError::fail(format!("{line}: {parsed:?}")));
        };
        prop_assert!(unknown_fields.is_empty());
        // Debug text compares NaN as equal and -0.0 apart from 0.0.
        let (a, b) = (format!("{item:?}"), format!("{back:?}"));
        prop_assert_eq!(a, b);
        if let (Item::Contact(x), Item::Contact(y)) = (&item, &back) {
            prop_assert!(same_number(x.distance, y.distance));
        }
    }

    /// Any bytes between the lines of a good stream: never a panic, the good steps kept.
    #[test]
    fn garbage_lines_never_lose_good_steps(
        garbage in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 1..6),
        at in proptest::collection::vec(0usize..1000, 6),
    ) {
        let dir = tempfile::tempdir().expect("tempdir");
        let clean = stream_text(&engine_run(1, 3));
        let mut lines: Vec<Vec<u8>> = clean.lines().map(|l| l.as_bytes().to_vec()).collect();
        for (g, pos) in garbage.iter().zip(&at) {
            // Garbage may not hold a line break (it would be two lines) nor start a JSON
            // object that happens to be a good line.
            let g: Vec<u8> = g.iter().map(|&b| if b == b'\n' { b'#' } else { b }).collect();
            let pos = 1 + pos % lines.len();
            lines.insert(pos, g);
        }
        let text = lines.join(&b'\n') ;
        let mut text = text;
        text.push(b'\n');
        let (report, frames) = ingest_text(&text, dir.path(), "g.cdrec");
        prop_assert_eq!(frames.len(), 3);
        prop_assert!(report.stream.skipped.len() <= garbage.len());
    }
}

#[test]
fn ingest_reports_bad_lines_by_number_and_exits_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clean = stream_text(&engine_run(1, 3));
    let text = with_line(&clean, 9, r#"{"kind":"pair","a":"g","b":"ghost"}"#);
    let path = dir.path().join("bad.jsonl");
    std::fs::write(&path, text).expect("write");
    let out = bin()
        .arg("ingest")
        .arg(&path)
        .arg("-o")
        .arg(dir.path().join("bad.cdrec"))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.jsonl:9: b: no collider ghost was declared"),
        "{err}"
    );
    assert!(err.contains("1 line skipped"), "{err}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("ingested 3 steps of toy-engine 1.0"),
        "{said}"
    );
    let info = bin()
        .arg("info")
        .arg(dir.path().join("bad.cdrec"))
        .output()
        .expect("info");
    let info = String::from_utf8_lossy(&info.stdout);
    assert!(
        info.contains("engine:          toy-engine 1.0 (a captured run"),
        "{info}"
    );
    let validate = bin()
        .arg("validate")
        .arg(dir.path().join("bad.cdrec"))
        .output()
        .expect("validate");
    // The toy balls sink 5 cm into the floor, beyond the 1 cm a capture is allowed by
    // default: validate says so, naming them as the engine does.
    let said = String::from_utf8_lossy(&validate.stdout);
    assert!(said.contains("not re-simulated"), "{said}");
    assert!(
        said.contains("deep_penetration: the floor (body floor) · collider g and body 0 · collider ball0 overlap by 0.0500 m"),
        "{said}"
    );
    assert_eq!(validate.status.code(), Some(1), "{said}");
}

#[test]
fn a_missing_stream_is_a_clear_error() {
    let out = bin()
        .args(["ingest", "/nonexistent/run.jsonl", "-o", "/tmp/never.cdrec"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/run.jsonl"), "{err}");
    assert!(!err.contains("panicked"));
    let _ = std::io::stdin().lock().fill_buf().is_ok();
}

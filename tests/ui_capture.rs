//! A run captured from another engine, in the viewer (egui_kittest, no display, no GL): its
//! panel opens by itself and shows the engine's ids and names, the stages it did not send as
//! "not captured" (the plots and the inspector too), the step's contacts with their impulses
//! drawn; stepping past its end and resuming are refused. A `.jsonl` opens straight into a
//! replay with its bad lines listed, and saves as a `.cdrec`. An engine streaming over
//! loopback to a listening viewer: its steps arrive while the UI keeps ticking, the run shown
//! stays until the next engine's first step, and a live run saves like any other.

use crate::toy_engine::{engine_run, stream_text};
use collidoscope::app::families::capture::draw;
use collidoscope::app::state::loader::{LoadOptions, LoadRequest};
use collidoscope::app::state::session::Origin;
use collidoscope::app::state::{AppState, Command, Level};
use collidoscope::app::viewport::draw_list::{Style, Template};
use collidoscope::app::{CollidoscopeApp, StartOptions};
use collidoscope::capture::{
    Capture, CapturedShape, ColliderItem, ContactItem, EventItem, EventValue, Header, Motion,
    PoseItem, StateItem,
};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn at(x: f64, y: f64) -> PoseItem {
    PoseItem {
        translation: [x, y, 0.0],
        rotation: [1.0, 0.0, 0.0, 0.0],
    }
}

fn collider(id: &str, body: collidoscope::capture::EngineId, shape: &str) -> ColliderItem {
    ColliderItem {
        id: id.into(),
        body,
        shape: shape.into(),
        pose: PoseItem::IDENTITY,
        sensor: false,
        name: None,
    }
}

/// One step of the crate-and-ball run: a crate resting on the floor, a ball rolling into it
/// from step 6 on, its continuous collision active; a time of impact at step 6.
fn capture_step(c: &mut Capture, f: u64) {
    c.begin_step(f, f as f64 / 60.0).expect("step");
    c.state(StateItem::at("floor", at(0.0, -0.5)))
        .expect("state");
    c.state(StateItem::at("b7", at(0.0, 0.5))).expect("state");
    let mut ball = StateItem::at(42u64, at(-3.0 + 0.4 * f as f64, 0.5));
    ball.linvel = Some([24.0, 0.0, 0.0]);
    ball.ccd = Some(true);
    c.state(ball).expect("state");
    c.pair("c-floor", "c-crate", Some(true)).expect("pair");
    c.pair("c-crate", "c-ball", Some(f >= 6)).expect("pair");
    let mut rest = ContactItem::new(
        "c-floor",
        "c-crate",
        [0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        -0.002,
    );
    rest.normal_impulse = Some(1.0);
    rest.tangent_impulse = Some([0.1, 0.0]);
    rest.feature_a = Some("face 2".into());
    rest.feature_b = Some("vertex 5".into());
    c.contact(rest).expect("contact");
    if f >= 6 {
        let mut hit = ContactItem::new(
            "c-crate",
            "c-ball",
            [-0.5, 0.5, 0.0],
            [-1.0, 0.0, 0.0],
            -0.02,
        );
        hit.normal_impulse = Some(4.0);
        hit.point = 1;
        c.contact(hit).expect("contact");
    }
    if f == 6 {
        let mut e = EventItem::new("ccd", "time of impact");
        e.bodies = vec![42u64.into()];
        e.values = vec![("toi".into(), EventValue::Number(0.25))];
        c.event(e).expect("event");
    }
    c.end_step(Some(format!("ab{f:02}"))).expect("end");
}

/// The crate-and-ball run, captured straight into a recording with the Rust API.
fn captured_recording(dir: &Path) -> PathBuf {
    let path = dir.join("captured.cdrec");
    let header = Header {
        dt_s: Some(1.0 / 60.0),
        gravity: Some([0.0, -9.81, 0.0]),
        ..Header::new("test-engine 2.5")
    };
    let mut c = Capture::to_recording(&path, header).expect("capture");
    let cuboid = |h: f64| CapturedShape::Cuboid {
        half_extents: [h * 10.0, h, h * 10.0],
    };
    c.declare_shape("ground", cuboid(0.5)).expect("shape");
    c.declare_shape(
        "box",
        CapturedShape::Cuboid {
            half_extents: [0.5; 3],
        },
    )
    .expect("shape");
    c.declare_shape(9u64, CapturedShape::Sphere { radius: 0.25 })
        .expect("shape");
    c.declare_body("floor", Some("floor"), Motion::Fixed)
        .expect("body");
    c.declare_body("b7", Some("crate"), Motion::Dynamic)
        .expect("body");
    c.declare_body(42u64, Some("ball"), Motion::Dynamic)
        .expect("body");
    c.declare_collider(collider("c-floor", "floor".into(), "ground"))
        .expect("collider");
    c.declare_collider(collider("c-crate", "b7".into(), "box"))
        .expect("collider");
    let mut ball = collider("c-ball", 42u64.into(), "x");
    ball.shape = 9u64.into();
    c.declare_collider(ball).expect("collider");
    for f in 0..8 {
        capture_step(&mut c, f);
    }
    c.finish().expect("finish");
    path
}

fn harness_on(path: &Path) -> Harness<'static, CollidoscopeApp> {
    let mut h = Harness::builder()
        .with_size([1700.0, 1050.0])
        .build_eframe(|cc| CollidoscopeApp::new(cc, StartOptions::headless()));
    h.run_steps(2);
    assert!(
        h.state_mut()
            .state
            .open_blocking(LoadRequest::Path(path.to_path_buf()))
    );
    // The background scan gives the run's first contact and deepest penetration.
    let deadline = Instant::now() + Duration::from_secs(60);
    while h.state().state.is_busy() {
        assert!(Instant::now() < deadline, "the recording's scan ends");
        h.run();
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(4);
    h
}

fn last_message(st: &AppState) -> String {
    st.last_message()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

#[test]
fn a_captured_run_shows_the_engines_ids_and_what_it_did_not_send() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut h = harness_on(&captured_recording(dir.path()));
    assert!(
        h.state().settings.families.is_open("capture"),
        "the captured run's panel opens by itself"
    );
    h.get_by_label("Captured from test-engine 2.5");
    h.get_by_label_contains("first contact (step 0)");
    h.get_by_label_contains("deepest penetration: 0.0200 m (step 6)")
        .click();
    h.run_steps(4);
    assert_eq!(h.state().state.playhead.frame, 6, "the button jumps there");
    // The step as the engine sent it, with its ids: pairs of collider ids, manifold points,
    // impulses, features, the engine's frame and hash.
    h.get_by_label("c-crate – c-ball");
    h.get_by_label("c-floor – c-crate");
    h.get_by_label("0·1");
    h.get_by_label("4.0000");
    h.get_by_label("(0.1000, 0.0000)");
    h.get_by_label("face 2 / vertex 5");
    h.get_by_label("ab06");
    // The outliner lists the engine's bodies by their ids and names, colliders under them.
    h.get_by_label("crate (body b7) · dynamic");
    h.get_by_label("ball (body 42) · dynamic");
    h.get_by_label("    collider c-ball · sphere");
    // Stages it never sent read "not captured": sleeping in the panel; stage timings, narrow
    // tests and masses in the panel and the inspector; the stage-time plot says why it is
    // empty.
    let not_captured = h.query_all_by_label("not captured").count();
    assert!(not_captured >= 8, "{not_captured} “not captured” labels");
    h.get_by_label_contains("sent no stage timings");
    h.get_by_label_contains("Counts (not captured: narrow-phase tests)");
    // The 3D view: two contact points, two impulse arrows, the largest named; the ball's CCD.
    let list = h.state().viewport.draw_list().clone();
    let dots = list
        .points
        .iter()
        .filter(|p| p.size_px == draw::CONTACT_PX)
        .count();
    assert_eq!(dots, 2, "the contact points");
    let heads = list
        .volumes
        .iter()
        .filter(|(k, _)| *k == (Template::Cone, Style::Solid))
        .flat_map(|(_, v)| v)
        .filter(|i| i.color == draw::IMPULSE)
        .count();
    assert_eq!(heads, 2, "an impulse arrow per contact");
    let labels: Vec<&str> = list.labels.iter().map(|l| l.text.as_str()).collect();
    assert!(labels.contains(&"largest impulse 4.0000"), "{labels:?}");
    assert!(labels.contains(&"CCD active"), "{labels:?}");
    assert!(
        list.lines_on_top.iter().any(|v| v.color == draw::TOUCHING),
        "the touching pairs are drawn"
    );
    let legend = h
        .query_by_label_contains("is drawn")
        .map(|n| format!("{n:?}"))
        .unwrap_or_default();
    assert!(
        legend.contains("the largest, 4.0000"),
        "the scale is said: {legend}"
    );
}

#[test]
fn a_captured_event_is_inspected_with_the_engines_names() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut h = harness_on(&captured_recording(dir.path()));
    h.state_mut().apply(Command::SeekFrame(6));
    h.run_steps(3);
    let marks = {
        let app = h.state_mut();
        app.families.event_marks(&app.state, &app.settings.families)
    };
    assert_eq!(marks.len(), 1, "the event is marked on the step strip");
    assert!(
        marks[0].text.contains("time of impact"),
        "{}",
        marks[0].text
    );
    h.state_mut().apply(Command::SeekEvent(Some(0)));
    h.run_steps(3);
    h.get_by_label("Captured event: ccd — time of impact");
    h.get_by_label("ball (body 42)");
    h.get_by_label("c-ball · sphere");
    h.get_by_label("0.25");
}

#[test]
fn a_captured_run_cannot_be_stepped_or_resumed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut h = harness_on(&captured_recording(dir.path()));
    let disabled = |h: &Harness<'_, CollidoscopeApp>, label: &str| {
        h.get_by_label(label).accesskit_node().is_disabled()
    };
    assert!(disabled(&h, "⤴ Resume from here…"));
    assert!(
        !disabled(&h, "Step ▶"),
        "not at the end: it moves through the steps"
    );
    h.state_mut().apply(Command::LastFrame);
    h.run_steps(2);
    assert!(
        disabled(&h, "Step ▶"),
        "at the end there is no step to make"
    );
    let n = h.state().state.frame_count();
    h.state_mut().apply(Command::StepFrames(3));
    assert_eq!(h.state().state.frame_count(), n, "no step is simulated");
    h.state_mut().apply(Command::SeekFrame(3));
    h.state_mut().apply(Command::Fork(None));
    let st = &h.state().state;
    assert_eq!(st.frame_count(), n, "no frame dropped");
    assert!(
        last_message(st).contains("replayed, not re-simulated"),
        "{}",
        last_message(st)
    );
    assert_eq!(
        st.last_message().map(|m| m.level.clone()),
        Some(Level::Error)
    );
}

pub(crate) fn options() -> LoadOptions {
    LoadOptions {
        trace_limit: collidoscope::trace::TraceRecorder::DEFAULT_LIMIT,
        budget_bytes: 64 << 20,
    }
}

pub(crate) fn tick_until(
    st: &mut AppState,
    what: &str,
    done: impl Fn(&AppState) -> bool,
) -> Duration {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut slowest = Duration::ZERO;
    while !done(st) {
        assert!(Instant::now() < deadline, "waited a minute for {what}");
        let t = Instant::now();
        st.tick(0.0);
        slowest = slowest.max(t.elapsed());
        std::thread::sleep(Duration::from_millis(2));
    }
    slowest
}

#[test]
fn a_jsonl_stream_opens_with_its_bad_lines_listed_and_saves_as_a_recording() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = stream_text(&engine_run(2, 40));
    let mut lines: Vec<&str> = text.lines().collect();
    let bad = r#"{"kind":"state","body":0,"pose":{"translation":[0,"x",0],"rotation":[1,0,0,0]}}"#;
    lines.insert(14, bad);
    let path = dir.path().join("run.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").expect("write");

    let mut st = AppState::new(options());
    st.apply(Command::Open(LoadRequest::Path(path.clone())));
    tick_until(&mut st, "the stream to open", |s| s.loading.is_none());
    let s = st.session.as_ref().expect("a session");
    assert_eq!(s.origin, Origin::CaptureStream(path.clone()));
    assert!(s.origin.label().contains("run.jsonl"));
    assert!(s.replay_only());
    assert_eq!(s.len(), 40);
    let log = s.stream.as_ref().expect("the stream's log");
    assert_eq!(log.skipped_total, 1);
    assert_eq!(log.skipped[0].line, 15, "{}", log.skipped[0]);
    assert!(
        last_message(&st).contains("1 line skipped (first: line 15"),
        "{}",
        last_message(&st)
    );

    let saved = dir.path().join("run.cdrec");
    st.apply(Command::Save(saved.clone()));
    tick_until(&mut st, "the save", |s| s.saving.is_none());
    assert!(st.open_blocking(LoadRequest::Path(saved)));
    let s = st.session.as_ref().expect("a session");
    assert!(s.is_recording_replay() && s.replay_only());
    assert_eq!(s.len(), 40);
}

/// Streams `steps` steps of the crate-and-ball run to `addr`, then leaves cleanly.
fn engine_client(addr: std::net::SocketAddr, steps: u64) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let socket = std::net::TcpStream::connect(addr).expect("connect");
        let mut c = Capture::to_stream(std::io::BufWriter::new(socket), Header::new("engine A"))
            .expect("header");
        c.declare_shape(
            "ground",
            CapturedShape::Cuboid {
                half_extents: [5.0, 0.5, 5.0],
            },
        )
        .expect("shape");
        c.declare_shape(
            "box",
            CapturedShape::Cuboid {
                half_extents: [0.5; 3],
            },
        )
        .expect("shape");
        c.declare_shape(9u64, CapturedShape::Sphere { radius: 0.25 })
            .expect("shape");
        c.declare_body("floor", None, Motion::Fixed).expect("body");
        c.declare_body("b7", None, Motion::Dynamic).expect("body");
        c.declare_body(42u64, None, Motion::Dynamic).expect("body");
        c.declare_collider(collider("c-floor", "floor".into(), "ground"))
            .expect("collider");
        c.declare_collider(collider("c-crate", "b7".into(), "box"))
            .expect("collider");
        let mut ball = collider("c-ball", 42u64.into(), "x");
        ball.shape = 9u64.into();
        c.declare_collider(ball).expect("collider");
        for f in 0..steps {
            capture_step(&mut c, f);
        }
        c.finish().expect("finish");
    })
}

#[test]
fn a_listening_viewer_shows_steps_as_they_arrive_and_keeps_them() {
    let mut st = AppState::new(options());
    let socket = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = socket.local_addr().expect("addr");
    st.listen(socket).expect("listen");
    assert!(
        st.session.is_none(),
        "nothing shown before an engine sends a step"
    );

    let client = engine_client(addr, 300);
    let slowest = tick_until(&mut st, "300 steps and the engine leaving", |s| {
        s.frame_count() == 300 && s.listening.as_ref().is_some_and(|l| l.peer.is_none())
    });
    client.join().expect("client");
    assert!(
        slowest < Duration::from_millis(250),
        "a tick took {slowest:?}"
    );
    let s = st.session.as_ref().expect("the live run");
    assert!(s.replay_only() && !s.can_step());
    assert!(matches!(s.origin, Origin::Listening { .. }));
    assert_eq!(st.playhead.frame, 299, "the playhead followed the steps");
    let engine_frames: Vec<u64> = (0..300).map(|i| s.frame(i).expect("frame").index).collect();
    assert_eq!(engine_frames, (0..300).collect::<Vec<_>>(), "in order");

    // The next engine: the run shown stays until its first step, which replaces it.
    let mut next = std::net::TcpStream::connect(addr).expect("connect");
    let mut lines = String::new();
    for item in engine_run(1, 1) {
        collidoscope::capture::write_item(&item, &mut lines);
    }
    let (declarations, step) = lines.split_at(lines.find("{\"kind\":\"frame\"").expect("a step"));
    next.write_all(declarations.as_bytes()).expect("write");
    tick_until(&mut st, "the next engine", |s| {
        s.listening.as_ref().is_some_and(|l| l.peer.is_some())
    });
    std::thread::sleep(Duration::from_millis(200));
    st.tick(0.0);
    assert_eq!(st.frame_count(), 300, "the old run stays meanwhile");
    next.write_all(step.as_bytes()).expect("write");
    tick_until(&mut st, "the next engine's first step", |s| {
        s.frame_count() == 1
    });
    assert!(
        st.session
            .as_ref()
            .is_some_and(|s| s.scene.name.contains("toy-engine"))
    );
    // It dies mid-line: reported, its step kept.
    next.write_all(b"{\"kind\":\"fra").expect("write");
    drop(next);
    tick_until(&mut st, "the cut", |s| {
        s.listening.as_ref().is_some_and(|l| l.peer.is_none())
    });
    assert_eq!(st.frame_count(), 1);
    assert!(
        last_message(&st).contains("middle of a line"),
        "{}",
        last_message(&st)
    );
    let log = st
        .session
        .as_ref()
        .and_then(|s| s.stream.clone())
        .expect("log");
    assert_eq!(log.skipped_total, 1);

    let saved = std::env::temp_dir().join(format!("live-{}.cdrec", std::process::id()));
    st.apply(Command::Save(saved.clone()));
    tick_until(&mut st, "the save", |s| s.saving.is_none());
    assert!(st.open_blocking(LoadRequest::Path(saved.clone())));
    assert_eq!(st.frame_count(), 1);
    let _ = std::fs::remove_file(saved);
}

#[test]
fn opening_something_else_while_an_engine_streams_keeps_what_was_opened() {
    let mut st = AppState::new(options());
    let socket = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = socket.local_addr().expect("addr");
    st.listen(socket).expect("listen");
    let mut lines = String::new();
    for item in engine_run(1, 10) {
        collidoscope::capture::write_item(&item, &mut lines);
    }
    let fifth = lines
        .match_indices("{\"kind\":\"frame\"")
        .nth(5)
        .expect("6 steps")
        .0;
    let mut engine = std::net::TcpStream::connect(addr).expect("connect");
    engine.write_all(&lines.as_bytes()[..fifth]).expect("write");
    tick_until(&mut st, "5 steps", |s| s.frame_count() == 5);
    assert!(st.open_blocking(LoadRequest::Builtin("box-stack".into())));
    engine.write_all(&lines.as_bytes()[fifth..]).expect("write");
    drop(engine);
    tick_until(&mut st, "the engine leaving", |s| {
        s.listening.as_ref().is_some_and(|l| l.peer.is_none())
    });
    let s = st.session.as_ref().expect("a session");
    assert_eq!(
        s.origin,
        Origin::Builtin("box-stack".into()),
        "not replaced"
    );
    let said = st
        .messages
        .iter()
        .any(|m| m.text.contains("streams on, not shown"));
    assert!(
        said,
        "{:?}",
        st.messages.iter().map(|m| &m.text).collect::<Vec<_>>()
    );
}

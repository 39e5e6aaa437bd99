//! The viewer driven like a user would, through its accessibility tree (egui_kittest), with
//! no display and no GL: open the default scene, play, pause, step, scrub, select a body and
//! read it in the inspector, open a recording, jump to markers, fork.

use crate::ui_harness::settle;
use collidoscope::app::state::{Command, Selection};
use collidoscope::app::{CollidoscopeApp, StartOptions};
use collidoscope::record::{RecordingMeta, RecordingWriter, WriterOptions};
use collidoscope::world::{World, builtin_scene};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn harness() -> Harness<'static, CollidoscopeApp> {
    let mut h = Harness::builder()
        .with_size([1500.0, 950.0])
        .build_eframe(|cc| CollidoscopeApp::new(cc, StartOptions::headless()));
    h.run_steps(2);
    h
}

fn frame(h: &Harness<'_, CollidoscopeApp>) -> usize {
    h.state().state.playhead.frame
}

fn frames(h: &Harness<'_, CollidoscopeApp>) -> usize {
    h.state().state.frame_count()
}

/// A recording of `steps` frames of a built-in scene, written the way `collidoscope record` does.
fn record(dir: &Path, scene: &str, steps: usize) -> PathBuf {
    let path = dir.join(format!("{scene}.cdrec"));
    let scene = builtin_scene(scene).expect("built-in scene");
    let mut world = World::new(scene.clone()).expect("world");
    let meta = RecordingMeta {
        scene_ron: scene.to_ron(),
        body_names: world.bodies.iter().map(|b| b.name.clone()).collect(),
        dt_s: scene.solver.dt_s,
    };
    let mut w = RecordingWriter::create(&path, meta, WriterOptions::default()).expect("create");
    w.write_frame(&world.initial_frame()).expect("write");
    for _ in 0..steps {
        w.write_frame(&world.step_traced(5_000)).expect("write");
    }
    w.finish().expect("finish");
    path
}

#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn opens_the_default_scene_with_every_panel() {
    let mut h = harness();
    h.run();
    let session = h
        .state()
        .state
        .session
        .as_ref()
        .expect("a session at start");
    assert_eq!(session.scene.name, collidoscope::world::DEFAULT_SCENE);
    assert!(session.can_step(), "a built-in scene opens live");
    h.get_by_label("3D view");
    h.get_by_label("Outliner");
    h.get_by_label("Inspector");
    h.get_by_label("Frame scrubber");
    h.get_by_label("Event scrubber");
    h.get_by_label("Stage time (ms)");
    h.get_by_label_contains("LIVE");
    // Every body is listed (the floor first).
    h.get_by_label_contains("#0 floor");
}

#[test]
fn play_pause_and_step() {
    let mut h = harness();
    assert_eq!(frames(&h), 1);
    h.get_by_label("⏵ Play").click();
    h.run_steps(4);
    assert!(h.state().state.playback.playing);
    let n = frames(&h);
    assert!(n > 4, "playing a live scene steps the engine: {n} frames");
    assert_eq!(frame(&h), n - 1, "the playhead follows the newest frame");
    h.get_by_label("⏸ Pause").click();
    h.run();
    let n = frames(&h);
    h.run_steps(3);
    assert_eq!(frames(&h), n, "paused: nothing steps");

    h.get_by_label("◀ Back").click();
    h.run();
    assert_eq!(frame(&h), n - 2);
    h.get_by_label("Step ▶").click();
    h.run();
    assert_eq!(frame(&h), n - 1);
    // At the end of a live session, stepping forward steps the engine.
    h.get_by_label("Step ▶").click();
    h.run();
    assert_eq!((frame(&h), frames(&h)), (n, n + 1));

    // The keyboard does the same.
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert_eq!(frame(&h), n - 1);
    h.key_press(egui::Key::Home);
    h.run();
    assert_eq!(frame(&h), 0);
    h.key_press(egui::Key::End);
    h.run();
    assert_eq!(frame(&h), n);
    h.key_press(egui::Key::Space);
    h.run_steps(2);
    assert!(h.state().state.playback.playing);
    h.key_press(egui::Key::Space);
    h.run();
    assert!(!h.state().state.playback.playing);
}

#[test]
fn scrub_frames_and_step_through_events() {
    let mut h = harness();
    h.state_mut().apply(Command::StepFrames(100));
    h.run();
    assert_eq!((frame(&h), frames(&h)), (100, 101));
    // A click in the middle of the scrubber seeks to the middle frame.
    h.get_by_label("Frame scrubber").click();
    h.run();
    assert!(
        (45..=55).contains(&frame(&h)),
        "clicked the middle, at frame {}",
        frame(&h)
    );
    // Assistive technology (and tests) can set the value exactly.
    h.get_by_label("Frame scrubber").set_value_accesskit(30.0);
    h.run();
    assert_eq!(frame(&h), 30);

    // Shift+→ enters the trace of the frame: the event is described in the inspector.
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::ArrowRight);
    h.run();
    assert_eq!(h.state().state.playhead.event, Some(0));
    h.get_by_label_contains("Event 1 of");
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::ArrowRight);
    h.run();
    assert_eq!(h.state().state.playhead.event, Some(1));
    h.get_by_label("Event scrubber").set_value_accesskit(4.0);
    h.run();
    assert_eq!(h.state().state.playhead.event, Some(4));
    h.get_by_label_contains("Event 5 of");
    h.get_by_label("◀ Event").click();
    h.run();
    assert_eq!(h.state().state.playhead.event, Some(3));
    // A plain seek leaves the trace.
    h.key_press(egui::Key::ArrowRight);
    h.run();
    assert_eq!((frame(&h), h.state().state.playhead.event), (31, None));
}

#[test]
fn select_a_body_and_read_it_in_the_inspector() {
    let mut h = harness();
    h.state_mut().apply(Command::StepFrames(30));
    h.run();
    // Filter the outliner, then click the body.
    h.get_by_role(egui::accesskit::Role::TextInput).focus();
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text("capsule");
    h.run();
    assert!(
        h.query_by_label_contains("#1 sphere-0").is_none(),
        "filtered out"
    );
    h.get_by_label_contains("#3 capsule-2").click();
    h.run();
    assert_eq!(h.state().state.selection, Selection::Body(3));
    h.get_by_label("capsule-2");
    h.get_by_label("position (m)");
    h.get_by_label("velocity (m/s)");
    h.get_by_label_contains("capsule, radius");
    let shown = h
        .state()
        .state
        .current_frame()
        .and_then(|f| f.body(3))
        .map(|b| b.position);
    let p = shown.expect("the body is in the frame");
    h.get_by_label(&format!("({:.4}, {:.4}, {:.4})", p.x, p.y, p.z));

    // The selection is by id: it survives seeking, and the inspector follows the frame.
    h.key_press(egui::Key::Home);
    h.run();
    assert_eq!(h.state().state.selection, Selection::Body(3));
    h.get_by_label("capsule-2");
    let p0 = h
        .state()
        .state
        .current_frame()
        .and_then(|f| f.body(3))
        .map(|b| b.position)
        .expect("body");
    assert_ne!(p0, p);
    h.get_by_label(&format!("({:.4}, {:.4}, {:.4})", p0.x, p0.y, p0.z));
    h.key_press(egui::Key::Escape);
    h.run();
    assert_eq!(h.state().state.selection, Selection::None);
}

#[test]
fn open_a_dropped_recording_and_jump_to_markers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = record(dir.path(), "mixed-drop", 180);
    let mut h = harness();
    h.input_mut()
        .dropped_files
        .push(Arc::new(Dropped(path.clone())));
    settle(&mut h);
    let session = h.state().state.session.as_ref().expect("a session");
    assert!(session.is_recording_replay());
    assert!(!session.can_step(), "a recording replays, it does not step");
    assert_eq!(session.len(), 181);
    assert_eq!(
        session.summaries().len(),
        181,
        "the background scan read every frame"
    );
    let markers: Vec<usize> = session.markers().all().iter().map(|m| m.frame).collect();
    assert!(!markers.is_empty(), "first contacts are marked");
    h.get_by_label_contains("REPLAY");
    assert_eq!(frame(&h), 0);

    h.get_by_label("▶◆").click();
    h.run();
    assert_eq!(frame(&h), markers[0]);
    let next = markers
        .iter()
        .copied()
        .find(|&f| f > markers[0])
        .expect("a second marker frame");
    h.key_press(egui::Key::CloseBracket);
    h.run();
    assert_eq!(frame(&h), next);
    h.get_by_label("◆◀").click();
    h.run();
    assert_eq!(frame(&h), markers[0]);

    // Playing a recording stops at its end (it cannot step).
    h.key_press(egui::Key::End);
    h.get_by_label("⏵ Play").click();
    h.run_steps(3);
    assert_eq!((frame(&h), frames(&h)), (180, 181));
    assert!(!h.state().state.playback.playing);

    // It shows up in the recent files.
    assert_eq!(
        h.state().settings.recent.first(),
        Some(&path.display().to_string())
    );
}

#[test]
fn resume_from_a_frame_forks_the_history() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = record(dir.path(), "box-stack", 60);
    let mut h = harness();
    h.state_mut()
        .settings
        .add_recent(&path.display().to_string());
    // Open it from File > Recent files.
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Recent files").hover();
    h.run();
    h.get_by_label(&path.display().to_string()).click();
    settle(&mut h);
    assert_eq!(frames(&h), 61);
    h.get_by_label("Frame scrubber").set_value_accesskit(20.0);
    h.run();
    h.get_by_label("⤴ Resume from here…").click();
    h.run();
    h.get_by_label("Resume").click();
    h.run();
    let session = h.state().state.session.as_ref().expect("session");
    assert_eq!(session.len(), 21, "the future is dropped");
    assert!(session.can_step(), "the engine is attached");
    h.get_by_label("Step ▶").click();
    h.run();
    assert_eq!((frame(&h), frames(&h)), (21, 22));
    h.get_by_label_contains("LIVE");
}

#[test]
fn pick_a_built_in_scene_and_switch_theme() {
    let mut h = harness();
    h.get_by_label("Scenes").click();
    h.run();
    h.get_by_label("Continuous collision").click();
    h.run();
    h.get_by_label("tunnelling").click();
    settle(&mut h);
    let session = h.state().state.session.as_ref().expect("session");
    assert_eq!(session.scene.name, "tunnelling");
    assert_eq!(
        h.state().settings.theme,
        collidoscope::app::settings::Theme::Dark
    );
    h.get_by_label("☀ Light").click();
    h.run();
    assert_eq!(
        h.state().settings.theme,
        collidoscope::app::settings::Theme::Light
    );
    h.get_by_label("🌙 Dark");
}

#[test]
fn the_outliner_lays_out_only_the_visible_rows_of_ten_thousand() {
    use collidoscope::app::state::session::{Origin, Session};
    use collidoscope::world::{BodyDesc, ShapeDesc};
    let mut scene = builtin_scene("box-stack").expect("built-in scene");
    scene.bodies = (0..10_000)
        .map(|i| {
            BodyDesc::new(
                format!("crate-{i}"),
                ShapeDesc::Box {
                    half_extents: [0.2, 0.2, 0.2],
                },
                [(i % 100) as f64 * 0.5, 0.5 + (i / 100) as f64 * 0.5, 0.0],
            )
        })
        .collect();
    let session =
        Session::live(Origin::Builtin("crates".into()), scene, 100, 64 << 20).expect("session");
    let mut h = harness();
    h.state_mut().state.install(session);
    h.run();
    let rows = h
        .query_all_by_label_contains("crate-")
        .filter(|n| {
            use egui_kittest::kittest::NodeT as _;
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.starts_with('#'))
        })
        .count();
    assert!(
        rows > 5 && rows < 200,
        "{rows} body rows laid out of 10,000"
    );
    h.get_by_role(egui::accesskit::Role::TextInput).focus();
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text("crate-9876");
    h.run();
    h.get_by_label_contains("#9876 crate-9876").click();
    h.run();
    assert_eq!(h.state().state.selection, Selection::Body(9876));
    h.get_by_label("crate-9876");
}

#[test]
fn a_file_on_the_command_line_opens_in_the_background() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = record(dir.path(), "box-stack", 30);
    let file = path.display().to_string();
    let h = crate::ui_harness::app_with(
        [1500.0, 950.0],
        StartOptions {
            file: Some(file),
            ..StartOptions::headless()
        },
    );
    let session = h.state().state.session.as_ref().expect("a session");
    assert!(session.is_recording_replay());
    assert_eq!(session.len(), 31);
    h.get_by_label_contains("REPLAY");
}

#[test]
fn a_recording_that_does_not_replay_gets_a_divergence_marker() {
    use collidoscope::record::MarkerKind;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("tampered.cdrec");
    // Frames simulated under one gravity, the header claiming another: re-simulating the
    // embedded scene cannot reproduce them.
    let scene = builtin_scene("box-stack").expect("built-in scene");
    let mut claimed = scene.clone();
    claimed.gravity = [0.0, -1.0, 0.0];
    let mut world = World::new(scene.clone()).expect("world");
    let meta = RecordingMeta {
        scene_ron: claimed.to_ron(),
        body_names: world.bodies.iter().map(|b| b.name.clone()).collect(),
        dt_s: scene.solver.dt_s,
    };
    let mut w = RecordingWriter::create(&path, meta, WriterOptions::default()).expect("create");
    w.write_frame(&world.initial_frame()).expect("write");
    for _ in 0..20 {
        w.write_frame(&world.step_traced(100)).expect("write");
    }
    w.finish().expect("finish");
    let mut h = harness();
    h.input_mut().dropped_files.push(Arc::new(Dropped(path)));
    settle(&mut h);
    let markers = h
        .state()
        .state
        .session
        .as_ref()
        .expect("session")
        .markers()
        .all()
        .to_vec();
    let divergence = markers
        .iter()
        .find(|m| m.kind == MarkerKind::Divergence)
        .expect("a divergence marker");
    assert_eq!(
        divergence.frame, 1,
        "the first stepped frame already differs"
    );
    h.get_by_label_contains("re-simulation diverges at frame 1");
}

#[test]
fn the_inspector_keeps_its_width_when_an_event_is_selected() {
    let mut h = harness();
    assert!(h.state_mut().state.open_blocking(
        collidoscope::app::state::loader::LoadRequest::Builtin("interlocked-tori".into())
    ));
    h.state_mut().apply(Command::StepFrames(12));
    h.run();
    let width = |h: &Harness<'_, CollidoscopeApp>| h.get_by_label("3D view").rect().width();
    let before = width(&h);
    let n = h.state().state.current_frame().expect("frame").trace.len();
    assert!(n > 10);
    // Every kind of event in the frame: long summaries and long field values alike.
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..n {
        let kind = {
            let e = &h.state().state.current_frame().expect("frame").trace[i];
            let fields = collidoscope::app::inspector::event_fields(e);
            (e.kind.family(), fields.first().map(|f| f.0.clone()))
        };
        if !seen.insert(kind) {
            continue;
        }
        h.get_by_label("Event scrubber")
            .set_value_accesskit(i as f64);
        // A horizontal scroll bar may fade in: let it.
        h.run_steps(20);
        assert_eq!(h.state().state.playhead.event, Some(i));
        assert_eq!(width(&h), before, "the 3D view moved at event {i}");
    }
    assert!(seen.len() >= 3, "{seen:?}");
    // And back out of the trace.
    h.key_press(egui::Key::Escape);
    h.state_mut().apply(Command::SeekEvent(None));
    h.run();
    assert_eq!(width(&h), before);
}

#[test]
fn the_keyboard_help_opens_centred_over_the_view() {
    let mut h = harness();
    h.key_press(egui::Key::F1);
    h.run();
    let title = h.get_by_label("Keyboard and mouse").rect();
    // Centred on the window (1500 wide), clear of the outliner on the left.
    assert!(
        (title.center().x - 750.0).abs() < 60.0,
        "title at {:?}",
        title.center()
    );
    h.get_by_label("this help");
    h.key_press(egui::Key::F1);
    h.run();
    assert!(h.query_by_label("this help").is_none());
}

//! The Arka3D view driven headless (egui_kittest): on a scene with a recovery (the narrow-gap
//! micro-scene; scenarios 3–6 have none in our runs, see docs/arka3d.md), stepping to the
//! recovery's timeline marker shows the recovery in the panel, by ball and cube.

use crate::ui_harness;
use ui_harness::{app_with, open_family_view};

use collidoscope::app::StartOptions;
use collidoscope::app::families::arka::draw;
use collidoscope::app::state::Command;
use collidoscope::app::state::loader::LoadRequest;
use collidoscope::app::viewport::draw_list::DrawList;
use collidoscope::arka::sim::RECOVERY_MARKER;
use collidoscope::arka::{
    ArkaCounters, ArkaEvent, ArkaFrame, ArkaScene, BallDesc, BallState, Region, Switches,
};
use collidoscope::frame::MarkerKind;
use collidoscope::geom::{Point3, Vec3};
use collidoscope::trace::NoProbe;
use collidoscope::trace::{EventKind, TraceEvent, Verdict};
use collidoscope::world::builtin_scene;
use collidoscope::world::{Scene, World};
use std::path::PathBuf;

fn scene_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/scenes/arka-narrow-gap.ron")
}
use egui_kittest::kittest::Queryable;

/// The scenario and the first frame with a recovery, found by stepping the engine.
fn first_recovery() -> usize {
    let scene = Scene::load(&scene_file()).expect("the scene file loads");
    let mut world = World::new(scene).expect("valid");
    for _ in 0..3600 {
        let frame = world.step(&mut NoProbe);
        if frame
            .markers
            .iter()
            .any(|m| m.kind == MarkerKind::Other(RECOVERY_MARKER.into()))
        {
            return frame.index as usize;
        }
    }
    panic!("no recovery in a minute")
}

#[test]
fn stepping_to_a_recovery_marker_names_it_in_the_panel() {
    let target = first_recovery();
    let mut h = app_with([1500.0, 950.0], StartOptions::headless());
    assert!(
        h.state_mut()
            .state
            .open_blocking(LoadRequest::Path(scene_file()))
    );
    h.state_mut().apply(Command::StepFrames(target as i64 + 2));
    h.run();
    h.state_mut().apply(Command::SeekFrame(0));
    h.run();
    open_family_view(&mut h, "Arka3D", "arka");
    h.get_by_label_contains("Frame 0:");
    h.state_mut().apply(Command::NextMarker);
    h.run();
    h.run();
    assert_eq!(h.state().state.playhead.frame, target);
    h.get_by_label_contains(&format!("Frame {target}:"));
    // The panel (and perhaps the shell's event list) names the recovery.
    assert!(h.query_all_by_label_contains("RECOVERY ball").count() >= 1);
    assert!(h.query_all_by_label("orientation culling").count() >= 1);
}

/// The first frame of a built-in scene with an event `wanted`, and the event's index.
fn first_event(scene: &str, wanted: impl Fn(&ArkaEvent) -> bool) -> (usize, usize) {
    let mut world = World::new(builtin_scene(scene).expect("built in")).expect("valid");
    for _ in 0..3600 {
        let frame = world.step_traced(usize::MAX);
        if let Some(i) = frame.trace.iter().position(|e| match &e.kind {
            EventKind::Arka(a) => wanted(a),
            _ => false,
        }) {
            return (frame.index as usize, i);
        }
    }
    panic!("{scene}: no such event in a minute")
}

/// Stepping to a corner bounce: the panel puts it first, named by its region; the inspector
/// shows no "-0.0000" kinetic energy for a scene without bodies.
#[test]
fn stepping_to_a_corner_bounce_names_its_region_first() {
    let (target, event) = first_event(
        "arka-3-hard",
        |a| matches!(a, ArkaEvent::Bounce { region, .. } if *region != Region::Face),
    );
    let mut h = app_with([1500.0, 950.0], StartOptions::headless());
    assert!(
        h.state_mut()
            .state
            .open_blocking(LoadRequest::Builtin("arka-3-hard".into()))
    );
    h.state_mut().apply(Command::StepFrames(target as i64));
    h.run();
    h.state_mut().apply(Command::SeekFrame(target));
    h.state_mut().apply(Command::SeekEvent(Some(event)));
    open_family_view(&mut h, "Arka3D", "arka");
    h.run();
    h.run();
    let first = h
        .query_all_by_label_contains(&format!("▶ event {event}:"))
        .count();
    assert_eq!(first, 1, "the bounce stepped to is listed first");
    assert!(h.query_all_by_label_contains("band: corner bounce").count() >= 1);
    assert_eq!(h.query_all_by_label_contains("-0.0000").count(), 0);
}

/// Scenario 4 under the thesis' conditions recovers: its first recovery is a timeline
/// marker the marker navigation steps to.
#[test]
fn a_thesis_scenario_recovery_is_a_marker_to_step_to() {
    let (target, _) = first_event("arka-4-thesis", |a| matches!(a, ArkaEvent::Recovery { .. }));
    let mut h = app_with([1500.0, 950.0], StartOptions::headless());
    assert!(
        h.state_mut()
            .state
            .open_blocking(LoadRequest::Builtin("arka-4-thesis".into()))
    );
    h.state_mut().apply(Command::StepFrames(target as i64 + 2));
    h.run();
    h.state_mut().apply(Command::SeekFrame(0));
    h.run();
    h.state_mut().apply(Command::NextMarker);
    h.run();
    assert_eq!(h.state().state.playhead.frame, target);
}

/// The overlay of a frame with one corner bounce stepped to: the six walls (12 edges), the
/// ball named, the bounce's region named at its crossing, all counted.
#[test]
fn the_overlay_draws_the_walls_and_names_the_region_stepped_to() {
    let mut board = vec![0u8; 1000];
    board[555] = 1;
    let scene = ArkaScene {
        board,
        balls: vec![BallDesc {
            position: [6.2, 5.5, 6.8],
            velocity: [0.0, 0.0, -3.0],
            radius: 0.3,
        }],
        height: 16.0,
        switches: Switches::default(),
        paddle: None,
    };
    let frame = ArkaFrame {
        balls: vec![BallState {
            position: Point3::new(6.2, 5.5, 6.3),
            velocity: Vec3::new(0.0, 0.0, 3.0),
        }],
        board_changes: Vec::new(),
        hit_now: vec![555],
        counters: ArkaCounters::default(),
        paddle: None,
        step_s: 1.0 / 60.0,
    };
    let events = vec![TraceEvent::new(
        Verdict::Hit,
        ArkaEvent::Bounce {
            ball: 0,
            cell: 555,
            face: 4,
            region: Region::Edge,
            from: Point3::new(6.2, 5.5, 6.8),
            to: Point3::new(6.2, 5.5, 5.9),
            point: Point3::new(6.2, 5.5, 6.0),
            normal: Vec3::new(0.6, 0.0, 0.8),
        },
    )];
    let mut list = DrawList::default();
    let drawn = draw::draw(&scene, &frame, &events, Some(0), &mut list);
    assert_eq!(drawn.bounces, 1);
    let texts: Vec<&str> = list.labels.iter().map(|l| l.text.as_str()).collect();
    assert!(texts.contains(&"ball 0"), "{texts:?}");
    assert!(
        texts.contains(&"ball 0: edge band: corner bounce"),
        "{texts:?}"
    );
    // 12 wall edges and the board's top outline, two vertices a line.
    let wall_vertices = list.lines.iter().filter(|v| v.color == draw::WALL).count();
    assert_eq!(wall_vertices, 24, "the box's twelve edges");
}

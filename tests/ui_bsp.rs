//! The BSP view driven headless (egui_kittest): its panel shows the slide and the tree,
//! stepping through a sweep moves the highlighted node, and walk mode appends frames.

use crate::ui_harness;
use ui_harness::{app_on, open_family_view};

use collidoscope::app::CollidoscopeApp;
use collidoscope::app::families::bsp::BspView;
use collidoscope::app::families::bsp::tree_list::CURRENT;
use collidoscope::app::state::Command;
use collidoscope::bsp::BspEvent;
use collidoscope::trace::EventKind;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn harness_on(scene: &str, steps: i64) -> Harness<'static, CollidoscopeApp> {
    let mut h = app_on(scene, [1500.0, 950.0]);
    h.state_mut().apply(Command::StepFrames(steps));
    h.run();
    open_family_view(&mut h, "BSP slide", "bsp");
    h
}

/// The trace indices of the node visits in the frame under the playhead.
fn node_events(h: &Harness<'_, CollidoscopeApp>) -> Vec<(usize, u32)> {
    let frame = h.state().state.current_frame().expect("a frame").clone();
    frame
        .trace
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e.kind {
            EventKind::Bsp(BspEvent::Node { node, .. }) => Some((i, node)),
            _ => None,
        })
        .collect()
}

/// True when the tree list marks `node` as the current one (and only one row is marked).
fn marked(h: &Harness<'_, CollidoscopeApp>, node: u32) -> bool {
    h.query_all_by_label_contains(CURRENT).count() == 1
        && h.query_by_label_contains(&format!("{CURRENT}: node {node} ·"))
            .is_some()
}

#[test]
fn panel_shows_the_slide_table_and_the_tree() {
    let h = harness_on("bsp-corridor", 3);
    h.get_by_label_contains("Slide of frame 3");
    h.get_by_label("BSP tree");
    h.get_by_label("solid leaves");
    h.get_by_label("touch / stop");
    // The corridor's walker meets a wall within its first frames: a hit row is listed.
    assert!(h.query_all_by_label_contains("brush ").count() > 0);
}

#[test]
fn stepping_through_a_sweep_moves_the_highlighted_node() {
    let mut h = harness_on("bsp-room-stairs", 2);
    let nodes = node_events(&h);
    let (first, second) = nodes
        .iter()
        .zip(nodes.iter().skip(1))
        .find(|(a, b)| a.1 != b.1)
        .map(|(a, b)| (*a, *b))
        .expect("a sweep visiting two nodes");
    h.state_mut().apply(Command::SeekEvent(Some(first.0)));
    h.run();
    assert!(marked(&h, first.1));
    // Step with the panel's button until the scrubber reaches the next node visit.
    for _ in first.0..second.0 {
        h.get_by_label("step ▶").click();
        h.run();
    }
    assert_eq!(h.state().state.playhead.event, Some(second.0));
    assert!(marked(&h, second.1));
    assert!(!marked(&h, first.1));
    // Off a node event, no row is marked.
    h.state_mut().apply(Command::SeekEvent(None));
    h.run();
    assert!(h.query_by_label_contains(CURRENT).is_none());
}

#[test]
fn walk_mode_appends_one_frame_per_move() {
    let mut h = harness_on("bsp-corridor", 0);
    h.get_by_label("Walk mode").click();
    h.run();
    assert!(h.state().families.view::<BspView>().expect("view").walk.on);
    let before = h.state().state.frame_count();
    h.get_by_label("Step one move forward").click();
    h.run();
    assert_eq!(h.state().state.frame_count(), before + 1);
    // Held keys: one slide per UI frame, each appended.
    h.key_down(egui::Key::D);
    h.run_steps(3);
    h.key_up(egui::Key::D);
    h.run();
    let after = h.state().state.frame_count();
    assert!(after >= before + 3, "{before} -> {after}");
    assert_eq!(h.state().state.playhead.frame + 1, after);
    // Each appended frame holds a recorded slide.
    let frame = h.state().state.current_frame().expect("frame").clone();
    assert!(
        frame
            .trace
            .iter()
            .any(|e| matches!(e.kind, EventKind::Bsp(BspEvent::End { .. })))
    );
}

#[test]
fn walk_keys_move_along_the_camera_heading_on_the_ground() {
    use collidoscope::app::families::bsp::walk::move_of;
    use collidoscope::geom::Vec3;
    // Looking down at an angle towards -z: W walks along -z on the ground, D to +x.
    let forward = Vec3::new(0.0, -0.7, -0.7);
    let w = move_of(
        [true, false, false, false, false, false],
        &forward,
        2.0,
        0.5,
    )
    .expect("move");
    assert!((w - Vec3::new(0.0, 0.0, -1.0)).norm() < 1e-12, "{w:?}");
    let d = move_of(
        [false, false, false, true, false, false],
        &forward,
        2.0,
        0.5,
    )
    .expect("move");
    assert!((d - Vec3::new(1.0, 0.0, 0.0)).norm() < 1e-12, "{d:?}");
    let up = move_of(
        [false, false, false, false, true, false],
        &forward,
        2.0,
        0.5,
    )
    .expect("move");
    assert!((up - Vec3::new(0.0, 1.0, 0.0)).norm() < 1e-12, "{up:?}");
    // Opposite keys cancel; looking straight down gives no heading.
    assert!(move_of([true, false, true, false, false, false], &forward, 2.0, 0.5).is_none());
    assert!(move_of([true; 6], &Vec3::new(0.0, -1.0, 0.0), 2.0, 0.5).is_none());
}

#[test]
fn hovering_a_brush_face_previews_its_plane_until_the_pointer_leaves() {
    use collidoscope::geom::{Point3, Ray, Vec3};
    let mut h = harness_on("bsp-room-stairs", 1);
    let app = h.state_mut();
    let open = app.settings.families.clone();
    // Straight down from high above the room: the first face met is a floor or step top.
    let down = Ray::new(Point3::new(0.0, 100.0, 0.0), Vec3::new(0.0, -1.0, 0.0));
    assert!(app.families.hover(&app.state, &open, Some(&down)));
    let view = app.families.view::<BspView>().expect("view");
    assert!(view.hovered.is_some());
    assert_eq!(view.picked, None, "hovering does not pick");
    assert!(
        !app.families.hover(&app.state, &open, Some(&down)),
        "the same face again: nothing to redraw"
    );
    // Pointing away from every brush, then leaving the view: nothing is hovered.
    let up = Ray::new(Point3::new(0.0, 100.0, 0.0), Vec3::new(0.0, 1.0, 0.0));
    assert!(app.families.hover(&app.state, &open, Some(&up)));
    assert_eq!(app.families.view::<BspView>().expect("view").hovered, None);
    assert!(!app.families.hover(&app.state, &open, None));
}

fn bsp_data(h: &Harness<'_, CollidoscopeApp>) -> collidoscope::bsp::BspScene {
    ui_harness::scene_data(h, |d| match d {
        collidoscope::families::FamilySceneData::Bsp(b) => Some(b.clone()),
        _ => None,
    })
}

#[test]
fn switching_to_the_article_resimulates_and_draws_both_slides() {
    use collidoscope::bsp::BspSweepMode;
    use ui_harness::{labels, press};
    let mut h = harness_on("bsp-article-phantom", 1);
    // The scene compares: the article's slide is drawn beside the engine's.
    assert!(
        labels(&h).iter().any(|l| l.starts_with("article ")),
        "{:?}",
        labels(&h)
    );
    assert!(labels(&h).iter().any(|l| l.starts_with("engine ")));
    press(&mut h, "article");
    press(&mut h, "Re-simulate");
    h.run_steps(8);
    let d = bsp_data(&h);
    assert_eq!(d.sweep, BspSweepMode::Article);
    assert_eq!(h.state().state.playhead.frame, 1, "back at the frame shown");
    // The walker now follows the article: it stopped at the phantom hit, short of the end
    // of its move.
    let frame = h.state().state.current_frame().expect("frame").clone();
    let at = frame
        .families
        .iter()
        .find_map(|f| match f {
            collidoscope::families::FamilyFrameData::Bsp(b) => Some(b.position),
            _ => None,
        })
        .expect("walker");
    assert!((at - (d.start + d.moves[0])).norm() > 0.5, "{at:?}");
    h.get_by_label_contains("This run: bevels on, the article slide, the engine beside it");
}

#[test]
fn bevel_switch_resimulates_without_bevels() {
    use ui_harness::press;
    let mut h = harness_on("bsp-bevel-corner", 12);
    press(&mut h, "use bevel planes");
    press(&mut h, "Re-simulate");
    h.run_steps(8);
    assert!(!bsp_data(&h).bevels);
    h.get_by_label_contains("This run: bevels OFF");
}

#[test]
fn face_insertion_tree_is_listed_with_its_leaves() {
    use ui_harness::press;
    let mut h = harness_on("bsp-faces", 1);
    press(&mut h, "Face-insertion BSP (the article's tree)");
    h.get_by_label_contains("10 faces inserted in order");
    h.get_by_label_contains("A (brush 1 face ");
    assert!(h.query_all_by_label_contains("− solid").count() >= 3);
}

/// The skin close-up opens on the frame's first hit: a slide up the stairs stops its centre
/// `MIN_DISTANCE` in front of the touch plane, and the caption says so in numbers.
#[test]
fn the_skin_close_up_shows_the_stop_min_distance_clear() {
    let mut h = harness_on("bsp-room-stairs", 1);
    let mut found = false;
    for _ in 0..60 {
        if h.query_by_label_contains("Stopped 0.0100 in front of the touch plane")
            .is_some()
        {
            found = true;
            break;
        }
        h.state_mut().apply(Command::StepFrames(1));
        h.run_steps(2);
    }
    assert!(
        found,
        "no frame shows a stop MIN_DISTANCE in front of its wall"
    );
    h.get_by_label_contains("Skin close-up (MIN_DISTANCE), iteration");
}

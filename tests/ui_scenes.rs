//! A newcomer's first minutes: every built-in scene, picked from the Scenes menu under its
//! family's heading, shows itself. The 3D view draws it, the camera frames all of it (the
//! families' own bodies included: a BSP level and its walker, a cloth, NURBS surfaces), the
//! family's view is open, and no open view says the scene has nothing for it.

use crate::ui_harness::settle;
use collidoscope::app::{CollidoscopeApp, StartOptions};
use collidoscope::scene::builtin_scenes_by_family;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// The registered family views (a family without one, the rigid pipeline, opens none).
fn views() -> Vec<&'static str> {
    collidoscope::app::families::registered()
        .iter()
        .map(|v| v.family())
        .collect()
}

/// Scenes menu → the family's heading → the scene.
fn pick(h: &mut Harness<'_, CollidoscopeApp>, title: &str, scene: &str) {
    h.get_by_label("Scenes").click();
    h.run_steps(2);
    // The menu's entries are drawn over the panels that may name the same things.
    // "● Title" when the scene shown is one of the family's.
    let marked = format!("● {title}");
    h.query_all_by_label(title)
        .chain(h.query_all_by_label(&marked))
        .last()
        .expect("the family's heading")
        .click();
    h.run_steps(2);
    h.get_all_by_label(scene)
        .last()
        .expect("the scene's entry")
        .click();
    settle(h);
}

/// Every point the camera should hold: the moving rigid bodies (all of them when none
/// moves) and the families' bodies, each within the sphere the camera framed.
fn assert_framed(h: &Harness<'_, CollidoscopeApp>, scene: &str) {
    let app = h.state();
    let camera = &app.viewport.camera;
    let framed = camera.distance * (camera.fov_y / 2.0).sin() / 1.25;
    let target = nalgebra::Vector3::from(camera.target);
    let session = app.state.session.as_ref().expect("a session");
    let frame = app.state.current_frame().expect("a frame");
    let fixed = |id| session.catalog.body(id).is_some_and(|b| b.fixed);
    let any_moving = frame.bodies.iter().any(|b| !fixed(b.id));
    let mut centres: Vec<nalgebra::Vector3<f64>> = frame
        .bodies
        .iter()
        .filter(|b| !any_moving || !fixed(b.id))
        .map(|b| b.position.coords)
        .collect();
    centres.extend(
        app.viewport
            .family_bodies()
            .iter()
            .map(|b| nalgebra::Vector3::from(b.focus.center)),
    );
    assert!(!centres.is_empty(), "{scene}: nothing to frame");
    for c in centres {
        let off = (c - target).norm();
        assert!(
            off <= framed * 1.01 + 1e-6,
            "{scene}: a body {off:.2} m from the camera's target, outside the {framed:.2} m framed"
        );
    }
}

fn family_scenes_show_themselves(family: &str) {
    let (_, title, scenes) = builtin_scenes_by_family()
        .into_iter()
        .find(|(f, _, _)| *f == family)
        .expect("the family has scenes");
    let mut h = Harness::builder()
        .with_size([1600.0, 1000.0])
        .build_eframe(|cc| CollidoscopeApp::new(cc, StartOptions::headless()));
    settle(&mut h);
    for s in scenes {
        pick(&mut h, title, s.name);
        let app = h.state();
        let session = app.state.session.as_ref().expect("a session");
        assert_eq!(session.scene.name, s.name);
        assert!(
            !app.viewport.draw_list().is_empty(),
            "{}: the 3D view draws nothing",
            s.name
        );
        let open = &app.settings.families;
        let views = views();
        if views.contains(&family) {
            assert!(
                open.is_open(family),
                "{}: the {family} view is closed",
                s.name
            );
        }
        for &v in &views {
            if v != family && open.is_open(v) {
                let has = session.scene.families.iter().any(|d| d.family() == v);
                assert!(
                    has || !matches!(v, "bsp" | "cloth" | "nurbs" | "capture"),
                    "{}: the {v} view stays open on a scene without its data",
                    s.name
                );
            }
        }
        assert_framed(&h, s.name);
        // The inspector counts the families' bodies with the rigid ones.
        let counted =
            collidoscope::app::families::count_family_bodies(&h.state().viewport.family_bodies());
        if !counted.is_empty() {
            h.get_by_label(&counted);
        }
        if family == "bsp" {
            assert_eq!(counted, "1 BSP level, 1 walker", "{}", s.name);
        }
        let nothing = h.query_all_by_label_contains("has no ").count();
        assert_eq!(
            nothing, 0,
            "{}: a view says the scene has nothing for it",
            s.name
        );
    }
}

#[test]
fn rigid_pipeline_scenes_show_themselves() {
    family_scenes_show_themselves("pipeline");
}

#[test]
fn broad_phase_scenes_show_themselves() {
    family_scenes_show_themselves("broad phase");
}

#[test]
fn hierarchy_scenes_show_themselves() {
    family_scenes_show_themselves("hierarchy");
}

#[test]
fn ccd_scenes_show_themselves() {
    family_scenes_show_themselves("ccd");
}

#[test]
fn bsp_scenes_show_themselves() {
    family_scenes_show_themselves("bsp");
}

#[test]
fn convex_scenes_show_themselves() {
    family_scenes_show_themselves("convex");
}

#[test]
fn cloth_scenes_show_themselves() {
    family_scenes_show_themselves("cloth");
}

#[test]
fn nurbs_scenes_show_themselves() {
    family_scenes_show_themselves("nurbs");
}

#[test]
fn arka_scenes_show_themselves() {
    family_scenes_show_themselves("arka");
}

#[test]
fn every_family_with_scenes_has_its_test() {
    let tested = [
        "pipeline",
        "broad phase",
        "hierarchy",
        "ccd",
        "bsp",
        "convex",
        "cloth",
        "nurbs",
        "arka",
    ];
    for (family, _, _) in builtin_scenes_by_family() {
        assert!(tested.contains(&family), "add a test for {family}'s scenes");
    }
}

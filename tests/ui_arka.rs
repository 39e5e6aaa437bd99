//! The Arka3D view driven headless (egui_kittest): on a scene with a recovery (the narrow-gap
//! micro-scene; scenarios 3–6 have none in our runs, see docs/arka3d.md), stepping to the
//! recovery's timeline marker shows the recovery in the panel, by ball and cube.

use crate::ui_harness;
use ui_harness::{app_with, open_family_view};

use collidoscope::app::StartOptions;
use collidoscope::app::state::Command;
use collidoscope::app::state::loader::LoadRequest;
use collidoscope::arka::sim::RECOVERY_MARKER;
use collidoscope::frame::MarkerKind;
use collidoscope::trace::NoProbe;
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

//! The Arka3D view driven headless (egui_kittest): on a scenario with a recovery, stepping to
//! the recovery's timeline marker shows the recovery in the panel, in red, by ball and cube.

use crate::ui_harness;
use ui_harness::{app_on, open_family_view};

use collidoscope::app::state::Command;
use collidoscope::arka::sim::RECOVERY_MARKER;
use collidoscope::frame::MarkerKind;
use collidoscope::trace::NoProbe;
use collidoscope::world::{World, builtin_scene};
use egui_kittest::kittest::Queryable;

/// The scenario and the first frame with a recovery, found by stepping the engine.
fn first_recovery(scene: &str) -> usize {
    let mut world = World::new(builtin_scene(scene).expect("built in")).expect("valid");
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
    panic!("{scene}: no recovery in a minute")
}

#[test]
fn stepping_to_a_recovery_marker_names_it_in_the_panel() {
    let scene = "arka-5-no-culling";
    let target = first_recovery(scene);
    let mut h = app_on(scene, [1500.0, 950.0]);
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
    h.get_by_label_contains("RECOVERY ball");
    h.get_by_label("orientation culling");
    h.get_by_label("OFF");
}

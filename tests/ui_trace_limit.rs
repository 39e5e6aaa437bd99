//! A frame whose trace the limit cut says so: the status bar warns with the count of dropped
//! events (as does the step strip). A frame that was not cut shows the limit instead.

use collidoscope::app::state::Command;
use collidoscope::app::state::loader::LoadRequest;
use collidoscope::app::{CollidoscopeApp, StartOptions};
use collidoscope::record::{RecordingMeta, RecordingWriter, WriterOptions};
use collidoscope::world::{World, builtin_scene};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::time::Duration;

#[test]
fn a_cut_trace_shows_in_the_status_bar_and_the_outliner() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("cut.cdrec");
    let scene = builtin_scene("mixed-drop").expect("built-in scene");
    let mut world = World::new(scene.clone()).expect("world");
    let meta = RecordingMeta {
        scene_ron: scene.to_ron(),
        body_names: world.bodies.iter().map(|b| b.name.clone()).collect(),
        dt_s: scene.solver.dt_s,
    };
    let mut w = RecordingWriter::create(&path, meta, WriterOptions::default()).expect("create");
    w.write_frame(&world.initial_frame()).expect("write");
    // A limit far below what a frame of the pile reports.
    let mut last = None;
    for _ in 0..20 {
        let f = world.step_traced(7);
        last = Some(f.counters.trace_dropped);
        w.write_frame(&f).expect("write");
    }
    w.finish().expect("finish");
    let dropped = last.expect("frames");
    assert!(dropped > 0, "the limit cuts the trace");

    let mut h = Harness::builder()
        .with_size([1500.0, 950.0])
        .build_eframe(|cc| CollidoscopeApp::new(cc, StartOptions::headless()));
    h.run_steps(2);
    // The default scene's first frame holds nothing to cut: the limit shows.
    h.get_by_label_contains("trace ≤ 1000000/frame");

    h.state_mut()
        .state
        .apply(Command::Open(LoadRequest::Path(path.clone())));
    for _ in 0..2000 {
        h.step();
        if !h.state().state.is_busy() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    h.state_mut().state.apply(Command::LastFrame);
    h.run_steps(3);
    h.get_by_label_contains(&format!("trace cut: {dropped} events dropped"));
    // The step strip says it too.
    h.get_by_label_contains(&format!("(+{dropped} not recorded: trace limit)"));
}

//! The app driven headless (egui_kittest, no display, no GL) for the family views' UI tests:
//! a scene opened, a family's view opened from the View menu, a panel button pressed, the 3D
//! view's labels read.

// Each UI test includes this module and uses part of it.
#![allow(dead_code)]

use collidoscope::app::state::loader::LoadRequest;
use collidoscope::app::{CollidoscopeApp, StartOptions};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// The app at `size`, started with `options` (a file, a comparison, a dialog choice) the way
/// the command line would, after its background work.
pub fn app_with(size: [f32; 2], options: StartOptions) -> Harness<'static, CollidoscopeApp> {
    let mut h = Harness::builder()
        .with_size(size)
        .build_eframe(move |cc| CollidoscopeApp::new(cc, options.clone()));
    settle(&mut h);
    h
}

/// The app at `size`, on the built-in `scene` (its first frame).
pub fn app_on(scene: &str, size: [f32; 2]) -> Harness<'static, CollidoscopeApp> {
    let mut h = Harness::builder()
        .with_size(size)
        .build_eframe(|cc| CollidoscopeApp::new(cc, StartOptions::headless()));
    h.run_steps(2);
    assert!(
        h.state_mut()
            .state
            .open_blocking(LoadRequest::Builtin(scene.into()))
    );
    h
}

/// Ticks the app until its background work (loading, scanning, auditing) is done, then two
/// more frames.
pub fn settle(h: &mut Harness<'_, CollidoscopeApp>) {
    for _ in 0..4000 {
        h.step();
        if !h.state().state.is_busy() {
            h.run_steps(2);
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("background work did not finish");
}

/// Opens the family's view through the View menu entry `menu` and closes the menu.
pub fn open_family_view(h: &mut Harness<'_, CollidoscopeApp>, menu: &str, family: &str) {
    // A scene opens its own families' views by itself: then there is nothing to click.
    h.run_steps(2);
    if h.state().settings.families.is_open(family) {
        return;
    }
    h.get_by_label("View").click();
    h.run();
    h.get_all_by_label(menu).next().expect("menu entry").click();
    h.run();
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(h.state().settings.families.is_open(family));
}

/// Clicks a widget of the (scrolling) panel, brought into view first.
pub fn press(h: &mut Harness<'_, CollidoscopeApp>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    // The scroll animates over several frames; a click before it ends lands elsewhere.
    h.run_steps(12);
    h.get_by_label(label).click();
    h.run_steps(12);
}

/// The texts of the 3D view's labels.
pub fn labels(h: &Harness<'_, CollidoscopeApp>) -> Vec<String> {
    h.state()
        .viewport
        .draw_list()
        .labels
        .iter()
        .map(|l| l.text.clone())
        .collect()
}

/// One family's data in the session's scene, picked by `pick` (panics when none is there).
pub fn scene_data<T>(
    h: &Harness<'_, CollidoscopeApp>,
    pick: impl Fn(&collidoscope::families::FamilySceneData) -> Option<T>,
) -> T {
    let session = h.state().state.session.as_ref().expect("a session");
    session
        .scene
        .families
        .iter()
        .find_map(pick)
        .expect("the scene carries the family's data")
}

//! The rays of the ray-traced rigid narrow phase in the viewer (egui_kittest, no display):
//! on `rays-drop`, once the bodies rest, the 3D view draws the frame's collision and
//! prediction rays in their colours; selecting a pair keeps only its rays and the inspector
//! counts them by class as the trace does; View ▸ Rays off draws none.

use crate::ui_harness;

use collidoscope::app::CollidoscopeApp;
use collidoscope::app::state::{Command, Selection};
use collidoscope::app::views::rigid_rays::{COLLISION, PREDICTION, frame_rays, pair_ray_counts};
use collidoscope::narrow::rays::RigidRayClass;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// Lines of the 3D view drawn in `color`.
fn lines_in(h: &Harness<'_, CollidoscopeApp>, color: [f32; 4]) -> usize {
    h.state()
        .viewport
        .draw_list()
        .lines
        .iter()
        .filter(|l| l.color == color)
        .count()
}

#[test]
fn the_rays_of_a_resting_drop_are_drawn_counted_and_filtered_by_the_selection() {
    let mut h = ui_harness::app_on("rays-drop", [1500.0, 1000.0]);
    h.state_mut().apply(Command::StepFrames(90));
    h.run_steps(3);
    let frame = h.state().state.current_frame().expect("a frame").clone();
    let rays: Vec<_> = frame_rays(&frame).map(|(_, r)| *r).collect();
    let collisions = rays
        .iter()
        .filter(|r| r.class == RigidRayClass::Collision)
        .count();
    assert!(
        collisions > 0,
        "bodies rest on the floor: some rays collide"
    );
    // Each drawn ray is an arrow: a shaft and a head, so at least one line a ray.
    assert!(
        lines_in(&h, COLLISION) >= collisions,
        "every collision ray drawn"
    );
    let drawn = |h: &Harness<'_, CollidoscopeApp>| lines_in(h, COLLISION) + lines_in(h, PREDICTION);
    let before = drawn(&h);

    // A resting pair: only its rays, and the inspector's count is the trace's.
    let r = rays
        .iter()
        .find(|r| r.class == RigidRayClass::Collision)
        .expect("a collision ray");
    let (a, b) = (r.source.min(r.target), r.source.max(r.target));
    h.state_mut().apply(Command::Select(Selection::Pair(a, b)));
    h.run_steps(3);
    let [hit, predicted, rejected, walked] =
        pair_ray_counts(&frame, a, b).expect("the pair's rays");
    h.get_by_label_contains(&format!(
        "{hit} collision, {predicted} prediction, {rejected} rejected ({walked} walked)"
    ));
    let others = rays.iter().any(|r| {
        r.class != RigidRayClass::Rejected
            && (r.source.min(r.target), r.source.max(r.target)) != (a, b)
    });
    if others {
        assert!(
            drawn(&h) < before,
            "the other pairs' rays are no longer drawn"
        );
    }
    assert!(drawn(&h) > 0, "the pair's own rays are");

    h.state_mut().settings.view.rays = false;
    h.run_steps(3);
    assert_eq!(lines_in(&h, COLLISION), 0, "View ▸ Rays off draws none");
}

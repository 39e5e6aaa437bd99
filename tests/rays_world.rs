//! The ray-traced narrow phase inside a world (`narrow: Rays`): scene files, a drop scene
//! that comes to rest, the iterative cast against the complete one, and the trace.

use collidoscope::frame::PipelineEvent;
use collidoscope::narrow::rays::{RigidRayCaster, RigidRayClass};
use collidoscope::trace::{EventKind, NoProbe, TraceRecorder};
use collidoscope::world::{Scene, World, builtin_scene};
use std::path::Path;

fn scene_text(rays: &str) -> String {
    format!(
        r#"(
    name: "rays-file",
    solver: (narrow: Rays{rays}),
    bodies: [
        (name: "floor", shape: Box(half_extents: (3.0, 0.5, 3.0)), position: (0.0, -0.5, 0.0), fixed: true),
        (name: "crate", shape: Box(half_extents: (0.3, 0.2, 0.25)), position: (0.0, 0.6, 0.0), rotation: (0.3, 0.2, 0.1)),
    ],
)"#
    )
}

#[test]
fn scene_files_choose_the_rays_and_their_settings() {
    let file = Path::new("rays.ron");
    let plain = Scene::from_ron(&scene_text(""), file).expect("narrow: Rays reads");
    assert_eq!(plain.solver.narrow, collidoscope::world::NarrowKind::Rays);
    let tuned = Scene::from_ron(
        &scene_text(", rays: (prediction_m: 0.1, reproject: false)"),
        file,
    )
    .expect("partial ray settings read, the rest defaulted");
    assert_eq!(tuned.solver.rays.prediction_m, 0.1);
    assert!(!tuned.solver.rays.reproject && tuned.solver.rays.iterative);
    // A scene without the field keeps the hierarchy, and writes nothing new.
    let default = builtin_scene("box-stack").expect("builds");
    assert_eq!(
        default.solver.narrow,
        collidoscope::world::NarrowKind::Hierarchy
    );
    let text = default.to_ron();
    assert!(!text.contains("narrow") && !text.contains("rays"), "{text}");
    // A typo names the field, a bad value names the setting.
    let typo = Scene::from_ron(&scene_text(", rays: (predicton_m: 0.1)"), file).unwrap_err();
    assert!(typo.to_string().contains("predicton_m"), "{typo}");
    let bad = Scene::from_ron(&scene_text(", rays: (prediction_m: -1.0)"), file)
        .and_then(|s| World::new(s).map(|_| ()))
        .unwrap_err();
    assert!(bad.to_string().contains("rays.prediction_m"), "{bad}");
}

/// The drop scene settles: nothing sinks deeper than the tolerance, everything ends above
/// the floor, and once at rest most rays are walked, not cast through a hierarchy. (Its
/// icosphere rolls and rocks among the others until about frame 450; the last 40 of 400
/// frames see it slowing under 0.3 m/s.)
#[test]
fn the_drop_scene_comes_to_rest_on_rays() {
    let scene = builtin_scene("rays-drop").expect("builds");
    let tolerance = scene.solver.penetration_tolerance_m;
    let mut world = World::new(scene).expect("valid");
    let mut deepest: f64 = 0.0;
    let mut late = collidoscope::narrow::rays::RayCounts::default();
    for frame in 0..400 {
        let f = world.step(&mut NoProbe);
        deepest = f.contacts.iter().map(|c| c.depth).fold(deepest, f64::max);
        if frame >= 360 {
            late.add(&world.ray_counts());
        }
    }
    let frame = world.step(&mut NoProbe);
    assert!(deepest < tolerance, "deepest contact {deepest} m");
    for b in frame.bodies.iter().skip(1) {
        assert!(
            b.position.y > 0.0,
            "body {} below the floor: {}",
            b.id,
            b.position
        );
        assert!(b.linear_velocity.norm() < 0.5, "body {} still moving", b.id);
    }
    assert!(late.collision > 0, "resting bodies collide by rays");
    println!("rays over the last 40 frames: {late:?}");
    assert!(
        late.walked > late.complete,
        "at rest the walk should dominate: {late:?}"
    );
}

/// At rest the walk must find what a complete cast finds (the thesis's erroneous rays,
/// counted by casting every walked vertex twice); while falling and bouncing, some errors
/// are the method's (the walk cannot discover new collisions), and stay rare.
#[test]
fn walked_rays_agree_with_complete_casts() {
    let scene = builtin_scene("rays-drop").expect("builds");
    let mut world = World::new(scene).expect("valid");
    world.set_ray_audit(true);
    let mut all = collidoscope::narrow::rays::RayCounts::default();
    let mut rest = collidoscope::narrow::rays::RayCounts::default();
    for frame in 0..240 {
        world.step(&mut NoProbe);
        all.add(&world.ray_counts());
        if frame >= 200 {
            rest.add(&world.ray_counts());
        }
    }
    println!("audit over 240 frames: {all:?}");
    println!("audit at rest: {rest:?}");
    assert!(all.audited > 1000, "the audit ran: {all:?}");
    assert!(rest.audited > 100);
    let rate = |c: &collidoscope::narrow::rays::RayCounts| c.erroneous() as f64 / c.audited as f64;
    assert!(rate(&rest) < 0.01, "at rest: {rest:?}");
    assert!(rate(&all) < 0.05, "whole run: {all:?}");
}

/// Tracing on, every cast ray is one event, and the frame's ray events add up to the pass's
/// counts; a walked ray says so.
#[test]
fn every_cast_ray_is_one_event() {
    let scene = builtin_scene("rays-drop").expect("builds");
    let mut world = World::new(scene).expect("valid");
    let mut walked_events = 0;
    for _ in 0..150 {
        let mut recorder = TraceRecorder::default();
        let frame = world.step(&mut recorder);
        let rays: Vec<_> = recorder
            .events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Pipeline(PipelineEvent::Ray(r)) => Some(*r),
                _ => None,
            })
            .collect();
        let counts = world.ray_counts();
        assert_eq!(rays.len() as u32, counts.rays(), "frame {}", frame.index);
        let collisions = rays
            .iter()
            .filter(|r| r.class == RigidRayClass::Collision)
            .count();
        assert_eq!(collisions as u32, counts.collision);
        walked_events += rays
            .iter()
            .filter(|r| r.caster == RigidRayCaster::Walked)
            .count();
    }
    assert!(walked_events > 0);
}

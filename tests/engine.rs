//! The world pipeline as a whole: determinism, tracing that changes nothing, scenes that load.

use collidoscope::families::family_stages;
use collidoscope::trace::NoProbe;
use collidoscope::world::{Scene, World, builtin_scene, builtin_scenes};
use std::path::Path;

/// Two worlds of one scene stepped in turn, one traced and one not, compared at every step:
/// tracing changes nothing, and no state is shared between worlds (a cache, a static). That
/// the same scene steps the same from one run to the next is `state_hashes`'s.
#[test]
fn two_worlds_stepped_in_turn_one_traced_stay_identical() {
    for (name, _) in builtin_scenes() {
        let mut plain = World::new(builtin_scene(name).unwrap()).unwrap();
        let mut traced = World::new(builtin_scene(name).unwrap()).unwrap();
        for frame in 0..50 {
            let a = plain.step(&mut NoProbe).state_hash();
            let b = traced.step_traced(1000).state_hash();
            assert_eq!(a, b, "{name} parts at frame {frame}");
        }
    }
}

/// Each family simulation's step is timed in the stages its registration names, in the
/// order of the scene's families; a family that declares none (a replayed run) and a scene
/// of the rigid pipeline alone record no family time.
#[test]
fn every_family_step_is_timed_in_its_registered_stages() {
    let mut scenes_with_stages = 0;
    for (name, _) in builtin_scenes() {
        let scene = builtin_scene(name).unwrap();
        let expected: Vec<(&str, usize)> = scene
            .families
            .iter()
            .map(|d| (d.family(), family_stages(d.family()).len()))
            .filter(|&(_, n)| n > 0)
            .collect();
        let mut world = World::new(scene).unwrap();
        let mut busy = vec![0.0; expected.len()];
        for _ in 0..3 {
            let f = world.step(&mut NoProbe);
            let found: Vec<(&str, usize)> = f
                .timings
                .families
                .iter()
                .map(|t| (t.family.as_str(), t.stages_s.len()))
                .collect();
            assert_eq!(found, expected, "{name}");
            for (b, t) in busy.iter_mut().zip(&f.timings.families) {
                assert!(t.stages_s.iter().all(|s| s.is_finite() && *s >= 0.0));
                *b += t.stages_s.iter().sum::<f64>();
            }
        }
        assert!(
            busy.iter().all(|&b| b > 0.0),
            "{name}: a family step took no time"
        );
        scenes_with_stages += usize::from(!expected.is_empty());
    }
    // The BSP, cloth, NURBS and convex families step scenes of their own.
    assert!(scenes_with_stages >= 4, "{scenes_with_stages}");
}

#[test]
fn a_traced_frame_holds_every_pipeline_stage() {
    let mut w = World::new(builtin_scene("box-stack").unwrap()).unwrap();
    let f = w.step_traced(100_000);
    use collidoscope::trace::Stage;
    for stage in [Stage::Integrate, Stage::NarrowPhase, Stage::Response] {
        assert!(f.events_of(stage).next().is_some(), "no {stage:?} events");
    }
    assert_eq!(f.counters.trace_events as usize, f.trace.len());
    // The limit caps the trace and counts what it dropped.
    let f = w.step_traced(5);
    assert_eq!(f.trace.len(), 5);
    assert!(f.counters.trace_dropped > 0);
}

/// Algorithms name no stage; the world's probe stamps the one it is in. So the broad phase's
/// events are broad phase, a family's own simulation is the family step, a shared algorithm
/// (a hierarchy traversal, V-Clip) reads as the stage that ran it, and a scene of the rigid
/// pipeline alone has no family-step event.
#[test]
fn every_event_is_stamped_with_the_stage_it_ran_in() {
    use collidoscope::trace::{EventKind, Stage};
    use collidoscope::world::PipelineEvent;
    let mut seen_mesh_traversal = false;
    for (name, _) in builtin_scenes() {
        let scene = builtin_scene(name).unwrap();
        let rigid_only = scene.families.is_empty();
        let mut w = World::new(scene).unwrap();
        for _ in 0..3 {
            for e in &w.step_traced(300_000).trace {
                let family = e.family();
                match family {
                    "broad phase" => assert_eq!(e.stage, Stage::BroadPhase, "{name}: {e:?}"),
                    "bsp" | "cloth" | "nurbs" => {
                        assert_eq!(e.stage, Stage::FamilyStep, "{name}: {e:?}")
                    }
                    "hierarchy" if rigid_only => {
                        assert_eq!(e.stage, Stage::NarrowPhase, "{name}: {e:?}");
                        seen_mesh_traversal = true;
                    }
                    _ => {}
                }
                if let EventKind::Pipeline(PipelineEvent::Integrated { .. }) = e.kind {
                    assert_eq!(e.stage, Stage::Integrate, "{name}: {e:?}");
                }
                if rigid_only {
                    assert_ne!(e.stage, Stage::FamilyStep, "{name}: {e:?}");
                }
            }
        }
    }
    assert!(
        seen_mesh_traversal,
        "no rigid scene traversed a mesh hierarchy"
    );
}

#[test]
fn resting_boxes_stay_stacked() {
    assert_stack_rests(builtin_scene("box-stack").unwrap(), |_| 0.03);
}

/// box-stack stepped 300 frames under `scene`'s settings: box `i` must sit within
/// `tolerance(i)` of where it was built, and no contact be deeper than 0.02 m.
pub(crate) fn assert_stack_rests(scene: Scene, tolerance: impl Fn(usize) -> f64) {
    let mut w = World::new(scene).unwrap();
    let mut last = None;
    for _ in 0..300 {
        last = Some(w.step(&mut NoProbe));
    }
    let f = last.unwrap();
    for (i, b) in f.bodies.iter().skip(1).enumerate() {
        let expected = 0.25 + 0.5 * i as f64;
        assert!(
            (b.position.y - expected).abs() < tolerance(i),
            "box {i} at {} (expected {expected})",
            b.position.y
        );
    }
    assert!(f.counters.max_penetration_m < 0.02);
}

#[test]
fn builtin_scenes_round_trip_through_ron() {
    for (name, _) in builtin_scenes() {
        let scene = builtin_scene(name).unwrap();
        let back = Scene::from_ron(&scene.to_ron(), Path::new("roundtrip.ron")).unwrap();
        assert_eq!(scene, back, "{name}");
    }
}

#[test]
fn scene_files_in_assets_load_and_step() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenes");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ron") {
            let scene = Scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
            let mut w = World::with_origin(scene, &path).unwrap();
            for _ in 0..10 {
                w.step(&mut NoProbe);
            }
            count += 1;
        }
    }
    assert!(count > 0, "no scene files in {}", dir.display());
}

#[test]
fn malformed_scenes_name_the_place_and_cause() {
    let f = Path::new("user.ron");
    let e = Scene::from_ron(
        "(name: \"a\", bodies: [(name: \"b\", shape: Box(half_extents: (1, 0, 1)))])",
        f,
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("user.ron: body 0 (\"b\"): shape.half_extents[1]"),
        "{e}"
    );
    let e = Scene::from_ron(
        "(name: \"a\",\n  bodies: [(name: \"b\", shape: Cone())])",
        f,
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("user.ron:2:"), "{e}");
    let e = Scene::from_ron("(name: \"a\", bodies: [(name: \"b\", shape: Sphere(radius: 1), material: Some(\"gold\"))])", f).unwrap_err();
    assert!(e.to_string().contains("gold"), "{e}");
    let e = Scene::from_ron("(name: \"a\", solver: (dt_s: 0.0), bodies: [])", f).unwrap_err();
    assert!(e.to_string().contains("dt_s"), "{e}");
    let e = Scene::from_ron(
        "(name: \"a\", bodies: [(name: \"h\", shape: ConvexHull(points: [(0,0,0)]))])",
        f,
    );
    assert!(e.is_err());
}

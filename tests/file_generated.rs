//! Structure-aware generated files (issue 31, part 8): scene files, Quake `.map` levels and
//! OBJ meshes that look valid (the right keywords, brackets and counts) but carry extreme
//! magnitudes and sizes: 1e-308, 1e308, 5e-324, NaN and infinities, torus and terrain
//! resolutions at their limits, degenerate planes and faces, huge tokens. Each must load, or
//! fail with an error naming the file, never panic, and never quote more than a short
//! excerpt; a scene that loads builds a world (or is refused by the memory budget) and steps.
//! Cases: 64 × `COLLIDOSCOPE_TEST_SCALE` per file kind.

use crate::test_scale::scale;
use collidoscope::trace::NoProbe;
use collidoscope::world::{Scene, World};
use proptest::prelude::*;
use std::path::Path;

fn cases() -> ProptestConfig {
    ProptestConfig {
        cases: 64 * scale(),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Numbers as a file writes them, ordinary and extreme.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        40 => (-10.0..10.0f64).prop_map(|x| format!("{x:?}")),
        1 => Just("0".to_string()),
        1 => Just("1e-308".to_string()),
        1 => Just("-1e308".to_string()),
        1 => Just("1e308".to_string()),
        1 => Just("5e-324".to_string()),
        1 => Just("NaN".to_string()),
        1 => Just("inf".to_string()),
        1 => Just("1e400".to_string()),
        1 => Just("9".repeat(400)),
    ]
}

fn triple() -> impl Strategy<Value = String> {
    (number(), number(), number()).prop_map(|(a, b, c)| format!("({a}, {b}, {c})"))
}

/// Mostly an ordinary place or velocity, sometimes an extreme one: a scene with one extreme
/// body in four still reaches the world.
fn place() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (-5.0..5.0f64, 0.0..5.0f64, -5.0..5.0f64)
            .prop_map(|(a, b, c)| format!("({a:?}, {b:?}, {c:?})")),
        1 => triple(),
    ]
}

/// Mostly an ordinary size, sometimes any number.
fn size() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (0.05..3.0f64).prop_map(|x| format!("{x:?}")),
        1 => number(),
    ]
}

/// Small resolutions, or the limits: at or past them a mesh is refused by the validation
/// or the memory budget before it is built, so the suite stays quick.
fn segments() -> impl Strategy<Value = u32> {
    prop_oneof![6 => 3..48u32, 1 => Just(0u32), 1 => Just(2u32), 1 => Just(4096u32), 1 => Just(4097u32), 1 => Just(u32::MAX)]
}

fn shape() -> impl Strategy<Value = String> {
    prop_oneof![
        size().prop_map(|r| format!("Sphere(radius: {r})")),
        (size(), size(), size()).prop_map(|(a, b, c)| format!("Box(half_extents: ({a}, {b}, {c}))")),
        (size(), size()).prop_map(|(r, h)| format!("Capsule(radius: {r}, half_height: {h})")),
        prop::collection::vec(triple(), 0..8)
            .prop_map(|p| format!("ConvexHull(points: [{}])", p.join(", "))),
        (segments(), segments(), size()).prop_map(|(a, b, r)| format!(
            "Procedural(Torus(major_radius: {r}, minor_radius: 0.5, major_segments: {a}, minor_segments: {b}))"
        )),
        (prop_oneof![3 => 1..40u32, 1 => Just(0u32), 1 => Just(2049u32)], size()).prop_map(
            |(c, a)| format!("Procedural(Terrain(size: 10, cells: {c}, amplitude: {a}, seed: 1))")
        ),
        prop_oneof![3 => 0..5u32, 1 => Just(12u32), 1 => Just(40u32)]
            .prop_map(|l| format!("Procedural(IcoSphere(radius: 1, level: {l}))")),
    ]
}

fn body() -> impl Strategy<Value = String> {
    (shape(), place(), place(), any::<bool>()).prop_map(|(s, p, v, fixed)| {
        format!("(name: \"b\", shape: {s}, position: {p}, linear_velocity: {v}, fixed: {fixed})")
    })
}

fn scene_text() -> impl Strategy<Value = String> {
    let dt = prop_oneof![4 => Just("0.016".to_string()), 1 => number()];
    (prop::collection::vec(body(), 1..6), dt, 0..3usize).prop_map(|(bodies, dt, ccd)| {
        let ccd = ["Off", "Speculative", "Toi"][ccd];
        format!(
            "(name: \"g\", solver: (dt_s: {dt}, ccd: {ccd}), bodies: [{}])",
            bodies.join(", ")
        )
    })
}

fn map_text() -> impl Strategy<Value = String> {
    let plane = (triple(), triple(), triple())
        .prop_map(|(a, b, c)| format!("{a} {b} {c} tex 0 0 0 1 1").replace(',', ""));
    let brush =
        prop::collection::vec(plane, 0..12).prop_map(|p| format!("{{\n{}\n}}", p.join("\n")));
    prop::collection::vec(brush, 0..4)
        .prop_map(|b| format!("{{\n\"classname\" \"worldspawn\"\n{}\n}}\n", b.join("\n")))
}

fn obj_text() -> impl Strategy<Value = String> {
    let vertex = (number(), number(), number()).prop_map(|(a, b, c)| format!("v {a} {b} {c}"));
    let face = prop::collection::vec(-8i64..9, 0..6).prop_map(|i| {
        let list: Vec<String> = i.iter().map(|k| k.to_string()).collect();
        format!("f {}", list.join(" "))
    });
    (
        prop::collection::vec(vertex, 0..10),
        prop::collection::vec(face, 0..6),
    )
        .prop_map(|(v, f)| format!("{}\n{}\n", v.join("\n"), f.join("\n")))
}

/// An error names its file and quotes no more than a short excerpt.
fn check_error(e: &str, file: &str) {
    assert!(e.contains(file), "{e}");
    assert!(e.len() < 1_000, "{} bytes: {}", e.len(), &e[..200]);
}

proptest! {
    #![proptest_config(cases())]

    #[test]
    fn generated_scenes_load_build_and_step_or_fail_clearly(text in scene_text()) {
        match Scene::from_ron(&text, Path::new("gen.ron")) {
            Err(e) => check_error(&e.to_string(), "gen.ron"),
            Ok(scene) => match World::with_origin(scene, Path::new("gen.ron")) {
                Err(e) => check_error(&e.to_string(), "gen.ron"),
                Ok(mut world) => {
                    for _ in 0..2 {
                        let frame = world.step(&mut NoProbe);
                        prop_assert_eq!(frame.bodies.len(), world.bodies.len());
                    }
                }
            },
        }
    }

    #[test]
    fn generated_maps_parse_or_fail_clearly(text in map_text()) {
        if let Err(e) = collidoscope::bsp::map::parse_map(&text, Path::new("gen.map")) {
            check_error(&e.to_string(), "gen.map");
        }
    }

    #[test]
    fn generated_objs_parse_or_fail_clearly(text in obj_text()) {
        if let Err(e) = collidoscope::world::obj::parse_obj(&text, Path::new("gen.obj")) {
            check_error(&e.to_string(), "gen.obj");
        }
    }
}

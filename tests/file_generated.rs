//! Structure-aware generated files (issue 31, part 8): scene files, Quake `.map` levels, OBJ
//! meshes, NURBS surface files and NURBS scenes that look valid (the right keywords, brackets
//! and counts, knot vectors of the right length, mostly clamped) but carry extreme
//! magnitudes and sizes: 1e-308, 1e308, 5e-324, NaN and infinities, torus and terrain
//! resolutions at their limits, degenerate planes and faces, huge tokens. Each must load, or
//! fail with an error naming the file, never panic, and never quote more than a short
//! excerpt; a scene that loads builds a world (or is refused by the memory budget) and steps.
//! Cases: 64 × `COLLIDOSCOPE_TEST_SCALE` per file kind.

use crate::test_scale::{generated_cases, timed_case_of};
use collidoscope::trace::NoProbe;
use collidoscope::world::{Scene, World};
use proptest::prelude::*;
use std::path::Path;

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

/// A NURBS number: ordinary far more often than in `number`, since a surface holds dozens and
/// one bad value refuses it all.
fn surface_number() -> impl Strategy<Value = String> {
    prop_oneof![
        300 => (-3.0..3.0f64).prop_map(|x| format!("{x:?}")),
        2 => Just("1e-308".to_string()),
        2 => Just("1e308".to_string()),
        2 => Just("5e-324".to_string()),
        2 => Just("1e30".to_string()),
        1 => Just("-1e308".to_string()),
        1 => Just("1e400".to_string()),
        1 => Just("NaN".to_string()),
    ]
}

/// A weight: 1 mostly, sometimes the extremes the format allows or refuses.
fn weight() -> impl Strategy<Value = String> {
    prop_oneof![
        30 => Just("1.0".to_string()),
        6 => (0.1..3.0f64).prop_map(|x| format!("{x:?}")),
        1 => Just("5e-324".to_string()),
        1 => Just("1e-100".to_string()),
        1 => Just("1e100".to_string()),
        1 => Just("1e308".to_string()),
        1 => Just("0.0".to_string()),
        1 => Just("-1.0".to_string()),
    ]
}

/// The shape of a surface: degrees, point counts and knot vectors, mostly consistent and
/// clamped, sometimes with a knot repeated past the degree, spans near zero, huge knots or
/// one knot too many.
#[derive(Clone, Debug)]
struct SurfaceShape {
    degree: [usize; 2],
    count: [usize; 2],
    knots: [Vec<String>; 2],
}

fn knot_vector(count: usize, degree: usize) -> impl Strategy<Value = Vec<String>> {
    let clamped = move || {
        let inner = count.saturating_sub(degree + 1);
        let mut k = vec!["0.0".to_string(); degree + 1];
        k.extend((1..=inner).map(|i| format!("{:?}", i as f64 / (inner + 1) as f64)));
        k.extend(vec!["1.0".to_string(); degree + 1]);
        k
    };
    let len = count + degree + 1;
    prop_oneof![
        12 => Just(clamped()),
        1 => Just(clamped()).prop_map(|mut k| { k.push("1.0".into()); k }),
        1 => Just(vec!["0.5".to_string(); len]),
        1 => Just(clamped()).prop_map(|k| k.iter().map(|x| format!("{x}e300")).collect()),
        1 => Just(clamped()).prop_map(|k| k.iter().map(|x| format!("{x}e-300")).collect()),
        1 => prop::collection::vec(surface_number(), len),
    ]
}

fn surface_shape() -> impl Strategy<Value = SurfaceShape> {
    let degree = || prop_oneof![20 => 1usize..4, 1 => Just(0usize), 1 => Just(8usize)];
    let extra = || prop_oneof![10 => 0usize..3, 1 => Just(6usize)];
    (degree(), degree(), extra(), extra()).prop_flat_map(|(du, dv, eu, ev)| {
        let (cu, cv) = (du + 1 + eu, dv + 1 + ev);
        (knot_vector(cu, du), knot_vector(cv, dv)).prop_map(move |(ku, kv)| SurfaceShape {
            degree: [du, dv],
            count: [cu, cv],
            knots: [ku, kv],
        })
    })
}

/// Control points as `[x, y, z, w]`, `rows × columns` of them (sometimes one short).
fn control_points(rows: usize, columns: usize) -> impl Strategy<Value = Vec<[String; 4]>> {
    let short = prop_oneof![20 => Just(0usize), 1 => Just(1usize)];
    let point = (
        surface_number(),
        surface_number(),
        surface_number(),
        weight(),
    )
        .prop_map(|(x, y, z, w)| [x, y, z, w]);
    (prop::collection::vec(point, rows * columns), short).prop_map(|(mut p, short)| {
        p.truncate(p.len().saturating_sub(short));
        p
    })
}

fn surface_json() -> impl Strategy<Value = String> {
    surface_shape().prop_flat_map(|s| {
        control_points(s.count[0], s.count[1]).prop_map(move |points| {
            let rows: Vec<String> = points
                .chunks(s.count[1].max(1))
                .map(|row| {
                    let row: Vec<String> = row.iter().map(|p| format!("[{}]", p.join(", "))).collect();
                    format!("[{}]", row.join(", "))
                })
                .collect();
            format!(
                r#"{{"degree_u": {}, "degree_v": {}, "knots_u": [{}], "knots_v": [{}], "control_points": [{}]}}"#,
                s.degree[0],
                s.degree[1],
                s.knots[0].join(", "),
                s.knots[1].join(", "),
                rows.join(", ")
            )
        })
    })
}

fn surface_file_text() -> impl Strategy<Value = String> {
    prop::collection::vec(surface_json(), 0..3)
        .prop_map(|s| format!(r#"{{"name": "generated", "surfaces": [{}]}}"#, s.join(", ")))
}

/// A NURBS scene as its RON text: homogeneous points `(w·x, w·y, w·z, w)`, counts that may
/// disagree with the points, a precision that may be tiny.
fn nurbs_scene_text() -> impl Strategy<Value = String> {
    let surface = surface_shape().prop_flat_map(|s| {
        control_points(s.count[0], s.count[1]).prop_map(move |points| {
            let points: Vec<String> = points.iter().map(|p| format!("({})", p.join(", "))).collect();
            format!(
                "(degree_u: {}, degree_v: {}, knots_u: [{}], knots_v: [{}], count_u: {}, count_v: {}, points: [{}])",
                s.degree[0], s.degree[1], s.knots[0].join(", "), s.knots[1].join(", "),
                s.count[0], s.count[1], points.join(", ")
            )
        })
    });
    let motion = prop::sample::select(vec![
        "Fixed",
        "Falling",
        "Sprung(stiffness: 50, damping: 1)",
    ]);
    let body = (prop::collection::vec(surface, 1..3), place(), motion).prop_map(|(s, p, m)| {
        format!(
            "(name: \"n\", surfaces: [{}], start: {p}, velocity: (0, 0, 0), motion: {m})",
            s.join(", ")
        )
    });
    let precision = prop_oneof![6 => Just("0.05".to_string()), 1 => number()];
    let mode = prop::sample::select(vec!["All", "First", "Curve"]);
    // The query's rules: absent (the thesis'), any of the four choices, or a misspelt one.
    let rules = prop_oneof![
        3 => Just(String::new()),
        4 => (
            prop::sample::select(vec!["Covariance", "CornerFrame"]),
            prop::sample::select(vec!["Thesis", "Alternate"]),
            prop::sample::select(vec!["OneSplit", "Base", "Subdivide4"]),
            prop::sample::select(vec!["Surface", "ThinnestAxis"]),
        )
            .prop_map(|(b, s, r, n)| {
                format!(", rules: (box: {b}, split: {s}, recursion: {r}, normal: {n})")
            }),
        1 => Just(", rules: (recursion: Subdivide5)".to_string()),
    ];
    (prop::collection::vec(body, 1..3), precision, mode, rules).prop_map(|(b, e, m, r)| {
        format!(
            "(name: \"n\", bodies: [], families: [Nurbs((bodies: [{}], precision: {e}, mode: {m}, restitution: 0.5{r}))])",
            b.join(", ")
        )
    })
}

/// An error names its file and quotes no more than a short excerpt.
fn check_error(e: &str, file: &str) {
    assert!(e.contains(file), "{e}");
    assert!(e.len() < 1_000, "{} bytes: {}", e.len(), &e[..200]);
}

proptest! {
    #![proptest_config(generated_cases())]

    #[test]
    fn generated_scenes_load_build_and_step_or_fail_clearly(text in scene_text()) {
        timed_case_of("scene file", &text, || scene_case(&text));
    }

    #[test]
    fn generated_maps_parse_or_fail_clearly(text in map_text()) {
        timed_case_of("map file", &text, || {
            if let Err(e) = collidoscope::bsp::map::parse_map(&text, Path::new("gen.map")) {
                check_error(&e.to_string(), "gen.map");
            }
        });
    }

    #[test]
    fn generated_objs_parse_or_fail_clearly(text in obj_text()) {
        timed_case_of("obj file", &text, || {
            if let Err(e) = collidoscope::world::obj::parse_obj(&text, Path::new("gen.obj")) {
                check_error(&e.to_string(), "gen.obj");
            }
        });
    }
    #[test]
    fn generated_surface_files_parse_and_collide_or_fail_clearly(text in surface_file_text()) {
        timed_case_of("surface file", &text, || surface_file_case(&text));
    }

    #[test]
    fn generated_nurbs_scenes_load_build_and_step_or_fail_clearly(text in nurbs_scene_text()) {
        timed_case_of("nurbs scene file", &text, || scene_case(&text));
    }
}

/// A scene that loads builds a world (or is refused by the memory budget) and steps.
fn scene_case(text: &str) {
    match Scene::from_ron(text, Path::new("gen.ron")) {
        Err(e) => check_error(&e.to_string(), "gen.ron"),
        Ok(scene) => match World::with_origin(scene, Path::new("gen.ron")) {
            Err(e) => check_error(&e.to_string(), "gen.ron"),
            Ok(mut world) => {
                for _ in 0..2 {
                    let frame = world.step(&mut NoProbe);
                    assert_eq!(frame.bodies.len(), world.bodies.len());
                }
            }
        },
    }
}

/// A surface file that parses: its surfaces in a scene, two bodies apart by the first's size,
/// the second falling onto the first, stepped.
/// The surface files a campaign kept as slow (`fuzz/findings/slow-surfaces/`), each run as the
/// generator runs it, with its time: `cargo test --test suite -- --ignored replay_slow_surface`.
#[test]
#[ignore = "replays fuzz findings on demand"]
fn replay_slow_surface_files() {
    for file in crate::repo_files::files_in("fuzz/findings/slow-surfaces", "json") {
        let text = std::fs::read_to_string(&file).expect("a finding");
        let start = std::time::Instant::now();
        surface_file_case(&text);
        println!(
            "{:>8.1} ms  {}",
            start.elapsed().as_secs_f64() * 1e3,
            file.display()
        );
    }
}

fn surface_file_case(text: &str) {
    let surfaces = match collidoscope::nurbs::surface_file::parse_surfaces(text, "gen.json") {
        Err(e) => return check_error(&e.to_string(), "gen.json"),
        Ok(s) => s,
    };
    let body = |i: usize, motion: &str| {
        let s = &surfaces[i % surfaces.len()].surface;
        let s = ron::to_string(s).expect("a surface prints as RON");
        format!(
            "(name: \"s{i}\", surfaces: [{s}], start: (0, {i}, 0), velocity: (0, 0, 0), motion: {motion})"
        )
    };
    let scene = format!(
        "(name: \"f\", bodies: [], families: [Nurbs((bodies: [{}, {}], precision: 0.05, mode: All, restitution: 0.5))])",
        body(0, "Fixed"),
        body(1, "Falling")
    );
    scene_case(&scene);
}

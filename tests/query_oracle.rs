//! Query ops against brute force: `ray_mesh` (through a hierarchy) must find the hit that
//! testing every triangle finds.

use collidoscope::geom::{Point3, Pose, Ray, Vec3};
use collidoscope::query::answer_line;
use collidoscope::world::procedural::{icosphere, terrain};
use proptest::prelude::*;
use serde_json::json;

fn scale() -> u32 {
    std::env::var("COLLIDOSCOPE_TEST_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100 * scale()))]
    #[test]
    fn ray_mesh_matches_brute_force(
        o in prop::array::uniform3(-4.0f64..4.0),
        d in prop::array::uniform3(-1.0f64..1.0),
        t in prop::array::uniform3(-0.5f64..0.5),
        r in prop::array::uniform3(-2.0f64..2.0),
        which in 0..2u8,
    ) {
        let dir = Vec3::from(d);
        prop_assume!(dir.norm() > 1e-3);
        let mesh = if which == 0 { icosphere(1.5, 2) } else { terrain(6.0, 12, 1.0, 3) };
        let pose = Pose::new(Vec3::from(t), Vec3::from(r));
        let q = pose.rotation.quaternion();
        let request = json!({
            "op": "ray_mesh", "origin": o, "dir": d,
            "mesh": {"vertices": mesh.vertices.iter().map(|v| [v.x, v.y, v.z]).collect::<Vec<_>>(), "triangles": mesh.triangles},
            "pose_mesh": {"translation": t, "rotation": [q.w, q.i, q.j, q.k]},
        });
        let answer = answer_line(&request.to_string());
        prop_assert_eq!(&answer["ok"], &json!(true), "{}", answer);
        let world = mesh.transformed(&pose);
        let brute = world.cast_ray_brute_force(&Ray::new(Point3::from(o), dir), f64::INFINITY);
        match brute {
            None => prop_assert_eq!(&answer["hit"], &json!(false)),
            Some(hit) => {
                prop_assert_eq!(&answer["hit"], &json!(true));
                prop_assert!((answer["t"].as_f64().unwrap() - hit.t).abs() < 1e-9, "{} vs {}", answer["t"], hit.t);
            }
        }
    }
}

#[test]
fn malformed_requests_name_the_field() {
    let cases = [
        (
            r#"{"op":"ray_mesh","origin":[0,0,0],"dir":[0,0,0],"mesh":{"vertices":[[0,0,0],[1,0,0],[0,1,0]],"triangles":[[0,1,2]]}}"#,
            "dir",
        ),
        (
            r#"{"op":"ray_mesh","origin":[0,0,0],"dir":[0,0,1],"mesh":{"vertices":[[0,0,0]],"triangles":[[0,1,2]]}}"#,
            "mesh",
        ),
        (
            r#"{"op":"ray_mesh","origin":[0,0,0],"dir":[0,0,1],"mesh":{"vertices":[[0,0,0],[1,0,0],[0,1,0]],"triangles":[[0,1,2]]},"pose_mesh":{"rotation":[0,0,0,0]}}"#,
            "pose_mesh.rotation",
        ),
        (
            r#"{"op":"sphere_plane","sphere":{"center":[0,0,0],"radius":1},"plane":[0,0,0,1]}"#,
            "plane",
        ),
        (
            r#"{"op":"aabb_aabb","a":{"min":[1,1,1],"max":[0,0,0]},"b":{"min":[0,0,0],"max":[1,1,1]}}"#,
            "\"a\"",
        ),
        (
            r#"{"op":"sphere_sphere","a":{"center":[0,0,0],"radius":"big"},"b":{"center":[0,0,0],"radius":1}}"#,
            "a.radius",
        ),
        (r#"[1, 2]"#, "object"),
        (r#"{"id": 7}"#, "op"),
    ];
    for (line, field) in cases {
        let a = answer_line(line);
        assert_eq!(a["ok"], json!(false), "{line}: {a}");
        assert!(a["error"].as_str().unwrap().contains(field), "{line}: {a}");
    }
}

/// `cloth_step`: a sheet dropped onto a floor made of two triangles. The oracle is the signed
/// distance of every final vertex to the floor's plane (brute force: the floor is flat), which
/// must never go below the floor, while a sheet with no obstacle keeps falling.
#[test]
fn cloth_step_keeps_a_dropped_sheet_above_the_floor() {
    let floor = json!({"vertices": [[-2, 0, -2], [2, 0, -2], [2, 0, 2], [-2, 0, 2]],
                       "triangles": [[0, 2, 1], [0, 3, 2]]});
    let sheet = json!({"columns": 8, "rows": 8, "corner": [-0.5, 0.1, -0.5],
                       "u": [1, 0, 0], "v": [0, 0, 1]});
    let line = json!({"id": 1, "op": "cloth_step", "cloth": sheet, "obstacle": floor,
                      "velocity": [0, -2, 0], "steps": 60, "dt_s": 1.0 / 60.0});
    let reply: serde_json::Value = answer_line(&line.to_string());
    assert_eq!(reply["ok"], true, "{reply}");
    assert!(reply["contacts"].as_u64().unwrap() > 0, "{reply}");
    let positions = reply["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 64);
    for (i, p) in positions.iter().enumerate() {
        let y = p[1].as_f64().unwrap();
        assert!(y > -1e-6, "vertex {i} ended under the floor at y = {y}");
    }

    let free = json!({"id": 2, "op": "cloth_step", "cloth": sheet, "steps": 30});
    let reply: serde_json::Value = answer_line(&free.to_string());
    assert_eq!(reply["ok"], true, "{reply}");
    assert_eq!(reply["contacts"], 0, "{reply}");
    for p in reply["positions"].as_array().unwrap() {
        assert!(
            p[1].as_f64().unwrap() < 0.1 - 0.05,
            "a free sheet must fall: {p}"
        );
    }
}

/// Invalid `cloth_step` arguments are errors naming the field, not silently replaced.
#[test]
fn cloth_step_rejects_bad_arguments() {
    let sheet =
        json!({"columns": 4, "rows": 4, "corner": [0, 0, 0], "u": [1, 0, 0], "v": [0, 0, 1]});
    for (line, field) in [
        (
            json!({"op": "cloth_step", "cloth": sheet, "dt_s": -1}),
            "dt_s",
        ),
        (
            json!({"op": "cloth_step", "cloth": sheet, "steps": 0}),
            "steps",
        ),
        (
            json!({"op": "cloth_step", "cloth": sheet, "steps": 1.5}),
            "steps",
        ),
        (
            json!({"op": "cloth_step", "cloth": {"columns": 0, "rows": 4, "corner": [0, 0, 0],
                 "u": [1, 0, 0], "v": [0, 0, 1]}}),
            "cloth.columns",
        ),
        (
            json!({"op": "cloth_step", "cloth": {"columns": 1000, "rows": 1000, "corner": [0, 0, 0],
                 "u": [1, 0, 0], "v": [0, 0, 1]}}),
            "cloth",
        ),
        (json!({"op": "cloth_step"}), "cloth"),
        (
            json!({"op": "cloth_step", "cloth": {"columns": 4, "rows": 4, "corner": [0, 0, 0],
                 "u": [0, 0, 0], "v": [0, 0, 1]}}),
            "cloth",
        ),
        (
            json!({"op": "cloth_step", "cloth": {"columns": 4, "rows": 4, "corner": [0, 2e6, 0],
                 "u": [1, 0, 0], "v": [0, 0, 1]}}),
            "cloth",
        ),
        (
            json!({"op": "cloth_step", "cloth": sheet, "obstacle": {"vertices":
                 [[0, 0, 0], [1, 0, 0], [0, 0, -1e7]], "triangles": [[0, 1, 2]]}}),
            "obstacle",
        ),
        (
            json!({"op": "cloth_step", "cloth": sheet, "velocity": [0, -2e6, 0]}),
            "velocity",
        ),
        (
            json!({"op": "cloth_step", "cloth": sheet, "dt_s": 2}),
            "dt_s",
        ),
        (
            json!({"op": "cloth_step", "cloth": {"columns": 500, "rows": 500, "corner": [0, 0, 0],
                 "u": [1, 0, 0], "v": [0, 0, 1]}, "steps": 5}),
            "steps",
        ),
        // Every argument within its bounds, but the sheet leaves the world in its first step
        // (sliding in its plane, where the air does not slow it).
        (
            json!({"op": "cloth_step", "cloth": sheet, "velocity": [1e6, 0, 0], "dt_s": 1,
                   "steps": 3}),
            "steps",
        ),
    ] {
        let reply: serde_json::Value = answer_line(&line.to_string());
        assert_eq!(reply["ok"], false, "{line} → {reply}");
        let error = reply["error"].as_str().unwrap();
        assert!(error.contains(&format!("\"{field}")), "{line} → {error}");
    }
}

/// The fuzzer's slow `cloth_step` lines (a sheet without area; a sheet thrown at 1e13 m/s,
/// whose coordinates lost the precision its boxes need; a sheet of sliver cells) are refused
/// before they step.
#[test]
fn cloth_step_refuses_the_fuzzers_slow_lines() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fuzz/query");
    for (name, field) in [
        ("cloth-slow-1.json", "cloth"),
        ("cloth-slow-2.json", "velocity"),
        ("cloth-slow-3.json", "cloth"),
    ] {
        let line = std::fs::read_to_string(dir.join(name)).expect("a fuzz fixture");
        let reply = answer_line(line.trim_end());
        assert_eq!(reply["ok"], false, "{name}: {reply}");
        let error = reply["error"].as_str().unwrap();
        assert!(error.contains(&format!("\"{field}")), "{name}: {error}");
    }
}

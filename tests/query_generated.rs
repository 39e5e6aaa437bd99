//! Structure-aware generated requests for every query op (issue 31, part 8): requests that
//! look valid (the right fields, the right nesting) but carry extreme sizes and magnitudes:
//! 1e-308, 1e308, 5e-324, repeated knots, zero-length vectors, empty and oversized lists, and
//! `"NaN"` strings where numbers belong. Every answer must be a JSON object with a boolean
//! `ok`, no op may panic (the session reports a caught panic as an error naming it), and an
//! `ok: true` answer may hold no `null` outside the fields the protocol lets be null (serde_json
//! prints NaN and ±∞ as `null`). The ops run in-process through `answer_line`, the function
//! the CLI calls per line. Cases: 512 × `COLLIDOSCOPE_TEST_SCALE` (default 1), every op equally likely.

use crate::test_scale::{scale, timed_case_of};
use collidoscope::query::answer_line;
use proptest::prelude::*;
use serde_json::{Value, json};

/// A number: mostly ordinary, sometimes one of the magnitudes that broke ops before, and
/// rarely a string where a number belongs (the protocol has no NaN literal). A request holds
/// tens of numbers and one string refuses it all, so strings stay rare enough for most
/// requests to reach their op.
fn number() -> BoxedStrategy<Value> {
    prop_oneof![
        40 => (-10.0f64..10.0).prop_map(|x| json!(x)),
        3 => prop::sample::select(vec![
            0.0, -0.0, 1e-308, -1e-308, 5e-324, 1e308, -1e308, 1e155, -1e155, 1e30, 1e-30,
            2.2250738585072014e-308, f64::MAX, f64::MIN_POSITIVE,
        ])
        .prop_map(|x| json!(x)),
        1 => prop::sample::select(vec!["NaN", "inf", "-Infinity"]).prop_map(|s| json!(s)),
    ]
    .boxed()
}

/// A number for a field that must be positive (weights, radii, tolerances): ordinary or
/// extreme, rarely anything.
fn positive() -> BoxedStrategy<Value> {
    prop_oneof![
        40 => (0.01f64..10.0).prop_map(|x| json!(x)),
        3 => prop::sample::select(vec![5e-324, 1e-308, 1e-30, 1e30, 1e155, 1e308, f64::MAX])
            .prop_map(|x| json!(x)),
        1 => number(),
    ]
    .boxed()
}

fn vec3() -> BoxedStrategy<Value> {
    prop_oneof![
        20 => prop::collection::vec(number(), 3).prop_map(Value::Array),
        2 => Just(json!([0, 0, 0])),
        1 => prop::collection::vec(number(), 0..5).prop_map(Value::Array),
    ]
    .boxed()
}

fn points(max: usize) -> BoxedStrategy<Value> {
    prop::collection::vec(vec3(), 3..max)
        .prop_map(Value::Array)
        .boxed()
}

fn pose() -> BoxedStrategy<Value> {
    let rotation = prop::collection::vec(number(), 4).prop_map(Value::Array);
    (vec3(), rotation, any::<bool>())
        .prop_map(|(t, r, with_rotation)| {
            if with_rotation {
                json!({"translation": t, "rotation": r})
            } else {
                json!({"translation": t})
            }
        })
        .boxed()
}

/// A mesh whose triangles index its vertices (rarely one past them).
fn mesh() -> BoxedStrategy<Value> {
    (3u32..10)
        .prop_flat_map(|n| {
            let index = prop_oneof![20 => 0..n, 1 => Just(n)];
            let triangles = prop::collection::vec(prop::array::uniform3(index), 1..12);
            (prop::collection::vec(vec3(), n as usize), triangles)
        })
        .prop_map(|(v, t)| json!({"vertices": v, "triangles": t}))
        .boxed()
}

/// A knot vector of `len` knots: sorted ordinary values with repeats, or extreme ones.
fn knots(len: usize) -> BoxedStrategy<Value> {
    prop_oneof![
        3 => prop::collection::vec(0u8..12, len).prop_map(|mut k| {
            k.sort_unstable();
            json!(k.iter().map(|&x| f64::from(x) * 0.5).collect::<Vec<_>>())
        }),
        1 => prop::collection::vec(number(), len).prop_map(Value::Array),
    ]
    .boxed()
}

/// A NURBS surface with degrees 0..=8 (1..=7 are valid), a net of 1..=5 by 1..=5 points and
/// knot vectors of the length the net asks for (or one off).
fn surface() -> BoxedStrategy<Value> {
    let degree = || prop_oneof![20 => 1usize..4, 1 => 0usize..9];
    let off = prop_oneof![20 => Just(1usize), 1 => 0usize..3];
    (degree(), degree(), 0usize..3, 0usize..3, off)
        .prop_flat_map(|(p, q, extra_u, extra_v, off)| {
            let (nu, nv) = (p + 1 + extra_u, q + 1 + extra_v);
            let point = (vec3(), positive()).prop_map(|(c, w)| {
                let mut c = c.as_array().cloned().unwrap_or_default();
                c.push(w);
                Value::Array(c)
            });
            let net = prop::collection::vec(prop::collection::vec(point, nv), nu);
            let ku = (nu + p + 1 + off).saturating_sub(1);
            (Just((p, q)), knots(ku), knots(nv + q + 1), net)
        })
        .prop_map(|((p, q), ku, kv, net)| {
            json!({"degree_u": p, "degree_v": q, "knots_u": ku, "knots_v": kv,
                   "control_points": net})
        })
        .boxed()
}

fn shape() -> BoxedStrategy<Value> {
    prop_oneof![
        positive().prop_map(|r| json!({"kind": "sphere", "radius": r})),
        vec3().prop_map(|h| json!({"kind": "box", "half_extents": h})),
        vec3().prop_map(|r| json!({"kind": "ellipsoid", "radii": r})),
        (positive(), positive())
            .prop_map(|(r, h)| json!({"kind": "cylinder", "radius": r, "half_height": h})),
        (positive(), positive())
            .prop_map(|(r, h)| json!({"kind": "capsule", "radius": r, "half_height": h})),
    ]
    .boxed()
}

fn brushes() -> BoxedStrategy<Value> {
    let plane = prop::collection::vec(number(), 4).prop_map(Value::Array);
    prop::collection::vec(prop::collection::vec(plane, 0..8), 0..4)
        .prop_map(|b| json!(b))
        .boxed()
}

/// Every op with the same weight, so that a long run gives each as many cases.
fn every_op() -> prop::strategy::Union<BoxedStrategy<Value>> {
    let mut ops = primitive_requests();
    ops.extend(mesh_requests());
    ops.extend(shape_requests());
    prop::strategy::Union::new(ops)
}

macro_rules! boxed_each {
    ($($s:expr),+ $(,)?) => { vec![$($s.boxed()),+] };
}

fn primitive_requests() -> Vec<BoxedStrategy<Value>> {
    let sphere = (vec3(), positive()).prop_map(|(c, r)| json!({"center": c, "radius": r}));
    let capsule =
        (vec3(), vec3(), positive()).prop_map(|(a, b, r)| json!({"p0": a, "p1": b, "radius": r}));
    let plane = prop::collection::vec(number(), 4).prop_map(Value::Array);
    boxed_each![
        (sphere.clone(), sphere.clone())
            .prop_map(|(a, b)| json!({"op": "sphere_sphere", "a": a, "b": b})),
        (sphere.clone(), plane)
            .prop_map(|(s, p)| json!({"op": "sphere_plane", "sphere": s, "plane": p})),
        (sphere, capsule.clone())
            .prop_map(|(s, c)| json!({"op": "sphere_capsule", "sphere": s, "capsule": c})),
        (capsule.clone(), capsule)
            .prop_map(|(a, b)| json!({"op": "capsule_capsule", "a": a, "b": b})),
        // The boxes' maxima at 10 on every axis, so that most minima are below them.
        (vec3(), vec3()).prop_map(|(a, b)| json!({"op": "aabb_aabb",
            "a": {"min": a, "max": [10, 10, 10]}, "b": {"min": b, "max": [10, 10, 10]}})),
        (vec3(), vec3(), vec3(), vec3())
            .prop_map(|(a0, a1, b0, b1)| json!({"op": "segment_segment",
            "a": {"p0": a0, "p1": a1}, "b": {"p0": b0, "p1": b1}})),
    ]
}

fn mesh_requests() -> Vec<BoxedStrategy<Value>> {
    let bv = prop::sample::select(vec!["aabb", "obb", "sphere", "kdop14", "kdop18", "kdop26"]);
    let build = prop::sample::select(vec!["median", "sah", "mean"]);
    boxed_each![
        (vec3(), vec3(), positive(), mesh(), pose()).prop_map(|(o, d, t, m, p)| json!({
            "op": "ray_mesh", "origin": o, "dir": d, "max_t": t, "mesh": m, "pose_mesh": p})),
        (mesh(), mesh(), pose(), bv.clone(), build.clone())
            .prop_map(|(a, b, p, bv, build)| json!({
            "op": "mesh_overlap", "a": a, "b": b, "pose_b": p, "bv": bv, "build": build})),
        (mesh(), bv, build).prop_map(
            |(m, bv, build)| json!({"op": "bvh_stats", "mesh": m, "bv": bv, "build": build})
        ),
    ]
}

fn shape_requests() -> Vec<BoxedStrategy<Value>> {
    let method = prop::sample::select(vec!["vclip", "gjk"]);
    let bsp = |op: &'static str| {
        (brushes(), shape(), vec3(), vec3()).prop_map(move |(b, s, p0, p1)| {
            json!({
            "op": op, "brushes": b, "shape": s, "start": p0, "end": p1})
        })
    };
    let mode = prop::sample::select(vec!["first", "all"]);
    boxed_each![
        (points(9), points(9), pose(), pose(), method).prop_map(|(a, b, pa, pb, m)| json!({
            "op": "convex_distance", "a": a, "b": b, "pose_a": pa, "pose_b": pb, "method": m})),
        bsp("bsp_sweep"),
        bsp("bsp_slide"),
        bsp("bsp_stats"),
        (surface(), surface(), pose(), positive(), mode).prop_map(|(a, b, p, e, m)| json!({
            "op": "nurbs_intersect", "a": a, "b": b, "pose_b": p, "precision": e, "mode": m})),
        (
            2u32..6,
            2u32..6,
            vec3(),
            vec3(),
            vec3(),
            vec3(),
            1u32..4,
            positive()
        )
            .prop_map(
                |(c, r, corner, u, v, vel, steps, dt)| json!({"op": "cloth_step",
                "cloth": {"columns": c, "rows": r, "corner": corner, "u": u, "v": v},
                "velocity": vel, "steps": steps, "dt_s": dt})
            ),
    ]
}

/// The first `null` in an answer outside a `normal` or `brush` field (the only ones the
/// protocol lets be null: no BSP hit, a NURBS hit where both surfaces are degenerate).
fn undocumented_null(v: &Value, at: &str) -> Option<String> {
    match v {
        Value::Null => Some(at.to_string()),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, x)| undocumented_null(x, &format!("{at}[{i}]"))),
        Value::Object(fields) => fields.iter().find_map(|(k, x)| match x {
            Value::Null if k == "normal" || k == "brush" || k == "id" => None,
            _ => undocumented_null(x, &format!("{at}.{k}")),
        }),
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512 * scale()))]
    #[test]
    fn generated_requests_get_finite_answers_and_no_panic(
        request in every_op(),
    ) {
        let line = request.to_string();
        let op = format!("query {}", request["op"].as_str().unwrap_or("?"));
        let answer = timed_case_of(&op, &line, || answer_line(&line));
        // What the CLI prints must read back as JSON.
        let printed: Value = serde_json::from_str(&answer.to_string()).expect("answer is JSON");
        prop_assert!(printed.is_object(), "{line} → {printed}");
        let ok = printed["ok"].as_bool();
        prop_assert!(ok.is_some(), "{line} → {printed}");
        if ok == Some(true) {
            let null = undocumented_null(&printed, "");
            prop_assert!(null.is_none(), "{line} → null at {null:?}: {printed}");
        } else {
            let error = printed["error"].as_str().unwrap_or("");
            prop_assert!(!error.contains("panicked"), "{line} → {error}");
            prop_assert!(!error.is_empty(), "{line} → {printed}");
        }
    }
}

//! The bounding-volume hierarchy ops: `mesh_overlap` and `bvh_stats`.
//!
//! Extensions beyond the shared contract (optional, never in the way): `mesh_overlap` also
//! takes `build` (`median` | `sah` | `mean`, default `sah`) and answers `segments` (world
//! coordinates, in the order of `pairs`); `bvh_stats` also answers `strategy`,
//! `memory_bytes`, `depth_histogram` and `leaf_size_histogram`, and accepts `build: "mean"`
//! (RAPID's split).

use crate::bvh::{
    AnyBvh, AnyPosed, BuildOptions, BuildStrategy, BvKind, TraverseOptions, traverse_any,
};
use crate::query::args::{Args, arg_error, json_point};
use crate::query::{ArgError, Op, Reply};
use crate::trace::NoProbe;
use serde_json::{Value, json};

pub const OPS: &[(&str, Op)] = &[("mesh_overlap", mesh_overlap), ("bvh_stats", bvh_stats)];

fn reply(v: Value) -> Reply {
    match v {
        Value::Object(m) => m,
        _ => Reply::new(),
    }
}

fn bv(args: &Args) -> Result<BvKind, ArgError> {
    let name = args.string_or("bv", "aabb")?;
    BvKind::parse(name).ok_or_else(|| {
        arg_error(
            &args.path("bv"),
            format!("must be aabb, obb, sphere, kdop14, kdop18 or kdop26, got \"{name}\""),
        )
    })
}

fn build(args: &Args) -> Result<BuildStrategy, ArgError> {
    let name = args.string_or("build", "sah")?;
    BuildStrategy::parse(name).ok_or_else(|| {
        arg_error(
            &args.path("build"),
            format!("must be median or sah (or mean), got \"{name}\""),
        )
    })
}

fn mesh_overlap(args: &Args) -> Result<Reply, ArgError> {
    let (a, b) = (args.mesh("a")?, args.mesh("b")?);
    let (pose_a, pose_b) = (args.pose_of("a")?, args.pose_of("b")?);
    let kind = bv(args)?;
    let options = BuildOptions::with_strategy(build(args)?);
    let (ta, tb) = (
        AnyBvh::build(&a, kind, &options),
        AnyBvh::build(&b, kind, &options),
    );
    let result = traverse_any(
        &AnyPosed {
            mesh: &a,
            tree: &ta,
            pose: &pose_a,
            body: 0,
        },
        &AnyPosed {
            mesh: &b,
            tree: &tb,
            pose: &pose_b,
            body: 1,
        },
        TraverseOptions::default(),
        &mut NoProbe,
    )
    .ok_or_else(|| arg_error(&args.path("bv"), "internal: trees of different kinds"))?;
    let mut order: Vec<usize> = (0..result.pairs.len()).collect();
    order.sort_by_key(|&i| result.pairs[i]);
    let pairs: Vec<Value> = order
        .iter()
        .map(|&i| json!([result.pairs[i].0, result.pairs[i].1]))
        .collect();
    let segments: Vec<Value> = order
        .iter()
        .map(|&i| {
            json!([
                json_point(&result.hits[i].segment.a),
                json_point(&result.hits[i].segment.b)
            ])
        })
        .collect();
    Ok(reply(json!({
        "pairs": pairs,
        "segments": segments,
        "node_tests": result.node_tests,
        "triangle_tests": result.triangle_tests,
    })))
}

fn bvh_stats(args: &Args) -> Result<Reply, ArgError> {
    let mesh = args.mesh("mesh")?;
    let kind = bv(args)?;
    let strategy = build(args)?;
    let stats =
        AnyBvh::build(&mesh, kind, &BuildOptions::with_strategy(strategy)).stats_with_tests(&[]);
    let s = &stats.summary;
    Ok(reply(json!({
        "nodes": s.nodes,
        "leaves": s.leaves,
        "depth_max": s.depth_max,
        "depth_mean": s.depth_mean,
        "sah_cost": s.sah_cost,
        "sibling_overlap_volume": s.sibling_overlap_volume,
        "strategy": s.strategy.name(),
        "memory_bytes": s.memory_bytes,
        "depth_histogram": stats.depth_histogram,
        "leaf_size_histogram": stats.leaf_size_histogram,
    })))
}

#[cfg(test)]
mod tests {
    use crate::bvh::brute_force_pairs;
    use crate::geom::{Point3, Pose, Quat, TriMesh, Vec3};
    use crate::query::answer_line;
    use crate::world::procedural;
    use serde_json::{Value, json};

    fn mesh_json(m: &TriMesh) -> Value {
        json!({
            "vertices": m.vertices.iter().map(|p| json!([p.x, p.y, p.z])).collect::<Vec<_>>(),
            "triangles": m.triangles,
        })
    }

    #[test]
    fn mesh_overlap_answers_the_brute_force_pairs() {
        let a = procedural::icosphere(1.0, 1);
        let b = procedural::torus(1.0, 0.3, 12, 6);
        let q = Quat::from_axis_angle(&Vec3::x_axis(), 0.4);
        let pose_b = Pose::from_parts(Vec3::new(0.2, 0.3, 0.0).into(), q);
        let expected: Vec<Value> = brute_force_pairs(&a, &Pose::identity(), &b, &pose_b)
            .into_iter()
            .map(|(x, y)| json!([x, y]))
            .collect();
        assert!(!expected.is_empty());
        for bv in ["aabb", "obb", "sphere", "kdop14", "kdop18", "kdop26"] {
            let request = json!({
                "id": 7, "op": "mesh_overlap", "a": mesh_json(&a), "b": mesh_json(&b), "bv": bv,
                "pose_b": {"translation": [0.2, 0.3, 0.0], "rotation": [q.w, q.i, q.j, q.k]},
            });
            let answer = answer_line(&request.to_string());
            assert_eq!(answer["ok"], json!(true), "{answer}");
            assert_eq!(answer["id"], json!(7));
            assert_eq!(answer["pairs"], Value::Array(expected.clone()), "{bv}");
            assert!(answer["node_tests"].as_u64().unwrap() > 0);
            assert_eq!(answer["segments"].as_array().unwrap().len(), expected.len());
        }
    }

    #[test]
    fn bvh_stats_answers_the_contract_fields() {
        let m = procedural::torus(1.0, 0.3, 16, 8);
        for build in ["median", "sah"] {
            let answer = answer_line(
                &json!({"op": "bvh_stats", "mesh": mesh_json(&m), "bv": "obb", "build": build})
                    .to_string(),
            );
            assert_eq!(answer["ok"], json!(true), "{answer}");
            for field in [
                "nodes",
                "leaves",
                "depth_max",
                "depth_mean",
                "sah_cost",
                "sibling_overlap_volume",
            ] {
                assert!(answer[field].is_number(), "{field} in {answer}");
            }
            assert_eq!(
                answer["nodes"].as_u64().unwrap(),
                2 * answer["leaves"].as_u64().unwrap() - 1
            );
        }
        // bv defaults to aabb and build to sah
        let answer = answer_line(&json!({"op": "bvh_stats", "mesh": mesh_json(&m)}).to_string());
        assert_eq!(answer["strategy"], json!("sah"));
    }

    #[test]
    fn errors_name_the_field() {
        let tri = json!({"vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "triangles": [[0, 1, 2]]});
        let cases = [
            (
                json!({"op": "mesh_overlap", "a": tri, "b": tri, "bv": "cone"}),
                "\"bv\"",
            ),
            (json!({"op": "mesh_overlap", "a": tri}), "\"b\""),
            (
                json!({"op": "mesh_overlap", "a": tri, "b": {"vertices": [[0, 0, 0]], "triangles": [[0, 1, 2]]}}),
                "\"b\"",
            ),
            (
                json!({"op": "mesh_overlap", "a": tri, "b": tri, "pose_b": {"rotation": [0, 0, 0, 0]}}),
                "pose_b.rotation",
            ),
            (
                json!({"op": "bvh_stats", "mesh": tri, "build": "fast"}),
                "\"build\"",
            ),
            (
                json!({"op": "bvh_stats", "mesh": {"vertices": [[0, 0, "x"]], "triangles": []}}),
                "mesh.vertices",
            ),
        ];
        for (request, field) in cases {
            let answer = answer_line(&request.to_string());
            assert_eq!(answer["ok"], json!(false), "{request}");
            let error = answer["error"].as_str().unwrap();
            assert!(error.contains(field), "{error} should name {field}");
        }
        let _ = Point3::origin();
    }
}

//! `convex_distance` (docs/query-protocol.md): two point sets, their hulls' distance, closest
//! points and closest features, by V-Clip or by GJK (with EPA's depth when they overlap, and
//! the final simplex's vertex pairs instead of features).

use super::gjk::{GjkWarmStart, gjk_query};
use super::support::Posed;
use super::{Feature, Outcome, Placed, Polyhedron, vclip};
use crate::geom::Pose;
use crate::query::args::{Args, arg_error, json_point};
use crate::query::limits::{check_points, check_pose};
use crate::query::{ArgError, Op, Reply};
use crate::trace::NoProbe;
use serde_json::{Value, json};

pub const OPS: &[(&str, Op)] = &[("convex_distance", convex_distance)];

/// The hull of the point set `name`, posed by `pose_<name>`, both checked against the
/// magnitudes the hull code keeps finite and precise (`query_limits`).
fn posed_hull(args: &Args, name: &str) -> Result<(Polyhedron, Pose), ArgError> {
    let points = args.points(name)?;
    check_points(&points, &args.path(name))?;
    let pose = args.pose_of(name)?;
    check_pose(
        &points,
        &pose,
        &args.path(name),
        &args.path(&format!("pose_{name}")),
    )?;
    let hull =
        Polyhedron::closed_hull(&points).map_err(|e| arg_error(&args.path(name), e.to_string()))?;
    Ok((hull, pose))
}

/// Features by their place on the hull the op reports (`hull_a`, `hull_b`): the polyhedron's
/// own numbering.
fn feature_text(f: Feature) -> Value {
    Value::String(f.to_string())
}

fn convex_distance(args: &Args) -> Result<Reply, ArgError> {
    let (a, pose_a) = posed_hull(args, "a")?;
    let (b, pose_b) = posed_hull(args, "b")?;
    let method = args.string_or("method", "vclip")?;
    let (pa, pb) = (Placed::new(&a, &pose_a), Placed::new(&b, &pose_b));
    let reply = match method {
        "vclip" => {
            let r = vclip(&pa, &pb, None, [0, 1], &mut NoProbe);
            if r.outcome == Outcome::IterationCap {
                return Err(arg_error(
                    "method",
                    "V-Clip hit its iteration cap (please report these shapes)",
                ));
            }
            json!({
                "distance": r.distance,
                "penetrating": r.penetrating(),
                "closest_a": json_point(&r.closest[0]),
                "closest_b": json_point(&r.closest[1]),
                "features": [feature_text(r.features[0]), feature_text(r.features[1])],
                "iterations": r.iterations,
                "hull_a": hull_json(&a),
                "hull_b": hull_json(&b),
            })
        }
        "gjk" => {
            let q = gjk_query(
                &Posed {
                    shape: &a,
                    pose: &pose_a,
                },
                &Posed {
                    shape: &b,
                    pose: &pose_b,
                },
                GjkWarmStart::default(),
                [0, 1],
                &mut NoProbe,
            );
            let (ca, cb) = q.points();
            let simplex: Vec<Value> = q
                .gjk
                .simplex_ids()
                .into_iter()
                .map(|[ia, ib]| json!([format!("V{ia}"), format!("V{ib}")]))
                .collect();
            json!({
                "distance": q.signed_distance().max(0.0),
                "penetrating": q.epa.is_some(),
                "depth": q.epa.map_or(0.0, |e| e.depth),
                "closest_a": json_point(&ca),
                "closest_b": json_point(&cb),
                "simplex": simplex,
                "iterations": q.gjk.iterations,
                "hull_a": hull_json(&a),
                "hull_b": hull_json(&b),
            })
        }
        other => {
            return Err(arg_error(
                &args.path("method"),
                format!("unknown method {other:?}: use vclip or gjk"),
            ));
        }
    };
    match reply {
        Value::Object(m) => Ok(m),
        _ => Ok(Reply::new()),
    }
}

/// The hull as the feature ids index it: vertices, edges (tail, head) and faces.
fn hull_json(p: &Polyhedron) -> Value {
    json!({
        "vertices": p.vertices.iter().map(json_point).collect::<Vec<_>>(),
        "edges": p.edges,
        "faces": p.faces,
    })
}

//! `nurbs_intersect` (query-protocol.md): two NURBS surfaces with poses, a world precision
//! and a mode; every hit with its point, normal and exact parameter rectangles.

use super::input_limits::{MAX_BOX_TESTS, check_precision};
use super::query::{HitMode, NurbsHit, QueryOptions, intersect};
use super::surface_json::surface_from_json;
use crate::query::args::{Args, arg_error, json_point, json_vec};
use crate::query::limits::check_pose;
use crate::query::{ArgError, Op, Reply};
use serde_json::{Value, json};

pub const OPS: &[(&str, Op)] = &[("nurbs_intersect", nurbs_intersect)];

fn surface(args: &Args, name: &str) -> Result<super::NurbsSurface, ArgError> {
    let field = args.path(name);
    let Some(v) = args.raw(name) else {
        return Err(arg_error(&field, "missing: a NURBS surface"));
    };
    let s = surface_from_json(v, &field).map_err(|e| arg_error(&e.field, e.cause))?;
    let pose = args.pose_of(name)?;
    let net = s.cartesian_points();
    check_pose(&net, &pose, &field, &args.path(&format!("pose_{name}")))?;
    Ok(s.transformed(&pose))
}

/// Hits one reply may hold: within the box budget a degenerate pair still yields tens of
/// thousands (the fuzzer's slow line: 73,000 hits, 10 MB of JSON, most of its time spent
/// printing). Past it the reply says `truncated` and holds the first ones found.
const MAX_HITS: usize = 10_000;

fn nurbs_intersect(args: &Args) -> Result<Reply, ArgError> {
    let a = surface(args, "a")?;
    let b = surface(args, "b")?;
    let precision = args.positive("precision")?;
    let size = a.size().max(b.size());
    check_precision(precision, size).map_err(|cause| arg_error(&args.path("precision"), cause))?;
    let mode = match args.string_or("mode", "all")? {
        "all" => HitMode::All,
        "first" => HitMode::First,
        other => {
            return Err(arg_error(
                &args.path("mode"),
                format!("must be first or all, got \"{other}\""),
            ));
        }
    };
    let options = QueryOptions::precision(precision, mode).with_max_calls(MAX_BOX_TESTS);
    let (hits, stats) = intersect(&a, &b, options);
    check_hits(&hits, args)?;
    let truncated = stats.truncated || hits.len() > MAX_HITS;
    let hits: Vec<Value> = hits
        .iter()
        .take(MAX_HITS)
        .map(|h| {
            // Surface a's normal at its rectangle's centre; b's reversed where a has none.
            let normal = h.normal_a.or(h.normal_b.map(|n| -n));
            json!({
                "point": json_point(&h.point),
                "normal": normal.map(|n| json_vec(&n)),
                "uv_a": h.rect_a,
                "uv_b": h.rect_b,
            })
        })
        .collect();
    let out = json!({ "hits": hits, "box_tests": stats.calls, "truncated": truncated });
    Ok(match out {
        Value::Object(m) => m,
        _ => Reply::new(),
    })
}

/// Every number a hit reports must be finite: the input checks keep the arithmetic finite,
/// and this is the op's own word on it (serde_json would print NaN as `null`). A failure
/// names the surfaces, the input the hit came from.
fn check_hits(hits: &[NurbsHit], args: &Args) -> Result<(), ArgError> {
    for (i, h) in hits.iter().enumerate() {
        let finite = h.point.iter().all(|x| x.is_finite())
            && h.rect_a.iter().chain(&h.rect_b).all(|x| x.is_finite())
            && [h.normal_a, h.normal_b]
                .iter()
                .flatten()
                .all(|n| n.iter().all(|x| x.is_finite()));
        if !finite {
            return Err(arg_error(
                &format!("{} and {}", args.path("a"), args.path("b")),
                format!("hit {i} is not finite: the surfaces' magnitudes overflowed"),
            ));
        }
    }
    Ok(())
}

//! `nurbs_intersect` (query-protocol.md): two NURBS surfaces with poses, a world precision
//! and a mode; every hit with its point, normal and exact parameter rectangles.

use super::input_limits::{MAX_BOX_TESTS, check_precision};
use super::query::{HitMode, NurbsHit, QueryOptions, QueryStats, intersect};
use super::rules::{BoxRule, NormalRule, Recursion, SplitRule};
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
    let options = options(args, precision)?;
    let (hits, stats) = intersect(&a, &b, options);
    check_hits(&hits, args)?;
    let truncated = stats.truncated || hits.len() > MAX_HITS;
    let hits: Vec<Value> = hits.iter().take(MAX_HITS).map(hit_json).collect();
    let out = json!({
        "hits": hits,
        "box_tests": stats.calls,
        "truncated": truncated,
        "stats": stats_json(&stats),
    });
    Ok(match out {
        Value::Object(m) => m,
        _ => Reply::new(),
    })
}

/// One of a few named values of an optional string argument.
fn choice<T: Copy>(
    args: &Args,
    name: &str,
    default: &'static str,
    values: &[(&str, T)],
) -> Result<T, ArgError> {
    let given = args.string_or(name, default)?;
    values
        .iter()
        .find(|(k, _)| *k == given)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<&str> = values.iter().map(|(k, _)| *k).collect();
            arg_error(
                &args.path(name),
                format!("must be one of {}, got \"{given}\"", names.join(", ")),
            )
        })
}

/// The query's options from the request: the mode, the thesis' rules or their alternatives,
/// the flat-patch stop.
fn options(args: &Args, precision: f64) -> Result<QueryOptions, ArgError> {
    let mode = choice(
        args,
        "mode",
        "all",
        &[
            ("all", HitMode::All),
            ("first", HitMode::First),
            ("curve", HitMode::Curve),
        ],
    )?;
    let box_rule = choice(
        args,
        "box_rule",
        "covariance",
        &[
            ("covariance", BoxRule::Covariance),
            ("corner_frame", BoxRule::CornerFrame),
        ],
    )?;
    let split_rule = choice(
        args,
        "split_rule",
        "thesis",
        &[
            ("thesis", SplitRule::Thesis),
            ("alternate", SplitRule::Alternate),
        ],
    )?;
    let recursion = choice(
        args,
        "recursion",
        "2.3",
        &[
            ("2.3", Recursion::OneSplit),
            ("2.1", Recursion::Base),
            ("2.2", Recursion::Subdivide4),
        ],
    )?;
    let normal = choice(
        args,
        "normal",
        "surface",
        &[
            ("surface", NormalRule::Surface),
            ("thinnest_axis", NormalRule::ThinnestAxis),
        ],
    )?;
    let mut o = QueryOptions::precision(precision, mode)
        .with_max_calls(MAX_BOX_TESTS)
        .with_box_rule(box_rule)
        .with_split_rule(split_rule)
        .with_recursion(recursion)
        .with_normal(normal);
    if args.raw("flat").is_some() {
        o = o.with_flat(Some(args.positive("flat")?));
    }
    Ok(o)
}

fn hit_json(h: &NurbsHit) -> Value {
    // Surface a's normal at its rectangle's centre; b's reversed where a has none.
    let normal = h.normal_a.or(h.normal_b.map(|n| -n));
    let mut hit = json!({
        "point": json_point(&h.point),
        "normal": normal.map(|n| json_vec(&n)),
        "uv_a": h.rect_a,
        "uv_b": h.rect_b,
    });
    if !h.segments.is_empty()
        && let Value::Object(m) = &mut hit
    {
        let segments: Vec<Value> = h
            .segments
            .iter()
            .map(|s| {
                json!({
                    "ends": [json_point(&s.ends[0]), json_point(&s.ends[1])],
                    "uv_a": s.uv_a,
                    "uv_b": s.uv_b,
                })
            })
            .collect();
        m.insert("segments".into(), Value::Array(segments));
    }
    hit
}

fn stats_json(s: &QueryStats) -> Value {
    json!({
        "calls": s.calls,
        "boxes_built": s.boxes_built,
        "sat_tests": s.sat_tests,
        "axes_tested": s.axes_tested,
        "splits": s.splits,
        "max_depth": s.max_depth,
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
                .all(|n| n.iter().all(|x| x.is_finite()))
            && h.segments.iter().all(|s| {
                s.ends.iter().all(|e| e.iter().all(|x| x.is_finite()))
                    && s.uv_a
                        .iter()
                        .chain(&s.uv_b)
                        .flatten()
                        .all(|x| x.is_finite())
            });
        if !finite {
            return Err(arg_error(
                &format!("{} and {}", args.path("a"), args.path("b")),
                format!("hit {i} is not finite: the surfaces' magnitudes overflowed"),
            ));
        }
    }
    Ok(())
}

//! `nurbs_intersect` (query-protocol.md): two NURBS surfaces with poses, a world precision
//! and a mode; every hit with its point, normal and exact parameter rectangles.

use super::query::{HitMode, QueryOptions, intersect};
use super::surface_json::surface_from_json;
use crate::query::args::{Args, arg_error, json_point, json_vec};
use crate::query::{ArgError, Op, Reply};
use serde_json::{Value, json};

pub const OPS: &[(&str, Op)] = &[("nurbs_intersect", nurbs_intersect)];

fn surface(args: &Args, name: &str) -> Result<super::NurbsSurface, ArgError> {
    let field = args.path(name);
    let Some(v) = args.raw(name) else {
        return Err(arg_error(&field, "missing: a NURBS surface"));
    };
    let s = surface_from_json(v, &field).map_err(|e| arg_error(&e.field, e.cause))?;
    Ok(s.transformed(&args.pose_of(name)?))
}

/// The finest precision the op accepts, as a fraction of the larger surface's size (the
/// diagonal of its control points' box): about 17 halvings per direction.
const MIN_RELATIVE_PRECISION: f64 = 1e-5;

/// Box pairs one query may test (a fraction of a second): a query line is untrusted input,
/// and surfaces touching along an area in all-hits mode, or weights far apart, would
/// otherwise keep the op running for minutes (the fuzzer's hangs). Past it the reply says
/// `truncated` and holds the hits found so far.
const MAX_BOX_TESTS: u64 = 200_000;

/// Hits one reply may hold: within the box budget a degenerate pair still yields tens of
/// thousands (the fuzzer's slow line: 73,000 hits, 10 MB of JSON, most of its time spent
/// printing). Past it the reply says `truncated` and holds the first ones found.
const MAX_HITS: usize = 10_000;

fn nurbs_intersect(args: &Args) -> Result<Reply, ArgError> {
    let a = surface(args, "a")?;
    let b = surface(args, "b")?;
    let precision = args.positive("precision")?;
    // Each halving of a piece is one level; a precision far below the surfaces' size asks
    // for so many levels that an all-hits query runs for minutes (the fuzzer's hangs: one
    // control point at 1e23 with a precision of 0.01). A query line is untrusted input.
    let size = a.size().max(b.size());
    if !(size.is_finite() && precision >= size * MIN_RELATIVE_PRECISION) {
        return Err(arg_error(
            &args.path("precision"),
            format!(
                "{precision} is finer than {MIN_RELATIVE_PRECISION:e} of the surfaces' size ({size:e}): pass a coarser precision"
            ),
        ));
    }
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

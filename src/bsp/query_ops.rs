//! `bsp_sweep` and `bsp_slide` (docs/query-protocol.md): a level given as `brushes` (lists of
//! `[nx, ny, nz, d]` planes, outward normals), as `map` (a Quake `.map` file's world
//! brushes) or as `mesh` (a closed `.obj` mesh, cut into convex brushes by the mesh BSP), a
//! `shape`, a `start` and an `end`.

use super::event::BspEvent;
use super::map::load_map;
use super::{Brush, BspTree, Shape, slide, sweep};
use crate::geom::{Plane, Vec3};
use crate::query::args::{Args, arg_error, json_point, json_vec, number_at};
use crate::query::{ArgError, Op, Reply};
use crate::trace::{EventKind, NoProbe, Probe, TraceEvent};
use serde_json::{Value, json};

pub const OPS: &[(&str, Op)] = &[
    ("bsp_sweep", bsp_sweep),
    ("bsp_slide", bsp_slide),
    ("bsp_stats", bsp_stats),
];

fn reply(v: Value) -> Reply {
    match v {
        Value::Object(m) => m,
        _ => Reply::new(),
    }
}

fn level(args: &Args) -> Result<BspTree, ArgError> {
    if let Some(path) = args.raw("mesh") {
        let Some(path) = path.as_str() else {
            return Err(arg_error(&args.path("mesh"), "must be a file path"));
        };
        let mesh = crate::world::obj::load_obj(std::path::Path::new(path))
            .map_err(|e| arg_error(&args.path("mesh"), e.to_string()))?;
        let built = super::mesh_bsp::brushes_from_mesh(&mesh.vertices, &mesh.triangles)
            .map_err(|e| arg_error(&args.path("mesh"), format!("{path}: {e}")))?;
        return Ok(BspTree::build(built.brushes));
    }
    if let Some(path) = args.raw("map") {
        let Some(path) = path.as_str() else {
            return Err(arg_error(&args.path("map"), "must be a file path"));
        };
        let level = load_map(std::path::Path::new(path))
            .map_err(|e| arg_error(&args.path("map"), e.to_string()))?;
        return Ok(BspTree::build(level.brushes));
    }
    let field = args.path("brushes");
    let Some(Value::Array(list)) = args.raw("brushes") else {
        return Err(arg_error(&field, "missing: give brushes, map or mesh"));
    };
    let mut brushes = Vec::with_capacity(list.len());
    for (i, b) in list.iter().enumerate() {
        let at = format!("{field}[{i}]");
        let Value::Array(planes) = b else {
            return Err(arg_error(&at, "must be an array of planes [nx, ny, nz, d]"));
        };
        let mut ps = Vec::with_capacity(planes.len());
        for (j, p) in planes.iter().enumerate() {
            let pat = format!("{at}[{j}]");
            let c = match p {
                Value::Array(c) if c.len() == 4 => c,
                _ => return Err(arg_error(&pat, "must be [nx, ny, nz, d]")),
            };
            let n: Vec<f64> = c
                .iter()
                .enumerate()
                .map(|(k, v)| number_at(v, &format!("{pat}[{k}]")))
                .collect::<Result<_, _>>()?;
            let plane = Plane::new(Vec3::new(n[0], n[1], n[2]), n[3])
                .ok_or_else(|| arg_error(&pat, "the normal has no direction"))?;
            ps.push(plane);
        }
        brushes.push(Brush::from_planes(&ps).map_err(|e| arg_error(&at, e.to_string()))?);
    }
    Ok(BspTree::build(brushes))
}

fn shape(args: &Args) -> Result<Shape, ArgError> {
    let s = args.object("shape")?;
    let kind = s.string_or("kind", "")?;
    let triple = |name: &str| -> Result<Vec3, ArgError> {
        let v = s.vector(name)?;
        if v.iter().all(|c| *c >= 0.0) {
            Ok(v)
        } else {
            Err(arg_error(&s.path(name), "must be non-negative"))
        }
    };
    Ok(match kind {
        "sphere" => Shape::Sphere {
            radius: s.non_negative("radius")?,
        },
        "box" => Shape::Box {
            half_extents: triple("half_extents")?,
        },
        "ellipsoid" => Shape::Ellipsoid {
            radii: triple("radii")?,
        },
        "cylinder" => Shape::Cylinder {
            radius: s.non_negative("radius")?,
            half_height: s.non_negative("half_height")?,
        },
        "capsule" => Shape::Capsule {
            radius: s.non_negative("radius")?,
            half_height: s.non_negative("half_height")?,
        },
        other => {
            return Err(arg_error(
                &s.path("kind"),
                format!("must be sphere, box, ellipsoid, cylinder or capsule, got \"{other}\""),
            ));
        }
    })
}

fn bsp_sweep(args: &Args) -> Result<Reply, ArgError> {
    let tree = level(args)?;
    let shape = shape(args)?;
    let (start, end) = (args.point("start")?, args.point("end")?);
    let s = sweep(&tree, &shape, &start, &end, &mut NoProbe);
    Ok(reply(json!({
        "fraction": s.fraction(),
        "contact_fraction": s.contact_fraction(),
        "normal": s.hit.map(|h| json_vec(&h.normal)),
        "brush": s.hit.map(|h| h.brush),
        "start_solid": s.start_solid,
    })))
}

/// The tree built over the level: its statistics and each leaf with the brushes it lists.
fn bsp_stats(args: &Args) -> Result<Reply, ArgError> {
    let tree = level(args)?;
    let s = tree.stats;
    let leaves: Vec<Value> = (0..tree.leaves.len() as u32)
        .map(|l| {
            json!({
                "depth": tree.leaves[l as usize].depth,
                "brushes": tree.leaf_brush_ids(l),
            })
        })
        .collect();
    Ok(reply(json!({
        "brushes": s.brushes,
        "nodes": s.nodes,
        "solid_leaves": s.solid_leaves,
        "empty_leaves": s.empty_leaves,
        "depth_max": s.max_depth,
        "depth_mean": s.mean_leaf_depth,
        "split_brushes": s.split_brushes,
        "bevel_planes": s.bevel_planes,
        "leaves": leaves,
    })))
}

/// Keeps the slide's iteration events.
#[derive(Default)]
struct Iterations(Vec<BspEvent>);

impl Probe for Iterations {
    fn enabled(&self) -> bool {
        true
    }

    fn record(&mut self, make: impl FnOnce() -> TraceEvent) {
        if let EventKind::Bsp(e @ BspEvent::Iteration { .. }) = make().kind {
            self.0.push(e);
        }
    }
}

fn bsp_slide(args: &Args) -> Result<Reply, ArgError> {
    let tree = level(args)?;
    let shape = shape(args)?;
    let (start, end) = (args.point("start")?, args.point("end")?);
    let mut its = Iterations::default();
    let s = slide(&tree, &shape, &start, &(end - start), &mut its);
    let iterations: Vec<Value> = its
        .0
        .iter()
        .filter_map(|e| match e {
            BspEvent::Iteration {
                start,
                remaining,
                hit,
                frac_impact,
                ..
            } => {
                let normal =
                    hit.map(|(b, p)| json_vec(&tree.brushes[b as usize].planes[p as usize].normal));
                Some(json!({
                    "start": json_point(start),
                    "end": json_point(&(start + remaining * *frac_impact)),
                    "normal": normal,
                }))
            }
            _ => None,
        })
        .collect();
    let stopped_by = match s.reason {
        super::SlideEnd::NoImpact => "no_impact",
        super::SlideEnd::Corner => "corner",
        super::SlideEnd::Reversed => "reversed",
        super::SlideEnd::TooShort => "too_short",
        super::SlideEnd::MaxIterations => "max_iterations",
        super::SlideEnd::StartSolid => "start_solid",
        super::SlideEnd::Still => "no_movement",
        // Only the article's slide ends so; the query runs the engine's.
        super::SlideEnd::NotFinite => "not_finite",
    };
    Ok(reply(json!({
        "end": json_point(&s.end),
        "iterations": iterations,
        "stopped_by": stopped_by,
        "collided": s.collided,
    })))
}

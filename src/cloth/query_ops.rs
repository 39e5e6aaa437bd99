//! `cloth_step` (README's op list): a sheet given as a grid, an optional rigid obstacle mesh
//! and the thresholds; steps it and answers the contacts, the rays by class and every
//! inversion.

use super::classify::RayKind;
use super::mesh::ClothMesh;
use super::params::ClothParams;
use super::sim::{Cloth, Obstacle};
use crate::query::args::{Args, arg_error};
use crate::query::{ArgError, Op, Reply};
use serde_json::{Value, json};

pub const OPS: &[(&str, Op)] = &[("cloth_step", cloth_step)];

/// Large enough for the bench's sheets, small enough that a query line cannot exhaust memory.
const MAX_VERTICES: u64 = 250_000;
const MAX_STEPS: Real = 10_000.0;
/// Vertices times steps one line may ask for (about a second of stepping): a query line is
/// untrusted input, and the two bounds above alone allow hours. Longer runs are what
/// `collidoscope record` is for.
const MAX_VERTEX_STEPS: u64 = 1_000_000;
/// Where the op's sheet and obstacle must stay (metres from the origin). Far beyond it an
/// `f64` coordinate keeps too few bits below the sheet's spacing: the cloth's boxes stop
/// separating its triangles and every self ray tests them all (the fuzzer's slow query: a
/// sheet thrown at 1e13 m/s took seconds for one step).
const WORLD_EXTENT_M: Real = 1e6;

/// With these two bounds one step moves a vertex by at most about the world's extent, so
/// the check after each step stops the sheet before its coordinates lose their precision.
const MAX_SPEED_MPS: Real = 1e6;
const MAX_DT_S: Real = 1.0;

use crate::geom::{Point3, Real};

/// The first point beyond the world's extent, if any.
fn outside_world(points: &[Point3]) -> Option<&Point3> {
    points
        .iter()
        .find(|p| !p.iter().all(|c| c.abs() <= WORLD_EXTENT_M))
}

fn count(args: &Args, name: &str, default: Real, max: Real) -> Result<u32, ArgError> {
    let n = args.number_or(name, default)?;
    if !(n.fract() == 0.0 && (1.0..=max).contains(&n)) {
        return Err(arg_error(
            &args.path(name),
            format!("must be an integer in 1..={max}"),
        ));
    }
    Ok(n as u32)
}

fn cloth_step(args: &Args) -> Result<Reply, ArgError> {
    let mut cloth = sheet(args)?;
    let obstacles = obstacles_of(args)?;
    let steps = count(args, "steps", 1.0, MAX_STEPS)?;
    let vertex_steps = steps as u64 * cloth.positions.len() as u64;
    if vertex_steps > MAX_VERTEX_STEPS {
        return Err(arg_error(
            &args.path("steps"),
            format!(
                "{steps} steps of {} vertices exceed the {MAX_VERTEX_STEPS} vertex steps a line \
                 may run (record a scene for longer runs)",
                cloth.positions.len()
            ),
        ));
    }
    let dt_s = time_step(args)?;
    let (mut contacts, mut kinds, mut inversions) = (0usize, [0usize; 5], Vec::new());
    for step in 0..steps {
        let outcome = cloth.step(dt_s, &obstacles, false);
        if let Some(p) = outside_world(&cloth.positions) {
            return Err(arg_error(
                &args.path("steps"),
                format!(
                    "the sheet left the world at step {step}: a vertex at {p:?} lies beyond \
                     ±{WORLD_EXTENT_M:e} m (check velocity and dt_s)"
                ),
            ));
        }
        contacts += outcome.contacts;
        for r in &outcome.rays {
            kinds[match r.kind {
                RayKind::Collision => 0,
                RayKind::Prediction => 1,
                RayKind::Rejected => 2,
                RayKind::Culled => 3,
                RayKind::Lost => 4,
            }] += 1;
        }
        inversions.extend(outcome.inversions.iter().map(|i| {
            json!({"step": step, "vertex": i.vertex, "triangle": i.triangle,
                   "target": format!("{:?}", i.target), "promoted": i.promoted,
                   "corrected": i.corrected})
        }));
    }
    let mut reply = Reply::new();
    reply.insert("contacts".into(), json!(contacts));
    reply.insert(
        "rays".into(),
        json!({"collision": kinds[0], "prediction": kinds[1], "rejected": kinds[2],
               "culled": kinds[3], "lost": kinds[4]}),
    );
    reply.insert("inversions".into(), Value::Array(inversions));
    reply.insert(
        "positions".into(),
        Value::Array(
            cloth
                .positions
                .iter()
                .map(crate::query::args::json_point)
                .collect(),
        ),
    );
    Ok(reply)
}

/// The sheet the arguments describe: its grid, thresholds and starting velocity.
fn sheet(args: &Args) -> Result<Cloth, ArgError> {
    let grid = args.object("cloth")?;
    let columns = count(&grid, "columns", 10.0, MAX_VERTICES as Real)?;
    let rows = count(&grid, "rows", 10.0, MAX_VERTICES as Real)?;
    if columns as u64 * rows as u64 > MAX_VERTICES {
        return Err(arg_error(
            &args.path("cloth"),
            format!("more than {MAX_VERTICES} vertices"),
        ));
    }
    let (mesh, positions) = ClothMesh::grid(
        columns,
        rows,
        grid.point("corner")?,
        grid.vector("u")?,
        grid.vector("v")?,
    )
    .map_err(|e| arg_error(&args.path("cloth"), e))?;
    let defaults = ClothParams::default();
    let params = ClothParams {
        half_thickness_m: args.number_or("half_thickness_m", defaults.half_thickness_m)?,
        prediction_distance_m: args
            .number_or("prediction_distance_m", defaults.prediction_distance_m)?,
        self_collision: !matches!(args.raw("self_collision"), Some(Value::Bool(false))),
        ..defaults
    };
    if let Some(p) = outside_world(&positions) {
        return Err(arg_error(
            &args.path("cloth"),
            format!("a vertex at {p:?} lies beyond ±{WORLD_EXTENT_M:e} m"),
        ));
    }
    let mut cloth =
        Cloth::new(0, mesh, positions, params).map_err(|e| arg_error(&args.path("cloth"), e))?;
    if args.raw("velocity").is_some() {
        let v = args.vector("velocity")?;
        if !v.iter().all(|c| c.abs() <= MAX_SPEED_MPS) {
            return Err(arg_error(
                &args.path("velocity"),
                format!("a component beyond ±{MAX_SPEED_MPS:e} m/s"),
            ));
        }
        cloth.velocities.iter_mut().for_each(|x| *x = v);
    }
    Ok(cloth)
}

/// The optional rigid obstacle (body 1).
fn obstacles_of(args: &Args) -> Result<Vec<Obstacle>, ArgError> {
    if args.raw("obstacle").is_none() {
        return Ok(Vec::new());
    }
    let mesh = args.mesh("obstacle")?;
    if let Some(p) = outside_world(&mesh.vertices) {
        return Err(arg_error(
            &args.path("obstacle"),
            format!("a vertex at {p:?} lies beyond ±{WORLD_EXTENT_M:e} m"),
        ));
    }
    Ok(vec![Obstacle::new(1, mesh)])
}

/// An absent step takes the scenes' 1/60 s; a present but invalid one is an error, not
/// silently replaced.
fn time_step(args: &Args) -> Result<Real, ArgError> {
    let dt_s = match args.raw("dt_s") {
        Some(_) => args.positive("dt_s")?,
        None => 1.0 / 60.0,
    };
    if dt_s > MAX_DT_S {
        return Err(arg_error(
            &args.path("dt_s"),
            format!("{dt_s} s is longer than the {MAX_DT_S} s a step may take"),
        ));
    }
    Ok(dt_s)
}

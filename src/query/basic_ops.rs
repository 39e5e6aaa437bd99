//! The primitive tests of spec 004: spheres, capsules, planes, boxes, rays.

use super::args::{Args, arg_error, json_point, json_vec};
use super::{ArgError, Op, Reply};
use crate::bvh::{AnyBvh, BuildOptions, BvKind};
use crate::geom::{Aabb, Capsule, Plane, Ray, Sphere, closest};
use crate::trace::NoProbe;
use serde_json::{Value, json};

pub const OPS: &[(&str, Op)] = &[
    ("sphere_sphere", sphere_sphere),
    ("sphere_plane", sphere_plane),
    ("sphere_capsule", sphere_capsule),
    ("capsule_capsule", capsule_capsule),
    ("aabb_aabb", aabb_aabb),
    ("segment_segment", segment_segment),
    ("ray_mesh", ray_mesh),
];

fn reply(v: Value) -> Reply {
    match v {
        Value::Object(m) => m,
        _ => Reply::new(),
    }
}

fn sphere(args: &Args, name: &str) -> Result<Sphere, ArgError> {
    let s = args.object(name)?;
    Ok(Sphere::new(s.point("center")?, s.non_negative("radius")?))
}

/// `{"p0": [x,y,z], "p1": [x,y,z], "radius": r}`: the course's two centres and one radius.
fn capsule(args: &Args, name: &str) -> Result<Capsule, ArgError> {
    let c = args.object(name)?;
    Ok(Capsule::new(
        c.point("p0")?,
        c.point("p1")?,
        c.non_negative("radius")?,
    ))
}

fn sphere_sphere(args: &Args) -> Result<Reply, ArgError> {
    let (a, b) = (sphere(args, "a")?, sphere(args, "b")?);
    Ok(reply(json!({
        "intersects": a.intersects_sphere(&b),
        "distance": a.distance_to_sphere(&b),
    })))
}

/// `plane: [nx, ny, nz, d]` (points with n·x = d). `distance` is the signed distance from the
/// sphere's surface to the plane (negative: penetration), `center_distance` the centre's.
fn sphere_plane(args: &Args) -> Result<Reply, ArgError> {
    let s = sphere(args, "sphere")?;
    let field = args.path("plane");
    let raw = args
        .raw("plane")
        .ok_or_else(|| arg_error(&field, "missing"))?;
    let c: Vec<f64> = match raw {
        Value::Array(items) if items.len() == 4 => items
            .iter()
            .enumerate()
            .map(|(i, v)| super::args::number_at(v, &format!("{field}[{i}]")))
            .collect::<Result<_, _>>()?,
        _ => return Err(arg_error(&field, "must be [nx, ny, nz, d]")),
    };
    let plane = Plane::new(crate::geom::Vec3::new(c[0], c[1], c[2]), c[3])
        .ok_or_else(|| arg_error(&field, "the normal must be non-zero"))?;
    Ok(reply(json!({
        "intersects": s.intersects_plane(&plane),
        "distance": s.distance_to_plane(&plane),
        "center_distance": plane.signed_distance(&s.center),
    })))
}

fn sphere_capsule(args: &Args) -> Result<Reply, ArgError> {
    let (s, c) = (sphere(args, "sphere")?, capsule(args, "capsule")?);
    let d = c.distance_to_sphere(&s);
    Ok(reply(json!({ "intersects": d <= 0.0, "distance": d })))
}

fn capsule_capsule(args: &Args) -> Result<Reply, ArgError> {
    let (a, b) = (capsule(args, "a")?, capsule(args, "b")?);
    let (p, q) = closest::segment_segment(&a.segment, &b.segment);
    let d = a.distance_to_capsule(&b);
    Ok(reply(json!({
        "intersects": d <= 0.0,
        "distance": d,
        "closest_a": json_point(&p.point),
        "closest_b": json_point(&q.point),
    })))
}

fn aabb(args: &Args, name: &str) -> Result<Aabb, ArgError> {
    let o = args.object(name)?;
    let b = Aabb::new(o.point("min")?, o.point("max")?);
    if b.is_empty() {
        return Err(arg_error(
            &args.path(name),
            "min must be ≤ max on every axis",
        ));
    }
    Ok(b)
}

fn aabb_aabb(args: &Args) -> Result<Reply, ArgError> {
    let (a, b) = (aabb(args, "a")?, aabb(args, "b")?);
    Ok(reply(json!({ "intersects": a.intersects(&b) })))
}

fn segment_segment(args: &Args) -> Result<Reply, ArgError> {
    let seg = |name: &str| -> Result<crate::geom::Segment, ArgError> {
        let o = args.object(name)?;
        Ok(crate::geom::Segment::new(o.point("p0")?, o.point("p1")?))
    };
    let (a, b) = (seg("a")?, seg("b")?);
    let (p, q) = closest::segment_segment(&a, &b);
    Ok(reply(json!({
        "distance": (p.point - q.point).norm(),
        "closest_a": json_point(&p.point),
        "closest_b": json_point(&q.point),
        "t_a": p.t,
        "t_b": q.t,
    })))
}

fn ray_mesh(args: &Args) -> Result<Reply, ArgError> {
    let origin = args.point("origin")?;
    let dir = args.vector("dir")?;
    if dir.norm() == 0.0 {
        return Err(arg_error(&args.path("dir"), "must be non-zero"));
    }
    let max_t = args.number_or("max_t", f64::INFINITY)?;
    if max_t < 0.0 {
        return Err(arg_error(&args.path("max_t"), "must be ≥ 0"));
    }
    let mesh = args.mesh("mesh")?;
    let pose = args.pose_of("mesh")?;
    // Cast in the mesh's frame: the ray moves, the mesh stays as given.
    let local = Ray::new(pose.inverse() * origin, pose.inverse() * dir);
    let tree = AnyBvh::build(&mesh, BvKind::Aabb, &BuildOptions::default());
    match tree.cast_ray(&mesh, &local, max_t, 0, &mut NoProbe) {
        Some(hit) => Ok(reply(json!({
            "hit": true,
            "t": hit.t,
            "triangle": hit.triangle,
            "point": json_point(&(pose * hit.point)),
            "normal": json_vec(&(pose * hit.normal)),
        }))),
        None => Ok(reply(json!({ "hit": false }))),
    }
}

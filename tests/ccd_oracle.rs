//! Continuous collision against independent oracles. Times of impact: parry3d's distance
//! sampled densely along the motion, then bisected, for every pair of shape types (spheres,
//! boxes, capsules, hulls, and triangle meshes as the partner). The ray between positions:
//! dense sampling of the segment with parry's point queries. Then the engine end to end:
//! the tunnelling scene misses in `Off` and is caught by every other mode.

use crate::parry_bridge;
use parry_bridge::to_parry;

use collidoscope::bvh::{AnyBvh, BuildOptions, BvKind};
use collidoscope::ccd::{
    self, Motion, Mover, ShapeAt, Toi, ray::segment_vs_shape, time_of_impact, time_of_sinking,
    tunnel::find_tunnels,
};
use collidoscope::dynamics::Shape;
use collidoscope::geom::{Point3, Pose, Vec3};
use collidoscope::trace::NoProbe;
use collidoscope::world::{ShapeDesc, shape_of};
use parry3d_f64::math::Vector as PVec;
use parry3d_f64::query;
use parry3d_f64::shape::{
    Ball, Capsule, ConvexPolyhedron, Cuboid, Shape as PShape, TriMesh, Triangle as PTriangle,
};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn scale() -> u32 {
    std::env::var("COLLIDOSCOPE_TEST_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// How close an impact stops short of touching, as the step uses it.
const TARGET: f64 = 0.01;

#[derive(Clone, Debug)]
enum Kind {
    Sphere(f64),
    Box([f64; 3]),
    Capsule(f64, f64),
    Hull(Vec<[f64; 3]>),
    /// A bumpy grid of triangles (a terrain patch): only ever the partner.
    Mesh(Vec<f64>),
}

fn convex_kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        (0.05f64..0.8).prop_map(Kind::Sphere),
        prop::array::uniform3(0.05f64..0.8).prop_map(Kind::Box),
        (0.05f64..0.5, 0.0f64..0.8).prop_map(|(r, h)| Kind::Capsule(r, h)),
        prop::collection::vec(prop::array::uniform3(-0.7f64..0.7), 6..14).prop_map(Kind::Hull),
    ]
}

fn any_kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        4 => convex_kind(),
        1 => prop::collection::vec(-0.3f64..0.3, 16).prop_map(Kind::Mesh),
    ]
}

fn terrain(heights: &[f64]) -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let n = 4;
    let mut vertices = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let (x, z) = (i as f64 - 1.5, j as f64 - 1.5);
            vertices.push([x, heights[i * n + j], z]);
        }
    }
    let mut triangles = Vec::new();
    for i in 0..n - 1 {
        for j in 0..n - 1 {
            let v = |a: usize, b: usize| (a * n + b) as u32;
            triangles.push([v(i, j), v(i, j + 1), v(i + 1, j)]);
            triangles.push([v(i + 1, j), v(i, j + 1), v(i + 1, j + 1)]);
        }
    }
    (vertices, triangles)
}

/// Our shape and the same geometry as a parry shape (hulls and meshes share their
/// recentred vertices).
fn build(k: &Kind) -> Option<(Shape, Box<dyn PShape>)> {
    let desc = match k {
        Kind::Sphere(r) => ShapeDesc::Sphere { radius: *r },
        Kind::Box(h) => ShapeDesc::Box { half_extents: *h },
        Kind::Capsule(r, h) => ShapeDesc::Capsule {
            radius: *r,
            half_height: *h,
        },
        Kind::Hull(p) => ShapeDesc::ConvexHull { points: p.clone() },
        Kind::Mesh(h) => {
            let (vertices, triangles) = terrain(h);
            ShapeDesc::TriMesh {
                vertices,
                triangles,
            }
        }
    };
    let (shape, _) = shape_of(&desc).ok()?;
    let pv = |v: &Point3| PVec::new(v.x, v.y, v.z);
    let theirs: Box<dyn PShape> = match (&shape, k) {
        (_, Kind::Sphere(r)) => Box::new(Ball::new(*r)),
        (_, Kind::Box(h)) => Box::new(Cuboid::new(PVec::new(h[0], h[1], h[2]))),
        (_, Kind::Capsule(r, h)) => Box::new(Capsule::new_y(*h, *r)),
        (Shape::Convex(poly), _) => Box::new(ConvexPolyhedron::from_convex_hull(
            &poly.vertices.iter().map(pv).collect::<Vec<_>>(),
        )?),
        (Shape::Mesh(mesh), _) => Box::new(
            TriMesh::new(
                mesh.vertices.iter().map(pv).collect(),
                mesh.triangles.clone(),
            )
            .ok()?,
        ),
        _ => return None,
    };
    Some((shape, theirs))
}

fn pose(t: [f64; 3], r: [f64; 3]) -> Pose {
    Pose::new(Vec3::from(t), Vec3::from(r))
}

/// parry's distance between the two shapes at fraction `t` of their motions (0 inside).
fn parry_distance(sa: &dyn PShape, ma: &Motion, sb: &dyn PShape, mb: &Motion, t: f64) -> f64 {
    query::distance(&to_parry(&ma.at(t)), sa, &to_parry(&mb.at(t)), sb)
        .expect("parry supports every pair here")
        .distance
}

/// The oracle's time of impact: the first of `samples` times where parry says the shapes
/// touch, bisected against the sample before it.
fn sampled_toi(
    sa: &dyn PShape,
    ma: &Motion,
    sb: &dyn PShape,
    mb: &Motion,
    samples: u32,
) -> Option<f64> {
    let touching = |t: f64| parry_distance(sa, ma, sb, mb, t) <= 0.0;
    let first = (0..=samples).find(|&k| touching(k as f64 / samples as f64))?;
    if first == 0 {
        return Some(0.0);
    }
    let (mut lo, mut hi) = (
        (first - 1) as f64 / samples as f64,
        first as f64 / samples as f64,
    );
    for _ in 0..50 {
        let mid = 0.5 * (lo + hi);
        if touching(mid) { hi = mid } else { lo = mid }
    }
    Some(hi)
}

fn motion_strategy() -> impl Strategy<Value = (Motion, Motion)> {
    (
        prop::array::uniform3(-3.0f64..3.0),
        prop::array::uniform3(-3.0f64..3.0),
        prop::array::uniform3(-1.5f64..1.5),
        prop::array::uniform3(-1.5f64..1.5),
        prop::array::uniform3(-0.5f64..0.5),
        prop::array::uniform3(-1.0f64..1.0),
        prop::array::uniform3(-0.6f64..0.6),
        0u8..4,
    )
        .prop_map(|(a0, a1, ra0, ra1, b_move, rb0, rb_turn, flavour)| {
            // Degenerate motions on purpose: no turn, no move, a partner that turns.
            let (ra1, a1) = match flavour {
                0 => (ra0, a1),
                1 => (ra0, a0),
                _ => (ra1, a1),
            };
            let b0 = pose([0.0; 3], rb0);
            let b1 = if flavour == 3 {
                pose(
                    b_move,
                    [
                        rb0[0] + rb_turn[0],
                        rb0[1] + rb_turn[1],
                        rb0[2] + rb_turn[2],
                    ],
                )
            } else {
                pose(b_move, rb0)
            };
            (
                Motion::new(pose(a0, ra0), pose(a1, ra1)),
                Motion::new(b0, b1),
            )
        })
}

fn mover<'a>(id: u32, shape: &'a Shape, motion: Motion) -> Mover<'a> {
    Mover {
        id,
        shape,
        motion,
        rim: ccd::rim_radius(shape),
        tree: None,
    }
}

/// The step's own signed distance at fraction `t` of the motions (negative: the depth).
fn our_signed(sa: &Shape, ma: &Motion, sb: &Shape, mb: &Motion, t: f64) -> f64 {
    let (pa, pb) = (ma.at(t), mb.at(t));
    ccd::signed_distance(ShapeAt::new(sa, &pa), ShapeAt::new(sb, &pb), 10.0)
        .expect("convex pairs have a distance")
}

/// How deep a touching pair may sink before its sinking is an impact (half the default
/// penetration tolerance, as the step uses it).
const SINK_LIMIT: f64 = 0.05;

/// A pair placed touching or overlapping at the start: `a`'s motion shifted so that it
/// starts `gap` from `b`'s centre (as a fraction of the sum of their rims).
fn touching_start(ma: Motion, sa: &Shape, sb: &Shape, reach: f64) -> Motion {
    let dir = ma.start.translation.vector.normalize();
    let from = dir * reach * (ccd::rim_radius(sa) + ccd::rim_radius(sb));
    let shift = from - ma.start.translation.vector;
    let moved = |p: &Pose| Pose::from_parts((p.translation.vector + shift).into(), p.rotation);
    Motion::new(moved(&ma.start), moved(&ma.end))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200 * scale()))]

    /// A pair touching at the start stops where it sinks a margin past the limit (or past its
    /// start, when it starts deeper than that), never deeper than a second margin. The oracle is the
    /// same distance sampled densely along the motion: this checks the advancement, which
    /// must never step over a sinking; the depths themselves are the narrow phase's.
    #[test]
    fn time_of_sinking_stops_a_touching_pair_where_parry_sees_it_sink_past_the_limit(
        ka in convex_kind(),
        kb in convex_kind(),
        (ma, mb) in motion_strategy(),
        reach in 0.2f64..1.05,
    ) {
        let (Some((sa, _)), Some((sb, _))) = (build(&ka), build(&kb)) else {
            return Err(TestCaseError::reject("degenerate hull"));
        };
        prop_assume!(ma.start.translation.vector.norm() > 1e-3);
        let ma = touching_start(ma, &sa, &sb, reach);
        let start = our_signed(&sa, &ma, &sb, &mb, 0.0);
        let ours = time_of_sinking(&mover(0, &sa, ma), &mover(1, &sb, mb), SINK_LIMIT, TARGET, &mut NoProbe);
        // It stops within one margin past where it sinks a margin past the limit (or within
        // half a margin past where it sinks half a margin past its start, when it starts
        // deeper than that): `top` and `floor` bound that band.
        let (top, width) = if start > -SINK_LIMIT - TARGET {
            (-SINK_LIMIT - TARGET, TARGET)
        } else {
            (start - 0.5 * TARGET, 0.5 * TARGET)
        };
        let floor = top - width;
        let slack = 1e-9;
        let deepest_before = |t: f64| (0..=400)
            .map(|k| t * k as f64 / 400.0)
            .map(|s| our_signed(&sa, &ma, &sb, &mb, s))
            .fold(f64::INFINITY, f64::min);
        match ours {
            Toi::Clear => prop_assert!(start > TARGET - slack, "touching at {start}, said clear"),
            Toi::Touching => {
                prop_assert!(start <= TARGET + slack, "apart at {start}, said touching");
                let deepest = deepest_before(1.0);
                prop_assert!(deepest >= floor - slack, "sank to {deepest}, floor {floor}");
            }
            Toi::Impact(t) => {
                let at = our_signed(&sa, &ma, &sb, &mb, t);
                prop_assert!(at <= top + slack, "stopped at {at}, above the band's top {top}");
                let deepest = deepest_before(t);
                prop_assert!(deepest >= floor - slack, "sank to {deepest} before t = {t}, floor {floor}");
            }
            Toi::GaveUp(t) => {
                let deepest = deepest_before(t);
                prop_assert!(deepest >= floor - slack, "sank to {deepest} before t = {t}, floor {floor}");
            }
            Toi::Unsupported => prop_assert!(false, "convex pairs are supported"),
        }
    }

    /// Never past the first contact, and within the target band of it.
    #[test]
    fn time_of_impact_agrees_with_bisection_on_dense_sampling(
        ka in convex_kind(),
        kb in any_kind(),
        (ma, mb) in motion_strategy(),
    ) {
        let (Some((sa, pa)), Some((sb, pb))) = (build(&ka), build(&kb)) else {
            return Err(TestCaseError::reject("degenerate hull"));
        };
        // Meshes are surfaces with an outward side (a ground, a solid's skin): bodies come
        // from the front. The terrain stays level and the mover starts above it.
        let mb = if matches!(kb, Kind::Mesh(_)) {
            let level = |p: &Pose| Pose::from_parts(p.translation, Default::default());
            prop_assume!(ma.start.translation.y - ccd::rim_radius(&sa) > 1.0);
            Motion::new(level(&mb.start), level(&mb.end))
        } else {
            mb
        };
        let start = parry_distance(pa.as_ref(), &ma, pb.as_ref(), &mb, 0.0);
        prop_assume!(start > 2.0 * TARGET);
        let oracle = sampled_toi(pa.as_ref(), &ma, pb.as_ref(), &mb, 400);
        let ours = time_of_impact(&mover(0, &sa, ma), &mover(1, &sb, mb), TARGET, &mut NoProbe);
        match ours {
            Toi::Impact(t) => {
                let d = parry_distance(pa.as_ref(), &ma, pb.as_ref(), &mb, t);
                prop_assert!(d > 0.0, "stopped inside: t = {t}, oracle {oracle:?}");
                if let Some(tc) = oracle {
                    prop_assert!(t <= tc + 1e-9, "past the first contact: {t} > {tc}");
                }
                // Stopped because the pair was within the band, not somewhere in the open. The
                // band is wider for polyhedra: their distance is the separation along the best
                // separating axis, a lower bound that can fall to about half the distance
                // between corners (the exact convex distance will tighten it).
                let round = |k: &Kind| matches!(k, Kind::Sphere(_) | Kind::Capsule(..));
                let band = if round(&ka) && (round(&kb) || matches!(kb, Kind::Mesh(_))) { 2.0 } else { 4.0 };
                prop_assert!(d <= band * TARGET + 1e-9, "stopped {d} m short at t = {t}, oracle {oracle:?}");
            }
            Toi::GaveUp(t) => {
                // Safe, if early: still apart, and not past the first contact.
                let d = parry_distance(pa.as_ref(), &ma, pb.as_ref(), &mb, t);
                prop_assert!(d > 0.0, "gave up inside: t = {t}");
                if let Some(tc) = oracle {
                    prop_assert!(t <= tc + 1e-9, "gave up past the first contact: {t} > {tc}");
                }
            }
            Toi::Clear => {
                // The sampled oracle can only see contacts that last a sample; anything it
                // sees, we must have seen.
                prop_assert!(oracle.is_none(), "missed the contact at {oracle:?}");
            }
            other => prop_assert!(false, "unexpected {other:?} (start distance {start})"),
        }
    }

    /// The ray between positions, with and without a radius: the first point of the segment
    /// inside the (inflated) solid, as dense sampling with parry's point queries finds it.
    #[test]
    fn ray_between_positions_agrees_with_sampled_point_queries(
        kb in convex_kind(),
        p0 in prop::array::uniform3(-2.5f64..2.5),
        p1 in prop::array::uniform3(-2.5f64..2.5),
        rb in prop::array::uniform3(-1.5f64..1.5),
        radius in prop_oneof![Just(0.0), 0.01f64..0.4],
    ) {
        let Some((sb, pbs)) = build(&kb) else {
            return Err(TestCaseError::reject("degenerate hull"));
        };
        let pb = pose([0.1, -0.2, 0.05], rb);
        let (p0, p1) = (Point3::from(p0), Point3::from(p1));
        let ours = segment_vs_shape(&p0, &p1, radius, &sb, &pb, None);
        let inside = |t: f64| {
            let p = p0 + (p1 - p0) * t;
            pbs.distance_to_point(&to_parry(&pb), PVec::new(p.x, p.y, p.z), true) <= radius
        };
        let samples = 2000;
        let first = (0..=samples).map(|k| k as f64 / samples as f64).find(|&t| inside(t));
        let step = 1.0 / samples as f64;
        match (ours, first) {
            (Some(t), Some(s)) => prop_assert!(t <= s + 1e-9 && t >= s - step - 1e-9, "ours {t}, sampled {s}"),
            // A graze thinner than a sample.
            (Some(t), None) => prop_assert!(!inside(t + 1e-9) || (p1 - p0).norm() < 1e-9 || {
                let p = p0 + (p1 - p0) * t;
                pbs.distance_to_point(&to_parry(&pb), PVec::new(p.x, p.y, p.z), true) <= radius + 1e-7
            }, "ours {t}, sampling saw nothing"),
            (None, Some(s)) => prop_assert!(false, "missed: sampled entry at {s}"),
            (None, None) => {}
        }
    }

    /// Between two convex shapes the signed distance is parry's when they are apart (a
    /// sphere's or a capsule's against a hull by GJK from its centre or axis), never above
    /// it, and not positive when parry says they touch.
    #[test]
    fn convex_distance_is_parrys(
        ka in convex_kind(), kb in convex_kind(),
        ta in prop::array::uniform3(-1.2f64..1.2), ra in prop::array::uniform3(-3.2f64..3.2),
        rb in prop::array::uniform3(-3.2f64..3.2),
    ) {
        let (Some((sa, pa_shape)), Some((sb, pb_shape))) = (build(&ka), build(&kb)) else {
            return Err(TestCaseError::reject("degenerate hull"));
        };
        let (pa, pb) = (pose(ta, ra), pose([0.0; 3], rb));
        let cap = 10.0;
        let ours = ccd::signed_distance(ShapeAt::new(&sa, &pa), ShapeAt::new(&sb, &pb), cap).unwrap();
        let oracle = query::distance(&to_parry(&pa), pa_shape.as_ref(), &to_parry(&pb), pb_shape.as_ref())
            .expect("parry measures two convex shapes")
            .distance;
        prop_assert!(ours <= oracle + 1e-7, "ours {ours} above parry's {oracle}");
        if oracle > 0.0 {
            // parry's GJK stops within about 1e-6 relative above the distance.
            prop_assert!(ours >= oracle - 1e-5 * (1.0 + oracle), "ours {ours} below parry's {oracle}");
        } else {
            prop_assert!(ours <= 1e-7, "ours {ours}, parry says they overlap");
        }
    }

    /// A shape's distance to a mesh is the least of parry's distances to its triangles, each
    /// on its own (negative when they overlap); every hierarchy kind finds the same as a scan
    /// of all the triangles, and a search told what is near enough stops only when it is.
    #[test]
    fn distance_to_a_mesh_is_the_nearest_triangle_by_parry(
        ka in convex_kind(),
        heights in prop::collection::vec(-0.3f64..0.3, 16),
        t in prop::array::uniform3(-2.5f64..2.5),
        r in prop::array::uniform3(-1.5f64..1.5),
        kind in 0usize..6,
        enough in -0.2f64..0.6,
    ) {
        let (Some((sa, pa_shape)), Some((mesh, _))) = (build(&ka), build(&Kind::Mesh(heights))) else {
            return Err(TestCaseError::reject("degenerate hull"));
        };
        let Shape::Mesh(trimesh) = &mesh else { unreachable!("a terrain is a mesh") };
        let kind = [BvKind::Aabb, BvKind::Obb, BvKind::Sphere, BvKind::Kdop14, BvKind::Kdop18, BvKind::Kdop26][kind];
        let tree = AnyBvh::build(trimesh, kind, &BuildOptions::default());
        let (pa, pm) = (pose(t, r), pose([0.2, -0.1, 0.3], [0.1, 0.4, -0.2]));
        let cap = 10.0;
        let with_tree = ShapeAt { shape: &mesh, pose: &pm, tree: Some(&tree) };
        let ours = ccd::signed_distance(ShapeAt::new(&sa, &pa), with_tree, cap).unwrap();
        let scanned = ccd::signed_distance(ShapeAt::new(&sa, &pa), ShapeAt::new(&mesh, &pm), cap).unwrap();
        prop_assert!((ours - scanned).abs() <= 1e-9, "tree {ours}, scan {scanned}");
        let oracle = trimesh
            .triangles()
            .map(|tri| {
                let v = |p: Point3| {
                    let w = pm * p;
                    PVec::new(w.x, w.y, w.z)
                };
                let tri = PTriangle::new(v(tri.a), v(tri.b), v(tri.c));
                query::distance(&to_parry(&pa), pa_shape.as_ref(), &to_parry(&Pose::identity()), &tri)
                    .expect("parry measures a shape against a triangle")
                    .distance
            })
            .fold(cap, f64::min);
        prop_assert!(ours <= oracle + 1e-7, "ours {ours} above parry's {oracle}");
        if oracle > 0.0 {
            // parry measures round shapes against a triangle by GJK, which stops within
            // about 1e-6 relative above the distance; ours are exact there.
            prop_assert!(ours >= oracle - 1e-5, "ours {ours} below parry's {oracle}");
        } else {
            prop_assert!(ours <= 1e-7, "ours {ours}, parry says they overlap");
        }
        let until = ccd::signed_distance_until(ShapeAt::new(&sa, &pa), with_tree, cap, enough).unwrap();
        if ours <= enough {
            prop_assert!(until <= enough && until >= ours, "until {until}, full {ours}, enough {enough}");
        } else {
            prop_assert!(until == ours, "until {until}, full {ours}");
        }
    }
}

#[test]
fn a_bullet_through_a_thin_wall_is_caught_by_the_ray_and_the_swept_sphere() {
    let bullet = Shape::Sphere { radius: 0.05 };
    let (wall, _) = shape_of(&ShapeDesc::Box {
        half_extents: [0.02, 1.5, 2.0],
    })
    .unwrap();
    let a = Motion::new(
        pose([1.7, 1.0, 0.0], [0.0; 3]),
        pose([2.37, 1.0, 0.0], [0.0; 3]),
    );
    let b = Motion::stationary(pose([2.0, 1.5, 0.0], [0.0; 3]));
    // Discrete samples at both ends see nothing.
    for t in [0.0, 1.0] {
        let (pa, pb) = (a.at(t), b.at(t));
        let d = ccd::signed_distance(ShapeAt::new(&bullet, &pa), ShapeAt::new(&wall, &pb), 10.0)
            .unwrap();
        assert!(d > 0.1, "the ends are apart: {d}");
    }
    let toi = time_of_impact(
        &mover(0, &bullet, a),
        &mover(1, &wall, b),
        TARGET,
        &mut NoProbe,
    );
    let Toi::Impact(t) = toi else {
        panic!("{toi:?}")
    };
    // Contact when the sphere's front reaches the wall's face: x = 1.98 - 0.05.
    let exact = (1.93 - 1.7) / 0.67;
    assert!(
        t <= exact && t >= exact - 2.0 * TARGET / 0.67,
        "{t} vs {exact}"
    );
    // And the tunnelling check sees the miss when nothing was done about it.
    let mut bodies = Vec::new();
    for (id, shape) in [(0u32, bullet.clone()), (1, wall.clone())] {
        let mut scene_body = collidoscope::world::World::new(tiny_scene())
            .unwrap()
            .bodies
            .remove(0);
        scene_body.id = id;
        scene_body.shape = shape;
        scene_body.fixed = id == 1;
        bodies.push(scene_body);
    }
    let tunnels = find_tunnels(
        &bodies,
        &[a.start, b.start],
        &[a.end, b.end],
        |_| None,
        &BTreeSet::new(),
        &mut NoProbe,
    );
    assert_eq!(tunnels.len(), 1, "{tunnels:?}");
    assert_eq!((tunnels[0].body, tunnels[0].other), (0, 1));
    // With a recorded contact between them, it is not a miss.
    let touching: BTreeSet<_> = [(0, 1)].into_iter().collect();
    assert!(
        find_tunnels(
            &bodies,
            &[a.start, b.start],
            &[a.end, b.end],
            |_| None,
            &touching,
            &mut NoProbe
        )
        .is_empty()
    );
}

fn tiny_scene() -> collidoscope::world::Scene {
    let mut scene = collidoscope::world::builtin_scene("box-stack").unwrap();
    scene.bodies.truncate(1);
    scene
}

// ---------------------------------------------------------------------------------------
// Mesh contacts with a real depth, against a dense signed-distance oracle: points sampled
// densely over one surface, their depth inside the other solid measured by brute force
// (distance to every triangle; inside by the winding number, a method the engine does not
// use). The depth a user would measure is the deepest sampled point.

use collidoscope::bvh::{AnyPosed, TraverseOptions, traverse_any};
use collidoscope::geom::{TriMesh as OurMesh, Triangle, closest};
use collidoscope::narrow::{collide, mesh_mesh::contacts_from_traversal};
use std::sync::Arc;

/// A closed convex mesh: the hull of the points, its faces fanned into triangles.
fn closed_mesh(points: &[[f64; 3]]) -> Option<OurMesh> {
    let (shape, _) = shape_of(&ShapeDesc::ConvexHull {
        points: points.to_vec(),
    })
    .ok()?;
    let Shape::Convex(poly) = shape else {
        return None;
    };
    OurMesh::new(poly.vertices.clone(), poly.triangles()).ok()
}

fn world_triangles(mesh: &OurMesh, pose: &Pose) -> Vec<Triangle> {
    mesh.triangles()
        .map(|t| Triangle::new(pose * t.a, pose * t.b, pose * t.c))
        .collect()
}

/// Solid angle subtended by a triangle (Van Oosterom and Strackee).
fn solid_angle(p: &Point3, t: &Triangle) -> f64 {
    let (a, b, c) = (t.a - p, t.b - p, t.c - p);
    let (la, lb, lc) = (a.norm(), b.norm(), c.norm());
    let num = a.dot(&b.cross(&c));
    let den = la * lb * lc + a.dot(&b) * lc + b.dot(&c) * la + c.dot(&a) * lb;
    2.0 * num.atan2(den)
}

/// How deep `p` is inside the closed surface (0 outside).
fn depth_inside(p: &Point3, tris: &[Triangle]) -> f64 {
    let winding: f64 =
        tris.iter().map(|t| solid_angle(p, t)).sum::<f64>() / (4.0 * std::f64::consts::PI);
    if winding.abs() < 0.5 {
        return 0.0;
    }
    tris.iter()
        .map(|t| (closest::point_triangle(p, t) - p).norm())
        .fold(f64::INFINITY, f64::min)
}

fn samples(tris: &[Triangle], n: usize) -> Vec<Point3> {
    let mut out = Vec::new();
    for t in tris {
        for i in 0..=n {
            for j in 0..=n - i {
                let (u, v) = (i as f64 / n as f64, j as f64 / n as f64);
                out.push(t.a + (t.b - t.a) * u + (t.c - t.a) * v);
            }
        }
    }
    out
}

fn oracle_depth(a: &[Triangle], b: &[Triangle], n: usize) -> f64 {
    let ab = samples(a, n)
        .iter()
        .map(|p| depth_inside(p, b))
        .fold(0.0, f64::max);
    let ba = samples(b, n)
        .iter()
        .map(|p| depth_inside(p, a))
        .fold(0.0, f64::max);
    ab.max(ba)
}

fn our_mesh_mesh_depth(a: &OurMesh, pa: &Pose, b: &OurMesh, pb: &Pose) -> Option<f64> {
    let (ta, tb) = (
        AnyBvh::build(a, BvKind::Aabb, &BuildOptions::default()),
        AnyBvh::build(b, BvKind::Aabb, &BuildOptions::default()),
    );
    let side = |mesh, tree, pose, body| AnyPosed {
        mesh,
        tree,
        pose,
        body,
    };
    let r = traverse_any(
        &side(a, &ta, pa, 0),
        &side(b, &tb, pb, 1),
        TraverseOptions::default(),
        &mut NoProbe,
    )?;
    let (contacts, _) = contacts_from_traversal(&r, (a, pa, Some(&ta)), (b, pb, Some(&tb)));
    Some(contacts.iter().map(|c| c.depth).fold(0.0, f64::max))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48 * scale()))]

    /// A corner of a small closed mesh pushed into a face of a big one (the way bodies land
    /// on each other): the depth is the corner's, to the sampling's resolution; the normal
    /// points out of the face.
    #[test]
    fn mesh_mesh_depth_agrees_with_the_signed_distance_oracle(
        points in prop::collection::vec(prop::array::uniform3(-0.5f64..0.5), 4..9),
        turn in prop::array::uniform3(-3.0f64..3.0),
        sunk in 0.0f64..0.6,
        slide in prop::array::uniform2(-0.8f64..0.8),
    ) {
        let Some(small) = closed_mesh(&points) else {
            return Err(TestCaseError::reject("flat hull"));
        };
        // A fraction of the small mesh's height: wholly inside, no triangle would cross.
        let height = OurMesh::transformed(&small, &pose([0.0; 3], turn)).aabb().extents().y;
        let sink = sunk * height;
        let big = closed_mesh(&[
            [-4.0, -4.0, -4.0], [4.0, -4.0, -4.0], [-4.0, 0.0, -4.0], [4.0, 0.0, -4.0],
            [-4.0, -4.0, 4.0], [4.0, -4.0, 4.0], [-4.0, 0.0, 4.0], [4.0, 0.0, 4.0],
        ]).unwrap();
        // Drop the small one onto the big block's top face (4 m deep: its top is the
        // nearest face to anything sunk less than 2 m).
        let top = big.aabb().max.y;
        let rotation = pose([0.0; 3], turn);
        let lowest = small.vertices.iter().map(|v| (rotation * v).y).fold(f64::INFINITY, f64::min);
        let pa = pose([slide[0], top - lowest - sink, slide[1]], turn);
        let pb = Pose::identity();
        let ours = our_mesh_mesh_depth(&small, &pa, &big, &pb).unwrap_or(0.0);
        let oracle = oracle_depth(&world_triangles(&small, &pa), &world_triangles(&big, &pb), 6);
        prop_assert!((ours - sink).abs() < 1e-6, "ours {ours}, sunk {sink}");
        prop_assert!(ours <= oracle + 1e-6, "deeper than any point: ours {ours}, oracle {oracle}");
        prop_assert!(ours >= oracle - 0.02 - 1e-6, "ours {ours}, oracle {oracle}");
    }

    /// Convex shapes sunk into a closed mesh (any amount, even past half their size): the
    /// depth is the deepest point's, pushed out of the front face, never through the back.
    #[test]
    fn mesh_convex_depth_agrees_with_the_signed_distance_oracle(
        ka in convex_kind(),
        turn in prop::array::uniform3(-3.0f64..3.0),
        sunk in 0.0f64..0.9,
        slide in prop::array::uniform2(-0.4f64..0.4),
    ) {
        let Some((shape, _)) = build(&ka) else {
            return Err(TestCaseError::reject("degenerate hull"));
        };
        // A fraction of the shape's height, up to nearly all of it (a shape wholly inside a
        // closed mesh touches no triangle: surfaces cannot see it, so that is not asked).
        let height = shape.aabb(&pose([0.0; 3], turn)).extents().y;
        let sink = sunk * height;
        let block = Arc::new(closed_mesh(&[
            [-4.0, -4.0, -4.0], [4.0, -4.0, -4.0], [-4.0, 0.0, -4.0], [4.0, 0.0, -4.0],
            [-4.0, -4.0, 4.0], [4.0, -4.0, 4.0], [-4.0, 0.0, 4.0], [4.0, 0.0, 4.0],
        ]).unwrap());
        let mesh = Shape::Mesh(block.clone());
        let rotation = pose([0.0; 3], turn);
        let lowest = shape.aabb(&rotation).min.y;
        let ps = pose([slide[0], block.aabb().max.y - lowest - sink, slide[1]], turn);
        let pm = Pose::identity();
        let contacts = collide(&shape, &ps, &mesh, &pm, 0.0);
        let ours = contacts.iter().map(|c| c.depth).fold(0.0, f64::max);
        // Deepest point of the shape under the top face: its lowest point (the block is
        // wider than any shape here, so the top face is the one to leave by).
        prop_assert!((ours - sink).abs() < 2e-3, "ours {ours}, sunk {sink}, {contacts:?}");
        for c in contacts.iter().filter(|c| c.depth > 1e-3) {
            prop_assert!(c.normal.y < -0.99, "pushed sideways or through: {c:?}");
        }
        // And the independent oracle agrees on the closed block.
        let tris = world_triangles(&block, &pm);
        let deepest = match &shape {
            Shape::Sphere { radius } => depth_inside(&(Point3::from(ps.translation.vector) - Vec3::y() * *radius), &tris),
            _ => ccd_shape_points(&shape, &ps).iter().map(|p| depth_inside(p, &tris)).fold(0.0, f64::max),
        };
        prop_assert!((ours - deepest).abs() < 2e-3, "ours {ours}, oracle {deepest}");
    }
}

/// Points over a shape's surface, dense enough for the oracle (vertices of hulls and boxes
/// included; capsule caps sampled).
fn ccd_shape_points(shape: &Shape, pose: &Pose) -> Vec<Point3> {
    match shape {
        Shape::Box { polyhedron, .. } | Shape::Convex(polyhedron) => {
            polyhedron.vertices.iter().map(|v| pose * v).collect()
        }
        Shape::Capsule {
            radius,
            half_height,
        } => {
            let mut out = Vec::new();
            for i in 0..=40 {
                for j in 0..=40 {
                    let (th, ph) = (
                        i as f64 / 40.0 * std::f64::consts::TAU,
                        j as f64 / 40.0 * std::f64::consts::PI,
                    );
                    let d = Vec3::new(ph.sin() * th.cos(), ph.cos(), ph.sin() * th.sin());
                    for end in [-1.0, 1.0] {
                        out.push(pose * (Point3::new(0.0, end * half_height, 0.0) + d * *radius));
                    }
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

// ---------------------------------------------------------------------------------------
// The modes end to end on the tunnelling scene, and what a time-of-impact bounce keeps.

use collidoscope::ccd::{TUNNELLED, scenes::tunnelling_in};
use collidoscope::record::MarkerKind;
use collidoscope::scene::CcdMode;
use collidoscope::world::World;

fn tunnelled_frames(mode: CcdMode, frames: u32) -> Vec<(u64, String)> {
    let mut world = World::new(tunnelling_in(mode)).unwrap();
    let mut out = Vec::new();
    for _ in 0..frames {
        let f = world.step_traced(100_000);
        for m in &f.markers {
            if m.kind == MarkerKind::Other(TUNNELLED.into()) {
                out.push((f.index, m.text.clone()));
            }
        }
        // The trace says so too, and the marker never comes without the event.
        let events = f
            .trace
            .iter()
            .filter(|e| {
                matches!(
                    &e.kind,
                    collidoscope::trace::EventKind::Ccd(ccd::CcdEvent::Tunnelled { .. })
                )
            })
            .count();
        assert_eq!(
            events,
            f.markers
                .iter()
                .filter(|m| m.kind == MarkerKind::Other(TUNNELLED.into()))
                .count()
        );
    }
    out
}

#[test]
fn off_misses_the_wall_and_says_so_every_other_mode_stops_the_bullet() {
    let off = tunnelled_frames(CcdMode::Off, 20);
    assert_eq!(off.len(), 1, "{off:?}");
    assert_eq!(off[0].0, 7);
    assert!(
        off[0].1.contains("bullet passed through thin wall"),
        "{}",
        off[0].1
    );
    assert!(off[0].1.contains("ccd: Off"), "{}", off[0].1);
    // Supersampling sees the bullet inside the wall (a contact, so no miss), but past the
    // wall's middle: the contact pushes it out through the nearer face, the far one. The
    // course's "lowers the chance of missing" in action; the viewer shows the samples.
    assert!(tunnelled_frames(CcdMode::Substep(4), 20).is_empty());
    for mode in [CcdMode::Speculative, CcdMode::Toi] {
        assert!(tunnelled_frames(mode, 20).is_empty(), "{mode:?}");
        // And the bullet is on the near side of the wall afterwards.
        let mut world = World::new(tunnelling_in(mode)).unwrap();
        for _ in 0..20 {
            world.step(&mut NoProbe);
        }
        assert!(
            world.bodies[2].pose.translation.x < 1.98,
            "{mode:?}: {}",
            world.bodies[2].pose.translation.x
        );
    }
}

#[test]
fn toi_records_the_ray_the_advancement_and_the_impact_and_substeps_record_positions() {
    let mut world = World::new(tunnelling_in(CcdMode::Toi)).unwrap();
    let mut impacts = Vec::new();
    let mut rays = 0;
    for _ in 0..10 {
        let f = world.step_traced(100_000);
        for e in &f.trace {
            if let collidoscope::trace::EventKind::Ccd(c) = &e.kind {
                match c {
                    ccd::CcdEvent::Impact { body, other, t, .. } => {
                        impacts.push((f.index, *body, *other, *t))
                    }
                    ccd::CcdEvent::Ray {
                        body: 2,
                        other: 1,
                        radius,
                        ..
                    } if *radius > 0.0 => rays += 1,
                    _ => {}
                }
            }
        }
    }
    assert!(
        rays > 0,
        "the swept sphere is the ray between positions inflated by its radius"
    );
    let first = impacts
        .iter()
        .find(|i| i.1 == 2 && i.2 == 1)
        .expect("the bullet meets the wall");
    // Frame 7's step starts at x = 1.70 (0.667 m per step): the bullet's front reaches the
    // wall face (x = 1.93 for its centre) a third of the way in.
    assert_eq!(first.0, 7);
    assert!((first.3 - (1.93 - 1.70) / 0.6667).abs() < 0.03, "{first:?}");

    let mut world = World::new(tunnelling_in(CcdMode::Substep(4))).unwrap();
    let f = (0..7).map(|_| world.step_traced(100_000)).last().unwrap();
    let samples = f
        .trace
        .iter()
        .filter(|e| {
            matches!(
                &e.kind,
                collidoscope::trace::EventKind::Ccd(ccd::CcdEvent::Substep { body: 2, .. })
            )
        })
        .count();
    assert_eq!(samples, 4, "four supersampled positions of the bullet");
}

#[test]
fn a_time_of_impact_bounce_keeps_the_energy_the_materials_keep_and_the_whole_step() {
    // No gravity, a perfectly elastic bullet and wall: the bounce must give back all the
    // speed, and the bullet must travel the rest of the step after it (not stop at the wall).
    let mut scene = tunnelling_in(CcdMode::Toi);
    scene.gravity = [0.0; 3];
    for m in &mut scene.materials {
        m.restitution = 1.0;
    }
    scene.bodies.retain(|b| b.name != "slow ball");
    for b in &mut scene.bodies {
        b.material = Some("steel".into());
    }
    let mut world = World::new(scene).unwrap();
    let bullet = world
        .bodies
        .iter()
        .position(|b| b.name == "bullet")
        .unwrap();
    let e0 = world.bodies[bullet].kinetic_energy();
    for _ in 0..7 {
        world.step(&mut NoProbe);
    }
    let b = &world.bodies[bullet];
    assert!(
        (b.kinetic_energy() - e0).abs() < 1e-9 * e0,
        "{} vs {e0}",
        b.kinetic_energy()
    );
    assert!(b.linear_velocity.x < -39.99, "{:?}", b.linear_velocity);
    // 0.667 m in the step: 0.22 m to the wall, the rest back out.
    let expected = 1.93 - (0.6667 - (1.93 - 1.70));
    assert!(
        (b.pose.translation.x - expected).abs() < 0.02,
        "{} vs {expected}",
        b.pose.translation.x
    );
}

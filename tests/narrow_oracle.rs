//! The narrow phase against parry3d (an independent implementation): same verdict, and
//! penetration depths that agree, for every pair of convex shape types at random poses.

use crate::parry_bridge;
use parry_bridge::to_parry;

use collidoscope::bvh::{AnyBvh, BuildOptions, BvKind};
use collidoscope::dynamics::Shape;
use collidoscope::geom::{Pose, Vec3};
use collidoscope::narrow::{collide, with_mesh};
use collidoscope::world::{ProceduralMesh, ShapeDesc, shape_of};
use parry3d_f64::math::Vector as PVec;
use parry3d_f64::query;
use parry3d_f64::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Shape as PShape};
use proptest::prelude::*;

fn scale() -> u32 {
    std::env::var("COLLIDOSCOPE_TEST_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

#[derive(Clone, Debug)]
enum Kind {
    Sphere(f64),
    Box([f64; 3]),
    Capsule(f64, f64),
    Hull(Vec<[f64; 3]>),
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        (0.2f64..1.0).prop_map(Kind::Sphere),
        prop::array::uniform3(0.1f64..1.0).prop_map(Kind::Box),
        (0.1f64..0.6, 0.1f64..0.8).prop_map(|(r, h)| Kind::Capsule(r, h)),
        prop::collection::vec(prop::array::uniform3(-0.8f64..0.8), 6..16).prop_map(Kind::Hull),
    ]
}

fn pose() -> impl Strategy<Value = Pose> {
    (
        prop::array::uniform3(-1.2f64..1.2),
        prop::array::uniform3(-3.0f64..3.0),
    )
        .prop_map(|(t, r)| Pose::new(Vec3::from(t), Vec3::from(r)))
}

/// Our shape and the same geometry as a parry shape (hulls share their recentred vertices).
fn build(k: &Kind) -> Option<(Shape, Box<dyn PShape>)> {
    let desc = match k {
        Kind::Sphere(r) => ShapeDesc::Sphere { radius: *r },
        Kind::Box(h) => ShapeDesc::Box { half_extents: *h },
        Kind::Capsule(r, h) => ShapeDesc::Capsule {
            radius: *r,
            half_height: *h,
        },
        Kind::Hull(p) => ShapeDesc::ConvexHull { points: p.clone() },
    };
    let (shape, _) = shape_of(&desc).ok()?;
    let theirs: Box<dyn PShape> = match (&shape, k) {
        (_, Kind::Sphere(r)) => Box::new(Ball::new(*r)),
        (_, Kind::Box(h)) => Box::new(Cuboid::new(PVec::new(h[0], h[1], h[2]))),
        (_, Kind::Capsule(r, h)) => Box::new(Capsule::new_y(*h, *r)),
        (Shape::Convex(poly), _) => {
            let pts: Vec<PVec> = poly
                .vertices
                .iter()
                .map(|v| PVec::new(v.x, v.y, v.z))
                .collect();
            Box::new(ConvexPolyhedron::from_convex_hull(&pts)?)
        }
        _ => return None,
    };
    Some((shape, theirs))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400 * scale()))]
    #[test]
    fn contacts_agree_with_parry(ka in kind(), kb in kind(), pa in pose(), pb in pose()) {
        let (Some((a, pa_shape)), Some((b, pb_shape))) = (build(&ka), build(&kb)) else {
            return Ok(()); // a degenerate hull: rejected by both, nothing to compare
        };
        let (qa, qb) = (to_parry(&pa), to_parry(&pb));
        let dist = query::distance(&qa, pa_shape.as_ref(), &qb, pb_shape.as_ref()).unwrap().distance;
        let theirs = query::contact(&qa, pa_shape.as_ref(), &qb, pb_shape.as_ref(), 0.0).unwrap();
        let depth = theirs.map(|c| -c.dist).unwrap_or(0.0);
        let ours = collide(&a, &pa, &b, &pb, 0.0);
        let our_depth = ours.iter().map(|c| c.depth).fold(0.0, f64::max);
        let capsule = matches!(ka, Kind::Capsule(..)) || matches!(kb, Kind::Capsule(..));
        if dist > 1e-6 {
            prop_assert!(ours.is_empty(), "parry: apart by {dist}; ours: {ours:?}");
        }
        if depth > 1e-4 {
            prop_assert!(!ours.is_empty(), "parry: depth {depth}; ours: none");
            // Polyhedra prefer face axes within 5 % (stabler manifolds); capsules report
            // the deepest point's depth, which cannot exceed the shape's.
            prop_assert!(our_depth <= depth * 1.06 + 1e-6, "ours {our_depth} > parry {depth}");
            if !capsule {
                prop_assert!(our_depth >= depth - 1e-6, "ours {our_depth} < parry {depth}");
            }
        }
        for c in &ours {
            prop_assert!((c.normal.norm() - 1.0).abs() < 1e-9);
            prop_assert!(c.point.iter().all(|x| x.is_finite()));
        }
    }
}

#[test]
fn every_kind_builds_and_a_known_overlap_agrees() {
    let kinds = [
        Kind::Sphere(0.5),
        Kind::Box([0.5, 0.4, 0.3]),
        Kind::Capsule(0.3, 0.5),
        Kind::Hull(vec![
            [0.5, 0.0, 0.0],
            [-0.5, 0.1, 0.0],
            [0.0, 0.5, 0.1],
            [0.0, -0.4, 0.3],
            [0.1, 0.0, -0.5],
            [0.0, 0.1, 0.5],
        ]),
    ];
    let (pa, pb) = (
        Pose::translation(0.0, 0.0, 0.0),
        Pose::translation(0.3, 0.5, 0.0),
    );
    for ka in &kinds {
        for kb in &kinds {
            let (a, pa_shape) = build(ka).expect("builds");
            let (b, pb_shape) = build(kb).expect("builds");
            let theirs = query::contact(
                &to_parry(&pa),
                pa_shape.as_ref(),
                &to_parry(&pb),
                pb_shape.as_ref(),
                0.0,
            )
            .unwrap()
            .expect("parry sees the overlap");
            let ours = collide(&a, &pa, &b, &pb, 0.0);
            let depth = ours.iter().map(|c| c.depth).fold(0.0, f64::max);
            assert!(depth > 0.0, "{ka:?} vs {kb:?}: no contact");
            assert!(
                depth <= -theirs.dist * 1.06 + 1e-9,
                "{ka:?} vs {kb:?}: {depth} vs {}",
                -theirs.dist
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64 * scale()))]

    /// A shape against a mesh through the mesh's hierarchy (every volume kind) finds the very
    /// contacts, bit for bit and in order, that the scan of every triangle finds, both ways
    /// round; the cases include a shape far off and one wholly inside the torus' hole.
    #[test]
    fn the_hierarchy_finds_the_contacts_the_scan_finds(
        ka in kind(),
        pa in pose(),
        pm in pose(),
        kind in 0usize..6,
        margin in prop_oneof![Just(0.0), 0.0f64..0.3, Just(5.0)],
    ) {
        let Some((sa, _)) = build(&ka) else {
            return Err(TestCaseError::reject("degenerate hull"));
        };
        let (mesh, _) = shape_of(&ShapeDesc::Procedural(ProceduralMesh::Torus {
            major_radius: 1.0,
            minor_radius: 0.35,
            major_segments: 24,
            minor_segments: 12,
        }))
        .expect("a valid torus");
        let Shape::Mesh(trimesh) = &mesh else { unreachable!("a torus is a mesh") };
        let kind = [BvKind::Aabb, BvKind::Obb, BvKind::Sphere, BvKind::Kdop14, BvKind::Kdop18, BvKind::Kdop26][kind];
        let tree = AnyBvh::build(trimesh, kind, &BuildOptions::default());
        let scanned = collide(&sa, &pa, &mesh, &pm, margin);
        let (culled, _) = with_mesh((&sa, &pa, None), (&mesh, &pm, Some(&tree)), margin);
        prop_assert_eq!(&culled, &scanned);
        let (flipped, _) = with_mesh((&mesh, &pm, Some(&tree)), (&sa, &pa, None), margin);
        prop_assert_eq!(flipped, collide(&mesh, &pm, &sa, &pa, margin));
    }
}

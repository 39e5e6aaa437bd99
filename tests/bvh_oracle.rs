//! Oracles for the bounding-volume hierarchies:
//! - the triangle–triangle test against an exact separating-axis test in integer arithmetic
//!   (all 15 edge-pair axes and their in-plane companions, so degenerate triangles count too);
//! - tree-versus-tree traversal against all pairs, for every volume kind and build;
//! - ray casts against `TriMesh::cast_ray_brute_force`;
//! - refit, volumes and metrics against their definitions and dense sampling;
//! - mesh–mesh intersection against parry3d.
//!
//! Case counts scale with `COLLIDOSCOPE_TEST_SCALE` (default 1).

use crate::test_scale::scale;
use collidoscope::bvh::volumes::BoundingVolume;
use collidoscope::bvh::{
    AnyBvh, AnyPosed, BuildOptions, BuildStrategy, BvKind, Bvh, Carry, Kdop14, Kdop18, Kdop26,
    TraverseOptions, brute_force_pairs, mesh_overlap, obb_separating_axis, sah_cost_of,
    traverse_any, triangle_intersection, triangles_intersect,
};
use collidoscope::geom::{Aabb, Obb, Point3, Pose, Ray, Sphere, TriMesh, Triangle, Vec3, closest};
use collidoscope::trace::{EventKind, NoProbe, TraceRecorder, Verdict};
use collidoscope::world::procedural;
use proptest::prelude::*;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: cases * scale(),
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Exact SAT oracle for closed triangles with integer coordinates.

type I3 = [i64; 3];

fn sub(a: I3, b: I3) -> I3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn cross(a: I3, b: I3) -> I3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn dot(a: I3, b: I3) -> i64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Two convex sets are apart iff some axis separates them; for (possibly degenerate)
/// triangles, the candidate axes are the cross products of two edge directions (the facet
/// normals of the Minkowski difference), the in-plane normals `c × e` for flat differences,
/// and the edge directions themselves for collinear ones.
fn sat_oracle(a: [I3; 3], b: [I3; 3]) -> bool {
    let mut edges: Vec<I3> = Vec::new();
    for t in [a, b] {
        for (i, j) in [(0, 1), (1, 2), (2, 0)] {
            let e = sub(t[j], t[i]);
            if e != [0; 3] {
                edges.push(e);
            }
        }
    }
    let mut axes: Vec<I3> = edges.clone();
    let mut normals = Vec::new();
    for i in 0..edges.len() {
        for j in i + 1..edges.len() {
            let c = cross(edges[i], edges[j]);
            if c != [0; 3] {
                normals.push(c);
            }
        }
    }
    for c in &normals {
        for e in &edges {
            let n = cross(*c, *e);
            if n != [0; 3] {
                axes.push(n);
            }
        }
    }
    axes.extend(normals);
    if axes.is_empty() {
        return a[0] == b[0];
    }
    !axes.iter().any(|ax| {
        let pa: Vec<i64> = a.iter().map(|p| dot(*p, *ax)).collect();
        let pb: Vec<i64> = b.iter().map(|p| dot(*p, *ax)).collect();
        pa.iter().max() < pb.iter().min() || pb.iter().max() < pa.iter().min()
    })
}

fn to_tri(t: [I3; 3]) -> Triangle {
    let p = |v: I3| Point3::new(v[0] as f64, v[1] as f64, v[2] as f64);
    Triangle::new(p(t[0]), p(t[1]), p(t[2]))
}

/// Within 1e-9 of the closed triangle; zero-area triangles are measured by their edges.
fn point_on_triangle(p: &Point3, t: &Triangle) -> bool {
    let v = t.vertices();
    let on_edge = (0..3).any(|i| {
        let s = collidoscope::geom::Segment::new(v[i], v[(i + 1) % 3]);
        (closest::point_segment(p, &s).0 - p).norm() <= 1e-9
    });
    on_edge || (t.area() > 0.0 && (closest::point_triangle(p, t) - p).norm() <= 1e-9)
}

fn arb_point(r: i64) -> impl Strategy<Value = I3> {
    prop::array::uniform3(-r..=r)
}

/// Pairs biased to share vertices and edges: B takes some of A's vertices.
fn arb_tri_pair() -> impl Strategy<Value = ([I3; 3], [I3; 3])> {
    (
        prop::array::uniform3(arb_point(2)),
        prop::array::uniform3(arb_point(2)),
        prop::array::uniform3(0usize..6),
    )
        .prop_map(|(a, b_own, pick)| {
            let b = std::array::from_fn(|i| if pick[i] < 3 { a[pick[i]] } else { b_own[i] });
            (a, b)
        })
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn tri_tri_matches_exact_sat((a, b) in arb_tri_pair()) {
        let expected = sat_oracle(a, b);
        let (ta, tb) = (to_tri(a), to_tri(b));
        prop_assert_eq!(triangles_intersect(&ta, &tb), expected, "{:?} {:?}", a, b);
        prop_assert_eq!(triangles_intersect(&tb, &ta), expected);
        let hit = triangle_intersection(&ta, &tb);
        prop_assert_eq!(hit.is_some(), expected);
        if let Some(h) = hit {
            prop_assert!(point_on_triangle(&h.segment.a, &ta) && point_on_triangle(&h.segment.a, &tb), "{:?}", h);
            prop_assert!(point_on_triangle(&h.segment.b, &ta) && point_on_triangle(&h.segment.b, &tb), "{:?}", h);
        }
    }

    #[test]
    fn tri_tri_matches_exact_sat_wide(a in prop::array::uniform3(arb_point(9)), b in prop::array::uniform3(arb_point(9))) {
        prop_assert_eq!(triangles_intersect(&to_tri(a), &to_tri(b)), sat_oracle(a, b), "{:?} {:?}", a, b);
    }
}

// ---------------------------------------------------------------------------------------------
// Meshes and poses.

/// A small indexed mesh on an integer grid (scaled by a half, still exact): shared vertices,
/// shared edges, coplanar and zero-area triangles all come up often.
fn arb_mesh() -> impl Strategy<Value = TriMesh> {
    (
        prop::collection::vec(arb_point(3), 3..12),
        prop::collection::vec(prop::array::uniform3(0usize..12), 1..40),
    )
        .prop_map(|(verts, tris)| {
            let n = verts.len();
            let vertices = verts
                .iter()
                .map(|v| Point3::new(v[0] as f64, v[1] as f64, v[2] as f64) * 0.5)
                .collect();
            let triangles = tris.iter().map(|t| t.map(|i| (i % n) as u32)).collect();
            TriMesh::new(vertices, triangles).expect("valid by construction")
        })
}

#[derive(Clone, Debug)]
enum PoseKind {
    Identity,
    Shift([i64; 3]),
    Rotated([f64; 3], [f64; 3]),
}

fn arb_pose() -> impl Strategy<Value = PoseKind> {
    prop_oneof![
        Just(PoseKind::Identity),
        prop::array::uniform3(-2i64..=2).prop_map(PoseKind::Shift),
        (
            prop::array::uniform3(-3.0..3.0f64),
            prop::array::uniform3(-1.5..1.5f64)
        )
            .prop_map(|(r, t)| PoseKind::Rotated(r, t)),
    ]
}

fn pose_of(k: &PoseKind) -> Pose {
    match k {
        PoseKind::Identity => Pose::identity(),
        PoseKind::Shift(t) => {
            Pose::translation(t[0] as f64 * 0.5, t[1] as f64 * 0.5, t[2] as f64 * 0.5)
        }
        PoseKind::Rotated(r, t) => Pose::new(Vec3::from(*t), Vec3::from(*r)),
    }
}

fn arb_kind() -> impl Strategy<Value = BvKind> {
    prop::sample::select(BvKind::ALL.to_vec())
}

fn arb_options() -> impl Strategy<Value = BuildOptions> {
    (
        prop::sample::select(vec![
            BuildStrategy::Median,
            BuildStrategy::Sah,
            BuildStrategy::Mean,
        ]),
        1u32..5,
        2u32..20,
    )
        .prop_map(|(strategy, max_leaf_size, bins)| BuildOptions {
            strategy,
            max_leaf_size,
            bins,
        })
}

fn overlap_pairs(
    a: &TriMesh,
    pa: &Pose,
    b: &TriMesh,
    pb: &Pose,
    kind: BvKind,
    options: &BuildOptions,
) -> Vec<(u32, u32)> {
    let (ta, tb) = (
        AnyBvh::build(a, kind, options),
        AnyBvh::build(b, kind, options),
    );
    let r = traverse_any(
        &AnyPosed {
            mesh: a,
            tree: &ta,
            pose: pa,
            body: 0,
        },
        &AnyPosed {
            mesh: b,
            tree: &tb,
            pose: pb,
            body: 1,
        },
        TraverseOptions::default(),
        &mut NoProbe,
    )
    .expect("same kinds");
    let mut pairs = r.pairs;
    pairs.sort_unstable();
    pairs
}

proptest! {
    #![proptest_config(config(300))]

    /// The traversal finds exactly the pairs the brute force finds, touching ones included.
    #[test]
    fn traversal_equals_brute_force(a in arb_mesh(), b in arb_mesh(), pa in arb_pose(), pb in arb_pose(),
                                    kind in arb_kind(), options in arb_options()) {
        let (pa, pb) = (pose_of(&pa), pose_of(&pb));
        let expected = brute_force_pairs(&a, &pa, &b, &pb);
        prop_assert_eq!(overlap_pairs(&a, &pa, &b, &pb, kind, &options), expected);
    }

    /// A mesh against itself at the same pose: every triangle touches itself and its
    /// neighbours, the worst case for touching contacts.
    #[test]
    fn self_overlap_equals_brute_force(a in arb_mesh(), p in arb_pose(), kind in arb_kind(), options in arb_options()) {
        let p = pose_of(&p);
        prop_assert_eq!(overlap_pairs(&a, &p, &a, &p, kind, &options), brute_force_pairs(&a, &p, &a, &p));
    }

    /// Every node's volume encloses the vertices of the triangles under it.
    #[test]
    fn volumes_enclose_their_triangles(m in arb_mesh(), options in arb_options()) {
        check_enclosure::<Aabb>(&m, &options)?;
        check_enclosure::<Obb>(&m, &options)?;
        check_enclosure::<Sphere>(&m, &options)?;
        check_enclosure::<Kdop14>(&m, &options)?;
        check_enclosure::<Kdop18>(&m, &options)?;
        check_enclosure::<Kdop26>(&m, &options)?;
    }

    #[test]
    fn ray_cast_equals_brute_force(m in arb_mesh(), o in prop::array::uniform3(-8i64..=8), d in prop::array::uniform3(-4i64..=4),
                                   max_t in prop_oneof![Just(f64::INFINITY), 0.0..3.0f64], options in arb_options()) {
        prop_assume!(d != [0; 3]);
        let ray = Ray::new(Point3::new(o[0] as f64, o[1] as f64, o[2] as f64) * 0.25, Vec3::new(d[0] as f64, d[1] as f64, d[2] as f64));
        let expected = m.cast_ray_brute_force(&ray, max_t);
        for kind in BvKind::ALL {
            let tree = AnyBvh::build(&m, kind, &options);
            // Untraced casts walk the compact single-precision copy; traced ones the nodes.
            prop_assert_eq!(tree.cast_ray(&m, &ray, max_t, 0, &mut NoProbe), expected, "{}", kind);
            let mut rec = TraceRecorder::default();
            prop_assert_eq!(tree.cast_ray(&m, &ray, max_t, 0, &mut rec), expected, "{} traced", kind);
        }
    }

    /// After the vertices move, a refitted tree still encloses everything and still finds
    /// exactly the brute-force pairs; node ids do not change.
    #[test]
    fn refit_follows_deformation(m in arb_mesh(), other in arb_mesh(), moves in prop::collection::vec(prop::array::uniform3(-2i64..=2), 12),
                                 kind in arb_kind(), options in arb_options()) {
        let mut tree = AnyBvh::build(&m, kind, &options);
        let nodes = tree.node_count();
        let deformed = TriMesh {
            vertices: m.vertices.iter().enumerate().map(|(i, p)| {
                let d = moves[i % moves.len()];
                p + Vec3::new(d[0] as f64, d[1] as f64, d[2] as f64) * 0.25
            }).collect(),
            triangles: m.triangles.clone(),
        };
        let mut rec = TraceRecorder::default();
        tree.refit(&deformed, &Pose::identity(), 0, &mut rec);
        prop_assert_eq!(tree.node_count(), nodes);
        prop_assert_eq!(rec.events.iter().filter(|e| matches!(e.kind, EventKind::Bvh(collidoscope::bvh::BvhEvent::Refit { .. }))).count(), nodes);
        let other_tree = AnyBvh::build(&other, kind, &options);
        let r = traverse_any(
            &AnyPosed { mesh: &deformed, tree: &tree, pose: &Pose::identity(), body: 0 },
            &AnyPosed { mesh: &other, tree: &other_tree, pose: &Pose::identity(), body: 1 },
            TraverseOptions::default(), &mut NoProbe).expect("same kinds");
        let mut pairs = r.pairs;
        pairs.sort_unstable();
        prop_assert_eq!(pairs, brute_force_pairs(&deformed, &Pose::identity(), &other, &Pose::identity()));
    }
}

fn check_enclosure<V: BoundingVolume>(
    m: &TriMesh,
    options: &BuildOptions,
) -> Result<(), TestCaseError> {
    let tree = Bvh::<V>::build(m, options);
    let mut under: Vec<Vec<u32>> = vec![Vec::new(); tree.nodes().len()];
    for id in (0..tree.nodes().len() as u32).rev() {
        under[id as usize] = match tree.children(id) {
            Some((l, r)) => [under[l as usize].clone(), under[r as usize].clone()].concat(),
            None => tree.leaf_triangles(id).to_vec(),
        };
    }
    let mut all = under[0].clone();
    all.sort_unstable();
    prop_assert_eq!(
        all,
        (0..m.triangles.len() as u32).collect::<Vec<_>>(),
        "every triangle in exactly one leaf"
    );
    for (id, tris) in under.iter().enumerate() {
        let node = &tree.nodes()[id];
        if !node.is_leaf() {
            prop_assert!(
                node.index as usize > id + 1,
                "right child after left subtree"
            );
        } else {
            prop_assert!(
                node.count <= options.max_leaf_size.max(1)
                    || options.strategy == BuildStrategy::Mean
            );
        }
        for &t in tris {
            for &v in &m.triangles[t as usize] {
                let p = m.vertices[v as usize];
                prop_assert!(
                    BoundingVolume::contains_point(&node.volume, &p, 1e-9),
                    "{:?} node {} misses {}",
                    V::KIND,
                    id,
                    p
                );
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Larger closed meshes.

fn poses(n: usize, seed: u64, spread: f64) -> Vec<Pose> {
    let mut s = seed;
    let mut r = move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    (0..n)
        .map(|_| {
            Pose::new(
                Vec3::new(r(), r(), r()) * spread,
                Vec3::new(r(), r(), r()) * 3.0,
            )
        })
        .collect()
}

#[test]
fn closed_meshes_overlap_equals_brute_force() {
    let sphere = procedural::icosphere(1.0, 2);
    let torus = procedural::torus(1.0, 0.35, 16, 8);
    for (i, pose) in poses(6 * scale() as usize, 11, 1.2).iter().enumerate() {
        for kind in BvKind::ALL {
            let got = mesh_overlap(&sphere, &Pose::identity(), &torus, pose, kind, &mut NoProbe);
            let expected = brute_force_pairs(&sphere, &Pose::identity(), &torus, pose);
            assert_eq!(got.pairs, expected, "case {i}, {kind}");
            assert_eq!(got.segments.len(), got.pairs.len());
        }
    }
}

#[test]
fn probe_sees_every_test() {
    let sphere = procedural::icosphere(1.0, 1);
    let torus = procedural::torus(1.0, 0.3, 12, 6);
    let pose = Pose::new(Vec3::new(0.3, 0.1, 0.0), Vec3::new(0.4, 0.2, 0.1));
    for kind in BvKind::ALL {
        let mut rec = TraceRecorder::new(usize::MAX);
        let r = mesh_overlap(&sphere, &Pose::identity(), &torus, &pose, kind, &mut rec);
        let nodes: Vec<_> = rec
            .events
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    EventKind::Bvh(collidoscope::bvh::BvhEvent::NodePair { .. })
                )
            })
            .collect();
        let tris: Vec<_> = rec
            .events
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    EventKind::Bvh(collidoscope::bvh::BvhEvent::TrianglePair { .. })
                )
            })
            .collect();
        assert_eq!(nodes.len() as u64, r.node_tests, "{kind}");
        assert_eq!(tris.len() as u64, r.triangle_tests, "{kind}");
        assert_eq!(
            tris.iter().filter(|e| e.verdict == Verdict::Hit).count(),
            r.pairs.len()
        );
        assert!(!r.pairs.is_empty());
        for e in nodes {
            let EventKind::Bvh(collidoscope::bvh::BvhEvent::NodePair {
                separating_axis, ..
            }) = e.kind
            else {
                unreachable!()
            };
            match (kind, e.verdict) {
                (_, Verdict::Hit) => assert_eq!(separating_axis, None),
                (BvKind::Sphere, _) => assert_eq!(separating_axis, None),
                (BvKind::Obb, _) => assert!(separating_axis.is_some_and(|a| a < 15)),
                (BvKind::Aabb, _) => assert!(separating_axis.is_some_and(|a| a < 3)),
                (_, _) => assert!(separating_axis.is_some_and(|a| a < 13)),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// OBB SAT against polytope clipping.

fn arb_obb() -> impl Strategy<Value = Obb> {
    (
        prop::array::uniform3(-2.0..2.0f64),
        prop::array::uniform3(0.05..1.5f64),
        prop::array::uniform3(-3.0..3.0f64),
    )
        .prop_map(|(c, h, r)| Obb {
            center: Point3::from(c),
            axes: *nalgebra::Rotation3::new(Vec3::from(r)).matrix(),
            half_extents: Vec3::from(h),
        })
}

proptest! {
    #![proptest_config(config(1000))]

    /// Separated boxes: the reported axis separates their corners and the boxes share no
    /// volume. Overlapping boxes: clipping one by the other's six planes leaves a solid.
    #[test]
    fn obb_sat_matches_clipping(a in arb_obb(), b in arb_obb()) {
        let shared = a.overlap_volume(&b);
        match obb_separating_axis(&a, &b, 0.0) {
            Some(axis) => {
                prop_assert!(shared < 1e-9, "separated by {} yet share {}", axis, shared);
                let l = collidoscope::bvh::sat_obb::sat_axis_direction(&a, &b, axis);
                let span = |o: &Obb| {
                    let d: Vec<f64> = o.corners().iter().map(|p| p.coords.dot(&l)).collect();
                    (d.iter().cloned().fold(f64::INFINITY, f64::min), d.iter().cloned().fold(f64::NEG_INFINITY, f64::max))
                };
                let ((a0, a1), (b0, b1)) = (span(&a), span(&b));
                prop_assert!(a1 < b0 || b1 < a0);
            }
            None => prop_assert!(shared > 0.0, "overlap claimed, nothing shared"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Metrics.

#[test]
fn metrics_follow_their_definitions() {
    let meshes = [
        procedural::torus(1.0, 0.3, 24, 12),
        procedural::terrain(4.0, 12, 0.5, 3),
        procedural::icosphere(1.0, 2),
    ];
    for m in &meshes {
        for kind in BvKind::ALL {
            for strategy in [
                BuildStrategy::Median,
                BuildStrategy::Sah,
                BuildStrategy::Mean,
            ] {
                let tree = AnyBvh::build(m, kind, &BuildOptions::with_strategy(strategy));
                let stats = tree.stats_with_tests(&[]);
                let s = &stats.summary;
                assert_eq!(s.nodes, tree.node_count());
                assert_eq!(s.nodes, 2 * s.leaves - 1, "binary tree");
                assert_eq!(stats.depth_histogram.iter().sum::<u32>() as usize, s.leaves);
                assert_eq!(
                    stats.leaf_size_histogram.iter().sum::<u32>() as usize,
                    s.leaves
                );
                let tris: usize = stats
                    .leaf_size_histogram
                    .iter()
                    .enumerate()
                    .map(|(n, c)| n * *c as usize)
                    .sum();
                assert_eq!(tris, m.triangles.len());
                let recomputed = sah_cost_of(
                    stats
                        .per_node
                        .iter()
                        .map(|n| (n.surface_area, if n.leaf { n.triangles } else { 0 })),
                );
                assert!(
                    (recomputed - s.sah_cost).abs() <= 1e-9 * s.sah_cost,
                    "{kind}"
                );
                let overlap: f64 = stats
                    .per_node
                    .iter()
                    .map(|n| n.children_overlap_volume)
                    .sum();
                assert!((overlap - s.sibling_overlap_volume).abs() <= 1e-9 * overlap.max(1.0));
                assert_eq!(stats.per_node[0].triangles as usize, m.triangles.len());
            }
        }
        // SAH optimises the cost it is scored by: it should not lose to the median split.
        let sah = AnyBvh::build(
            m,
            BvKind::Aabb,
            &BuildOptions::with_strategy(BuildStrategy::Sah),
        )
        .summary()
        .sah_cost;
        let median = AnyBvh::build(
            m,
            BvKind::Aabb,
            &BuildOptions::with_strategy(BuildStrategy::Median),
        )
        .summary()
        .sah_cost;
        assert!(sah <= median, "sah {sah} vs median {median}");
    }
}

/// Volumes and areas from polytope clipping, against counting grid points.
#[test]
fn kdop_and_overlap_volumes_match_sampling() {
    let m = procedural::torus(1.0, 0.4, 10, 6);
    let all: Vec<u32> = (0..m.triangles.len() as u32 / 3).collect();
    let k = Kdop26::fit(&m, &all);
    let obb = Obb::fit(&m, &all);
    let obb2 = Obb::fit(
        &m,
        &(m.triangles.len() as u32 / 3..m.triangles.len() as u32).collect::<Vec<_>>(),
    );
    let b = k.aabb().merged(&obb.aabb()).merged(&obb2.aabb());
    let n = 90;
    let e = b.extents() / n as f64;
    let (mut in_k, mut in_both) = (0usize, 0usize);
    for i in 0..n {
        for j in 0..n {
            for l in 0..n {
                let p = b.min
                    + Vec3::new(
                        (i as f64 + 0.5) * e.x,
                        (j as f64 + 0.5) * e.y,
                        (l as f64 + 0.5) * e.z,
                    );
                in_k += BoundingVolume::contains_point(&k, &p, 0.0) as usize;
                in_both += (BoundingVolume::contains_point(&obb, &p, 0.0)
                    && BoundingVolume::contains_point(&obb2, &p, 0.0))
                    as usize;
            }
        }
    }
    let cell = e.x * e.y * e.z;
    let (vk, vo) = (in_k as f64 * cell, in_both as f64 * cell);
    let kv = BoundingVolume::volume(&k);
    assert!((kv - vk).abs() < 0.03 * vk, "{kv} vs {vk}");
    assert!(
        (obb.overlap_volume(&obb2) - vo).abs() < 0.03 * vo.max(1e-3),
        "{} vs {vo}",
        obb.overlap_volume(&obb2)
    );
}

// ---------------------------------------------------------------------------------------------
// parry3d.

mod parry {
    use super::*;
    use parry3d_f64::math::{Pose as PPose, Rot3, Vector};
    use parry3d_f64::query;
    use parry3d_f64::shape::{TriMesh as PMesh, Triangle as PTri};

    pub fn v(p: &Point3) -> Vector {
        Vector::new(p.x, p.y, p.z)
    }

    pub fn pose(p: &Pose) -> PPose {
        let q = p.rotation.quaternion();
        let t = p.translation.vector;
        PPose::from_parts(
            Vector::new(t.x, t.y, t.z),
            Rot3::from_xyzw(q.i, q.j, q.k, q.w),
        )
    }

    pub fn mesh(m: &TriMesh) -> PMesh {
        PMesh::new(m.vertices.iter().map(v).collect(), m.triangles.clone()).expect("valid mesh")
    }

    pub fn tri(t: &Triangle) -> PTri {
        PTri::new(v(&t.a), v(&t.b), v(&t.c))
    }

    pub fn meshes_intersect(a: &PMesh, pa: &Pose, b: &PMesh, pb: &Pose) -> bool {
        query::intersection_test(&pose(pa), a, &pose(pb), b)
            .expect("supported")
            .intersecting
    }

    pub fn mesh_distance(a: &PMesh, pa: &Pose, b: &PMesh, pb: &Pose) -> f64 {
        query::distance(&pose(pa), a, &pose(pb), b)
            .expect("supported")
            .distance
    }

    pub fn tri_distance(a: &Triangle, b: &Triangle) -> f64 {
        query::distance(&PPose::IDENTITY, &tri(a), &PPose::IDENTITY, &tri(b))
            .expect("supported")
            .distance
    }

    /// Penetration depth (positive) of two triangles, 0 when apart or touching.
    pub fn tri_depth(a: &Triangle, b: &Triangle) -> f64 {
        query::contact(&PPose::IDENTITY, &tri(a), &PPose::IDENTITY, &tri(b), 0.0)
            .expect("supported")
            .map_or(0.0, |c| (-c.dist).max(0.0))
    }
}

/// Mesh–mesh yes/no against parry3d, on closed meshes at random poses; only configurations
/// where the meshes are within 1e-7 of touching (where both answers are right) are left out,
/// and there must be few of them.
#[test]
fn mesh_intersection_agrees_with_parry() {
    let sphere = procedural::icosphere(1.0, 2);
    let torus = procedural::torus(1.0, 0.35, 20, 10);
    let capsule = procedural::capsule(0.4, 0.8, 12);
    let shapes = [
        (&sphere, parry::mesh(&sphere)),
        (&torus, parry::mesh(&torus)),
        (&capsule, parry::mesh(&capsule)),
    ];
    let (mut checked, mut skipped, mut hits) = (0, 0, 0);
    for (i, pose) in poses(60 * scale() as usize, 5, 2.0).iter().enumerate() {
        let (a, pa_mesh) = &shapes[i % 3];
        let (b, pb_mesh) = &shapes[(i / 3) % 3];
        let pa = Pose::new(Vec3::zeros(), Vec3::new(0.1 * i as f64, 0.2, -0.3));
        let ours = !mesh_overlap(a, &pa, b, pose, BvKind::Aabb, &mut NoProbe)
            .pairs
            .is_empty();
        let theirs = parry::meshes_intersect(pa_mesh, &pa, pb_mesh, pose);
        if ours != theirs && parry::mesh_distance(pa_mesh, &pa, pb_mesh, pose) < 1e-7 {
            skipped += 1;
            continue;
        }
        assert_eq!(ours, theirs, "case {i}");
        checked += 1;
        hits += ours as usize;
        // Pair by pair: what we report, parry finds in contact; what we do not, parry does
        // not find penetrating.
        let carry = Carry::between(&pa, pose);
        let found = mesh_overlap(a, &pa, b, pose, BvKind::Obb, &mut NoProbe);
        for &(ta, tb) in &found.pairs {
            let (t1, t2) = (a.triangle(ta as usize), carry.triangle(b, tb));
            assert!(parry::tri_distance(&t1, &t2) < 1e-9, "pair {ta},{tb}");
        }
        let tri_boxes_b: Vec<Aabb> = (0..b.triangles.len() as u32)
            .map(|t| Aabb::from_points(&carry.triangle(b, t).vertices()))
            .collect();
        for ta in 0..a.triangles.len() {
            let t1 = a.triangle(ta);
            let box_a = Aabb::from_points(&t1.vertices());
            for (tb, box_b) in tri_boxes_b.iter().enumerate() {
                if !box_a.intersects(box_b)
                    || found.pairs.binary_search(&(ta as u32, tb as u32)).is_ok()
                {
                    continue;
                }
                let depth = parry::tri_depth(&t1, &carry.triangle(b, tb as u32));
                assert!(depth < 1e-9, "missed pair {ta},{tb} (depth {depth})");
            }
        }
    }
    assert!(skipped * 10 <= checked, "{skipped} ambiguous of {checked}");
    assert!(
        hits > 0 && hits < checked,
        "the poses should give both answers ({hits}/{checked})"
    );
}

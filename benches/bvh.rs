//! Hierarchies side by side with parry3d-f64 in one run:
//! - first, printed ratios (best of five passes each, the two sides taking turns): build time on the Utah teapot (its 32
//!   patches tessellated, 262,144 triangles) and the 100,000-triangle torus, and the closest
//!   hit of 20,000 rays on each (parry: `cast_local_ray_and_get_normal` on its `TriMesh`),
//!   with how many hits agree; then criterion on 1,024 of the teapot's rays;
//! - building an AABB tree over a 100,000-triangle mesh (parry: `Bvh::from_iter` with its
//!   binned strategy over the triangles' boxes, exactly what its `TriMesh::new` does);
//! - mesh–mesh overlap of two such meshes: every intersecting triangle pair (parry: its
//!   tree-versus-tree `leaf_pairs`, then its triangle–triangle intersection test) and the
//!   yes/no query (parry: `query::intersection_test` on two `TriMesh`es);
//! - refit against rebuild after a deformation (ours only).
//!
//! Before the timings it prints the SAH cost of both trees, scored by the same formula
//! (`collidoscope::bvh::sah_cost_of`) from parry's nodes as its `Bvh::traverse` exposes them.
//!
//! `cargo bench --no-default-features --bench bvh`

#[path = "common/best_of.rs"]
mod best_of;
#[path = "common/meshes.rs"]
mod meshes;
use best_of::best_of_paired;
use collidoscope::bvh::{
    BuildOptions, BuildStrategy, Bvh, Posed, TraverseOptions, sah_cost_of, traverse,
};
use collidoscope::geom::{Aabb, Point3, Pose, Real, TriMesh, Vec3};
use collidoscope::trace::NoProbe;
use criterion::{Criterion, criterion_group, criterion_main};
use meshes::{big_mesh, rays, teapot_mesh};
use parry3d_f64::bounding_volume::{Aabb as PAabb, BoundingVolume as _};
use parry3d_f64::math::{Pose as PPose, Rot3, Vector};
use parry3d_f64::partitioning::{Bvh as PBvh, BvhBuildStrategy, TraversalAction};
use parry3d_f64::query::{self, Ray as PRay, RayCast as _};
use parry3d_f64::shape::{TriMesh as PMesh, Triangle as PTri};
use std::hint::black_box;
use std::time::Duration;

fn v(p: &Point3) -> Vector {
    Vector::new(p.x, p.y, p.z)
}

fn ppose(p: &Pose) -> PPose {
    let q = p.rotation.quaternion();
    let t = p.translation.vector;
    PPose::from_parts(
        Vector::new(t.x, t.y, t.z),
        Rot3::from_xyzw(q.i, q.j, q.k, q.w),
    )
}

fn parry_leaves(m: &TriMesh) -> impl Iterator<Item = (usize, PAabb)> + '_ {
    m.triangles.iter().enumerate().map(|(i, t)| {
        let [a, b, c] = t.map(|k| v(&m.vertices[k as usize]));
        (i, PTri::new(a, b, c).local_aabb())
    })
}

fn parry_sah_cost(bvh: &PBvh) -> f64 {
    let area = |b: &PAabb| {
        let e = b.extents();
        2.0 * (e.x * e.y + e.y * e.z + e.z * e.x)
    };
    let mut nodes = vec![(area(&bvh.root_aabb()), 0u32)];
    bvh.traverse(|n| {
        // parry makes one leaf per box: one triangle per leaf.
        nodes.push((area(&n.aabb()), u32::from(n.is_leaf())));
        TraversalAction::Continue
    });
    sah_cost_of(nodes)
}

fn report_quality(mesh: &TriMesh) {
    let ours = Bvh::<Aabb>::build(mesh, &BuildOptions::default()).summary();
    let median =
        Bvh::<Aabb>::build(mesh, &BuildOptions::with_strategy(BuildStrategy::Median)).summary();
    let parry = PBvh::from_iter(BvhBuildStrategy::Binned, parry_leaves(mesh));
    eprintln!(
        "SAH cost, {} triangles: collidoscope SAH {:.2} ({} nodes, depth max {}), collidoscope median {:.2}, parry3d binned {:.2}",
        mesh.triangles.len(),
        ours.sah_cost,
        ours.nodes,
        ours.depth_max,
        median.sah_cost,
        parry_sah_cost(&parry)
    );
}

fn build(c: &mut Criterion) {
    let mesh = big_mesh();
    report_quality(&mesh);
    let mut g = c.benchmark_group("build_100k");
    g.bench_function("collidoscope_aabb_sah", |b| {
        b.iter(|| black_box(Bvh::<Aabb>::build(&mesh, &BuildOptions::default())))
    });
    g.bench_function("collidoscope_aabb_median", |b| {
        b.iter(|| {
            black_box(Bvh::<Aabb>::build(
                &mesh,
                &BuildOptions::with_strategy(BuildStrategy::Median),
            ))
        })
    });
    g.bench_function("parry3d_binned", |b| {
        b.iter(|| {
            black_box(PBvh::from_iter(
                BvhBuildStrategy::Binned,
                parry_leaves(&mesh),
            ))
        })
    });
    g.finish();
}

/// Two 100k tori: one shifted and tilted so the tube surfaces cut each other along long
/// curves (thousands of triangle pairs), and one beside the other, 0.05 apart.
fn overlap_scene() -> (TriMesh, Pose, Pose, Pose) {
    let mesh = big_mesh();
    let pa = Pose::identity();
    let crossing = Pose::new(Vec3::new(0.25, 0.05, 0.0), Vec3::new(0.0, 0.0, 0.15));
    let apart = Pose::new(Vec3::new(2.65, 0.0, 0.0), Vec3::new(0.0, 0.0, 0.0));
    (mesh, pa, crossing, apart)
}

fn overlap(c: &mut Criterion) {
    let (mesh, pa, crossing, apart) = overlap_scene();
    let tree = Bvh::<Aabb>::build(&mesh, &BuildOptions::default());
    let pmesh = PMesh::new(
        mesh.vertices.iter().map(v).collect(),
        mesh.triangles.clone(),
    )
    .expect("valid mesh");
    let pbvh = pmesh.bvh();

    let ours = |pb: &Pose, first_only: bool| {
        traverse(
            &Posed {
                mesh: &mesh,
                tree: &tree,
                pose: &pa,
                body: 0,
            },
            &Posed {
                mesh: &mesh,
                tree: &tree,
                pose: pb,
                body: 1,
            },
            TraverseOptions {
                count_per_node: false,
                first_only,
                max_triangle_tests: None,
            },
            &mut NoProbe,
        )
    };
    let parry_pairs = |pb: &Pose| {
        let pos12 = ppose(&pa).inv_mul(&ppose(pb));
        let mut out = Vec::new();
        for (i, j) in pbvh.leaf_pairs(pbvh, |n1, n2| {
            n1.aabb().intersects(&n2.aabb().transform_by(&pos12))
        }) {
            let (t1, t2) = (pmesh.triangle(i), pmesh.triangle(j));
            if query::intersection_test(&PPose::IDENTITY, &t1, &pos12, &t2)
                .expect("supported")
                .intersecting
            {
                out.push((i, j));
            }
        }
        out
    };
    let parry_any = |pb: &Pose| {
        query::intersection_test(&ppose(&pa), &pmesh, &ppose(pb), &pmesh)
            .expect("supported")
            .intersecting
    };

    let r = ours(&crossing, false);
    let mut theirs = parry_pairs(&crossing);
    theirs.sort_unstable();
    let mut mine = r.pairs.clone();
    mine.sort_unstable();
    eprintln!(
        "overlap, crossing tori: collidoscope {} pairs ({} node tests, {} triangle tests), parry3d {} pairs; same pairs: {}",
        mine.len(),
        r.node_tests,
        r.triangle_tests,
        theirs.len(),
        mine == theirs
    );
    // Pairs only one side found: how far apart parry3d measures them, and how long the
    // intersection segment we found is.
    let pos12 = ppose(&pa).inv_mul(&ppose(&crossing));
    let only_ours: Vec<_> = mine
        .iter()
        .filter(|p| theirs.binary_search(p).is_err())
        .collect();
    let only_theirs = theirs
        .iter()
        .filter(|p| mine.binary_search(p).is_err())
        .count();
    for &&(i, j) in only_ours.iter().take(8) {
        let (t1, t2) = (pmesh.triangle(i), pmesh.triangle(j));
        let d = query::distance(&PPose::IDENTITY, &t1, &pos12, &t2)
            .expect("supported")
            .distance;
        let k = r.pairs.iter().position(|&q| q == (i, j)).expect("found");
        eprintln!(
            "  only collidoscope: {i}×{j}: parry3d distance {d:.3e}, our segment length {:.3e}",
            r.hits[k].segment.length()
        );
    }
    eprintln!(
        "  pairs only collidoscope finds: {}, only parry3d finds: {only_theirs}",
        only_ours.len()
    );
    eprintln!(
        "overlap, tori apart: collidoscope {} pairs, parry3d intersects: {}",
        ours(&apart, false).pairs.len(),
        parry_any(&apart)
    );

    let mut g = c.benchmark_group("overlap_100k");
    g.bench_function("collidoscope_all_pairs_crossing", |b| {
        b.iter(|| black_box(ours(&crossing, false)))
    });
    g.bench_function("parry3d_all_pairs_crossing", |b| {
        b.iter(|| black_box(parry_pairs(&crossing)))
    });
    g.bench_function("collidoscope_any_crossing", |b| {
        b.iter(|| black_box(ours(&crossing, true)))
    });
    g.bench_function("parry3d_any_crossing", |b| {
        b.iter(|| black_box(parry_any(&crossing)))
    });
    g.bench_function("collidoscope_any_apart", |b| {
        b.iter(|| black_box(ours(&apart, true)))
    });
    g.bench_function("parry3d_any_apart", |b| {
        b.iter(|| black_box(parry_any(&apart)))
    });
    g.finish();
}

fn refit(c: &mut Criterion) {
    let mesh = big_mesh();
    let tree = Bvh::<Aabb>::build(&mesh, &BuildOptions::default());
    let wavy = TriMesh {
        vertices: mesh
            .vertices
            .iter()
            .map(|p| p + Vec3::new(0.0, 0.0, 0.05 * (4.0 * p.x).sin()))
            .collect(),
        triangles: mesh.triangles.clone(),
    };
    let cmp = collidoscope::bvh::compare_refit_rebuild(&tree, &wavy);
    eprintln!(
        "refit vs rebuild after a wave: SAH cost {:.2} vs {:.2}, sibling overlap {:.4} vs {:.4}",
        cmp.refit.sah_cost,
        cmp.rebuild.sah_cost,
        cmp.refit.sibling_overlap_volume,
        cmp.rebuild.sibling_overlap_volume
    );
    let mut g = c.benchmark_group("deform_100k");
    g.bench_function("collidoscope_refit", |b| {
        b.iter_batched_ref(
            || tree.clone(),
            |t| t.refit(&wavy, &Pose::identity(), 0, &mut NoProbe),
            criterion::BatchSize::LargeInput,
        )
    });
    g.bench_function("collidoscope_rebuild", |b| {
        b.iter(|| black_box(Bvh::<Aabb>::build(&wavy, &BuildOptions::default())))
    });
    g.finish();
}

fn parry_mesh(m: &TriMesh) -> PMesh {
    PMesh::new(m.vertices.iter().map(v).collect(), m.triangles.clone()).expect("a mesh")
}

/// Closest hits on both engines for the same rays, their agreement, and the time ratio.
fn ray_ratios(name: &str, mesh: &TriMesh) {
    let tree = Bvh::<Aabb>::build(mesh, &BuildOptions::default());
    let theirs = parry_mesh(mesh);
    let rays = rays(mesh, 20_000);
    let ours_hits: Vec<Option<Real>> = rays
        .iter()
        .map(|r| {
            tree.cast_ray(mesh, r, Real::MAX, 0, &mut NoProbe)
                .map(|h| h.t)
        })
        .collect();
    let parry_hits: Vec<Option<Real>> = rays
        .iter()
        .map(|r| {
            theirs
                .cast_local_ray_and_get_normal(
                    &PRay::new(v(&r.origin), v(&r.dir.into())),
                    Real::MAX,
                    true,
                )
                .map(|h| h.time_of_impact)
        })
        .collect();
    let agree = ours_hits
        .iter()
        .zip(&parry_hits)
        .filter(|(a, b)| match (a, b) {
            (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * a.abs().max(1.0),
            (None, None) => true,
            _ => false,
        })
        .count();
    let hits = ours_hits.iter().filter(|h| h.is_some()).count();
    let (ours, parry) = best_of_paired(
        || {
            for r in &rays {
                black_box(tree.cast_ray(mesh, r, Real::MAX, 0, &mut NoProbe));
            }
        },
        || {
            for r in &rays {
                let pr = PRay::new(v(&r.origin), v(&r.dir.into()));
                black_box(theirs.cast_local_ray_and_get_normal(&pr, Real::MAX, true));
            }
        },
    );
    println!(
        "rays, {name} ({} triangles): collidoscope {:.0} ns a ray, parry3d {:.0} ns: parry/ours x{:.2}; {hits} of {} hit, {agree} agree with parry3d",
        mesh.triangles.len(),
        ours / rays.len() as f64 * 1e9,
        parry / rays.len() as f64 * 1e9,
        parry / ours,
        rays.len()
    );
}

/// Build time against parry3d's binned build of the same triangles' boxes.
fn build_ratio(name: &str, mesh: &TriMesh) {
    let (ours, parry) = best_of_paired(
        || {
            black_box(Bvh::<Aabb>::build(mesh, &BuildOptions::default()));
        },
        || {
            black_box(PBvh::from_iter(
                BvhBuildStrategy::Binned,
                parry_leaves(mesh),
            ));
        },
    );
    println!(
        "build, {name} ({} triangles): collidoscope {:.1} ms, parry3d {:.1} ms: ours/parry x{:.2}",
        mesh.triangles.len(),
        ours * 1e3,
        parry * 1e3,
        ours / parry
    );
}

/// The ratios to parry3d, printed before criterion's own measurements.
fn ratios(c: &mut Criterion) {
    let teapot = teapot_mesh();
    let torus = big_mesh();
    for (name, mesh) in [("teapot", &teapot), ("100k torus", &torus)] {
        build_ratio(name, mesh);
        ray_ratios(name, mesh);
    }
    let tree = Bvh::<Aabb>::build(&teapot, &BuildOptions::default());
    let theirs = parry_mesh(&teapot);
    let rays = rays(&teapot, 1024);
    let mut g = c.benchmark_group("rays_teapot_1024");
    g.bench_function("collidoscope", |b| {
        b.iter(|| {
            for r in &rays {
                black_box(tree.cast_ray(&teapot, r, Real::MAX, 0, &mut NoProbe));
            }
        })
    });
    g.bench_function("parry3d", |b| {
        b.iter(|| {
            for r in &rays {
                let pr = PRay::new(v(&r.origin), v(&r.dir.into()));
                black_box(theirs.cast_local_ray_and_get_normal(&pr, Real::MAX, true));
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    targets = ratios, build, overlap, refit
}
criterion_main!(benches);

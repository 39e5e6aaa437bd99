//! GJK (with EPA on overlap) against parry3d's distance query in one run, on hulls of 20, 100
//! and 500 vertices: cold queries (random poses) and coherent motion (a small turn and shift
//! per frame, GJK warm-started from the last frame's direction). A plain pass first prints
//! each ratio and GJK's mean iterations per query.

#[path = "../tests/parry_bridge/mod.rs"]
mod parry_bridge;
use parry_bridge::to_parry;

use collidoscope::convex::gjk::{GjkWarmStart, gjk_query};
use collidoscope::convex::support::Posed;
use collidoscope::geom::{ConvexPolyhedron, Point3, Pose, Vec3};
use collidoscope::trace::NoProbe;
use criterion::{Criterion, criterion_group, criterion_main};
use parry3d_f64::math::Pose as PPose;
use parry3d_f64::shape::ConvexPolyhedron as PHull;
use std::hint::black_box;
use std::time::Instant;

struct Lcg(u64);

impl Lcg {
    fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A hull of `n` vertices, all extreme: points on an ellipsoid.
fn hull(n: usize, seed: u64) -> ConvexPolyhedron {
    let mut rng = Lcg(seed);
    let pts: Vec<Point3> = (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - z * z).sqrt();
            let phi = i as f64 * 2.399963229728653 + rng.unit() * 0.05;
            Point3::new(r * phi.cos(), 0.7 * r * phi.sin(), 0.85 * z)
        })
        .collect();
    ConvexPolyhedron::hull(&pts).expect("an ellipsoid's points span a volume")
}

fn to_parry_hull(h: &ConvexPolyhedron) -> PHull {
    parry_bridge::parry_hull(&h.vertices).expect("parry builds the same hull")
}

/// Random poses of B around A at separations from overlap to clear.
fn cold_poses(count: usize) -> Vec<Pose> {
    let mut rng = Lcg(7);
    (0..count)
        .map(|_| {
            let dir = Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5)
                .try_normalize(0.0)
                .unwrap_or(Vec3::x());
            let t = dir * (1.5 + rng.unit() * 2.0);
            let r = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 3.0;
            Pose::new(t, r)
        })
        .collect()
}

/// B orbiting A slowly: a small turn and shift per frame.
fn coherent_poses(count: usize) -> Vec<Pose> {
    (0..count)
        .map(|i| {
            let a = i as f64 * 0.002;
            Pose::new(
                Vec3::new(2.4 * a.cos(), 2.4 * a.sin(), 0.3 * (3.0 * a).sin()),
                Vec3::new(a, 0.5 * a, 0.2),
            )
        })
        .collect()
}

fn gjk_pass(a: &ConvexPolyhedron, b: &ConvexPolyhedron, poses: &[Pose], warm: bool) -> (f64, u32) {
    let pa = Pose::identity();
    let xa = Posed {
        shape: a,
        pose: &pa,
    };
    let mut start = GjkWarmStart::default();
    let (mut sum, mut iterations) = (0.0, 0);
    for pb in poses {
        let q = gjk_query(
            &xa,
            &Posed { shape: b, pose: pb },
            start,
            [0, 1],
            &mut NoProbe,
        );
        if warm {
            start = q.warm_start();
        }
        sum += q.signed_distance();
        iterations += q.gjk.iterations;
    }
    (sum, iterations)
}

fn parry_pass(a: &PHull, b: &PHull, poses: &[PPose]) -> f64 {
    let pa = PPose::IDENTITY;
    poses
        .iter()
        .map(|pb| {
            parry3d_f64::query::distance(&pa, a, pb, b)
                .expect("parry supports hulls")
                .distance
        })
        .sum()
}

fn report(label: &str, a: &ConvexPolyhedron, b: &ConvexPolyhedron, poses: &[Pose], warm: bool) {
    let (pa, pb) = (to_parry_hull(a), to_parry_hull(b));
    let pposes: Vec<PPose> = poses.iter().map(to_parry).collect();
    let rounds = 20;
    let t = Instant::now();
    let mut iterations = 0;
    for _ in 0..rounds {
        iterations = black_box(gjk_pass(a, b, poses, warm)).1;
    }
    let ours = t.elapsed().as_secs_f64() / (rounds * poses.len()) as f64;
    let t = Instant::now();
    for _ in 0..rounds {
        black_box(parry_pass(&pa, &pb, &pposes));
    }
    let theirs = t.elapsed().as_secs_f64() / (rounds * poses.len()) as f64;
    println!(
        "{label}: GJK {:.3} µs, parry {:.3} µs, parry/GJK = {:.2}x, {:.2} GJK iterations per query",
        ours * 1e6,
        theirs * 1e6,
        theirs / ours,
        iterations as f64 / poses.len() as f64
    );
}

fn bench(c: &mut Criterion) {
    let cold = cold_poses(200);
    let coherent = coherent_poses(200);
    for n in [20, 100, 500] {
        let (a, b) = (hull(n, 1), hull(n, 2));
        report(&format!("{n} vertices, cold"), &a, &b, &cold, false);
        report(&format!("{n} vertices, coherent"), &a, &b, &coherent, true);
        let (pa, pb) = (to_parry_hull(&a), to_parry_hull(&b));
        let pcold: Vec<PPose> = cold.iter().map(to_parry).collect();
        let pcoherent: Vec<PPose> = coherent.iter().map(to_parry).collect();
        let mut g = c.benchmark_group(format!("gjk_{n}"));
        g.bench_function("gjk_cold", |bn| bn.iter(|| gjk_pass(&a, &b, &cold, false)));
        g.bench_function("parry_cold", |bn| bn.iter(|| parry_pass(&pa, &pb, &pcold)));
        g.bench_function("gjk_coherent_warm", |bn| {
            bn.iter(|| gjk_pass(&a, &b, &coherent, true))
        });
        g.bench_function("parry_coherent", |bn| {
            bn.iter(|| parry_pass(&pa, &pb, &pcoherent))
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);

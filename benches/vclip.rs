//! V-Clip against parry3d's distance query (GJK) in one run, on hulls of 20, 100 and 500
//! vertices: coherent motion (a small turn and shift per frame, V-Clip warm-started from the
//! last frame's features) and cold queries (random poses, no warm start). Before criterion
//! runs, a plain pass prints each ratio and V-Clip's mean iterations per query.

#[path = "../tests/parry_bridge/mod.rs"]
mod parry_bridge;
use parry_bridge::to_parry;

use collidoscope::convex::{Feature, Placed, Polyhedron, vclip};
use collidoscope::geom::{Point3, Pose, Vec3};
use collidoscope::trace::NoProbe;
use criterion::{Criterion, criterion_group, criterion_main};
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

/// A hull of exactly `n` vertices: points on an ellipsoid (all extreme).
fn hull(n: usize, seed: u64) -> Polyhedron {
    let mut rng = Lcg(seed);
    let pts: Vec<Point3> = (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - z * z).sqrt();
            let phi = i as f64 * 2.399963229728653 + rng.unit() * 0.05;
            Point3::new(r * phi.cos(), 0.7 * r * phi.sin(), 0.85 * z)
        })
        .collect();
    Polyhedron::hull(&pts).expect("an ellipsoid's points span a volume")
}

fn parry(p: &Polyhedron) -> PHull {
    parry_bridge::parry_hull(&p.vertices).expect("parry builds the hull")
}

/// Poses of `b` orbiting `a` at a small step per frame, never touching it.
fn coherent(frames: usize) -> Vec<Pose> {
    (0..frames)
        .map(|k| {
            let t = k as f64 * 0.01;
            Pose::new(
                Vec3::new(2.6 * t.cos(), 0.4 * (3.0 * t).sin(), 2.6 * t.sin()),
                Vec3::new(0.3 * t, 1.3 * t, 0.2 * t),
            )
        })
        .collect()
}

fn random_poses(n: usize) -> Vec<Pose> {
    let mut rng = Lcg(99);
    (0..n)
        .map(|_| {
            let dir = Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5)
                .try_normalize(1e-9)
                .unwrap_or(Vec3::x());
            let rot = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 6.0;
            Pose::new(dir * (2.2 + rng.unit()), rot)
        })
        .collect()
}

fn vclip_walk(a: &Polyhedron, b: &Polyhedron, poses: &[Pose], warm: bool) -> (f64, u64) {
    let id = Pose::identity();
    let mut last: Option<[Feature; 2]> = None;
    let (mut sum, mut iterations) = (0.0, 0u64);
    for p in poses {
        let r = vclip(
            &Placed::new(a, &id),
            &Placed::new(b, p),
            if warm { last } else { None },
            [0, 1],
            &mut NoProbe,
        );
        last = Some(r.features);
        sum += r.distance;
        iterations += r.iterations as u64;
    }
    (sum, iterations)
}

fn parry_walk(a: &PHull, b: &PHull, poses: &[Pose]) -> f64 {
    let id = to_parry(&Pose::identity());
    poses
        .iter()
        .map(|p| {
            parry3d_f64::query::distance(&id, a, &to_parry(p), b)
                .map(|d| d.distance)
                .unwrap_or(0.0)
        })
        .sum()
}

fn time<T>(mut f: impl FnMut() -> T) -> f64 {
    let start = Instant::now();
    let mut runs = 0;
    while start.elapsed().as_secs_f64() < 0.3 {
        black_box(f());
        runs += 1;
    }
    start.elapsed().as_secs_f64() / runs as f64
}

fn bench(c: &mut Criterion) {
    let frames = coherent(500);
    let cold = random_poses(500);
    for n in [20, 100, 500] {
        let (a, b) = (hull(n, 1), hull(n, 2));
        let (pa, pb) = (parry(&a), parry(&b));
        let (d_ours, it_warm) = vclip_walk(&a, &b, &frames, true);
        let d_theirs = parry_walk(&pa, &pb, &frames);
        assert!(
            (d_ours - d_theirs).abs() < 1e-6 * d_theirs,
            "{d_ours} vs {d_theirs}"
        );
        let (_, it_cold) = vclip_walk(&a, &b, &cold, false);
        let t_warm = time(|| vclip_walk(&a, &b, &frames, true));
        let t_parry = time(|| parry_walk(&pa, &pb, &frames));
        let t_cold = time(|| vclip_walk(&a, &b, &cold, false));
        let t_parry_cold = time(|| parry_walk(&pa, &pb, &cold));
        println!(
            "{n} vertices: coherent V-Clip {:.2} µs/query ({:.2} iterations), parry {:.2} µs: \
             {:.1}x; cold V-Clip {:.2} µs ({:.1} iterations), parry {:.2} µs: {:.2}x",
            t_warm / 500.0 * 1e6,
            it_warm as f64 / 500.0,
            t_parry / 500.0 * 1e6,
            t_parry / t_warm,
            t_cold / 500.0 * 1e6,
            it_cold as f64 / 500.0,
            t_parry_cold / 500.0 * 1e6,
            t_parry_cold / t_cold,
        );
        let mut g = c.benchmark_group(format!("convex distance, {n} vertices"));
        g.bench_function("V-Clip, coherent, warm", |bn| {
            bn.iter(|| vclip_walk(&a, &b, &frames, true))
        });
        g.bench_function("parry3d, coherent", |bn| {
            bn.iter(|| parry_walk(&pa, &pb, &frames))
        });
        g.bench_function("V-Clip, cold", |bn| {
            bn.iter(|| vclip_walk(&a, &b, &cold, false))
        });
        g.bench_function("parry3d, cold", |bn| {
            bn.iter(|| parry_walk(&pa, &pb, &cold))
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);

//! BSP sweeps per second on a level of 1,000 brushes (a grid of rooms' worth of boxes, some
//! with slanted cuts), sphere and box, through the tree and by brute force (every brush
//! clipped), with the ratio printed after a plain timing run; then measured by criterion.

#[path = "common/best_of.rs"]
mod best_of;
use best_of::best_of;
use collidoscope::bsp::{Brush, BspTree, Shape, box_planes, sweep, sweep_brute_force};
use collidoscope::geom::{Plane, Point3, Vec3};
use collidoscope::trace::NoProbe;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant;

/// A small deterministic generator (the bench must not depend on a seed crate).
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

/// 1,000 brushes on a 10 × 10 × 10 grid of 8-unit cells, each a box of 1 to 3 units, one in
/// four cut by a slanted plane.
fn level() -> BspTree {
    let mut rng = Lcg(7);
    let mut brushes = Vec::new();
    for i in 0..10 {
        for j in 0..10 {
            for k in 0..10 {
                let c = Vec3::new(i as f64, j as f64, k as f64) * 8.0
                    + Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 3.0;
                let h = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 1.0 + Vec3::repeat(0.5);
                let mut planes = box_planes((c - h).into(), (c + h).into());
                if rng.unit() < 0.25 {
                    let n = Vec3::new(1.0, 1.0, rng.unit()).normalize();
                    planes.push(Plane {
                        normal: n,
                        d: n.dot(&c) + 0.3 * h.x,
                    });
                }
                brushes.push(Brush::from_planes(&planes).expect("valid brush"));
            }
        }
    }
    BspTree::build(brushes)
}

/// Walker-like moves: a start anywhere in the level, a move of up to 2 units.
fn segments(n: usize) -> Vec<(Point3, Point3)> {
    let mut rng = Lcg(11);
    (0..n)
        .map(|_| {
            let a = Point3::new(rng.unit(), rng.unit(), rng.unit()) * 80.0;
            let d = Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5) * 4.0;
            (a, a + d)
        })
        .collect()
}

const SPHERE: Shape = Shape::Sphere { radius: 0.5 };

fn boxed() -> Shape {
    Shape::Box {
        half_extents: Vec3::new(0.4, 0.9, 0.4),
    }
}

fn run_tree(tree: &BspTree, shape: &Shape, segs: &[(Point3, Point3)]) -> f64 {
    let mut s = 0.0;
    for (a, b) in segs {
        s += sweep(tree, shape, a, b, &mut NoProbe).fraction();
    }
    s
}

fn run_brute(tree: &BspTree, shape: &Shape, segs: &[(Point3, Point3)]) -> f64 {
    let mut s = 0.0;
    for (a, b) in segs {
        s += sweep_brute_force(tree, shape, a, b).fraction();
    }
    s
}

/// Sweeps a second through the tree and by brute force, 20,000 moves, best of five passes.
fn ratios(tree: &BspTree) {
    let segs = segments(20_000);
    for (name, shape) in [("sphere", SPHERE), ("box", boxed())] {
        let tree_s = best_of(|| {
            black_box(run_tree(tree, &shape, &segs));
        });
        let brute_s = best_of(|| {
            black_box(run_brute(tree, &shape, &segs[..2000]));
        }) * 10.0;
        println!(
            "bsp {name}: {:.0} sweeps/s through the tree, {:.0} by brute force, {:.1}x",
            segs.len() as f64 / tree_s,
            segs.len() as f64 / brute_s,
            brute_s / tree_s
        );
    }
}

/// Build time of a level of a few thousand brushes (16 × 16 × 16 boxes, some cut).
fn big_build() {
    let mut rng = Lcg(3);
    let mut brushes = Vec::new();
    for i in 0..16 {
        for j in 0..16 {
            for k in 0..16 {
                let c = Vec3::new(i as f64, j as f64, k as f64) * 6.0
                    + Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 2.0;
                let h = Vec3::new(rng.unit(), rng.unit(), rng.unit()) + Vec3::repeat(0.5);
                let mut planes = box_planes((c - h).into(), (c + h).into());
                if rng.unit() < 0.25 {
                    let n = Vec3::new(1.0, 1.0, rng.unit()).normalize();
                    planes.push(Plane {
                        normal: n,
                        d: n.dot(&c) + 0.3 * h.x,
                    });
                }
                brushes.push(Brush::from_planes(&planes).expect("valid brush"));
            }
        }
    }
    let n = brushes.len();
    let t = Instant::now();
    let tree = BspTree::build(brushes);
    println!(
        "bsp build: {n} brushes in {:.3} s (depth {}, {} nodes)",
        t.elapsed().as_secs_f64(),
        tree.stats.max_depth,
        tree.stats.nodes
    );
}

/// Planes tangent to the unit sphere, normals on a Fibonacci spiral: one brush of `n` faces.
fn ball_planes(n: usize) -> Vec<Plane> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - z * z).sqrt();
            let t = golden * i as f64;
            Plane {
                normal: Vec3::new(r * t.cos(), r * t.sin(), z),
                d: 1.0,
            }
        })
        .collect()
}

/// One brush of 3,000 planes (issue 31: it took minutes before construction was bounded).
fn bench_big_brush(c: &mut Criterion) {
    for n in [1000, 3000] {
        let planes = ball_planes(n);
        let t = Instant::now();
        let brush = Brush::from_planes(&planes).expect("a ball is a brush");
        println!(
            "bsp brush of {n} planes: built in {:.3} s ({} corners, {} bevels)",
            t.elapsed().as_secs_f64(),
            brush.vertices.len(),
            brush.planes.len() - brush.face_count
        );
    }
    let planes = ball_planes(3000);
    let mut g = c.benchmark_group("bsp_brush_3000_planes");
    g.sample_size(10);
    g.bench_function("from_planes", |b| {
        b.iter(|| black_box(Brush::from_planes(&planes).expect("a ball is a brush")))
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    bench_big_brush(c);
    big_build();
    let t = Instant::now();
    let tree = level();
    println!(
        "bsp level: {:?} built in {:.3} s",
        tree.stats,
        t.elapsed().as_secs_f64()
    );
    ratios(&tree);
    let segs = segments(1024);
    let mut g = c.benchmark_group("bsp_sweep_1000_brushes");
    g.throughput(Throughput::Elements(segs.len() as u64));
    g.bench_function("sphere_tree", |b| {
        b.iter(|| black_box(run_tree(&tree, &SPHERE, &segs)))
    });
    g.bench_function("box_tree", |b| {
        b.iter(|| black_box(run_tree(&tree, &boxed(), &segs)))
    });
    g.sample_size(10);
    g.bench_function("sphere_brute_force", |b| {
        b.iter(|| black_box(run_brute(&tree, &SPHERE, &segs)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

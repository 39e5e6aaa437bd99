//! Time per cloth step against the vertex count (1,000 to 30,000), with and without the
//! iterative cast, on a settled sheet resting on a box; and the ray–triangle tests each mode
//! runs per step (printed once per size: the count is what the walk saves).

use collidoscope::cloth::{Cloth, ClothMesh, ClothParams, Obstacle};
use collidoscope::geom::{Point3, Real, TriMesh, Vec3};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// A closed box, subdivided so that walks have triangles to cross: `n × n` quads per face.
fn table(half: Real, n: u32) -> TriMesh {
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    let axes = [
        (Vec3::x(), Vec3::y(), Vec3::z()),
        (Vec3::y(), Vec3::z(), Vec3::x()),
        (Vec3::z(), Vec3::x(), Vec3::y()),
    ];
    for (normal, a, b) in axes {
        for sign in [1.0, -1.0] {
            let base = vertices.len() as u32;
            for j in 0..=n {
                for i in 0..=n {
                    let s = (i as Real / n as Real * 2.0 - 1.0) * half;
                    let t = (j as Real / n as Real * 2.0 - 1.0) * half;
                    vertices.push(Point3::from(normal * (sign * half) + a * s + b * t));
                }
            }
            let at = |i: u32, j: u32| base + j * (n + 1) + i;
            for j in 0..n {
                for i in 0..n {
                    let quad = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
                    // a × b = normal: counter-clockwise seen from outside on the + face.
                    if sign > 0.0 {
                        triangles.push([quad[0], quad[1], quad[2]]);
                        triangles.push([quad[0], quad[2], quad[3]]);
                    } else {
                        triangles.push([quad[0], quad[2], quad[1]]);
                        triangles.push([quad[0], quad[3], quad[2]]);
                    }
                }
            }
        }
    }
    // Shared corners and edges are welded by position so the box is closed.
    let mut welded: Vec<Point3> = Vec::new();
    let mut remap = Vec::with_capacity(vertices.len());
    for p in &vertices {
        let found = welded.iter().position(|q| (q - p).norm() < 1e-9);
        remap.push(found.unwrap_or_else(|| {
            welded.push(*p);
            welded.len() - 1
        }) as u32);
    }
    let triangles = triangles
        .into_iter()
        .map(|t| t.map(|i| remap[i as usize]))
        .collect();
    TriMesh::new(welded, triangles).expect("generated box is valid")
}

/// A square sheet of about `vertices` vertices lying on the box's top, settled for a few steps.
fn settled_sheet(vertices: u32, iterative: bool, obstacle: &Obstacle) -> Cloth {
    let side = (vertices as Real).sqrt().round() as u32;
    let (mesh, positions) = ClothMesh::grid(
        side,
        side,
        Point3::new(-0.9, 1.0 + 0.009, -0.9),
        Vec3::new(0.0, 0.0, 1.8),
        Vec3::new(1.8, 0.0, 0.0),
    )
    .expect("valid grid");
    let params = ClothParams {
        half_thickness_m: 0.01,
        iterative_cast: iterative,
        self_collision: false,
        ..ClothParams::default()
    };
    let mut cloth = Cloth::new(0, mesh, positions, params).expect("valid cloth");
    for _ in 0..5 {
        cloth.step(1.0 / 60.0, std::slice::from_ref(obstacle), false);
    }
    cloth
}

fn steps(c: &mut Criterion) {
    let obstacle = Obstacle::new(1, table(1.0, 24));
    let mut group = c.benchmark_group("cloth_step");
    group.sample_size(10);
    for vertices in [1_000u32, 3_000, 10_000, 27_000, 30_000] {
        for iterative in [false, true] {
            let mut cloth = settled_sheet(vertices, iterative, &obstacle);
            let tests = cloth
                .step(1.0 / 60.0, std::slice::from_ref(&obstacle), true)
                .work;
            println!(
                "cloth {} vertices, iterative {iterative}: {} ray-triangle tests per step \
                 ({} complete casts, {} walks, {} walk fallbacks)",
                cloth.positions.len(),
                tests.ray_triangle_tests,
                tests.full_casts,
                tests.iterative_casts,
                tests.iterative_fallbacks
            );
            let name = if iterative { "iterative" } else { "complete" };
            group.bench_with_input(BenchmarkId::new(name, vertices), &vertices, |b, _| {
                b.iter(|| black_box(cloth.step(1.0 / 60.0, std::slice::from_ref(&obstacle), false)))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, steps);
criterion_main!(benches);

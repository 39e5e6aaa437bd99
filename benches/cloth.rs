//! Time per cloth step against the vertex count (1,000 to 30,000), with and without the
//! iterative cast (the complete cast through the cloth's and the box's hierarchies is the
//! reference), on cloth settled on a box: one sheet without and with self-collision, and two
//! sheets resting on each other, where every self ray has a hit to walk from; the narrow
//! phase alone (detection, one sheet, without and with self-collision); and the ray–triangle tests each mode runs per step (printed per
//! size, averaged over a second of steps, with the factor the walk saves).

use collidoscope::cloth::detect::{CastWork, DetectInput, detect};
use collidoscope::cloth::mesh::GridSpec;
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

/// How the bench's cloth lies on the box.
#[derive(Clone, Copy, PartialEq)]
enum Layout {
    /// One sheet, its own rays only: self rays find nothing.
    Sheet,
    /// Two sheets of half the vertices each, one resting on the other: every vertex has a
    /// self hit to keep, the settled case of the thesis' stacked cloth.
    TwoLayers,
}

/// About `vertices` vertices lying on the box's top, settled: the rays leave from the same
/// places step after step.
fn settled_cloth(
    vertices: u32,
    layout: Layout,
    iterative: bool,
    self_collision: bool,
    obstacle: &Obstacle,
) -> Cloth {
    let layers = if layout == Layout::TwoLayers { 2 } else { 1 };
    let side = (vertices as Real / layers as Real).sqrt().round() as u32;
    // 2.5 half thicknesses apart: the shells (e each) do not overlap.
    let specs: Vec<GridSpec> = (0..layers)
        .map(|k| GridSpec {
            columns: side,
            rows: side,
            corner: Point3::new(-0.9, 1.0 + 0.009 + 0.025 * k as Real, -0.9),
            u: Vec3::new(0.0, 0.0, 1.8),
            v: Vec3::new(1.8, 0.0, 0.0),
        })
        .collect();
    let (mesh, positions) = ClothMesh::sheets(&specs).expect("valid sheets");
    let params = ClothParams {
        half_thickness_m: 0.01,
        iterative_cast: iterative,
        self_collision,
        ..ClothParams::default()
    };
    let mut cloth = Cloth::new(0, mesh, positions, params).expect("valid cloth");
    for _ in 0..SETTLE_STEPS {
        cloth.step(1.0 / 60.0, std::slice::from_ref(obstacle), false);
    }
    cloth
}

const SETTLE_STEPS: usize = 30;
/// Steps over which the ray–triangle tests are averaged (complete casts come back whenever
/// the displacement gate closes, so one step is not representative).
const COUNTED_STEPS: u64 = 60;

/// The cloth's state just before detection, for timing the narrow phase alone (the
/// thesis' 4.3 ms is collision detection, not the whole step).
fn detection_input(cloth: &Cloth) -> (Vec<Point3>, Vec<Point3>) {
    let previous = cloth.positions.clone();
    let dt = 1.0 / 60.0;
    let current = previous
        .iter()
        .zip(&cloth.velocities)
        .map(|(p, v)| p + (v + cloth.params.gravity_mps2 * dt) * dt)
        .collect();
    (previous, current)
}

fn steps(c: &mut Criterion) {
    let obstacle = Obstacle::new(1, table(1.0, 24));
    let obstacles = std::slice::from_ref(&obstacle);
    let mut group = c.benchmark_group("cloth_step");
    group.sample_size(10);
    let sizes = [1_000u32, 3_000, 10_000, 27_000, 30_000];
    let mut cloths = Vec::new();
    for vertices in sizes {
        let mut variants = vec![(Layout::Sheet, false), (Layout::Sheet, true)];
        if vertices != 3_000 && vertices != 30_000 {
            variants.push((Layout::TwoLayers, true));
        }
        for (layout, self_collision) in variants {
            let mut tests = [0.0; 2];
            for iterative in [false, true] {
                let mut cloth =
                    settled_cloth(vertices, layout, iterative, self_collision, &obstacle);
                let mut counted = CastWork::default();
                for _ in 0..COUNTED_STEPS {
                    let w = cloth.step(1.0 / 60.0, obstacles, true).work;
                    counted.ray_triangle_tests += w.ray_triangle_tests;
                    counted.full_casts += w.full_casts;
                    counted.iterative_casts += w.iterative_casts;
                    counted.iterative_fallbacks += w.iterative_fallbacks;
                }
                let per = |x: u64| x as f64 / COUNTED_STEPS as f64;
                tests[iterative as usize] = per(counted.ray_triangle_tests);
                let mode = if iterative { "iterative" } else { "complete" };
                let name = match (layout, self_collision) {
                    (Layout::Sheet, false) => mode.to_string(),
                    (Layout::Sheet, true) => format!("{mode}+self"),
                    (Layout::TwoLayers, _) => format!("{mode}+self,2-layers"),
                };
                println!(
                    "cloth {name} {} vertices: {:.0} ray-triangle tests per step ({:.0} \
                     complete casts, {:.0} walks, {:.1} walk fallbacks; mean of \
                     {COUNTED_STEPS} steps)",
                    cloth.positions.len(),
                    per(counted.ray_triangle_tests),
                    per(counted.full_casts),
                    per(counted.iterative_casts),
                    per(counted.iterative_fallbacks),
                );
                group.bench_with_input(BenchmarkId::new(name, vertices), &vertices, |b, _| {
                    b.iter(|| black_box(cloth.step(1.0 / 60.0, obstacles, false)))
                });
                if layout == Layout::Sheet {
                    cloths.push((vertices, iterative, self_collision, cloth));
                }
            }
            let what = match (layout, self_collision) {
                (Layout::Sheet, false) => "one sheet",
                (Layout::Sheet, true) => "one sheet, self-collision",
                (Layout::TwoLayers, _) => "two layers, self-collision",
            };
            println!(
                "cloth ~{vertices} vertices, {what}: the iterative cast saves {:.0} ray-triangle \
                 tests per step ({:.1}x fewer)",
                tests[0] - tests[1],
                tests[0] / tests[1].max(1.0),
            );
        }
    }
    group.finish();
    let mut group = c.benchmark_group("cloth_detect");
    group.sample_size(10);
    for (vertices, iterative, self_collision, cloth) in &cloths {
        let (previous, current) = detection_input(cloth);
        let mode = if *iterative { "iterative" } else { "complete" };
        let name = if *self_collision {
            format!("{mode}+self")
        } else {
            mode.to_string()
        };
        group.bench_with_input(BenchmarkId::new(name, vertices), vertices, |b, _| {
            b.iter(|| {
                let mut memory = cloth.memory.clone();
                black_box(detect(
                    &DetectInput {
                        cloth: 0,
                        mesh: &cloth.mesh,
                        previous: &previous,
                        current: &current,
                        obstacles,
                        params: &cloth.params,
                        count_tests: false,
                    },
                    &mut memory,
                ))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, steps);
criterion_main!(benches);

//! The thesis' timing curves (§3.1–3.3 of spec 000), side by side with a polygonal reference
//! in the same run:
//! - `depth`: query time against the maximum recursion depth (`Stop::Depth`), 20×20 nets at a
//!   50 % collision rate;
//! - `net`: against the net size, one noisy 4×4 bicubic refined by knot insertion (same shape)
//!   to n×n, n = 4..20, at a 50 % rate and a precision of 1e-3 of the surface size;
//! - `rate`: against the collision rate, 0 % to 100 %, 20×20 nets at that precision.
//!
//! Every query is first-hit (the thesis' implemented mode). The cold query (`obb`) takes two
//! surfaces given in world space, nothing precomputed. The warm query (`warm`) takes the
//! surfaces in their own frames with a pose each and a [`SurfaceTree`] per surface: the
//! subdivision tree its queries visit, built once outside the timing (every placement is
//! queried once first), as the reference's trees are; `fresh` times a query on new trees
//! (tree creation included: a first query pays for every box it visits). The reference
//! tessellates both surfaces finely enough that the chord error is within the same precision
//! and answers the same yes/no question with the crate's mesh–mesh BVH traversal (trees built
//! once, outside the timing: the precomputation the thesis' method does without).
//!
//! Per-query times are measured per placement (repeated until 50 µs have passed, best of
//! three passes on the shared machine); the CSV gets their median and mean over placements.
//! Criterion then times whole placement sets for the headline case.
//!
//! Writes `bench-results/nurbs.csv` (`sweep,x,median_us,mean_us,collision_rate,queries`), and
//! with the same columns the reference's figures to `bench-results/nurbs-reference.csv`, the
//! warm query's to `bench-results/nurbs-warm.csv` and the fresh-tree query's to
//! `bench-results/nurbs-fresh.csv` (`net` and `rate` sweeps).
//!
//! `cargo bench --no-default-features --bench nurbs`

use collidoscope::bvh::{BuildOptions, Bvh, Posed, TraverseOptions, traverse};
use collidoscope::geom::{Aabb, Pose, Quat, TriMesh, Vec3};
use collidoscope::nurbs::shapes::grid_surface;
use collidoscope::nurbs::split::Direction;
use collidoscope::nurbs::tessellate::sample_grid;
use collidoscope::nurbs::{
    HitMode, NurbsSurface, QueryOptions, QueryStats, SurfaceTree, intersect, intersect_posed,
};
use collidoscope::trace::NoProbe;
use collidoscope::world::scene_kit::Lcg;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::io::Write as _;
use std::time::{Duration, Instant};

/// Placements per curve point (the thesis used 3000 per series; the medians settle well
/// before that).
const PLACEMENTS: usize = 200;
/// Side of the surfaces' square.
const SIDE: f64 = 2.0;

/// The thesis' complexity test: a 4×4 bicubic net with noise, refined without changing its
/// shape to `n × n` control points.
fn refined_net(seed: u64, n: usize) -> NurbsSurface {
    let mut rng = Lcg(seed);
    let mut s = grid_surface(4, 3, SIDE, |_, _| rng.range(-0.35, 0.35));
    for k in 0..n.saturating_sub(4) {
        // Interior knots spread evenly; the order of insertions does not change the shape.
        let t = (k as f64 + 1.0) / (n - 3) as f64;
        s = s.with_knot(Direction::U, t).with_knot(Direction::V, t);
    }
    s
}

/// The surface moved so that its parameter centre sits at the origin: two such surfaces
/// placed at the same point always touch, so a zero offset is a 100 % rate.
fn centred(s: &NurbsSurface) -> NurbsSurface {
    let [u0, u1, v0, v1] = s.domain();
    let c = s.point((u0 + u1) * 0.5, (v0 + v1) * 0.5);
    s.transformed(&Pose::translation(-c.x, -c.y, -c.z))
}

fn random_rotation(rng: &mut Lcg) -> Quat {
    // Shoemake's uniform quaternion.
    let (a, b, c) = (rng.unit(), rng.unit(), rng.unit());
    let (r1, r2) = ((1.0 - a).sqrt(), a.sqrt());
    let (t1, t2) = (std::f64::consts::TAU * b, std::f64::consts::TAU * c);
    Quat::from_quaternion(nalgebra::Quaternion::new(
        r2 * t2.cos(),
        r1 * t1.sin(),
        r1 * t1.cos(),
        r2 * t2.sin(),
    ))
}

/// Random orientations of both surfaces and a unit offset; the offset is scaled per rate.
struct Placement {
    rot_a: Quat,
    rot_b: Quat,
    offset: Vec3,
}

fn placements(seed: u64) -> Vec<Placement> {
    let mut rng = Lcg(seed);
    (0..PLACEMENTS)
        .map(|_| Placement {
            rot_a: random_rotation(&mut rng),
            rot_b: random_rotation(&mut rng),
            offset: Vec3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            ),
        })
        .collect()
}

impl Placement {
    fn poses(&self, spread: f64) -> (Pose, Pose) {
        (
            Pose::from_parts(Vec3::zeros().into(), self.rot_a),
            Pose::from_parts((self.offset * spread).into(), self.rot_b),
        )
    }
}

/// One query as the thesis times it: two world-space surfaces.
struct Case {
    a: NurbsSurface,
    b: NurbsSurface,
    pose_a: Pose,
    pose_b: Pose,
}

fn cases(a: &NurbsSurface, b: &NurbsSurface, set: &[Placement], spread: f64) -> Vec<Case> {
    set.iter()
        .map(|p| {
            let (pose_a, pose_b) = p.poses(spread);
            Case {
                a: a.transformed(&pose_a),
                b: b.transformed(&pose_b),
                pose_a,
                pose_b,
            }
        })
        .collect()
}

fn hit_rate(
    a: &NurbsSurface,
    b: &NurbsSurface,
    set: &[Placement],
    spread: f64,
    o: QueryOptions,
) -> f64 {
    let hits = cases(a, b, set, spread)
        .iter()
        .filter(|c| !intersect(&c.a, &c.b, o).0.is_empty())
        .count();
    hits as f64 / set.len() as f64
}

/// The cube half-size whose placements collide at the rate nearest `target` (the measured
/// rate is a step function of the spread on a fixed set: bisection finds the step).
fn spread_for_rate(
    a: &NurbsSurface,
    b: &NurbsSurface,
    set: &[Placement],
    target: f64,
    o: QueryOptions,
) -> f64 {
    if target >= 1.0 {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0, 1.0);
    while hit_rate(a, b, set, hi, o) > target {
        hi *= 2.0;
    }
    for _ in 0..18 {
        let mid = 0.5 * (lo + hi);
        if hit_rate(a, b, set, mid, o) > target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// Seconds per call of `f`, repeated until 50 µs have passed, best of three passes.
fn time_per_call(mut f: impl FnMut()) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let start = Instant::now();
        let mut n = 0u32;
        while start.elapsed() < Duration::from_micros(50) || n == 0 {
            f();
            n += 1;
        }
        best = best.min(start.elapsed().as_secs_f64() / n as f64);
    }
    best
}

struct Row {
    sweep: &'static str,
    x: f64,
    median_us: f64,
    mean_us: f64,
    rate: f64,
    queries: usize,
}

fn summarise(sweep: &'static str, x: f64, mut times_s: Vec<f64>, hits: usize) -> Row {
    let queries = times_s.len();
    times_s.sort_by(f64::total_cmp);
    let median = if queries % 2 == 1 {
        times_s[queries / 2]
    } else {
        0.5 * (times_s[queries / 2 - 1] + times_s[queries / 2])
    };
    Row {
        sweep,
        x,
        median_us: median * 1e6,
        mean_us: times_s.iter().sum::<f64>() / queries as f64 * 1e6,
        rate: hits as f64 / queries as f64,
        queries,
    }
}

fn time_ours(sweep: &'static str, x: f64, set: &[Case], o: QueryOptions) -> (Row, QueryStats) {
    let mut hits = 0;
    let mut total = QueryStats::default();
    let mut hit_calls = 0;
    let times = set
        .iter()
        .map(|c| {
            let (found, stats) = intersect(&c.a, &c.b, o);
            hits += usize::from(!found.is_empty());
            if !found.is_empty() {
                hit_calls += stats.calls;
            }
            total.calls += stats.calls;
            total.splits += stats.splits;
            total.max_depth = total.max_depth.max(stats.max_depth);
            time_per_call(|| {
                black_box(intersect(black_box(&c.a), black_box(&c.b), o));
            })
        })
        .collect();
    if hits > 0 {
        eprintln!(
            "          {:.0} box tests per colliding query",
            hit_calls as f64 / hits as f64
        );
    }
    (summarise(sweep, x, times, hits), total)
}

/// The warm query on trees built outside the timing, and a query on fresh trees; `a` and `b`
/// in their own frames, placed by each case's poses. Prints how many verdicts differ from the
/// cold query's (none expected: the same traversal up to rounding).
fn time_warm(
    sweep: &'static str,
    x: f64,
    (a, b): (&NurbsSurface, &NurbsSurface),
    set: &[Case],
    o: QueryOptions,
) -> (Row, Row) {
    let fresh_times = set
        .iter()
        .map(|c| {
            time_per_call(|| {
                let mut ta = SurfaceTree::new(a.clone());
                let mut tb = SurfaceTree::new(b.clone());
                black_box(intersect_posed(&mut ta, &c.pose_a, &mut tb, &c.pose_b, o));
            })
        })
        .collect();
    let (mut ta, mut tb) = (SurfaceTree::new(a.clone()), SurfaceTree::new(b.clone()));
    let mut hits = 0;
    let mut differ = 0;
    for c in set {
        let warm = !intersect_posed(&mut ta, &c.pose_a, &mut tb, &c.pose_b, o)
            .0
            .is_empty();
        hits += usize::from(warm);
        differ += usize::from(warm == intersect(&c.a, &c.b, o).0.is_empty());
    }
    let times = set
        .iter()
        .map(|c| {
            time_per_call(|| {
                black_box(intersect_posed(
                    &mut ta,
                    black_box(&c.pose_a),
                    &mut tb,
                    black_box(&c.pose_b),
                    o,
                ));
            })
        })
        .collect();
    eprintln!(
        "          warm trees: {} + {} pieces after {} placements; verdicts differing from the cold query: {differ}",
        ta.node_count(),
        tb.node_count(),
        set.len()
    );
    (
        summarise(sweep, x, times, hits),
        summarise(sweep, x, fresh_times, hits),
    )
}

/// A surface as a triangle mesh whose chord error is at most `eps` (or the finest tried).
fn fine_mesh(s: &NurbsSurface, eps: f64) -> (TriMesh, usize) {
    let mut n = 16;
    loop {
        let chord = chord_error(s, n);
        if chord <= eps || n >= 256 {
            break;
        }
        n *= 2;
    }
    let points = sample_grid(s, n);
    let row = (n + 1) as u32;
    let mut triangles = Vec::with_capacity(2 * n * n);
    for a in 0..n as u32 {
        for b in 0..n as u32 {
            let k = a * row + b;
            triangles.push([k, k + row, k + row + 1]);
            triangles.push([k, k + row + 1, k + 1]);
        }
    }
    let mesh = TriMesh::new(points, triangles).expect("a grid mesh is well formed");
    (mesh, n)
}

/// Largest distance between a cell's parameter-centre point and its diagonal's midpoint.
fn chord_error(s: &NurbsSurface, n: usize) -> f64 {
    let [u0, u1, v0, v1] = s.domain();
    let at = |k: usize, lo: f64, hi: f64| lo + (hi - lo) * k as f64 / n as f64;
    let mut worst: f64 = 0.0;
    for a in 0..n {
        for b in 0..n {
            let (ua, ub, va, vb) = (
                at(a, u0, u1),
                at(a + 1, u0, u1),
                at(b, v0, v1),
                at(b + 1, v0, v1),
            );
            let mid = s.point((ua + ub) * 0.5, (va + vb) * 0.5);
            let diag = (s.point(ua, va).coords + s.point(ub, vb).coords) * 0.5;
            worst = worst.max((mid.coords - diag).norm());
        }
    }
    worst
}

struct Reference {
    mesh_a: TriMesh,
    mesh_b: TriMesh,
    tree_a: Bvh<Aabb>,
    tree_b: Bvh<Aabb>,
}

impl Reference {
    fn new(a: &NurbsSurface, b: &NurbsSurface, eps: f64) -> (Self, usize, f64) {
        let start = Instant::now();
        let (mesh_a, n) = fine_mesh(a, eps);
        let (mesh_b, _) = fine_mesh(b, eps);
        let tree_a = Bvh::build(&mesh_a, &BuildOptions::default());
        let tree_b = Bvh::build(&mesh_b, &BuildOptions::default());
        let build_s = start.elapsed().as_secs_f64();
        (
            Self {
                mesh_a,
                mesh_b,
                tree_a,
                tree_b,
            },
            n,
            build_s,
        )
    }

    fn collides(&self, pose_a: &Pose, pose_b: &Pose) -> bool {
        let r = traverse(
            &Posed {
                mesh: &self.mesh_a,
                tree: &self.tree_a,
                pose: pose_a,
                body: 0,
            },
            &Posed {
                mesh: &self.mesh_b,
                tree: &self.tree_b,
                pose: pose_b,
                body: 1,
            },
            TraverseOptions {
                count_per_node: false,
                first_only: true,
                max_triangle_tests: None,
            },
            &mut NoProbe,
        );
        !r.pairs.is_empty()
    }

    fn time(&self, sweep: &'static str, x: f64, set: &[Case]) -> Row {
        let mut hits = 0;
        let times = set
            .iter()
            .map(|c| {
                hits += usize::from(self.collides(&c.pose_a, &c.pose_b));
                time_per_call(|| {
                    black_box(self.collides(black_box(&c.pose_a), black_box(&c.pose_b)));
                })
            })
            .collect();
        summarise(sweep, x, times, hits)
    }
}

fn write_csv(path: &str, rows: &[Row]) {
    let write = || -> std::io::Result<()> {
        std::fs::create_dir_all("bench-results")?;
        let mut f = std::fs::File::create(path)?;
        writeln!(f, "sweep,x,median_us,mean_us,collision_rate,queries")?;
        for r in rows {
            writeln!(
                f,
                "{},{},{:.3},{:.3},{:.3},{}",
                r.sweep, r.x, r.median_us, r.mean_us, r.rate, r.queries
            )?;
        }
        Ok(())
    };
    match write() {
        Ok(()) => eprintln!("wrote {path}"),
        Err(e) => eprintln!("could not write {path}: {e}"),
    }
}

fn print_row(label: &str, r: &Row, stats: Option<&QueryStats>) {
    let extra = stats.map_or(String::new(), |s| {
        format!(
            ", {:.0} box tests/query, deepest {}",
            s.calls as f64 / r.queries as f64,
            s.max_depth
        )
    });
    eprintln!(
        "{label:>9} {:>5} {:>3}: median {:>9.2} µs, mean {:>9.2} µs, rate {:>5.1} %{extra}",
        r.sweep,
        r.x,
        r.median_us,
        r.mean_us,
        r.rate * 100.0
    );
}

/// The two surfaces of the sweeps: two noisy 4×4 bicubics refined to `n × n`, centred.
fn pair(n: usize) -> (NurbsSurface, NurbsSurface) {
    (centred(&refined_net(11, n)), centred(&refined_net(29, n)))
}

fn set_parts(a: &NurbsSurface, b: &NurbsSurface, set: &[Placement], spread: f64) -> Vec<Case> {
    cases(a, b, set, spread)
}

/// What one query's parts cost (`NURBS_BENCH_SWEEPS=parts`, a quick look while profiling):
/// the thesis' box, the query's box below the root and a split, of a whole 20×20 net and of a
/// 4×4 Bézier piece; one separating-axis test (code that does not change: a gauge of the
/// machine's load); the counters and times of the 50 % set.
fn parts(a: &NurbsSurface, b: &NurbsSurface, set: &[Case], o: QueryOptions) {
    use collidoscope::bvh::sat_obb::obb_separating_axis;
    use collidoscope::nurbs::{BoxRule, control_point_obb, piece_box};
    let mut bezier = a.clone();
    while bezier.count_u > 4 || bezier.count_v > 4 {
        let dir = if bezier.count_u >= bezier.count_v {
            Direction::U
        } else {
            Direction::V
        };
        bezier = bezier.split_half(dir).0;
    }
    for (name, s) in [("20x20", a), ("4x4", &bezier)] {
        let t = time_per_call(|| {
            black_box(control_point_obb(black_box(s)));
        });
        eprintln!("    box of a {name} net: {:.3} µs", t * 1e6);
        let parent = control_point_obb(s);
        let t = time_per_call(|| {
            black_box(piece_box(black_box(s), Some(&parent), BoxRule::CornerFrame));
        });
        eprintln!("    corner-frame box of a {name} piece: {:.3} µs", t * 1e6);
        let (mut lo, mut hi) = s.split_half(Direction::U);
        let [u0, u1, ..] = s.domain();
        let t = time_per_call(|| {
            s.split_into(Direction::U, 0.5 * (u0 + u1), &mut lo, &mut hi);
            black_box((&lo, &hi));
        });
        eprintln!("    split of a {name} net: {:.3} µs", t * 1e6);
    }
    let (ba, bb) = (control_point_obb(a), control_point_obb(b));
    let t = time_per_call(|| {
        black_box(obb_separating_axis(black_box(&ba), black_box(&bb), 0.0));
    });
    eprintln!("    separating-axis test: {:.3} µs", t * 1e6);
    let mut total = QueryStats::default();
    for c in set {
        let (_, s) = intersect(&c.a, &c.b, o);
        total.calls += s.calls;
        total.boxes_built += s.boxes_built;
        total.splits += s.splits;
    }
    let n = set.len() as f64;
    eprintln!(
        "    per query: {:.1} calls, {:.1} boxes, {:.1} splits",
        total.calls as f64 / n,
        total.boxes_built as f64 / n,
        total.splits as f64 / n
    );
    let (row, stats) = time_ours("rate", 50.0, set, o);
    print_row("obb", &row, Some(&stats));
}

fn sweeps(c: &mut Criterion) {
    let set = placements(2002);
    let (a20, b20) = pair(20);
    let eps = 1e-3 * a20.size().max(b20.size());
    let precise = QueryOptions::precision(eps, HitMode::First);
    eprintln!(
        "surfaces: size {:.3} and {:.3}, precision {eps:.2e}",
        a20.size(),
        b20.size()
    );
    let half = spread_for_rate(&a20, &b20, &set, 0.5, precise);
    let (reference, tess, build_s) = Reference::new(&a20, &b20, eps);
    eprintln!(
        "reference: {tess}×{tess} grid per surface ({} triangles each), tessellation and trees built in {:.1} ms",
        reference.mesh_a.triangles.len(),
        build_s * 1e3
    );
    let mut rows = Vec::new();
    let mut reference_rows = Vec::new();
    let mut warm_rows = Vec::new();
    let mut fresh_rows = Vec::new();

    // `NURBS_BENCH_SWEEPS=net,rate` runs only some sweeps (while profiling).
    let only = std::env::var("NURBS_BENCH_SWEEPS").unwrap_or_else(|_| "net,depth,rate".into());
    let wanted = |s: &str| only.split(',').any(|w| w.trim() == s);
    if wanted("parts") {
        parts(&a20, &b20, &set_parts(&a20, &b20, &set, half), precise);
    }
    for n in [4usize, 6, 8, 10, 12, 15, 20]
        .into_iter()
        .filter(|_| wanted("net"))
    {
        let (a, b) = pair(n);
        let set_n = cases(&a, &b, &set, half);
        let (row, stats) = time_ours("net", n as f64, &set_n, precise);
        print_row("obb", &row, Some(&stats));
        let (warm, fresh) = time_warm("net", n as f64, (&a, &b), &set_n, precise);
        print_row("warm", &warm, None);
        print_row("fresh", &fresh, None);
        rows.push(row);
        warm_rows.push(warm);
        fresh_rows.push(fresh);
    }

    let set_half = cases(&a20, &b20, &set, half);
    let levels = [4u32, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60];
    for level in levels.into_iter().filter(|_| wanted("depth")) {
        let (row, stats) = time_ours(
            "depth",
            level as f64,
            &set_half,
            QueryOptions::depth(level, HitMode::First),
        );
        print_row("obb", &row, Some(&stats));
        rows.push(row);
    }

    let percents = [0u32, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    for percent in percents.into_iter().filter(|_| wanted("rate")) {
        let spread = spread_for_rate(&a20, &b20, &set, percent as f64 / 100.0, precise);
        let set_r = cases(&a20, &b20, &set, spread);
        let (row, stats) = time_ours("rate", percent as f64, &set_r, precise);
        print_row("obb", &row, Some(&stats));
        let (warm, fresh) = time_warm("rate", percent as f64, (&a20, &b20), &set_r, precise);
        print_row("warm", &warm, None);
        print_row("fresh", &fresh, None);
        let reference_row = reference.time("rate", percent as f64, &set_r);
        print_row("reference", &reference_row, None);
        let disagree = set_r
            .iter()
            .filter(|q| {
                intersect(&q.a, &q.b, precise).0.is_empty()
                    == reference.collides(&q.pose_a, &q.pose_b)
            })
            .count();
        eprintln!("          verdicts differing from the reference: {disagree} of {PLACEMENTS}");
        eprintln!(
            "          ratio reference/obb: median {:.2}, mean {:.2}; reference/warm: median {:.2}",
            reference_row.median_us / row.median_us,
            reference_row.mean_us / row.mean_us,
            reference_row.median_us / warm.median_us
        );
        rows.push(row);
        reference_rows.push(reference_row);
        warm_rows.push(warm);
        fresh_rows.push(fresh);
    }
    if only == "net,depth,rate" {
        write_csv("bench-results/nurbs.csv", &rows);
        write_csv("bench-results/nurbs-reference.csv", &reference_rows);
        write_csv("bench-results/nurbs-warm.csv", &warm_rows);
        write_csv("bench-results/nurbs-fresh.csv", &fresh_rows);
    }

    let mut g = c.benchmark_group("nurbs_20x20_50pct_first_hit");
    g.bench_function(format!("obb_subdivision_{PLACEMENTS}_queries"), |bench| {
        bench.iter(|| {
            for q in &set_half {
                black_box(intersect(&q.a, &q.b, precise));
            }
        })
    });
    let (mut ta, mut tb) = (SurfaceTree::new(a20.clone()), SurfaceTree::new(b20.clone()));
    g.bench_function(format!("warm_trees_{PLACEMENTS}_queries"), |bench| {
        bench.iter(|| {
            for q in &set_half {
                black_box(intersect_posed(
                    &mut ta, &q.pose_a, &mut tb, &q.pose_b, precise,
                ));
            }
        })
    });
    g.bench_function(format!("reference_bvh_{PLACEMENTS}_queries"), |bench| {
        bench.iter(|| {
            for q in &set_half {
                black_box(reference.collides(&q.pose_a, &q.pose_b));
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = sweeps
}
criterion_main!(benches);

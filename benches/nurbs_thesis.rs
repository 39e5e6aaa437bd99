//! The thesis' experiments (spec 000 §5–§6) on its own surfaces, Table 3.1 as rebuilt in
//! `nurbs::thesis_surfaces`:
//! - `thesis-depth` (Fig. 3.2): query time against the maximum recursion level, the 4
//!   surfaces × 6 pairs at random placements and orientations inside a cube whose size gives
//!   about 50 % collisions at level [`RATE_LEVEL`];
//! - `thesis-rate` (Fig. 3.3): against the collision rate, 0 % to 100 %, set by the cube size;
//! - `worst-case` (Fig. 3.4): two copies of surface 4 a hair apart (never touching), against
//!   the level: the query must subdivide both over their whole area before it can say "no";
//! - `thesis-net` (Fig. 3.5): against the control-point count, a noisy 4 × 4 bicubic refined by
//!   knot insertion (same shape) to 10 × 10, 15 × 15 and 20 × 20, at 50 %;
//! - `precision` (Figs 3.7, 3.8): the six cases of `nurbs::precision_study`, error against level,
//!   static and moving.
//!
//! First-hit queries with the thesis' rules and its depth stop, nothing precomputed (the
//! thesis' C++ did the same). Per-query times are the best of three passes, each repeating
//! the query until 50 µs have passed; a curve point is the median and mean over its queries.
//! As the thesis, 500 placements (3000 queries) per point (`NURBS_THESIS_PLACEMENTS` to change;
//! the net sweep: 3000 placements of one pair).
//!
//! Writes `bench-results/nurbs-thesis.csv` (`sweep,x,median_us,mean_us,collision_rate,queries`,
//! as `nurbs.csv`) and `bench-results/nurbs-precision.csv`
//! (`case,motion,level,error,mean_error,hits`). `NURBS_THESIS_SWEEPS=depth,rate,worst,net,precision`
//! runs some only; their rows replace the same sweeps' rows in the file, others are kept
//! (the precision study's rows are keyed by case: `NURBS_THESIS_CASE=3` and
//! `NURBS_THESIS_LEVELS=16,32` rerun part of it).
//!
//! `cargo bench --no-default-features --bench nurbs_thesis`

use collidoscope::geom::{Pose, Quat, Vec3};
use collidoscope::nurbs::precision_study::{
    self, PrecisionCase, errors, moving_hits, static_hits, theoretical_contact,
};
use collidoscope::nurbs::shapes::grid_surface;
use collidoscope::nurbs::split::Direction;
use collidoscope::nurbs::thesis_surfaces::{centred, thesis_surface, thesis_surfaces};
use collidoscope::nurbs::{HitMode, NurbsSurface, QueryOptions, intersect};
use collidoscope::world::scene_kit::Lcg;
use std::hint::black_box;
use std::io::Write as _;
use std::time::{Duration, Instant};

/// The level at which the placement cube is tuned to a collision rate, and the level of the
/// rate and net sweeps (the start of the thesis' plateau).
const RATE_LEVEL: u32 = 32;
/// The deepest level of case 1's moving runs (see `precision`).
const CASE_1_MOVING_MAX: u32 = 40;
const THESIS_CSV: &str = "bench-results/nurbs-thesis.csv";
const PRECISION_CSV: &str = "bench-results/nurbs-precision.csv";

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

/// One placement: an orientation and a unit-cube position per surface; the positions are
/// scaled by the cube's half-size.
struct Placement(Vec<(Quat, Vec3)>);

fn placements(seed: u64, count: usize, surfaces: usize) -> Vec<Placement> {
    let mut rng = Lcg(seed);
    (0..count)
        .map(|_| {
            Placement(
                (0..surfaces)
                    .map(|_| {
                        let q = random_rotation(&mut rng);
                        let p = Vec3::new(
                            rng.range(-1.0, 1.0),
                            rng.range(-1.0, 1.0),
                            rng.range(-1.0, 1.0),
                        );
                        (q, p)
                    })
                    .collect(),
            )
        })
        .collect()
}

/// Every pair of every placement, as world-space surfaces.
fn queries(
    surfaces: &[NurbsSurface],
    set: &[Placement],
    spread: f64,
) -> Vec<(NurbsSurface, NurbsSurface)> {
    let mut out = Vec::new();
    for p in set {
        let placed: Vec<NurbsSurface> = surfaces
            .iter()
            .zip(&p.0)
            .map(|(s, (q, at))| s.transformed(&Pose::from_parts((at * spread).into(), *q)))
            .collect();
        for a in 0..placed.len() {
            for b in a + 1..placed.len() {
                out.push((placed[a].clone(), placed[b].clone()));
            }
        }
    }
    out
}

fn hit_rate(surfaces: &[NurbsSurface], set: &[Placement], spread: f64, o: QueryOptions) -> f64 {
    let qs = queries(surfaces, set, spread);
    let hits = qs
        .iter()
        .filter(|(a, b)| !intersect(a, b, o).0.is_empty())
        .count();
    hits as f64 / qs.len() as f64
}

/// The cube half-size whose placements collide at the rate nearest `target` (bisection on
/// the step function that the rate is on a fixed set).
fn spread_for_rate(surfaces: &[NurbsSurface], set: &[Placement], target: f64) -> f64 {
    if target >= 1.0 {
        return 0.0;
    }
    let o = QueryOptions::depth(RATE_LEVEL, HitMode::First);
    let (mut lo, mut hi) = (0.0, 1.0);
    while hit_rate(surfaces, set, hi, o) > target {
        hi *= 2.0;
    }
    for _ in 0..14 {
        let mid = 0.5 * (lo + hi);
        if hit_rate(surfaces, set, mid, o) > target {
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
        best = best.min(start.elapsed().as_secs_f64() / f64::from(n));
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

impl Row {
    fn csv(&self) -> String {
        format!(
            "{},{},{:.3},{:.3},{:.3},{}",
            self.sweep, self.x, self.median_us, self.mean_us, self.rate, self.queries
        )
    }
}

fn time_queries(
    sweep: &'static str,
    x: f64,
    qs: &[(NurbsSurface, NurbsSurface)],
    o: QueryOptions,
) -> Row {
    let mut hits = 0;
    let mut times: Vec<f64> = qs
        .iter()
        .map(|(a, b)| {
            hits += usize::from(!intersect(a, b, o).0.is_empty());
            time_per_call(|| {
                black_box(intersect(black_box(a), black_box(b), o));
            })
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let n = times.len();
    let median = if n % 2 == 1 {
        times[n / 2]
    } else {
        0.5 * (times[n / 2 - 1] + times[n / 2])
    };
    let row = Row {
        sweep,
        x,
        median_us: median * 1e6,
        mean_us: times.iter().sum::<f64>() / n as f64 * 1e6,
        rate: hits as f64 / n as f64,
        queries: n,
    };
    eprintln!(
        "{sweep:>12} {x:>5}: median {:>10.2} µs, mean {:>10.2} µs, rate {:>5.1} % ({n} queries)",
        row.median_us,
        row.mean_us,
        row.rate * 100.0
    );
    row
}

fn depth_sweep(surfaces: &[NurbsSurface], set: &[Placement], rows: &mut Vec<Row>) {
    let half = spread_for_rate(surfaces, set, 0.5);
    eprintln!("cube half-size for 50 % at level {RATE_LEVEL}: {half:.4}");
    let qs = queries(surfaces, set, half);
    for level in (0..=64).step_by(4).chain([72, 80, 96]) {
        let o = QueryOptions::depth(level, HitMode::First);
        rows.push(time_queries("thesis-depth", f64::from(level), &qs, o));
    }
}

fn rate_sweep(surfaces: &[NurbsSurface], set: &[Placement], rows: &mut Vec<Row>) {
    let o = QueryOptions::depth(RATE_LEVEL, HitMode::First);
    for percent in (0..=100).step_by(10) {
        let spread = spread_for_rate(surfaces, set, f64::from(percent) / 100.0);
        let qs = queries(surfaces, set, spread);
        rows.push(time_queries("thesis-rate", f64::from(percent), &qs, o));
    }
}

/// Fig. 3.4: surface 4 and a copy `GAP` above it (a height field over its base rectangle, so
/// the copy never touches it), one query per level; a query that reports a hit has stopped at
/// its level with boxes still overlapping, a false positive of the depth stop.
fn worst_case(rows: &mut Vec<Row>) {
    const GAP: f64 = 1e-3;
    let Some(s) = thesis_surface(3) else { return };
    let above = s.transformed(&Pose::translation(0.0, 0.0, GAP));
    let qs = [(s, above)];
    for level in (0..=40).step_by(4) {
        // A budget keeps the deepest levels from running for hours.
        let o = QueryOptions::depth(level, HitMode::First).with_max_calls(20_000_000);
        let (_, stats) = intersect(&qs[0].0, &qs[0].1, o);
        eprintln!(
            "  worst case level {level}: {} box tests, {} splits{}",
            stats.calls,
            stats.splits,
            if stats.truncated {
                " (budget spent)"
            } else {
                ""
            }
        );
        rows.push(time_queries("worst-case", f64::from(level), &qs, o));
    }
}

/// The thesis' complexity test: a 4×4 bicubic net with noise, refined without changing its
/// shape to `n × n` control points.
fn refined_net(seed: u64, n: usize) -> NurbsSurface {
    let mut rng = Lcg(seed);
    let mut s = grid_surface(4, 3, 2.0, |_, _| rng.range(-0.35, 0.35));
    for k in 0..n.saturating_sub(4) {
        let t = (k as f64 + 1.0) / (n - 3) as f64;
        s = s.with_knot(Direction::U, t).with_knot(Direction::V, t);
    }
    centred(&s)
}

fn net_sweep(count: usize, rows: &mut Vec<Row>) {
    // One pair per placement: six times the placements of the other sweeps, as many queries
    // (the thesis ran 5000 per complexity).
    let set = &placements(2005, 6 * count, 2);
    let base = [refined_net(11, 4), refined_net(29, 4)];
    // Tuned once on the 4×4 nets: the refined ones have the same shape, so the same rate.
    let half = spread_for_rate(&base, set, 0.5);
    let o = QueryOptions::depth(RATE_LEVEL, HitMode::First);
    for n in [4usize, 10, 15, 20] {
        let pair = [refined_net(11, n), refined_net(29, n)];
        let qs = queries(&pair, set, half);
        rows.push(time_queries("thesis-net", (n * n) as f64, &qs, o));
    }
}

fn precision(lines: &mut Vec<String>) {
    let only_case: Option<u8> = std::env::var("NURBS_THESIS_CASE")
        .ok()
        .and_then(|v| v.parse().ok());
    let levels: Vec<u32> = std::env::var("NURBS_THESIS_LEVELS")
        .ok()
        .map(|v| v.split(',').filter_map(|l| l.trim().parse().ok()).collect())
        .unwrap_or_else(|| (0..=96).step_by(4).collect());
    for case in PrecisionCase::ALL
        .into_iter()
        .filter(|c| only_case.is_none_or(|n| n == c.number()))
    {
        let contact = theoretical_contact(case);
        for &level in &levels {
            let t0 = Instant::now();
            let fixed = static_hits(case, level);
            let stat = errors(&fixed, &contact);
            let t1 = Instant::now();
            // Case 1's poles make every step before the contact a long near miss (both pole
            // pieces' boxes stay fat): past this level a run takes minutes, and the moving
            // error has reached its floor (the contact-time search) long before.
            let moving = if case == PrecisionCase::SpheresPole && level > CASE_1_MOVING_MAX {
                None
            } else {
                moving_hits(case, level)
            };
            eprintln!(
                "  case {} level {level}: static {:.2} s, moving {:.2} s",
                case.number(),
                (t1 - t0).as_secs_f64(),
                t1.elapsed().as_secs_f64()
            );
            let mov = moving.as_ref().and_then(|m| errors(&m.hits, &contact));
            for (motion, e, hits) in [
                ("static", stat, fixed.len()),
                ("moving", mov, moving.as_ref().map_or(0, |m| m.hits.len())),
            ] {
                let Some((worst, mean)) = e else {
                    eprintln!("  case {} {motion} level {level}: no hit", case.number());
                    continue;
                };
                lines.push(format!(
                    "{},{motion},{level},{worst:.6e},{mean:.6e},{hits}",
                    case.number()
                ));
            }
        }
        eprintln!(
            "precision case {} ({}) done; moving contact step dt = {}",
            case.number(),
            case.describe(),
            precision_study::TIME_STEP
        );
    }
}

/// Replaces the rows of the sweeps run (by their first field) in `path`, keeps the others.
fn merge_csv(path: &str, header: &str, lines: &[String]) {
    let ran: std::collections::BTreeSet<&str> =
        lines.iter().filter_map(|l| l.split(',').next()).collect();
    let write = || -> std::io::Result<()> {
        std::fs::create_dir_all("bench-results")?;
        let old = std::fs::read_to_string(path).unwrap_or_default();
        let kept: Vec<&str> = old
            .lines()
            .skip(1)
            .filter(|l| l.split(',').next().is_some_and(|s| !ran.contains(s)))
            .collect();
        let mut f = std::fs::File::create(path)?;
        writeln!(f, "{header}")?;
        for l in kept {
            writeln!(f, "{l}")?;
        }
        for l in lines {
            writeln!(f, "{l}")?;
        }
        Ok(())
    };
    match write() {
        Ok(()) => eprintln!("wrote {path}"),
        Err(e) => eprintln!("could not write {path}: {e}"),
    }
}

fn main() {
    let only = std::env::var("NURBS_THESIS_SWEEPS")
        .unwrap_or_else(|_| "depth,rate,worst,net,precision".into());
    let wanted = |s: &str| only.split(',').any(|w| w.trim() == s);
    let count = std::env::var("NURBS_THESIS_PLACEMENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let surfaces = thesis_surfaces();
    let set = placements(2003, count, surfaces.len());
    let mut rows = Vec::new();
    if wanted("depth") {
        depth_sweep(&surfaces, &set, &mut rows);
    }
    if wanted("rate") {
        rate_sweep(&surfaces, &set, &mut rows);
    }
    if wanted("worst") {
        worst_case(&mut rows);
    }
    if wanted("net") {
        net_sweep(count, &mut rows);
    }
    if !rows.is_empty() {
        let lines: Vec<String> = rows.iter().map(Row::csv).collect();
        merge_csv(
            THESIS_CSV,
            "sweep,x,median_us,mean_us,collision_rate,queries",
            &lines,
        );
    }
    if wanted("precision") {
        let mut lines = Vec::new();
        precision(&mut lines);
        // Keyed by case: the whole study is rewritten.
        merge_csv(
            PRECISION_CSV,
            "case,motion,level,error,mean_error,hits",
            &lines,
        );
    }
}

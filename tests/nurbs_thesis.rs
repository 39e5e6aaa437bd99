//! The query as the thesis writes it (issue 29, item 1): its box rule, split rule, three
//! recursions and their cost counters, the flat-patch stop's intersection curve and the
//! thinnest-axis normal, each against an independent oracle (analytic curves and normals,
//! dense sampling of the surfaces).

use crate::test_scale::scale;
use collidoscope::geom::{Point3, Pose, Quat, Vec3};
use collidoscope::nurbs::shapes::{
    clamped_uniform_knots, grid_surface, plane, random_bicubic, sphere_octant,
};
use collidoscope::nurbs::{
    BoxRule, HitMode, NormalRule, NurbsEvent, NurbsHit, NurbsSurface, QueryOptions, QueryStats,
    Recursion, SplitRule, SurfaceTree, intersect, intersect_posed_traced, query::intersect_traced,
};
use collidoscope::world::scene_kit::Lcg;
use proptest::prelude::*;

/// The standard pair of the comparisons: two noisy bicubic nets (8×8 and 6×6) turned into
/// each other.
fn standard_pair() -> (NurbsSurface, NurbsSurface) {
    let mut rng = Lcg(17);
    let a = random_bicubic(8, 2.0, 0.4, &mut rng);
    let b = random_bicubic(6, 2.0, 0.4, &mut rng);
    let pose_a = Pose::from_parts(
        Vec3::new(0.1, -0.2, 0.05).into(),
        Quat::from_euler_angles(0.3, -0.7, 1.1),
    );
    let pose_b = Pose::from_parts(
        Vec3::new(0.2, 0.1, -0.1).into(),
        Quat::from_euler_angles(-1.2, 0.4, 0.2),
    );
    (a.transformed(&pose_a), b.transformed(&pose_b))
}

/// Distance from `p` to a surface, by dense sampling then local refinement of the parameter.
fn distance_to(s: &NurbsSurface, p: &Point3) -> f64 {
    let [u0, u1, v0, v1] = s.domain();
    let n = 60;
    let mut best = (f64::INFINITY, 0.0, 0.0);
    for i in 0..=n {
        for j in 0..=n {
            let (u, v) = (
                u0 + (u1 - u0) * i as f64 / n as f64,
                v0 + (v1 - v0) * j as f64 / n as f64,
            );
            let d = (s.point(u, v) - p).norm();
            if d < best.0 {
                best = (d, u, v);
            }
        }
    }
    // Pattern search around the best sample.
    let (mut d, mut u, mut v) = best;
    let mut step = ((u1 - u0) / n as f64, (v1 - v0) / n as f64);
    for _ in 0..60 {
        let mut moved = false;
        for (du, dv) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
            let (uu, vv) = (
                (u + du * step.0).clamp(u0, u1),
                (v + dv * step.1).clamp(v0, v1),
            );
            let dd = (s.point(uu, vv) - p).norm();
            if dd < d {
                (d, u, v, moved) = (dd, uu, vv, true);
            }
        }
        if !moved {
            step = (step.0 * 0.5, step.1 * 0.5);
        }
    }
    d
}

fn all_segments(hits: &[NurbsHit]) -> Vec<collidoscope::nurbs::FlatSegment> {
    hits.iter()
        .flat_map(|h| h.segments.iter().copied())
        .collect()
}

/// Distance from a point to a segment.
fn to_segment(p: &Point3, [a, b]: &[Point3; 2]) -> f64 {
    let ab = b - a;
    let t = if ab.norm_squared() > 0.0 {
        ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + ab * t)).norm()
}

/// Every segment end on both surfaces at its recorded parameters (within `tol`: the viewer
/// draws the ends at S_a(u, v)), the parameters inside the hit's rectangles.
fn check_segment_ends(a: &NurbsSurface, b: &NurbsSurface, hits: &[NurbsHit], tol: f64) -> f64 {
    let mut worst: f64 = 0.0;
    for h in hits {
        for s in &h.segments {
            for k in 0..2 {
                let e = s.ends[k];
                let on_a = (a.point(s.uv_a[k][0], s.uv_a[k][1]) - e).norm();
                let on_b = (b.point(s.uv_b[k][0], s.uv_b[k][1]) - e).norm();
                worst = worst.max(on_a).max(on_b);
                assert!(
                    on_a <= tol && on_b <= tol,
                    "end {e}: {on_a} from a, {on_b} from b"
                );
                // The refined parameters stay in the hit's rectangles.
                let inside = |r: [f64; 4], uv: [f64; 2]| {
                    uv[0] >= r[0] && uv[0] <= r[1] && uv[1] >= r[2] && uv[1] <= r[3]
                };
                assert!(inside(h.rect_a, s.uv_a[k]) && inside(h.rect_b, s.uv_b[k]));
            }
        }
    }
    worst
}

/// A sphere octant cut by the plane z = c: the true curve is the arc of radius √(1 − c²) in
/// the octant (a pole row of control points collapses at z = 1).
#[test]
fn curve_mode_traces_the_sphere_plane_circle() {
    let octant = sphere_octant([0.0; 3], 1.0, [1.0, 1.0, 1.0]);
    for c in [0.3, 0.7, 0.95] {
        let cut = plane(3.0, c);
        let eps = 0.01;
        let (hits, stats) = intersect(&octant, &cut, QueryOptions::precision(eps, HitMode::Curve));
        assert!(!stats.truncated);
        let segs = all_segments(&hits);
        assert!(!segs.is_empty(), "c = {c}: no segment");
        let r = (1.0 - c * c).sqrt();
        let mut worst_end: f64 = 0.0;
        for s in &segs {
            for e in &s.ends {
                // On the analytic circle: in the plane and at the sphere's radius.
                let off = (e.z - c).abs() + ((e.x * e.x + e.y * e.y).sqrt() - r).abs();
                worst_end = worst_end.max(off);
                assert!(off < 3.0 * eps, "c = {c}: end {e} is {off} off the circle");
            }
        }
        // Coverage: every point of the arc has a segment near it.
        let mut worst_gap: f64 = 0.0;
        for k in 0..=400 {
            let t = std::f64::consts::FRAC_PI_2 * k as f64 / 400.0;
            let p = Point3::new(r * t.cos(), r * t.sin(), c);
            let gap = segs
                .iter()
                .map(|s| to_segment(&p, &s.ends))
                .fold(f64::INFINITY, f64::min);
            worst_gap = worst_gap.max(gap);
            assert!(
                gap < 3.0 * eps,
                "c = {c}: arc point {p} is {gap} from every segment"
            );
        }
        let worst_uv = check_segment_ends(&octant, &cut, &hits, 5.0 * eps);
        eprintln!(
            "sphere/plane c = {c}: {} segments, worst end {worst_end:.2e}, worst gap \
             {worst_gap:.2e}, worst S(uv) {worst_uv:.2e}, {} calls",
            segs.len(),
            stats.calls
        );
    }
}

/// Two planes crossing: the segments lie exactly on the common line and cover it.
#[test]
fn curve_mode_on_crossing_planes_is_exact() {
    let a = plane(2.0, 0.0);
    let pose = Pose::from_parts(
        Vec3::new(0.0, 0.2, 0.0).into(),
        Quat::from_axis_angle(&Vec3::x_axis(), 1.0),
    );
    let b = plane(2.0, 0.0).transformed(&pose);
    let (hits, stats) = intersect(&a, &b, QueryOptions::precision(0.01, HitMode::Curve));
    let segs = all_segments(&hits);
    // Both are flat at once: one leaf pair, no split.
    assert_eq!((stats.calls, stats.splits), (1, 0));
    // The line: z = 0 and the turned plane through (0, 0.2, 0) with normal R·z.
    let n = pose.rotation * Vec3::z();
    let mut length = 0.0;
    for s in &segs {
        for e in &s.ends {
            assert!(e.z.abs() < 1e-12 && (e - Point3::new(0.0, 0.2, 0.0)).dot(&n).abs() < 1e-12);
        }
        length += (s.ends[1] - s.ends[0]).norm();
    }
    // y = 0.2 across x ∈ [-1, 1] (the turned plane covers it: cos 1 > 0.2 / 1).
    assert!((length - 2.0).abs() < 1e-9, "{length}");
    check_segment_ends(&a, &b, &hits, 1e-9);
}

/// A height field z = h(x, y) of degrees (p, q) on a square (different degrees in u and v).
fn height_field(p: usize, q: usize, nu: usize, nv: usize, heights: &[f64]) -> NurbsSurface {
    let mut pts = Vec::new();
    for i in 0..nu {
        for j in 0..nv {
            let x = 2.0 * i as f64 / (nu - 1) as f64 - 1.0;
            let y = 2.0 * j as f64 / (nv - 1) as f64 - 1.0;
            pts.push([x, y, heights[i * nv + j]]);
        }
    }
    NurbsSurface::new(
        (p, q),
        (clamped_uniform_knots(nu, p), clamped_uniform_knots(nv, q)),
        (nu, nv),
        &pts,
        &vec![1.0; nu * nv],
    )
    .expect("a valid height field")
}

/// Points of the true curve h(u, v) = c by bisection along dense parameter lines, where the
/// crossing is not grazing: a flat piece's triangles must cut the plane there too.
fn true_curve(s: &NurbsSurface, c: f64, n: usize, eps: f64) -> Vec<Point3> {
    let [u0, u1, v0, v1] = s.domain();
    let mut out = Vec::new();
    for line in 0..=n {
        let v = v0 + (v1 - v0) * line as f64 / n as f64;
        for k in 0..n {
            let (mut a, mut b) = (
                u0 + (u1 - u0) * k as f64 / n as f64,
                u0 + (u1 - u0) * (k + 1) as f64 / n as f64,
            );
            let f = |u: f64| s.point(u, v).z - c;
            if f(a) * f(b) > 0.0 || f(a) == f(b) {
                continue;
            }
            for _ in 0..50 {
                let m = 0.5 * (a + b);
                if f(a) * f(m) <= 0.0 {
                    b = m;
                } else {
                    a = m;
                }
            }
            let u = 0.5 * (a + b);
            // Judged only where the surface crosses the plane by more than the flat
            // tolerance within 2.5 eps either side along the line: the corner triangles of
            // a flat piece may move the height by that much, so a crossing that goes less
            // far past (a crease whose crest grazes the plane, a curve glancing off the
            // domain's edge) may rightly be missed, however steep the surface there.
            let reach = 2.5 * eps / s.sample(u, v).du.norm().max(1e-12);
            let (before, after) = (u - reach, u + reach);
            let inside = before >= u0 && after <= u1;
            if inside && f(before) * f(after) < 0.0 && f(before).abs().min(f(after).abs()) > eps {
                out.push(s.point(u, v));
            }
        }
    }
    out
}

/// The cracks of the flat-patch variant: where neighbouring pieces (of either surface) were
/// cut to different sizes, their corner triangles differ along the shared edge, and the
/// segments of one side can stop there while those of the other, flat within the tolerance
/// but on one side of the other surface, do not go on. The true curve then runs from the
/// loose end to the next one within the tolerance of the edge, and may run along it for
/// far longer than the tolerance. Returned as the chords from each loose end (an end no other
/// segment shares) to the loose end nearest it and to the nearest point of `edge`: candidates,
/// which the test accepts as cracks only where they lie on both surfaces.
fn cracks(segs: &[collidoscope::nurbs::FlatSegment], edge: &[Point3]) -> Vec<[Point3; 2]> {
    let ends: Vec<Point3> = segs.iter().flat_map(|s| s.ends).collect();
    let shared = |p: &Point3| ends.iter().filter(|q| (*q - p).norm() < 1e-9).count() > 1;
    let loose: Vec<Point3> = ends.iter().copied().filter(|p| !shared(p)).collect();
    let mut chords: Vec<[Point3; 2]> = Vec::new();
    for a in &loose {
        // Two ends nearest each other make one crack.
        if let Some(b) = nearest(a, loose.iter().filter(|b| *b != a))
            && !chords.contains(&[*b, *a])
        {
            chords.push([*a, *b]);
        }
        // A piece's corner quad can fall short of its curved edge: on the domain's edge no
        // neighbour goes on, and the curve runs from the loose end to the edge.
        if let Some(e) = nearest(a, edge.iter()) {
            chords.push([*a, *e]);
        }
    }
    chords
}

fn nearest<'p>(a: &Point3, points: impl Iterator<Item = &'p Point3>) -> Option<&'p Point3> {
    points.min_by(|b, c| (*b - a).norm().total_cmp(&(*c - a).norm()))
}

/// Points along the four edges of a surface's domain, `n` to an edge.
fn domain_edge(s: &NurbsSurface, n: usize) -> Vec<Point3> {
    let [u0, u1, v0, v1] = s.domain();
    (0..=n)
        .flat_map(|k| {
            let t = k as f64 / n as f64;
            let (u, v) = (u0 + (u1 - u0) * t, v0 + (v1 - v0) * t);
            [
                s.point(u, v0),
                s.point(u, v1),
                s.point(u0, v),
                s.point(u1, v),
            ]
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24 * scale(), ..ProptestConfig::default() })]

    /// Generated height fields of any degrees (1..=3 each way, so often p ≠ q), some with a
    /// collapsed row (all points of the first u row at one place), cut by a plane: every
    /// segment end lies on both surfaces at its parameters, and dense sampling of the true
    /// curve finds a segment, or a crack on both surfaces between two pieces ([`cracks`]), near
    /// every non-grazing point.
    #[test]
    fn curve_segments_follow_generated_cuts(
        p in 1usize..=3, q in 1usize..=3, extra_u in 0usize..4, extra_v in 0usize..4,
        collapse in any::<bool>(), seed in 0u64..1000, level in 0.2f64..0.8,
    ) {
        let (nu, nv) = (p + 1 + extra_u, q + 1 + extra_v);
        let mut rng = Lcg(seed);
        let heights: Vec<f64> = (0..nu * nv).map(|_| rng.range(-0.6, 0.6)).collect();
        let mut s = height_field(p, q, nu, nv, &heights);
        if collapse {
            // A degenerate edge: the first u row shrinks to one point (a pole).
            let h = s.points[0];
            for j in 0..nv {
                s.points[j] = h;
            }
        }
        let (lo, hi) = s.cartesian_points().iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(p.z), h.max(p.z)));
        let c = lo + (hi - lo) * level;
        let cut = plane(3.0, c);
        let eps = 0.01;
        let (hits, stats) = intersect(&s, &cut, QueryOptions::precision(eps, HitMode::Curve).with_max_calls(2_000_000));
        prop_assert!(!stats.truncated);
        check_segment_ends(&s, &cut, &hits, 6.0 * eps);
        let segs = all_segments(&hits);
        let cracks = cracks(&segs, &domain_edge(&s, 400));
        // A crack bridges the curve only where it lies on both surfaces (the tolerance of the
        // flat stop, checked by dense sampling at its quarter points).
        let on_both = |ends: &[Point3; 2]| {
            (1..4).all(|k| {
                let p = ends[0] + (ends[1] - ends[0]) * (k as f64 / 4.0);
                distance_to(&s, &p) < 2.0 * eps && distance_to(&cut, &p) < 2.0 * eps
            })
        };
        for t in true_curve(&s, c, 40, eps) {
            let gap = segs.iter().map(|sg| to_segment(&t, &sg.ends)).fold(f64::INFINITY, f64::min);
            let bridged = || cracks.iter().any(|ends| to_segment(&t, ends) < 5.0 * eps && on_both(ends));
            prop_assert!(gap < 5.0 * eps || bridged(), "true point {} is {} from every segment ({} segments) and no crack bridges it", t, gap, segs.len());
        }
    }
}

/// The thesis' normal (the thinnest leaf-box axis, oriented by ∂S/∂u × ∂S/∂v) against the
/// sphere's radial normal and the plane's axis; it sharpens as the precision does.
#[test]
fn thinnest_axis_normals_match_the_analytic_ones() {
    let octant = sphere_octant([0.0; 3], 1.0, [1.0, 1.0, 1.0]);
    let cut = plane(3.0, 0.6);
    let mut previous = f64::INFINITY;
    for eps in [0.04, 0.01, 0.0025] {
        let options =
            QueryOptions::precision(eps, HitMode::All).with_normal(NormalRule::ThinnestAxis);
        let (hits, _) = intersect(&octant, &cut, options);
        assert!(!hits.is_empty());
        let mut worst: f64 = 0.0;
        for h in &hits {
            let na = h.normal_a.expect("a thinnest axis");
            let radial = h.point.coords.normalize();
            // The octant's du × dv points outwards or inwards; the rule follows it.
            let by_surface = octant
                .normal(
                    (h.rect_a[0] + h.rect_a[1]) * 0.5,
                    (h.rect_a[2] + h.rect_a[3]) * 0.5,
                )
                .expect("a normal inside the octant");
            assert!(na.dot(&by_surface) > 0.0, "oriented like du × dv");
            let angle = na.dot(&radial).abs().clamp(-1.0, 1.0).acos();
            worst = worst.max(angle);
            let nb = h.normal_b.expect("the plane's axis");
            assert!(nb.dot(&Vec3::z()) > 1.0 - 1e-9, "plane normal {nb}");
        }
        eprintln!(
            "thinnest-axis normal, eps {eps}: worst angle {worst:.4} rad over {} hits",
            hits.len()
        );
        assert!(worst < 12.0 * eps, "eps {eps}: {worst} rad");
        assert!(worst < previous, "sharper with precision");
        previous = worst;
    }
}

fn counts(stats: &QueryStats) -> String {
    format!(
        "N = {} calls, {} boxes (C_c), {} SAT tests (C_t, {} axes), {} halvings (C_s), depth {}",
        stats.calls,
        stats.boxes_built,
        stats.sat_tests,
        stats.axes_tested,
        stats.splits,
        stats.max_depth
    )
}

/// Algorithms 2.1, 2.2 and 2.3 on the standard pair: the same answer up to the stop (hits
/// within the precision of both surfaces, by dense sampling), and the counters the cost model
/// names. 2.1 walks 2.3's tree building both boxes per call.
#[test]
fn the_three_recursions_agree_and_count_their_costs() {
    let (a, b) = standard_pair();
    let eps = 0.05;
    let mut by_variant = Vec::new();
    for recursion in [Recursion::OneSplit, Recursion::Base, Recursion::Subdivide4] {
        let options = QueryOptions::precision(eps, HitMode::All).with_recursion(recursion);
        let mut events = Vec::new();
        let (hits, stats) = intersect_traced(&a, &b, (0, 1), options, |e| events.push(e));
        assert!(!hits.is_empty());
        for h in hits.iter().step_by(7) {
            assert!(distance_to(&a, &h.point) <= eps && distance_to(&b, &h.point) <= eps);
        }
        let pairs = events
            .iter()
            .filter(|e| matches!(e, NurbsEvent::BoxPair { .. }))
            .count();
        let splits = events
            .iter()
            .filter(|e| matches!(e, NurbsEvent::Split { .. }))
            .count();
        assert_eq!((pairs as u64, splits as u64), (stats.calls, stats.splits));
        assert_eq!(stats.sat_tests, stats.calls, "one test per call");
        eprintln!("{recursion:?}: {} hits; {}", hits.len(), counts(&stats));
        by_variant.push((hits, stats));
    }
    let (one, base, four) = (&by_variant[0], &by_variant[1], &by_variant[2]);
    assert_eq!(one.1.boxes_built, one.1.calls + 1, "2.3: one box per call");
    assert_eq!(
        base.1.boxes_built,
        2 * base.1.calls,
        "2.1: two boxes per call"
    );
    assert_eq!((base.1.calls, base.1.splits), (one.1.calls, one.1.splits));
    let rects = |h: &[NurbsHit]| h.iter().map(|x| (x.path_a, x.path_b)).collect::<Vec<_>>();
    assert_eq!(rects(&one.0), rects(&base.0), "2.1 walks 2.3's tree");
    assert_eq!(
        four.1.boxes_built,
        2 * four.1.calls,
        "2.2: two boxes per call"
    );
    // Each 2.2 call that goes on halves both surfaces three times and opens 16 calls.
    assert_eq!(four.1.splits % 6, 0);
    assert_eq!(four.1.calls - 1, 16 * (four.1.splits / 6));
    // The hit regions of 2.2 and 2.3 are near each other (the same contact).
    for h in &four.0 {
        let near = one
            .0
            .iter()
            .map(|o| (o.point - h.point).norm())
            .fold(f64::INFINITY, f64::min);
        assert!(near < 4.0 * eps, "2.2 hit {} far from 2.3's", h.point);
    }
}

/// Box rules and split rules: both conservative (hits near both surfaces), the warm tree
/// gives the cold query's events under every combination, and a tree switches rules cleanly.
#[test]
fn rules_keep_the_warm_tree_equal_to_the_cold_query() {
    let mut rng = Lcg(23);
    let a = random_bicubic(7, 2.0, 0.4, &mut rng);
    let b = random_bicubic(5, 2.0, 0.4, &mut rng);
    let pose_a = Pose::from_parts(
        Vec3::new(0.05, 0.0, 0.0).into(),
        Quat::from_euler_angles(0.2, 0.5, -0.3),
    );
    let pose_b = Pose::from_parts(
        Vec3::new(0.0, 0.1, 0.0).into(),
        Quat::from_euler_angles(-0.9, 0.1, 0.6),
    );
    let (wa, wb) = (a.transformed(&pose_a), b.transformed(&pose_b));
    let (mut ta, mut tb) = (SurfaceTree::new(a), SurfaceTree::new(b));
    for box_rule in [
        BoxRule::Covariance,
        BoxRule::CornerFrame,
        BoxRule::Covariance,
    ] {
        for split_rule in [SplitRule::Thesis, SplitRule::Alternate] {
            for mode in [HitMode::First, HitMode::All] {
                let options = QueryOptions::precision(0.02, mode)
                    .with_box_rule(box_rule)
                    .with_split_rule(split_rule);
                let mut cold = Vec::new();
                let (ch, cs) = intersect_traced(&wa, &wb, (0, 1), options, |e| cold.push(e));
                let mut warm = Vec::new();
                let (wh, ws) = intersect_posed_traced(
                    &mut ta,
                    &pose_a,
                    &mut tb,
                    &pose_b,
                    (0, 1),
                    options,
                    |e| warm.push(e),
                );
                assert_eq!(cold, warm, "{box_rule:?} {split_rule:?} {mode:?}");
                assert_eq!(cs, ws);
                assert_eq!(ch.len(), wh.len());
                assert!(!ch.is_empty());
                if mode == HitMode::All {
                    for h in ch.iter().step_by(11) {
                        assert!(
                            distance_to(&wa, &h.point) <= 0.02
                                && distance_to(&wb, &h.point) <= 0.02
                        );
                    }
                }
            }
        }
    }
}

/// The curve scene's pair in curve mode through the warm entry point (which runs the cold
/// query for curve mode): the same segments.
#[test]
fn curve_mode_through_the_warm_entry_point() {
    let dome = grid_surface(6, 3, 2.0, |i, j| {
        0.8 - 0.1 * ((i as f64 - 2.5).powi(2) + (j as f64 - 2.5).powi(2))
    });
    let sheet = plane(3.0, 0.0);
    let pose = Pose::from_parts(Vec3::new(0.0, 0.0, 0.3).into(), Quat::identity());
    let options = QueryOptions::precision(0.02, HitMode::Curve);
    let (cold, _) = intersect(&dome, &sheet.transformed(&pose), options);
    let (mut td, mut ts) = (SurfaceTree::new(dome), SurfaceTree::new(sheet));
    let (warm, _) = intersect_posed_traced(
        &mut td,
        &Pose::identity(),
        &mut ts,
        &pose,
        (0, 1),
        options,
        |_| {},
    );
    assert!(!all_segments(&cold).is_empty());
    assert_eq!(all_segments(&cold), all_segments(&warm));
}

/// The measurements of the report: box rules (box tests per query and time) and the three
/// recursions' counters on the standard pair. Run with `-- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn measure_rules_and_recursions() {
    use std::time::Instant;
    let (a, b) = standard_pair();
    for eps in [0.05, 0.01] {
        for recursion in [Recursion::OneSplit, Recursion::Base, Recursion::Subdivide4] {
            let options = QueryOptions::precision(eps, HitMode::All).with_recursion(recursion);
            let start = Instant::now();
            let (hits, stats) = intersect(&a, &b, options);
            eprintln!(
                "eps {eps} {recursion:?} all hits: {} hits, {} in {:.2} ms",
                hits.len(),
                counts(&stats),
                start.elapsed().as_secs_f64() * 1e3
            );
        }
    }
    // Box rules on the thesis' timing set-up: random placements of two 20×20 nets, first hit.
    let mut rng = Lcg(5);
    let nets: Vec<NurbsSurface> = (0..4)
        .map(|_| random_bicubic(20, 2.0, 0.35, &mut rng))
        .collect();
    let mut placements = Vec::new();
    for k in 0..200 {
        let spread = 1.2;
        let pose = |rng: &mut Lcg| {
            Pose::from_parts(
                Vec3::new(
                    rng.range(-spread, spread),
                    rng.range(-spread, spread),
                    rng.range(-spread, spread),
                )
                .into(),
                Quat::from_euler_angles(
                    rng.range(-3.0, 3.0),
                    rng.range(-1.5, 1.5),
                    rng.range(-3.0, 3.0),
                ),
            )
        };
        let (pa, pb) = (pose(&mut rng), pose(&mut rng));
        placements.push((
            nets[k % 4].transformed(&pa),
            nets[(k + 1) % 4].transformed(&pb),
        ));
    }
    for split_rule in [SplitRule::Thesis, SplitRule::Alternate] {
        for box_rule in [BoxRule::Covariance, BoxRule::CornerFrame] {
            let options = QueryOptions::precision(0.002, HitMode::First)
                .with_box_rule(box_rule)
                .with_split_rule(split_rule);
            let mut best = f64::INFINITY;
            let mut totals = (0u64, 0u64, 0u64, 0usize);
            for _ in 0..3 {
                totals = (0, 0, 0, 0);
                let start = Instant::now();
                for (x, y) in &placements {
                    let (hits, stats) = intersect(x, y, options);
                    totals.0 += stats.sat_tests;
                    totals.1 += stats.splits;
                    totals.2 += stats.boxes_built;
                    totals.3 += usize::from(!hits.is_empty());
                }
                best = best.min(start.elapsed().as_secs_f64());
            }
            let n = placements.len() as f64;
            eprintln!(
                "{split_rule:?} {box_rule:?}: {:.1} box tests/query, {:.1} halvings/query, {:.1} µs/query, collision rate {:.0} %",
                totals.0 as f64 / n,
                totals.1 as f64 / n,
                best / n * 1e6,
                100.0 * totals.3 as f64 / n
            );
        }
    }
}

/// The op takes the options by name (defaults: the thesis' rules) and answers the counters
/// and, in curve mode, each hit's segments; an unknown name is an error naming the field.
#[test]
fn nurbs_intersect_op_takes_the_thesis_options() {
    use collidoscope::nurbs::surface_json::surface_to_json;
    let sheet = surface_to_json(&plane(3.0, 0.0));
    let dome = surface_to_json(&sphere_octant([0.0, 0.0, -0.5], 1.0, [1.0, 1.0, 1.0]));
    let ask = |extra: serde_json::Value| {
        let mut line = serde_json::json!({"op": "nurbs_intersect", "a": dome, "b": sheet,
            "pose_b": {"translation": [0.0, 0.0, 0.1]}, "precision": 0.01});
        if let (Some(m), Some(e)) = (line.as_object_mut(), extra.as_object()) {
            m.extend(e.clone());
        }
        collidoscope::query::answer_line(&line.to_string())
    };
    let plain = ask(serde_json::json!({}));
    assert_eq!(plain["ok"], true, "{plain}");
    let same = ask(
        serde_json::json!({"box_rule": "covariance", "split_rule": "thesis",
        "recursion": "2.3", "normal": "surface", "mode": "all"}),
    );
    assert_eq!(plain, same, "the defaults are the thesis' rules");
    let stats = &plain["stats"];
    assert_eq!(stats["calls"], plain["box_tests"]);
    assert_eq!(stats["sat_tests"], stats["calls"]);
    let base = ask(serde_json::json!({"recursion": "2.1"}));
    assert_eq!(
        base["stats"]["boxes_built"].as_u64(),
        base["stats"]["calls"].as_u64().map(|c| 2 * c)
    );
    let corner = ask(
        serde_json::json!({"box_rule": "corner_frame", "split_rule": "alternate",
        "normal": "thinnest_axis", "recursion": "2.2"}),
    );
    assert_eq!(corner["ok"], true, "{corner}");
    let curve = ask(serde_json::json!({"mode": "curve"}));
    let hits = curve["hits"].as_array().expect("hits");
    assert!(!hits.is_empty());
    for h in hits {
        for s in h["segments"].as_array().expect("segments in curve mode") {
            for e in s["ends"].as_array().expect("ends") {
                let p: Vec<f64> = e
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect();
                // On the circle z = 0.1, radius 0.8.
                assert!(
                    (p[2] - 0.1).abs() < 1e-9 && (p[0].hypot(p[1]) - 0.8).abs() < 0.03,
                    "{p:?}"
                );
            }
        }
    }
    let flat = ask(serde_json::json!({"mode": "curve", "flat": 0.05}));
    assert!(
        flat["box_tests"].as_u64() < curve["box_tests"].as_u64(),
        "a coarser flat stop"
    );
    let bad = ask(serde_json::json!({"recursion": "2.4"}));
    assert_eq!(bad["ok"], false);
    assert!(
        bad["error"].as_str().unwrap_or("").contains("recursion"),
        "{bad}"
    );
    let bad = ask(serde_json::json!({"flat": -1.0}));
    assert!(
        bad["error"].as_str().unwrap_or("").contains("flat"),
        "{bad}"
    );
}

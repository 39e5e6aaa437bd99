//! BSP family oracles: the tree's sweep against every brush clipped directly, each brush clip
//! against dense sampling of the pushed-out brush, box sweeps against an exact box-brush
//! overlap test (bevels make them exact), shape offsets against sampled surfaces, long random
//! slides that must never end inside solid, and each defect of the article's code (spec 001
//! §7.5, §8.8, §13) reproduced by a faithful small port that fails and passed by ours.

use collidoscope::bsp::map::parse_map;
use collidoscope::bsp::{
    Brush, BrushClip, BspTree, MAX_IMPACT, MIN_DISTANCE, Shape, SlideEnd, Sweep, SweepHit,
    box_planes, clip_brush, slide, slide_with, sweep, sweep_brute_force,
};
use collidoscope::geom::{Plane, Point3, Vec3};
use collidoscope::trace::NoProbe;
use proptest::prelude::*;
use std::path::Path;

fn cases(n: u32) -> ProptestConfig {
    ProptestConfig {
        cases: n * scale(),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------- generators ----------

fn arb_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0.0..0.8f64).prop_map(|radius| Shape::Sphere { radius }),
        (0.0..0.6f64, 0.0..0.6f64, 0.0..0.6f64).prop_map(|(x, y, z)| Shape::Box {
            half_extents: Vec3::new(x, y, z)
        }),
        (0.05..0.6f64, 0.05..0.6f64, 0.05..0.6f64).prop_map(|(x, y, z)| Shape::Ellipsoid {
            radii: Vec3::new(x, y, z)
        }),
        (0.0..0.5f64, 0.0..0.6f64).prop_map(|(radius, half_height)| Shape::Cylinder {
            radius,
            half_height
        }),
        (0.0..0.5f64, 0.0..0.6f64).prop_map(|(radius, half_height)| Shape::Capsule {
            radius,
            half_height
        }),
    ]
}

fn arb_unit() -> impl Strategy<Value = Vec3> {
    (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64)
        .prop_filter("direction", |(x, y, z)| x * x + y * y + z * z > 0.05)
        .prop_map(|(x, y, z)| Vec3::new(x, y, z).normalize())
}

/// A box, sometimes cut by up to two planes through its inside (slanted faces, sharp edges).
fn arb_brush() -> impl Strategy<Value = Brush> {
    (
        (-4.0..4.0f64, -4.0..4.0f64, -4.0..4.0f64),
        (0.2..2.0f64, 0.2..2.0f64, 0.2..2.0f64),
        prop::collection::vec((arb_unit(), 0.0..0.8f64), 0..3),
    )
        .prop_map(|(c, h, cuts)| {
            let min = [c.0 - h.0, c.1 - h.1, c.2 - h.2];
            let max = [c.0 + h.0, c.1 + h.1, c.2 + h.2];
            let mut planes = box_planes(min, max);
            for (n, k) in cuts {
                let centre = Vec3::new(c.0, c.1, c.2);
                let reach = h.0 * n.x.abs() + h.1 * n.y.abs() + h.2 * n.z.abs();
                planes.push(Plane {
                    normal: n,
                    d: n.dot(&centre) + k * reach,
                });
            }
            Brush::from_planes(&planes).unwrap_or_else(|_| {
                Brush::from_planes(&box_planes(min, max)).expect("a box is a brush")
            })
        })
}

fn arb_point() -> impl Strategy<Value = Point3> {
    (-6.0..6.0f64, -6.0..6.0f64, -6.0..6.0f64).prop_map(|(x, y, z)| Point3::new(x, y, z))
}

/// Segments with the degenerate cases in: zero movement, axis-parallel moves (parallel to the
/// box faces), grazing moves that start exactly on a pushed-out face.
fn arb_segment() -> impl Strategy<Value = (Point3, Point3)> {
    prop_oneof![
        4 => (arb_point(), arb_point()),
        1 => arb_point().prop_map(|p| (p, p)),
        1 => (arb_point(), 0..3usize, -8.0..8.0f64).prop_map(|(p, axis, len)| {
            let mut e = p;
            e[axis] += len;
            (p, e)
        }),
    ]
}

// ---------- independent oracles ----------

/// The shape at `x` is inside the brush pushed out by the plane offsets: strictly behind every
/// pushed plane. Written from the definition, not from the clip's fractions.
fn inside_pushed(brush: &Brush, shape: &Shape, x: &Point3) -> bool {
    brush
        .planes
        .iter()
        .all(|p| p.normal.dot(&x.coords) - p.d - shape.offset(&p.normal) < -1e-9)
}

/// A box centred at `x` overlaps the brush with some volume: the intersection of both solids
/// has a vertex strictly inside a slightly shrunk box (brute force over plane triples).
fn box_overlaps_brush(brush: &Brush, half: &Vec3, x: &Point3) -> bool {
    let shrink = 1e-7;
    let mut planes: Vec<(Vec3, f64)> = brush
        .faces()
        .iter()
        .map(|p| (p.normal, p.d - shrink))
        .collect();
    for i in 0..3 {
        let mut n = Vec3::zeros();
        n[i] = 1.0;
        planes.push((n, x[i] + half[i] - shrink));
        planes.push((-n, -(x[i] - half[i]) - shrink));
    }
    let m = planes.len();
    for i in 0..m {
        for j in i + 1..m {
            for k in j + 1..m {
                let (a, b, c) = (planes[i], planes[j], planes[k]);
                let det = a.0.cross(&b.0).dot(&c.0);
                if det.abs() < 1e-12 {
                    continue;
                }
                let p =
                    (b.0.cross(&c.0) * a.1 + c.0.cross(&a.0) * b.1 + a.0.cross(&b.0) * c.1) / det;
                if planes.iter().all(|q| q.0.dot(&p) <= q.1 + 1e-9) {
                    return true;
                }
            }
        }
    }
    false
}

fn lerp(a: &Point3, b: &Point3, t: f64) -> Point3 {
    a + (b - a) * t
}

// ---------- sweeps ----------

proptest! {
    #![proptest_config(cases(256))]

    /// The tree visits every brush that can be hit: same start-solid verdict, same nearest
    /// contact fraction as clipping every brush.
    #[test]
    fn tree_sweep_matches_every_brush_clipped(
        brushes in prop::collection::vec(arb_brush(), 1..24),
        shape in arb_shape(),
        segs in prop::collection::vec(arb_segment(), 1..8),
    ) {
        let tree = BspTree::build(brushes);
        for (a, b) in segs {
            let t = sweep(&tree, &shape, &a, &b, &mut NoProbe);
            let o = sweep_brute_force(&tree, &shape, &a, &b);
            prop_assert_eq!(t.start_solid, o.start_solid);
            prop_assert!((t.contact_fraction() - o.contact_fraction()).abs() < 1e-12,
                "tree {:?} vs brute force {:?}", t, o);
            prop_assert!((t.fraction() - o.fraction()).abs() < 1e-9 || t.hit.map(|h| h.brush) != o.hit.map(|h| h.brush));
        }
    }

    /// Each clip against dense sampling of the pushed-out brush: a hit enters it (the middle
    /// of [entry, exit] is inside) and nothing before the entry is inside; a miss never is.
    #[test]
    fn brush_clip_matches_dense_sampling(
        brush in arb_brush(),
        shape in arb_shape(),
        (a, b) in arb_segment(),
    ) {
        let clip = clip_brush(&brush, &shape, &a, &b);
        let samples = 1500;
        let first_inside = (0..=samples)
            .map(|i| i as f64 / samples as f64)
            .find(|t| inside_pushed(&brush, &shape, &lerp(&a, &b, *t)));
        match clip {
            BrushClip::StartSolid { .. } => {
                prop_assert!(brush.planes.iter().all(|p|
                    p.normal.dot(&a.coords) - p.d - shape.offset(&p.normal) < 0.0));
            }
            BrushClip::Hit { enter, exit, impact, .. } => {
                prop_assert!((0.0..=1.0).contains(&enter) && impact <= enter && impact >= 0.0);
                prop_assert!(enter < exit && exit <= 1.0);
                let mid = lerp(&a, &b, 0.5 * (enter + exit));
                prop_assert!(inside_pushed(&brush, &shape, &mid) || exit - enter < 1e-7,
                    "hit at {enter}..{exit} but the middle is outside");
                if let Some(t) = first_inside {
                    prop_assert!(t >= enter - 1e-9, "inside at {t} before the entry {enter}");
                }
            }
            BrushClip::Miss => {
                prop_assert!(first_inside.is_none(), "missed but inside at {:?}", first_inside);
            }
        }
    }

    /// Boxes: with the bevel planes the pushed-out brush is exactly the Minkowski sum, so the
    /// entry is where a box first overlaps the brush, by an independent overlap test.
    #[test]
    fn box_sweep_matches_exact_overlap(
        brush in arb_brush(),
        h in (0.05..0.6f64, 0.05..0.6f64, 0.05..0.6f64),
        (a, b) in (arb_point(), arb_point()),
    ) {
        let half = Vec3::new(h.0, h.1, h.2);
        let shape = Shape::Box { half_extents: half };
        prop_assume!(!box_overlaps_brush(&brush, &half, &a));
        let samples = 400;
        let step = 1.0 / samples as f64;
        let first = (0..=samples)
            .map(|i| i as f64 * step)
            .find(|t| box_overlaps_brush(&brush, &half, &lerp(&a, &b, *t)));
        match clip_brush(&brush, &shape, &a, &b) {
            BrushClip::Hit { enter, exit, .. } => {
                // Entering and leaving within one sample step may fall between samples.
                if exit - enter > 2.0 * step {
                    let t = first.expect("hit, so some sample overlaps");
                    prop_assert!(t >= enter - 1e-9 && t <= enter + step + 1e-9,
                        "exact overlap from {t}, sweep entry {enter}");
                }
            }
            BrushClip::Miss => prop_assert!(first.is_none(), "missed, overlap at {:?}", first),
            BrushClip::StartSolid { .. } => prop_assert!(false, "not overlapping at the start"),
        }
    }

    /// Offsets are support distances: no point of the shape's surface lies further along the
    /// normal, and sampled points come close to it.
    #[test]
    fn shape_offset_is_support_distance(shape in arb_shape(), n in arb_unit()) {
        let off = shape.offset(&n);
        let mut best = f64::NEG_INFINITY;
        let k = 48;
        for i in 0..=k {
            for j in 0..k {
                let th = std::f64::consts::PI * i as f64 / k as f64;
                let ph = std::f64::consts::TAU * j as f64 / k as f64;
                let u = Vec3::new(th.sin() * ph.cos(), th.cos(), th.sin() * ph.sin());
                let p = surface_point(&shape, &u);
                prop_assert!(p.dot(&n) <= off + 1e-9, "point {p:?} beyond offset {off}");
                best = best.max(p.dot(&n));
            }
        }
        prop_assert!(best >= off - 0.03 * (1.0 + off), "sampled support {best} vs {off}");
    }
}

/// A point of the shape's surface in direction `u` (an independent parametrisation).
fn surface_point(shape: &Shape, u: &Vec3) -> Vec3 {
    match *shape {
        Shape::Sphere { radius } => u * radius,
        Shape::Box { half_extents: e } => {
            Vec3::new(e.x * u.x.signum(), e.y * u.y.signum(), e.z * u.z.signum())
        }
        Shape::Ellipsoid { radii } => u.component_mul(&radii),
        Shape::Cylinder {
            radius,
            half_height,
        } => {
            let r = Vec3::new(u.x, 0.0, u.z)
                .try_normalize(1e-12)
                .unwrap_or(Vec3::x());
            r * radius + Vec3::y() * half_height * u.y.signum()
        }
        Shape::Capsule {
            radius,
            half_height,
        } => u * radius + Vec3::y() * half_height * u.y.signum(),
    }
}

// ---------- slides ----------

fn overlaps_any(tree: &BspTree, shape: &Shape, p: &Point3, depth: f64) -> Option<usize> {
    tree.brushes.iter().position(|b| {
        matches!(clip_brush(b, shape, p, p), BrushClip::StartSolid { depth: d, .. } if d > depth)
    })
}

proptest! {
    #![proptest_config(cases(48))]

    /// Long random walks: every slide ends finite, never inside solid, never against the asked
    /// movement, and within the asked length.
    #[test]
    fn random_walks_never_end_inside_solid(
        brushes in prop::collection::vec(arb_brush(), 1..16),
        shape in arb_shape(),
        start in arb_point(),
        moves in prop::collection::vec((arb_unit(), 0.0..3.0f64), 60..120),
    ) {
        let tree = BspTree::build(brushes);
        prop_assume!(overlaps_any(&tree, &shape, &start, 0.0).is_none());
        let mut p = start;
        for (dir, len) in moves {
            let v = dir * len;
            let s = slide(&tree, &shape, &p, &v, &mut NoProbe);
            prop_assert!(s.end.iter().all(|c| c.is_finite()));
            prop_assert!(s.reason != SlideEnd::StartSolid, "started inside solid at {p:?}");
            prop_assert!((s.end - p).dot(&v) >= -1e-9, "moved against the velocity");
            prop_assert!((s.end - p).norm() <= v.norm() + 1e-9);
            prop_assert!(overlaps_any(&tree, &shape, &s.end, 1e-7).is_none(),
                "inside solid after sliding from {p:?} by {v:?}: {s:?}");
            p = s.end;
        }
    }
}

#[test]
fn parallel_walls_and_zero_movement_give_no_nan() {
    let tree = BspTree::build(vec![
        Brush::from_planes(&box_planes([-5.0, -1.0, -1.0], [5.0, 0.0, 1.0])).unwrap(),
        Brush::from_planes(&box_planes([-5.0, 1.0, -1.0], [5.0, 2.0, 1.0])).unwrap(),
    ]);
    let shape = Shape::Sphere { radius: 0.49 };
    let p = Point3::new(0.0, 0.5, 0.0);
    for v in [
        Vec3::zeros(),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(1.0, 1.0, 0.0),
        Vec3::new(0.0, -1.0, 0.0),
        Vec3::new(0.3, 1e-17, 0.0),
    ] {
        let s = slide(&tree, &shape, &p, &v, &mut NoProbe);
        assert!(s.end.iter().all(|c| c.is_finite()), "{v:?}: {s:?}");
        assert!(overlaps_any(&tree, &shape, &s.end, 1e-7).is_none());
    }
    let still = slide(&tree, &shape, &p, &Vec3::zeros(), &mut NoProbe);
    assert_eq!(still.reason, SlideEnd::Still);
    assert_eq!(still.end, p);
}

#[test]
fn three_plane_corner_stops_in_the_corner() {
    let tree = BspTree::build(vec![
        Brush::from_planes(&box_planes([-3.0, -1.0, -3.0], [3.0, 0.0, 3.0])).unwrap(),
        Brush::from_planes(&box_planes([1.0, 0.0, -3.0], [2.0, 2.0, 3.0])).unwrap(),
        Brush::from_planes(&box_planes([-3.0, 0.0, 1.0], [1.0, 2.0, 2.0])).unwrap(),
    ]);
    let shape = Shape::Sphere { radius: 0.5 };
    let mut p = Point3::new(0.0, 0.52, 0.0);
    let mut reasons = Vec::new();
    for _ in 0..20 {
        let s = slide(&tree, &shape, &p, &Vec3::new(0.2, -0.1, 0.25), &mut NoProbe);
        reasons.push(s.reason);
        p = s.end;
    }
    assert!(reasons.contains(&SlideEnd::Corner), "{reasons:?}");
    for (got, want) in [(p.x, 0.49), (p.y, 0.51), (p.z, 0.49)] {
        assert!((got - want).abs() < 0.011, "ended at {p:?}");
    }
}

#[test]
fn start_inside_solid_is_reported_and_stays_put() {
    let tree = BspTree::build(vec![
        Brush::from_planes(&box_planes([0.0, 0.0, 0.0], [1.0, 1.0, 1.0])).unwrap(),
    ]);
    let shape = Shape::Sphere { radius: 0.0 };
    let a = Point3::new(0.5, 0.5, 0.5);
    let s = sweep(&tree, &shape, &a, &Point3::new(3.0, 0.5, 0.5), &mut NoProbe);
    assert!(s.start_solid);
    assert_eq!(s.fraction(), 0.0);
    let sl = slide(&tree, &shape, &a, &Vec3::new(2.0, 0.0, 0.0), &mut NoProbe);
    assert_eq!(sl.reason, SlideEnd::StartSolid);
    assert_eq!(sl.end, a);
}

// ---------- the article's algorithm, ported faithfully, and its defects ----------

/// The article's tree: nodes with a plane, front and rear children; leaves solid or empty.
enum ANode {
    Node {
        n: Vec3,
        d: f64,
        front: Box<ANode>,
        rear: Box<ANode>,
    },
    Solid,
    Empty,
}

/// A convex brush as the article stores it: planes one behind the other down to a solid
/// leaf, every front child empty.
fn article_chain(planes: &[(Vec3, f64)]) -> ANode {
    match planes.split_first() {
        None => ANode::Solid,
        Some((&(n, d), rest)) => ANode::Node {
            n,
            d,
            front: Box::new(ANode::Empty),
            rear: Box::new(article_chain(rest)),
        },
    }
}

#[derive(Clone, Copy)]
struct AImpact {
    normal: Option<Vec3>,
    fi: f64,
    fr: f64,
}

impl AImpact {
    fn clear() -> Self {
        AImpact {
            normal: None,
            fi: 1.0,
            fr: 1.0,
        }
    }
}

/// spec 001 §7.3, line for line (offset of a point shape: `off`).
fn article_get_collision(
    node: &ANode,
    a: &Point3,
    b: &Point3,
    off: f64,
    impact: &mut AImpact,
    ib: &mut AImpact,
) {
    match node {
        ANode::Empty => *ib = AImpact::clear(),
        ANode::Solid => {
            if ib.fr < impact.fr {
                *impact = *ib;
            }
            *ib = AImpact::clear();
        }
        ANode::Node { n, d, front, rear } => {
            let d1 = n.dot(&a.coords) - d;
            let d2 = n.dot(&b.coords) - d;
            if d1 > off && d2 > off {
                article_get_collision(front, a, b, off, impact, ib);
            } else if d1 < -off && d2 < -off {
                article_get_collision(rear, a, b, off, impact, ib);
            } else {
                let (d1r, d2r) = (d1 - off, d2 - off);
                let fr = d1r / (d1r - d2r);
                let saved = if d1 > d2 && fr < ib.fr {
                    let (d1i, d2i) = (d1 - MIN_DISTANCE - off, d2 - MIN_DISTANCE - off);
                    *ib = AImpact {
                        normal: Some(*n),
                        fi: d1i / (d1i - d2i),
                        fr,
                    };
                    *ib
                } else {
                    *ib
                };
                article_get_collision(rear, a, b, off, impact, ib);
                *ib = saved;
                article_get_collision(front, a, b, off, impact, ib);
            }
        }
    }
}

fn article_sweep(tree: &ANode, a: &Point3, b: &Point3) -> AImpact {
    let mut impact = AImpact::clear();
    let mut ib = AImpact::clear();
    article_get_collision(tree, a, b, 0.0, &mut impact, &mut ib);
    impact
}

/// The unit cube [0,1]³ of spec 001 §13.1 (the 2D square with a z slab).
fn cube_planes() -> Vec<(Vec3, f64)> {
    vec![
        (-Vec3::x(), 0.0),
        (-Vec3::y(), 0.0),
        (Vec3::x(), 1.0),
        (Vec3::y(), 1.0),
        (-Vec3::z(), 0.0),
        (Vec3::z(), 1.0),
    ]
}

fn cube_tree() -> BspTree {
    BspTree::build(vec![
        Brush::from_planes(&box_planes([0.0, 0.0, 0.0], [1.0, 1.0, 1.0])).unwrap(),
    ])
}

fn ours(a: [f64; 3], b: [f64; 3]) -> Sweep {
    let point = Shape::Sphere { radius: 0.0 };
    sweep(
        &cube_tree(),
        &point,
        &Point3::from(a),
        &Point3::from(b),
        &mut NoProbe,
    )
}

fn theirs(a: [f64; 3], b: [f64; 3]) -> AImpact {
    article_sweep(
        &article_chain(&cube_planes()),
        &Point3::from(a),
        &Point3::from(b),
    )
}

proptest! {
    #![proptest_config(cases(256))]
    /// The engine's port of the article's search (selectable in the viewer) against this
    /// file's own, written separately: the same fractions and normal on random segments.
    #[test]
    fn engine_article_sweep_matches_this_port(
        a in prop::array::uniform3(-2.0f64..3.0),
        b in prop::array::uniform3(-2.0f64..3.0),
    ) {
        let tree = cube_tree();
        let chains = collidoscope::bsp::article::ArticleTree::chains(
            &tree,
            &[box_planes([0.0, 0.0, 0.0], [1.0, 1.0, 1.0])],
        );
        let (pa, pb) = (Point3::from(a), Point3::from(b));
        let eng = collidoscope::bsp::article::article_sweep(
            &chains,
            &Shape::Sphere { radius: 0.0 },
            &pa,
            &pb,
            &mut NoProbe,
        );
        let art = theirs(a, b);
        prop_assert_eq!(eng.is_impact(), art.fr < 1.0);
        if art.fr < 1.0 {
            prop_assert!((eng.frac_real - art.fr).abs() < 1e-12);
            prop_assert!((eng.frac_impact - art.fi).abs() < 1e-12);
            prop_assert_eq!(eng.normal, art.normal);
        }
    }
}

#[test]
fn defect_early_impact_on_a_plane_extension() {
    let (a, b) = ([-0.5, -2.0, 0.5], [0.5, 0.5, 0.5]);
    let art = theirs(a, b);
    assert!(
        (art.fr - 0.5).abs() < 1e-12,
        "the article hits early, at 0.5"
    );
    assert_eq!(art.normal, Some(-Vec3::x()));
    let s = ours(a, b);
    let h = s.hit.expect("enters the cube");
    assert!((h.frac_real - 0.8).abs() < 1e-12, "{h:?}");
    assert_eq!(h.normal, -Vec3::y());
}

#[test]
fn defect_phantom_impact_at_a_convex_corner() {
    let (a, b) = ([0.5, 2.0, 0.5], [2.0, 0.5, 0.5]);
    let art = theirs(a, b);
    assert!(art.fr < 1.0, "the article reports a phantom hit");
    assert!((art.fr - 2.0 / 3.0).abs() < 1e-12);
    assert!(ours(a, b).hit.is_none());
}

#[test]
fn straight_entry_agrees_with_the_article() {
    let (a, b) = ([-1.0, 0.5, 0.5], [0.5, 0.5, 0.5]);
    let art = theirs(a, b);
    let h = ours(a, b).hit.expect("hit");
    assert!((art.fr - 2.0 / 3.0).abs() < 1e-12 && (h.frac_real - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(h.normal, -Vec3::x());
    assert!((h.frac_impact - (1.0 - MIN_DISTANCE) / 1.5).abs() < 1e-12);
}

#[test]
fn defect_start_inside_solid_is_ignored() {
    let (a, b) = ([0.5, 0.5, 0.5], [0.6, 0.5, 0.5]);
    assert!(theirs(a, b).fr >= 1.0, "the article sees nothing");
    assert!(ours(a, b).start_solid);
}

#[test]
fn defect_negative_impact_fraction_moves_back() {
    // A point 0.005 above the cube's top (inside the 0.01 skin) moving down into it.
    let (a, b) = ([0.5, 1.005, 0.5], [0.5, 0.505, 0.5]);
    let art = theirs(a, b);
    assert!(art.fi < 0.0, "the article's impact fraction is {}", art.fi);
    let h = ours(a, b).hit.expect("hit");
    assert_eq!(h.frac_impact, 0.0);
    // Through the slides: the article's moves the point up, against the velocity.
    let v = Vec3::new(0.0, -0.5, 0.0);
    let art_end = article_slide(&Point3::from(a), &v, |p1, p2| {
        let i = article_sweep(&article_chain(&cube_planes()), p1, p2);
        (i.fr < 1.0).then(|| (i.fi, i.fr, i.normal.expect("set with the fraction")))
    });
    assert!(
        (art_end - Point3::from(a)).dot(&v) < 0.0,
        "article moved back: {art_end:?}"
    );
    let s = slide(
        &cube_tree(),
        &Shape::Sphere { radius: 0.0 },
        &Point3::from(a),
        &v,
        &mut NoProbe,
    );
    assert!((s.end - Point3::from(a)).dot(&v) >= 0.0);
}

/// spec 001 §8.7 line for line, on any collision search returning (frac_impact, frac_reelle,
/// normal). Returns the shape's final position.
fn article_slide(
    start: &Point3,
    velocity: &Vec3,
    mut collide: impl FnMut(&Point3, &Point3) -> Option<(f64, f64, Vec3)>,
) -> Point3 {
    let mut position = *start;
    let mut normals: Vec<Vec3> = Vec::new();
    let mut pos1 = *start;
    let mut trajet = *velocity;
    let mut frac = 1.0;
    for _ in 0..MAX_IMPACT {
        let pos2 = pos1 + trajet;
        let Some((fi, _fr, n)) = collide(&pos1, &pos2) else {
            position = pos2;
            return position;
        };
        frac -= frac * fi;
        let mv = (pos2 - pos1) * fi;
        if mv.norm() > 0.02 {
            normals.clear();
        }
        normals.push(n);
        pos1 += mv;
        let mut i = 0;
        while i < normals.len() {
            trajet = velocity - normals[i] * velocity.dot(&normals[i]);
            let mut j = 0;
            while j < normals.len() {
                if j != i && trajet.dot(&normals[j]) < 0.0 {
                    break;
                }
                j += 1;
            }
            if j == normals.len() {
                break;
            }
            i += 1;
        }
        if i == normals.len() {
            if normals.len() == 2 {
                let edge = normals[0].cross(&normals[1]).normalize();
                trajet = edge * edge.dot(velocity);
            } else {
                position = pos1;
                return position;
            }
        }
        trajet *= frac;
        if velocity.dot(&trajet) < 0.0 || trajet.norm() < 0.02 {
            position = pos1;
            return position;
        }
    }
    // "normally this line is not reached": the position is not written.
    position
}

fn scripted_hit(fi: f64, n: Vec3) -> Sweep {
    Sweep {
        hit: Some(SweepHit {
            brush: 0,
            plane: 0,
            normal: n,
            frac_impact: fi,
            frac_real: fi,
        }),
        start_solid: false,
    }
}

#[test]
fn defect_max_impact_loses_the_whole_movement() {
    // Every search hits half way along a floor: five impacts, each a real move.
    let v = Vec3::new(10.0, -10.0, 0.0);
    let start = Point3::origin();
    let art = article_slide(&start, &v, |_, _| Some((0.5, 0.5, Vec3::y())));
    assert_eq!(art, start, "the article loses every impact's progress");
    let mut calls = 0;
    let s = slide_with(&start, &v, &mut NoProbe, |_, _, _| {
        calls += 1;
        scripted_hit(0.5, Vec3::y())
    });
    assert_eq!(calls, MAX_IMPACT);
    assert_eq!(s.reason, SlideEnd::MaxIterations);
    assert!(s.end.x > 9.0, "kept the progress: {s:?}");
}

/// A unit normal whose squared norm rounds below 1: projecting on it twice is not idempotent.
fn not_quite_unit() -> Vec3 {
    (1..100_000)
        .map(|k| {
            let a = k as f64 * 1e-3;
            Vec3::new(a.cos(), a.sin(), 0.0)
        })
        .find(|n| n.dot(n) < 1.0)
        .expect("some angle rounds below 1")
}

#[test]
fn defect_same_wall_twice_gives_nan_crease() {
    let n = not_quite_unit();
    let t = Vec3::new(-n.y, n.x, 0.0);
    let v = t * 1.0 - n * 0.5;
    let start = Point3::origin();
    let script = |k: usize| (k < 2).then_some((0.001, 0.002, n));
    let mut k = 0;
    let art = article_slide(&start, &v, |_, _| {
        k += 1;
        script(k - 1)
    });
    assert!(
        art.iter().any(|c| c.is_nan()),
        "the article's crease of one wall: {art:?}"
    );
    let mut k = 0;
    let s = slide_with(&start, &v, &mut NoProbe, |_, _, _| {
        k += 1;
        match script(k - 1) {
            Some((fi, _, n)) => scripted_hit(fi, n),
            None => Sweep::default(),
        }
    });
    assert!(s.end.iter().all(|c| c.is_finite()), "{s:?}");
    assert!((s.end - start).dot(&v) > 0.0);
}

// ---------- .map import ----------

const STANDARD_MAP: &str = r#"// a box room floor and a func_door
{
"classname" "worldspawn"
"wad" "quake.wad"
{
( -64 -64 -16 ) ( -64 -63 -16 ) ( -64 -64 -15 ) GROUND1_6 0 0 0 1.000000 1.000000
( 64 64 16 ) ( 64 64 17 ) ( 64 65 16 ) GROUND1_6 0 0 0 1 1
( -64 -64 -16 ) ( -64 -64 -15 ) ( -63 -64 -16 ) GROUND1_6 0 0 0 1 1
( 64 64 16 ) ( 65 64 16 ) ( 64 64 17 ) GROUND1_6 0 0 0 1 1
( -64 -64 -16 ) ( -63 -64 -16 ) ( -64 -63 -16 ) GROUND1_6 0 0 0 1 1
( 64 64 16 ) ( 64 65 16 ) ( 65 64 16 ) GROUND1_6 0 0 0 1 1
}
}
{
"classname" "info_player_start"
"origin" "0 0 40"
}
{
"classname" "func_door"
{
( -8 -8 -8 ) ( -8 -7 -8 ) ( -8 -8 -7 ) DOOR 0 0 0 1 1
( 8 8 8 ) ( 8 8 9 ) ( 8 9 8 ) DOOR 0 0 0 1 1
( -8 -8 -8 ) ( -8 -8 -7 ) ( -7 -8 -8 ) DOOR 0 0 0 1 1
( 8 8 8 ) ( 9 8 8 ) ( 8 8 9 ) DOOR 0 0 0 1 1
( -8 -8 -8 ) ( -7 -8 -8 ) ( -8 -7 -8 ) DOOR 0 0 0 1 1
( 8 8 8 ) ( 8 9 8 ) ( 9 8 8 ) DOOR 0 0 0 1 1
}
}
"#;

#[test]
fn standard_map_reads_world_brushes_with_outward_planes() {
    let level = parse_map(STANDARD_MAP, Path::new("t.map")).expect("valid map");
    assert_eq!(level.brushes.len(), 1);
    assert!(!level.valve220);
    assert_eq!(level.player_start, Some(Point3::new(0.0, 0.0, 40.0)));
    assert_eq!(level.notes.len(), 2, "{:?}", level.notes);
    assert!(level.notes[1].contains("func_door") && level.notes[1].contains("1 brush"));
    let b = &level.brushes[0];
    assert_eq!(b.bounds.min, Point3::new(-64.0, -64.0, -16.0));
    assert_eq!(b.bounds.max, Point3::new(64.0, 64.0, 16.0));
    // Outward normals: the centre is behind every face.
    assert!(
        b.faces()
            .iter()
            .all(|p| p.signed_distance(&Point3::origin()) < 0.0)
    );
}

#[test]
fn valve220_map_reads_the_same_brush() {
    let text = STANDARD_MAP
        .replace("\"wad\" \"quake.wad\"", "\"mapversion\" \"220\"")
        .replace(
            " 0 0 0 1.000000 1.000000",
            " [ 0 1 0 0 ] [ 0 0 -1 0 ] 0 1 1",
        )
        .replace(" 0 0 0 1 1", " [ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1");
    let level = parse_map(&text, Path::new("v.map")).expect("valid Valve 220 map");
    assert!(level.valve220);
    let standard = parse_map(STANDARD_MAP, Path::new("t.map")).unwrap();
    assert_eq!(level.brushes, standard.brushes);
}

#[test]
fn bad_maps_name_the_line_and_the_cause() {
    let cases: &[(&str, usize, &str)] = &[
        (
            "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 1 0 0 ) ( 2 0 0 ) T 0 0 0 1 1\n}\n}\n",
            4,
            "one line",
        ),
        (
            "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 x ) ( 1 0 0 ) ( 2 0 0 ) T 0 0 0 1 1\n}\n}\n",
            4,
            "not a finite number",
        ),
        (
            "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) T 0 0 0 1 1\n}\n}\n",
            3,
            "brush",
        ),
        ("{\n\"classname\" \"worldspawn\n}\n", 2, "unterminated"),
        ("{\n\"classname\" \"worldspawn\"\n{\n", 3, "not closed"),
        ("{\n\"classname\" \"info_null\"\n}\n", 1, "no world brushes"),
        ("}\n", 1, "'{'"),
    ];
    for (text, line, cause) in cases {
        let e = parse_map(text, Path::new("bad.map")).expect_err(text);
        assert_eq!(e.line, *line, "{e}");
        assert!(e.cause.contains(cause), "{e}");
        assert!(e.to_string().starts_with("bad.map:"), "{e}");
    }
}

proptest! {
    #![proptest_config(cases(256))]

    /// Any text: an error or a level, never a panic.
    #[test]
    fn map_parser_never_panics(text in "[{}()\\[\\]\" a-z0-9.\\-\n]{0,300}") {
        let _ = parse_map(&text, Path::new("fuzz.map"));
    }
}

#[test]
fn shipped_map_loads_with_a_player_start() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/maps/collidoscope-test.map");
    let level = collidoscope::bsp::map::load_map(&path).expect("the shipped map loads");
    assert!(level.brushes.len() >= 10);
    let start = level.player_start.expect("a player start");
    let tree = BspTree::build(level.brushes);
    let shape = Shape::Sphere { radius: 16.0 };
    assert!(overlaps_any(&tree, &shape, &start, 0.0).is_none());
    // A walk around the level from the start never ends inside solid.
    let mut p = start;
    for k in 0..400 {
        let a = k as f64 * 0.37;
        let v = Vec3::new(a.cos() * 40.0, a.sin() * 40.0, -8.0);
        p = slide(&tree, &shape, &p, &v, &mut NoProbe).end;
        assert!(
            overlaps_any(&tree, &shape, &p, 1e-7).is_none(),
            "step {k} at {p:?}"
        );
    }
}

// ---------- query ops ----------

#[test]
fn query_ops_answer_sweep_and_slide() {
    let cube = "[[1,0,0,1],[-1,0,0,0],[0,1,0,1],[0,-1,0,0],[0,0,1,1],[0,0,-1,0]]";
    let line = format!(
        r#"{{"id":1,"op":"bsp_sweep","brushes":[{cube}],"shape":{{"kind":"sphere","radius":0}},"start":[-1,0.5,0.5],"end":[0.5,0.5,0.5]}}"#
    );
    let a = collidoscope::query::answer_line(&line);
    assert_eq!(a["ok"], true, "{a}");
    assert!((a["contact_fraction"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(a["brush"], 0);
    assert_eq!(a["start_solid"], false);
    let line = format!(
        r#"{{"id":2,"op":"bsp_slide","brushes":[{cube}],"shape":{{"kind":"box","half_extents":[0.1,0.1,0.1]}},"start":[-1,0.5,0.5],"end":[0.5,1.5,0.5]}}"#
    );
    let a = collidoscope::query::answer_line(&line);
    assert_eq!(a["ok"], true, "{a}");
    assert!(!a["iterations"].as_array().unwrap().is_empty());
    assert!(a["stopped_by"].is_string());
    let bad = r#"{"id":3,"op":"bsp_sweep","brushes":[[[0,0,0,1]]],"shape":{"kind":"sphere","radius":1},"start":[0,0,0],"end":[1,0,0]}"#;
    let a = collidoscope::query::answer_line(bad);
    assert_eq!(a["ok"], false, "{a}");
    let map = r#"{"id":4,"op":"bsp_sweep","map":"/nonexistent/x.map","shape":{"kind":"sphere","radius":1},"start":[0,0,0],"end":[1,0,0]}"#;
    let a = collidoscope::query::answer_line(map);
    assert_eq!(a["ok"], false, "{a}");
    assert!(a.to_string().contains("x.map"), "{a}");
}

// ---------- scenes and events ----------

use crate::test_scale::scale;
use collidoscope::bsp::{BspEvent, BspScene, SlideBranch};
use collidoscope::families::FamilySceneData;
use collidoscope::trace::{EventKind, Probe, TraceEvent};

/// The BSP events a run records (shared with `bsp_ends`).
#[derive(Default)]
pub(crate) struct Events(pub(crate) Vec<BspEvent>);

impl Probe for Events {
    fn enabled(&self) -> bool {
        true
    }
    fn record(&mut self, make: impl FnOnce() -> TraceEvent) {
        if let EventKind::Bsp(e) = make().kind {
            self.0.push(e);
        }
    }
}

pub(crate) fn scene_data(name: &str) -> BspScene {
    let scene = collidoscope::world::builtin_scene(name).expect("built-in scene");
    scene
        .families
        .iter()
        .find_map(|f| match f {
            FamilySceneData::Bsp(d) => Some(d.clone()),
            _ => None,
        })
        .expect("a BSP level")
}

/// Walks a scene's script twice over and returns the events and the positions.
fn walk(name: &str) -> (Vec<BspEvent>, Vec<Point3>) {
    let data = scene_data(name);
    let tree = data.tree().expect("valid level");
    let mut events = Events::default();
    let mut p = data.start;
    let mut path = vec![p];
    for m in data.moves.iter().chain(data.moves.iter()) {
        p = slide(&tree, &data.shape, &p, m, &mut events).end;
        assert!(
            overlaps_any(&tree, &data.shape, &p, 1e-7).is_none(),
            "{name}: in solid at {p:?}"
        );
        path.push(p);
    }
    (events.0, path)
}

fn branches(events: &[BspEvent]) -> Vec<SlideBranch> {
    events
        .iter()
        .filter_map(|e| match e {
            BspEvent::Iteration { branch, .. } => Some(*branch),
            _ => None,
        })
        .collect()
}

fn ends(events: &[BspEvent]) -> Vec<SlideEnd> {
    events
        .iter()
        .filter_map(|e| match e {
            BspEvent::End { reason, .. } => Some(*reason),
            _ => None,
        })
        .collect()
}

#[test]
fn scenes_show_what_they_teach() {
    let (ev, _) = walk("bsp-three-plane-corner");
    assert!(
        branches(&ev).contains(&SlideBranch::Crease),
        "crease in the corner scene"
    );
    assert!(ends(&ev).contains(&SlideEnd::Corner), "corner stop");
    let (ev, _) = walk("bsp-corridor");
    assert!(
        branches(&ev)
            .iter()
            .any(|b| matches!(b, SlideBranch::Wall(_)))
    );
    let (_, path) = walk("bsp-narrow-gap");
    assert!(
        path.iter().all(|p| p.x < -1.0 + 1e-9),
        "the wide sphere never enters the gap"
    );
    let (ev, path) = walk("bsp-ramp");
    assert!(path.iter().any(|p| p.y > 0.6), "the box climbs the ramp");
    assert!(!branches(&ev).is_empty());
    let (ev, _) = walk("bsp-room-stairs");
    assert!(ends(&ev).iter().any(|r| *r != SlideEnd::NoImpact));
}

#[test]
fn events_are_compact() {
    let (ev, _) = walk("bsp-corridor");
    let mut biggest = std::collections::BTreeMap::new();
    for e in &ev {
        let kind = format!("{e:?}")
            .split([' ', '{'])
            .next()
            .unwrap_or("")
            .to_string();
        let bytes = postcard::to_allocvec(e).expect("serialises").len();
        let entry = biggest.entry(kind).or_insert(0usize);
        *entry = (*entry).max(bytes);
    }
    eprintln!("largest postcard bytes per BSP event kind: {biggest:?}");
    for (kind, bytes) in &biggest {
        assert!(*bytes <= 120, "{kind}: {bytes} bytes");
    }
    assert!(biggest.contains_key("Clip") && biggest.contains_key("Iteration"));
}

// ---------- map levels turned y-up, tree statistics ----------

fn shipped_map() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/maps/collidoscope-test.map")
}

#[test]
fn map_scene_turns_quake_z_up_into_y_up() {
    let level = collidoscope::bsp::map::load_map(&shipped_map()).expect("the shipped map loads");
    let scene = collidoscope::bsp::scenes::from_map_file(&shipped_map()).expect("scene");
    let data = scene
        .families
        .iter()
        .find_map(|f| match f {
            FamilySceneData::Bsp(d) => Some(d.clone()),
            _ => None,
        })
        .expect("a BSP level");
    let s = level.player_start.expect("a player start");
    assert_eq!(data.start, Point3::new(s.x, s.z, -s.y));
    // Floors face +z in the file and +y in the scene, one for one.
    let up_file = level
        .brushes
        .iter()
        .flat_map(|b| b.faces())
        .filter(|p| p.normal.z > 0.999)
        .count();
    let up_scene = data
        .brushes
        .iter()
        .flatten()
        .filter(|p| p.normal.y > 0.999)
        .count();
    assert!(up_scene > 0);
    assert_eq!(up_file, up_scene);
    // Every scripted move presses down along -y, and the walker never ends inside solid.
    assert!(data.moves.iter().all(|m| m.y < 0.0));
    let tree = data.tree().expect("valid level");
    assert!(overlaps_any(&tree, &data.shape, &data.start, 0.0).is_none());
    let mut p = data.start;
    for m in data.moves.iter().cycle().take(300) {
        p = slide(&tree, &data.shape, &p, m, &mut NoProbe).end;
        assert!(
            overlaps_any(&tree, &data.shape, &p, 1e-7).is_none(),
            "{p:?}"
        );
    }
    // Pressing down from the start lands on a floor (the walker does not fall out of the level).
    let fell = slide(
        &tree,
        &data.shape,
        &data.start,
        &Vec3::new(0.0, -1e4, 0.0),
        &mut NoProbe,
    );
    assert!(fell.collided, "nothing under the player start");
}

/// The leaf a point falls in, going down by the point's side of each plane.
fn leaf_of(tree: &BspTree, p: &Point3) -> u32 {
    let mut c = tree.root;
    loop {
        match c {
            collidoscope::bsp::Child::Leaf(l) => return l,
            collidoscope::bsp::Child::Node(n) => {
                let node = &tree.nodes[n as usize];
                c = if node.plane.signed_distance(p) >= 0.0 {
                    node.front
                } else {
                    node.back
                };
            }
        }
    }
}

proptest! {
    #![proptest_config(cases(64))]

    /// A point strictly inside a brush lies in a leaf that lists the brush, and the op's
    /// statistics count what the tree holds.
    #[test]
    fn leaves_list_the_brushes_they_hold(
        brushes in prop::collection::vec(arb_brush(), 1..24),
        points in prop::collection::vec(arb_point(), 64),
    ) {
        let tree = BspTree::build(brushes.clone());
        for p in &points {
            let leaf = leaf_of(&tree, p);
            for (b, brush) in brushes.iter().enumerate() {
                let inside = brush.faces().iter().all(|pl| pl.signed_distance(p) < -1e-9);
                if inside {
                    prop_assert!(tree.leaf_brush_ids(leaf).contains(&(b as u32)),
                        "brush {} holds {:?} but leaf {} lists {:?}", b, p, leaf, tree.leaf_brush_ids(leaf));
                }
            }
        }
        let s = tree.stats;
        prop_assert_eq!(s.solid_leaves + s.empty_leaves, tree.nodes.len() + 1);
        prop_assert_eq!(s.brushes, brushes.len());
        let listed: usize = tree.leaves.iter().map(|l| l.count as usize).sum();
        prop_assert_eq!(listed, brushes.len() + s.split_brushes);
    }
}

#[test]
fn bsp_stats_op_reports_the_tree() {
    let a = collidoscope::query::answer_line(
        r#"{"id":1,"op":"bsp_stats","brushes":[[[1,0,0,1],[-1,0,0,0],[0,1,0,1],[0,-1,0,0],[0,0,1,1],[0,0,-1,0]],[[1,0,0,4],[-1,0,0,-3],[0,1,0,1],[0,-1,0,0],[0,0,1,1],[0,0,-1,0]],[[1,0,0,8],[-1,0,0,-7],[0,1,0,1],[0,-1,0,0],[0,0,1,1],[0,0,-1,0]]]}"#,
    );
    assert_eq!(a["ok"], true, "{a}");
    assert_eq!(a["brushes"], 3);
    let nodes = a["nodes"].as_u64().expect("nodes");
    let leaves = a["leaves"].as_array().expect("leaves");
    assert_eq!(leaves.len() as u64, nodes + 1);
    assert!(nodes >= 1, "three separated boxes need a split: {a}");
    // Each brush is listed by some leaf.
    for b in 0..3u64 {
        assert!(
            leaves.iter().any(|l| l["brushes"]
                .as_array()
                .is_some_and(|v| v.contains(&b.into()))),
            "{a}"
        );
    }
    let bad = collidoscope::query::answer_line(r#"{"id":2,"op":"bsp_stats"}"#);
    assert_eq!(bad["ok"], false, "{bad}");
}

// ---------- brushes from non-convex meshes ----------

/// A prism over a star-shaped polygon (radii per spoke, about the origin), y from 0 to
/// `height`: closed, counter-clockwise seen from outside, non-convex when the radii vary.
fn star_prism(radii: &[f64], height: f64) -> (Vec<Point3>, Vec<[u32; 3]>) {
    let n = radii.len() as u32;
    let mut v = Vec::new();
    for (k, r) in radii.iter().enumerate() {
        let a = k as f64 * std::f64::consts::TAU / radii.len() as f64;
        v.push(Point3::new(r * a.cos(), 0.0, -r * a.sin()));
        v.push(Point3::new(r * a.cos(), height, -r * a.sin()));
    }
    let (bottom, top) = (2 * n, 2 * n + 1);
    v.push(Point3::new(0.0, 0.0, 0.0));
    v.push(Point3::new(0.0, height, 0.0));
    let mut t = Vec::new();
    for k in 0..n {
        let (a0, a1) = (2 * k, 2 * k + 1);
        let (b0, b1) = (2 * ((k + 1) % n), 2 * ((k + 1) % n) + 1);
        // The angle grows counter-clockwise seen from +y: sides face outwards this way.
        t.push([a0, b0, b1]);
        t.push([a0, b1, a1]);
        t.push([top, a1, b1]);
        t.push([bottom, b0, a0]);
    }
    (v, t)
}

/// Inside the star prism (exact, by the spoke the point's angle falls between).
fn inside_star(radii: &[f64], height: f64, p: &Point3) -> bool {
    if p.y <= 0.0 || p.y >= height {
        return false;
    }
    let n = radii.len();
    let a = (-p.z).atan2(p.x).rem_euclid(std::f64::consts::TAU);
    let step = std::f64::consts::TAU / n as f64;
    let k = ((a / step).floor() as usize).min(n - 1);
    let (a0, a1) = (k as f64 * step, (k + 1) as f64 * step);
    let q0 = Vec3::new(radii[k] * a0.cos(), 0.0, -radii[k] * a0.sin());
    let q1 = Vec3::new(
        radii[(k + 1) % n] * a1.cos(),
        0.0,
        -radii[(k + 1) % n] * a1.sin(),
    );
    // Inside the triangle (origin, q0, q1): on the origin's side of the edge q0 → q1.
    let e = q1 - q0;
    let to_p = Vec3::new(p.x, 0.0, p.z) - q0;
    let to_o = -q0;
    e.cross(&to_p).y * e.cross(&to_o).y > 0.0
}

/// Distance from a point to the prism's boundary, bounded above (for skipping near points).
fn near_star_boundary(radii: &[f64], height: f64, p: &Point3, eps: f64) -> bool {
    [
        Vec3::x(),
        -Vec3::x(),
        Vec3::y(),
        -Vec3::y(),
        Vec3::z(),
        -Vec3::z(),
    ]
    .iter()
    .any(|d| inside_star(radii, height, &(p + d * eps)) != inside_star(radii, height, p))
}

proptest! {
    #![proptest_config(cases(48))]

    /// The brushes cover exactly the inside of a non-convex closed mesh: points well inside
    /// are in a brush, points well outside in none.
    #[test]
    fn mesh_brushes_cover_the_solid(
        radii in prop::collection::vec(0.3..2.0f64, 3..12),
        height in 0.2..2.0f64,
        points in prop::collection::vec(
            (-2.2..2.2f64, -0.2..2.2f64, -2.2..2.2f64).prop_map(|(x, y, z)| Point3::new(x, y, z)),
            200,
        ),
    ) {
        let (v, t) = star_prism(&radii, height);
        let built = collidoscope::bsp::mesh_bsp::brushes_from_mesh(&v, &t).expect("closed mesh");
        prop_assert!(!built.brushes.is_empty());
        for p in &points {
            if near_star_boundary(&radii, height, p, 1e-6) {
                continue;
            }
            let expected = inside_star(&radii, height, p);
            let got = built
                .brushes
                .iter()
                .any(|b| b.faces().iter().all(|pl| pl.signed_distance(p) < 0.0));
            prop_assert_eq!(got, expected, "{:?} radii {:?}", p, radii);
        }
        // And the sweep through the tree of those brushes stops at the mesh's wall.
        let tree = BspTree::build(built.brushes);
        let s = sweep(&tree, &Shape::Sphere { radius: 0.0 }, &Point3::new(3.0, height / 2.0, 0.0),
            &Point3::new(0.0, height / 2.0, 0.0), &mut NoProbe);
        prop_assert!((s.contact_fraction() * 3.0 - (3.0 - radii[0])).abs() < 1e-6,
            "entry at {} for radius {}", s.contact_fraction(), radii[0]);
    }
}

#[test]
fn mesh_brushes_split_faces_of_a_non_convex_mesh() {
    let radii = [2.0, 0.5, 2.0, 0.5, 2.0, 0.5];
    let (v, t) = star_prism(&radii, 1.0);
    let built = collidoscope::bsp::mesh_bsp::brushes_from_mesh(&v, &t).expect("closed mesh");
    assert!(built.brushes.len() >= 2, "a star is not one convex brush");
    assert!(built.max_depth >= 2);
    let bad = collidoscope::bsp::mesh_bsp::brushes_from_mesh(&v, &[[0, 1, 99]]);
    assert!(bad.unwrap_err().contains("triangle 0"));
}

/// A level given as a closed `.obj` mesh: the U block's pocket stops a ray at its back wall,
/// an arm stops it at its end, and the tree over the mesh's brushes has more than one.
#[test]
fn query_ops_take_a_closed_obj_mesh_as_the_level() {
    use std::io::Write;
    let block = collidoscope::bsp::u_block::u_block(Point3::origin(), 1.0, 1.0);
    let mut file = tempfile::Builder::new()
        .suffix(".obj")
        .tempfile()
        .expect("temp file");
    for v in &block.vertices {
        writeln!(file, "v {} {} {}", v.x, v.y, v.z).expect("write");
    }
    for t in &block.triangles {
        writeln!(file, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1).expect("write");
    }
    let path = file.path().display().to_string();
    let ask = |x: f64| {
        let line = format!(
            r#"{{"id":1,"op":"bsp_sweep","mesh":{path:?},"shape":{{"kind":"sphere","radius":0}},"start":[{x},0.5,5],"end":[{x},0.5,0]}}"#
        );
        let a = collidoscope::query::answer_line(&line);
        assert_eq!(a["ok"], true, "{a}");
        a["contact_fraction"].as_f64().expect("a fraction")
    };
    assert!(
        (ask(1.5) - 0.8).abs() < 1e-9,
        "the pocket's back wall at z = 1"
    );
    assert!((ask(0.5) - 0.4).abs() < 1e-9, "the arm's end at z = 3");
    let stats = collidoscope::query::answer_line(&format!(
        r#"{{"id":2,"op":"bsp_stats","mesh":{path:?}}}"#
    ));
    assert_eq!(stats["ok"], true, "{stats}");
    assert!(stats["brushes"].as_u64().expect("count") >= 2, "{stats}");
    let missing = collidoscope::query::answer_line(
        r#"{"id":3,"op":"bsp_stats","mesh":"/nonexistent/level.obj"}"#,
    );
    assert_eq!(missing["ok"], false, "{missing}");
    assert!(missing.to_string().contains("level.obj"), "{missing}");
}

/// The mesh-built scene's level is the floor and the U block cut into several brushes.
#[test]
fn the_mesh_scene_cuts_its_block_into_brushes() {
    let data = scene_data("bsp-mesh-u-block");
    assert!(data.brushes.len() >= 3, "{} brushes", data.brushes.len());
    let tree = data.tree().expect("a valid level");
    // The walk its description tells: to the pocket's back wall (z = -0.5), then into the
    // corner with the side wall (x = 0.5), a sphere of radius 0.3 stopping short of both.
    let mut p = data.start;
    let mut at = Vec::new();
    for m in &data.moves {
        p = slide(&tree, &data.shape, &p, m, &mut NoProbe).end;
        at.push(p);
    }
    let near = |v: f64, want: f64| (v - want).abs() < 0.02;
    assert!(near(at[34].z, -0.2) && near(at[34].x, 0.0), "{:?}", at[34]);
    assert!(near(at[44].z, -0.2) && near(at[44].x, 0.2), "{:?}", at[44]);
    assert!(at.last().expect("moves").z > 1.5, "walked back out");
}

/// A 10 MB word where a number belongs is quoted as a short excerpt, not echoed whole.
#[test]
fn a_huge_map_token_is_quoted_as_a_short_excerpt() {
    let huge = "x".repeat(10 << 20);
    let text = format!(
        "{{\n\"classname\" \"worldspawn\"\n{{\n( 0 0 {huge} ) ( 1 0 0 ) ( 0 1 0 ) t 0 0 0 1 1\n}}\n}}\n"
    );
    let e = collidoscope::bsp::map::parse_map(&text, std::path::Path::new("big.map"))
        .unwrap_err()
        .to_string();
    assert!(e.len() < 200, "{} bytes", e.len());
    assert!(e.contains("(10485760 bytes)"), "{e}");
}

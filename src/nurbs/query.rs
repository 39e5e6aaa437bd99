//! The surface–surface query of the thesis' final algorithm (§2.4, Algorithm 2.3): one box
//! built per call, only the first surface is halved, and the surfaces swap places at every
//! level. Sub-patches keep exact parameter rectangles (not the thesis' garbled δ formula).

use super::event::{MAX_PATH_DEPTH, NurbsEvent, PatchPath};
use super::flat::FlatSegment;
use super::piece_box::piece_box;
pub use super::rules::{BoxRule, NormalRule, NurbsRules, Recursion, SplitRule};
use super::rules::{halve, split_plan};
use super::surface::NurbsSurface;
use crate::bvh::sat_obb::obb_separating_axis;
use crate::geom::{Obb, Point3, Vec3};

/// When a pair of overlapping boxes counts as a hit.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Stop {
    /// After this many calls deep (the thesis' `Level`).
    Depth(u32),
    /// When both boxes' diagonals are at most this length (world units): every hit point
    /// then lies within this distance of both surfaces.
    Precision(f64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum HitMode {
    First,
    All,
    /// All hits, each leaf pair's corner triangles intersected (§2.4, stopping criterion 3):
    /// a hit holds the segments where they cross, and a leaf pair whose triangles do not cross
    /// is no hit. The segments of all hits approximate the intersection curve.
    Curve,
}

#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct QueryOptions {
    pub stop: Stop,
    pub mode: HitMode,
    /// Cap on the call depth whatever the stop (a precision below rounding never ends).
    pub max_depth: u32,
    /// Cap on the calls (box pairs tested) whatever the stop: an all-hits query on surfaces
    /// that touch along an area, or whose pieces hardly shrink when halved (a weight of 1e23
    /// keeps a half's control points where they were), runs for minutes under the depth
    /// cap alone. Past it the query ends with `QueryStats::truncated`.
    pub max_calls: u64,
    pub box_rule: BoxRule,
    pub split_rule: SplitRule,
    pub recursion: Recursion,
    pub normal: NormalRule,
    /// The flat-patch stop (§2.4, criterion 3): an overlapping pair is a leaf as soon as both
    /// boxes are at most this thick (world units), whatever the other stop says.
    pub flat: Option<f64>,
    /// End at the first hit, found in this mode's own order: unlike [`HitMode::First`], which
    /// visits the nearer half first, the hit is the first of the whole query's hits. Enough
    /// for a caller that asks whether, and where first, two surfaces touch.
    #[serde(default)]
    pub until_first_hit: bool,
}

impl QueryOptions {
    /// Stop when both boxes' diagonals are at most `eps`; in [`HitMode::Curve`] also when both
    /// are at most `eps` thick (the flat-patch stop).
    pub fn precision(eps: f64, mode: HitMode) -> Self {
        Self {
            stop: Stop::Precision(eps),
            mode,
            max_depth: 2 * (MAX_PATH_DEPTH as u32 - 1),
            max_calls: u64::MAX,
            box_rule: BoxRule::default(),
            split_rule: SplitRule::default(),
            recursion: Recursion::default(),
            normal: NormalRule::default(),
            flat: (mode == HitMode::Curve).then_some(eps),
            until_first_hit: false,
        }
    }

    pub fn depth(level: u32, mode: HitMode) -> Self {
        Self {
            stop: Stop::Depth(level),
            mode,
            max_depth: level.min(2 * (MAX_PATH_DEPTH as u32 - 1)),
            max_calls: u64::MAX,
            box_rule: BoxRule::default(),
            split_rule: SplitRule::default(),
            recursion: Recursion::default(),
            normal: NormalRule::default(),
            flat: None,
            until_first_hit: false,
        }
    }

    /// The same options under a scene's rules.
    pub fn with_rules(self, rules: NurbsRules) -> Self {
        Self {
            box_rule: rules.box_rule,
            split_rule: rules.split_rule,
            recursion: rules.recursion,
            normal: rules.normal,
            ..self
        }
    }

    /// The four rules these options run with.
    pub fn rules(&self) -> NurbsRules {
        NurbsRules {
            box_rule: self.box_rule,
            split_rule: self.split_rule,
            recursion: self.recursion,
            normal: self.normal,
        }
    }

    pub fn with_box_rule(self, box_rule: BoxRule) -> Self {
        Self { box_rule, ..self }
    }

    pub fn with_split_rule(self, split_rule: SplitRule) -> Self {
        Self { split_rule, ..self }
    }

    pub fn with_recursion(self, recursion: Recursion) -> Self {
        Self { recursion, ..self }
    }

    pub fn with_normal(self, normal: NormalRule) -> Self {
        Self { normal, ..self }
    }

    /// The flat-patch stop at this box thickness (`None`: off).
    pub fn with_flat(self, flat: Option<f64>) -> Self {
        Self { flat, ..self }
    }

    /// The same options ending at their first hit ([`QueryOptions::until_first_hit`]).
    pub fn until_first_hit(self) -> Self {
        Self {
            until_first_hit: true,
            ..self
        }
    }

    /// The same options with at most `calls` box pairs tested.
    pub fn with_max_calls(self, calls: u64) -> Self {
        Self {
            max_calls: calls,
            ..self
        }
    }
}

/// One reported contact: sub-patches of both surfaces whose boxes still overlap at the stop.
#[derive(Clone, Debug, PartialEq)]
pub struct NurbsHit {
    /// Mean of the two leaf boxes' centres.
    pub point: Point3,
    /// Surface normals at the centres of the two rectangles (None on a degenerate piece).
    pub normal_a: Option<Vec3>,
    pub normal_b: Option<Vec3>,
    /// Exact parameter rectangles `[u0, u1, v0, v1]`.
    pub rect_a: [f64; 4],
    pub rect_b: [f64; 4],
    pub path_a: PatchPath,
    pub path_b: PatchPath,
    /// [`HitMode::Curve`]: where the two pieces' corner triangles cross.
    pub segments: Vec<FlatSegment>,
}

/// The cost model's counters (T = N·(C_c + C_t + C_s)): N is `calls`, and each term's count
/// is `boxes_built` (C_c), `sat_tests` (C_t; `axes_tested` says how far each went) and
/// `splits` (C_s, one halving by knot insertion; Subdivide4 is three).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    pub calls: u64,
    pub boxes_built: u64,
    pub sat_tests: u64,
    /// Axes tried over all tests: 15 for an overlap, up to the separating one otherwise.
    pub axes_tested: u64,
    pub splits: u64,
    pub max_depth: u32,
    /// The query stopped at `QueryOptions::max_calls`: the hits are those found so far.
    pub truncated: bool,
}

#[derive(Clone, Copy)]
struct Piece<'s> {
    surface: &'s NurbsSurface,
    path: PatchPath,
    is_a: bool,
    /// The box of the piece this one was halved from (the box rule may reuse it).
    parent_box: Option<&'s Obb>,
}

struct Context<'o, F> {
    options: QueryOptions,
    ids: (u32, u32),
    originals: (&'o NurbsSurface, &'o NurbsSurface),
    hits: Vec<NurbsHit>,
    stats: QueryStats,
    on_event: F,
    done: bool,
    /// Surfaces to split into, reused (their vectors keep their capacity).
    pool: Vec<NurbsSurface>,
}

thread_local! {
    /// The split pieces' storage, kept between queries: after the first queries of a run, a
    /// query allocates nothing but its hits.
    static POOL: std::cell::Cell<Vec<NurbsSurface>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The direction in which a piece at `depth` (its own number of halvings) splits under the
/// default rule ([`super::rules::split_direction`]).
pub fn split_direction(surface: &NurbsSurface, depth: u8) -> super::split::Direction {
    super::rules::split_direction(surface, depth, SplitRule::default())
}

/// The sub-patch named by `path`, rebuilt from the whole surface (default rules).
pub fn rebuild_piece(surface: &NurbsSurface, path: PatchPath) -> NurbsSurface {
    rebuild_piece_with(surface, path, SplitRule::default())
}

/// The sub-patch named by `path` under a split rule.
pub fn rebuild_piece_with(
    surface: &NurbsSurface,
    path: PatchPath,
    rule: SplitRule,
) -> NurbsSurface {
    let mut piece = surface.clone();
    for k in 0..path.depth.min(MAX_PATH_DEPTH) {
        let (lo, hi) = halve(&piece, k, rule);
        piece = if path.step(k) == 0 { lo } else { hi };
    }
    piece
}

/// The sub-patch named by `path` and the box the query tested for it (what the viewer
/// draws for a recorded path), under the default rules.
pub fn rebuild_piece_box(surface: &NurbsSurface, path: PatchPath) -> (NurbsSurface, Obb) {
    rebuild_piece_box_with(surface, path, &QueryOptions::depth(0, HitMode::All))
}

/// [`rebuild_piece_box`] under the rules of `options`: each box by [`piece_box`] from its
/// parent's, as in the query.
pub fn rebuild_piece_box_with(
    surface: &NurbsSurface,
    path: PatchPath,
    options: &QueryOptions,
) -> (NurbsSurface, Obb) {
    let mut piece = surface.clone();
    let mut obb = piece_box(&piece, None, options.box_rule);
    for k in 0..path.depth.min(MAX_PATH_DEPTH) {
        let (lo, hi) = halve(&piece, k, options.split_rule);
        piece = if path.step(k) == 0 { lo } else { hi };
        obb = piece_box(&piece, Some(&obb), options.box_rule);
    }
    (piece, obb)
}

/// Intersects two surfaces given in one frame, without tracing.
pub fn intersect(
    a: &NurbsSurface,
    b: &NurbsSurface,
    options: QueryOptions,
) -> (Vec<NurbsHit>, QueryStats) {
    intersect_traced(a, b, (0, 1), options, |_| {})
}

/// Intersects two surfaces, handing every box test, split and hit to `on_event`.
pub fn intersect_traced(
    a: &NurbsSurface,
    b: &NurbsSurface,
    ids: (u32, u32),
    options: QueryOptions,
    on_event: impl FnMut(NurbsEvent),
) -> (Vec<NurbsHit>, QueryStats) {
    let mut ctx = Context {
        options,
        ids,
        originals: (a, b),
        hits: Vec::new(),
        stats: QueryStats::default(),
        on_event,
        done: false,
        pool: POOL.with(|p| p.take()),
    };
    let first = Piece {
        surface: a,
        path: PatchPath::default(),
        is_a: true,
        parent_box: None,
    };
    let second = Piece {
        surface: b,
        path: PatchPath::default(),
        is_a: false,
        parent_box: None,
    };
    // Algorithm 2.3 receives the first box from its caller; 2.1 and 2.2 build both.
    let first_box = if options.recursion == Recursion::OneSplit {
        ctx.stats.boxes_built += 1;
        Some(piece_box(a, None, options.box_rule))
    } else {
        None
    };
    collide(&mut ctx, first, first_box.as_ref(), second, 0);
    POOL.with(|p| p.set(std::mem::take(&mut ctx.pool)));
    (ctx.hits, ctx.stats)
}

pub(crate) use super::rules::splittable;

impl QueryStats {
    /// Counts one more call at `depth`, or marks the query truncated when its budget is
    /// spent (false: the caller stops).
    pub(crate) fn count_call(&mut self, options: &QueryOptions, depth: u32) -> bool {
        if self.calls >= options.max_calls {
            self.truncated = true;
            return false;
        }
        self.calls += 1;
        self.max_depth = self.max_depth.max(depth);
        true
    }
}

/// The 15-axis test of two pieces' boxes: the axis that separates them, if any. Shared by
/// the cold and the warm query, which must reach the same verdicts.
pub(crate) fn separating_axis(first_box: &Obb, second_box: &Obb) -> Option<u8> {
    // Rounding noise on nearly parallel edge axes must not separate touching boxes.
    let slack = 1e-12 * (diagonal(first_box) + diagonal(second_box));
    obb_separating_axis(first_box, second_box, slack)
}

/// The event of one box test, surface a's piece first whichever was halved last.
pub(crate) fn box_pair_event(
    (surface_a, surface_b): (u32, u32),
    path_a: PatchPath,
    path_b: PatchPath,
    axis: Option<u8>,
) -> NurbsEvent {
    NurbsEvent::BoxPair {
        surface_a,
        surface_b,
        path_a,
        path_b,
        axis,
    }
}

/// Whether an overlapping pair is a hit: deep enough, or both boxes within the precision.
pub(crate) fn reached_stop(stop: Stop, depth: u32, box_a: &Obb, box_b: &Obb) -> bool {
    match stop {
        Stop::Depth(level) => depth >= level,
        Stop::Precision(eps) => diagonal(box_a) <= eps && diagonal(box_b) <= eps,
    }
}

/// Which piece to halve: the thesis alternates (only the first is split, and the two swap
/// places every level). Under a precision stop, a piece already within the precision is not
/// split again while the other is still larger: the larger one is halved instead.
pub(crate) fn halves_second(stop: Stop, first_box: &Obb, second_box: &Obb) -> bool {
    match stop {
        Stop::Depth(_) => false,
        Stop::Precision(_) => diagonal(second_box) > diagonal(first_box),
    }
}

fn diagonal(b: &Obb) -> f64 {
    2.0 * b.half_extents.norm()
}

impl QueryStats {
    /// Counts one 15-axis test and the axes it tried.
    pub(crate) fn count_test(&mut self, axis: Option<u8>) {
        self.sat_tests += 1;
        self.axes_tested += axis.map_or(15, |a| u64::from(a) + 1);
    }
}

/// The flat-patch stop: both boxes at most `flat` thick.
pub(crate) fn flat_enough(flat: Option<f64>, box_a: &Obb, box_b: &Obb) -> bool {
    let thickness = |b: &Obb| 2.0 * b.half_extents.min();
    flat.is_some_and(|t| thickness(box_a) <= t && thickness(box_b) <= t)
}

impl<F: FnMut(NurbsEvent)> Context<'_, F> {
    /// The box of a piece, counted (C_c).
    fn build_box(&mut self, p: &Piece<'_>) -> Obb {
        self.stats.boxes_built += 1;
        piece_box(p.surface, p.parent_box, self.options.box_rule)
    }

    /// The 15-axis test of two pieces' boxes, counted and traced (surface a's piece first).
    /// True when they overlap.
    fn test(&mut self, first: &Piece<'_>, b1: &Obb, second: &Piece<'_>, b2: &Obb) -> bool {
        let axis = separating_axis(b1, b2);
        self.stats.count_test(axis);
        let (pa, pb) = if first.is_a {
            (first.path, second.path)
        } else {
            (second.path, first.path)
        };
        (self.on_event)(box_pair_event(self.ids, pa, pb, axis));
        axis.is_none()
    }

    fn split_event(&mut self, p: &Piece<'_>) {
        self.stats.splits += 1;
        let (ida, idb) = self.ids;
        (self.on_event)(NurbsEvent::Split {
            surface: if p.is_a { ida } else { idb },
            path: p.path,
        });
    }
}

/// The rest of a call of Algorithm 2.2 once the boxes overlap: a hit at the stop, else both
/// pieces cut in four and the 16 pairs of quarters tested one level deeper, surface a's
/// quarter first (each call building both boxes).
fn quarter<F: FnMut(NurbsEvent)>(
    ctx: &mut Context<'_, F>,
    (pa, box_a): (Piece<'_>, &Obb),
    (pb, box_b): (Piece<'_>, &Obb),
    depth: u32,
    at_stop: bool,
) {
    let exhausted = depth >= ctx.options.max_depth
        || pa.path.depth + 2 > MAX_PATH_DEPTH
        || pb.path.depth + 2 > MAX_PATH_DEPTH
        || !splittable(pa.surface)
        || !splittable(pb.surface);
    if at_stop || exhausted {
        leaf(ctx, &pa, &pb, box_a, box_b);
        return;
    }
    let rule = ctx.options.split_rule;
    let mut quarters = Vec::with_capacity(2);
    for p in [&pa, &pb] {
        let (pieces, halved) = super::query_four::quarters(p.surface, p.path, rule);
        for path in halved {
            ctx.split_event(&Piece { path, ..*p });
        }
        quarters.push(pieces);
    }
    for (sa, path_a) in &quarters[0] {
        for (sb, path_b) in &quarters[1] {
            if ctx.done {
                return;
            }
            let first = Piece {
                surface: sa,
                path: *path_a,
                is_a: true,
                parent_box: Some(box_a),
            };
            let second = Piece {
                surface: sb,
                path: *path_b,
                is_a: false,
                parent_box: Some(box_b),
            };
            collide(ctx, first, None, second, depth + 1);
        }
    }
}

/// One call of the recursion: `first_box` is the box passed down (Algorithm 2.3), `None`
/// when the call builds both (2.1, 2.2).
fn collide<F: FnMut(NurbsEvent)>(
    ctx: &mut Context<'_, F>,
    first: Piece<'_>,
    first_box: Option<&Obb>,
    second: Piece<'_>,
    depth: u32,
) {
    if ctx.done {
        return;
    }
    if !ctx.stats.count_call(&ctx.options, depth) {
        ctx.done = true;
        return;
    }
    let built;
    let first_box = match first_box {
        Some(b) => b,
        None => {
            built = ctx.build_box(&first);
            &built
        }
    };
    let second_box = ctx.build_box(&second);
    if !ctx.test(&first, first_box, &second, &second_box) {
        return;
    }
    let (pa, pb, box_a, box_b) = if first.is_a {
        (&first, &second, first_box, &second_box)
    } else {
        (&second, &first, &second_box, first_box)
    };
    let at_stop = reached_stop(ctx.options.stop, depth, box_a, box_b)
        || flat_enough(ctx.options.flat, box_a, box_b);
    if ctx.options.recursion == Recursion::Subdivide4 {
        let (pa, pb) = (*pa, *pb);
        quarter(ctx, (pa, box_a), (pb, box_b), depth, at_stop);
        return;
    }
    let split_second = halves_second(ctx.options.stop, first_box, &second_box);
    let (cut, cut_box, keep, keep_box) = if split_second {
        (second, &second_box, first, first_box)
    } else {
        (first, first_box, second, &second_box)
    };
    let exhausted = depth >= ctx.options.max_depth
        || cut.path.depth >= MAX_PATH_DEPTH
        || !splittable(cut.surface);
    if at_stop || exhausted {
        let (pa, pb) = (*pa, *pb);
        leaf(ctx, &pa, &pb, box_a, box_b);
        return;
    }
    let (dir, t) = split_plan(cut.surface, cut.path.depth, ctx.options.split_rule);
    let mut lo = ctx.pool.pop().unwrap_or_else(|| cut.surface.clone());
    let mut hi = ctx.pool.pop().unwrap_or_else(|| cut.surface.clone());
    cut.surface.split_into(dir, t, &mut lo, &mut hi);
    ctx.split_event(&cut);
    // In first-hit mode the half nearer the other piece's box goes first: a dead end (boxes
    // that overlap with no contact below) then costs less often. All-hits mode visits both
    // anyway, in the thesis' order.
    let mut order = [(0u8, &lo), (1u8, &hi)];
    if ctx.options.mode == HitMode::First
        && corner_distance2(&hi, keep_box) < corner_distance2(&lo, keep_box)
    {
        order.swap(0, 1);
    }
    for (which, half) in order {
        let child = Piece {
            surface: half,
            path: cut.path.child(which),
            is_a: cut.is_a,
            parent_box: Some(cut_box),
        };
        let keep_box = (ctx.options.recursion == Recursion::OneSplit).then_some(keep_box);
        collide(ctx, keep, keep_box, child, depth + 1);
    }
    ctx.pool.push(lo);
    ctx.pool.push(hi);
}

/// Squared distance from a box's centre to the mean of a piece's four corner control points
/// (points of the surface for clamped knots): which half lies nearer.
fn corner_distance2(s: &NurbsSurface, b: &Obb) -> f64 {
    (corner_mean(s) - b.center.coords).norm_squared()
}

/// Mean of a piece's four corner control points.
pub(crate) fn corner_mean(s: &NurbsSurface) -> Vec3 {
    let (cu, cv) = (s.count_u - 1, s.count_v - 1);
    let mut sum = Vec3::zeros();
    for (i, j) in [(0, 0), (0, cv), (cu, 0), (cu, cv)] {
        let h = s.points[s.point_index(i, j)];
        sum += h.xyz() / h.w;
    }
    sum * 0.25
}

/// A pair accepted at the stop: a hit, or in [`HitMode::Curve`] the crossing of the pieces'
/// corner triangles (no hit when they do not cross).
fn leaf<F: FnMut(NurbsEvent)>(
    ctx: &mut Context<'_, F>,
    pa: &Piece<'_>,
    pb: &Piece<'_>,
    box_a: &Obb,
    box_b: &Obb,
) {
    let segments = if ctx.options.mode == HitMode::Curve {
        let s = super::flat::segments(pa.surface, pb.surface);
        if s.is_empty() {
            return;
        }
        s
    } else {
        Vec::new()
    };
    record_hit(ctx, pa, pb, (box_a, box_b), segments);
    if ctx.options.mode == HitMode::First || ctx.options.until_first_hit {
        ctx.done = true;
    }
}

/// The normal of a hit on one surface at parameters (u, v) of its leaf box.
pub(crate) fn hit_normal(
    rule: NormalRule,
    original: &NurbsSurface,
    (u, v): (f64, f64),
    leaf_box: &Obb,
) -> Option<Vec3> {
    match rule {
        NormalRule::Surface => original.normal(u, v),
        NormalRule::ThinnestAxis => {
            let k = leaf_box.half_extents.imin();
            let axis: Vec3 = leaf_box.axes.column(k).into_owned();
            // Oriented like the surface's ∂S/∂u × ∂S/∂v; a degenerate point leaves it as is.
            let sign = original
                .normal(u, v)
                .map_or(1.0, |n| if n.dot(&axis) < 0.0 { -1.0 } else { 1.0 });
            Some(axis * sign)
        }
    }
}

fn record_hit<F: FnMut(NurbsEvent)>(
    ctx: &mut Context<'_, F>,
    pa: &Piece<'_>,
    pb: &Piece<'_>,
    (box_a, box_b): (&Obb, &Obb),
    segments: Vec<FlatSegment>,
) {
    let rect_a = pa.surface.domain();
    let rect_b = pb.surface.domain();
    let centre = |r: [f64; 4]| ((r[0] + r[1]) * 0.5, (r[2] + r[3]) * 0.5);
    let rule = ctx.options.normal;
    let (ida, idb) = ctx.ids;
    (ctx.on_event)(NurbsEvent::Hit {
        surface_a: ida,
        surface_b: idb,
        path_a: pa.path,
        path_b: pb.path,
    });
    for s in &segments {
        (ctx.on_event)(NurbsEvent::Segment {
            surface_a: ida,
            surface_b: idb,
            uv_a: s.uv_a,
            uv_b: s.uv_b,
        });
    }
    let hit = NurbsHit {
        point: Point3::from((box_a.center.coords + box_b.center.coords) * 0.5),
        normal_a: hit_normal(rule, ctx.originals.0, centre(rect_a), box_a),
        normal_b: hit_normal(rule, ctx.originals.1, centre(rect_b), box_b),
        rect_a,
        rect_b,
        path_a: pa.path,
        path_b: pb.path,
        segments,
    };
    ctx.hits.push(hit);
}

//! The surface–surface query of the thesis' final algorithm (§2.4, Algorithm 2.3): one box
//! built per call, only the first surface is halved, and the surfaces swap places at every
//! level. Sub-patches keep exact parameter rectangles (not the thesis' garbled δ formula).

use super::event::{MAX_PATH_DEPTH, NurbsEvent, PatchPath};
use super::piece_box::piece_box;
use super::split::Direction;
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
}

impl QueryOptions {
    pub fn precision(eps: f64, mode: HitMode) -> Self {
        Self {
            stop: Stop::Precision(eps),
            mode,
            max_depth: 2 * (MAX_PATH_DEPTH as u32 - 1),
            max_calls: u64::MAX,
        }
    }

    pub fn depth(level: u32, mode: HitMode) -> Self {
        Self {
            stop: Stop::Depth(level),
            mode,
            max_depth: level.min(2 * (MAX_PATH_DEPTH as u32 - 1)),
            max_calls: u64::MAX,
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
}

/// The cost model's counters (T = N·(C_c + C_t + C_s)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    pub calls: u64,
    pub boxes_built: u64,
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

/// The direction in which a piece at `depth` (its own number of halvings) splits: U and V
/// in turn, so every piece shrinks in both directions at the same pace (the thesis'
/// `Level AND 2` alternation, which is what its rule gives for its surfaces: equal degrees and
/// knot counts in u and v).
///
/// The thesis splits first the direction with more knots, and counting knot spans instead
/// (§8 of the digest) still starves: a piece holding an interior knot off its midpoint keeps
/// two spans in that direction after every halving, so it zooms in on the knot in u forever
/// while v never shrinks (the tessellation oracle found such a case: its boxes never reached
/// the precision).
pub fn split_direction(_surface: &NurbsSurface, depth: u8) -> Direction {
    if depth.is_multiple_of(2) {
        Direction::U
    } else {
        Direction::V
    }
}

/// The sub-patch named by `path`, rebuilt from the whole surface.
pub fn rebuild_piece(surface: &NurbsSurface, path: PatchPath) -> NurbsSurface {
    let mut piece = surface.clone();
    for k in 0..path.depth.min(MAX_PATH_DEPTH) {
        let (lo, hi) = piece.split_half(split_direction(&piece, k));
        piece = if path.step(k) == 0 { lo } else { hi };
    }
    piece
}

/// The sub-patch named by `path` and the box the query tested for it (what the viewer
/// draws for a recorded path): each box by [`piece_box`] from its parent's, as in the query.
pub fn rebuild_piece_box(surface: &NurbsSurface, path: PatchPath) -> (NurbsSurface, Obb) {
    let mut piece = surface.clone();
    let mut obb = piece_box(&piece, None);
    for k in 0..path.depth.min(MAX_PATH_DEPTH) {
        let (lo, hi) = piece.split_half(split_direction(&piece, k));
        piece = if path.step(k) == 0 { lo } else { hi };
        obb = piece_box(&piece, Some(&obb));
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
    // Algorithm 2.3 receives the first box from its caller.
    let first_box = piece_box(a, None);
    ctx.stats.boxes_built += 1;
    collide(&mut ctx, first, &first_box, second, 0);
    POOL.with(|p| p.set(std::mem::take(&mut ctx.pool)));
    (ctx.hits, ctx.stats)
}

/// Whether halving still gives two pieces: a rectangle a few ulps wide has no midpoint
/// strictly inside it.
pub(crate) fn splittable(s: &NurbsSurface) -> bool {
    let [u0, u1, v0, v1] = s.domain();
    let wide = |a: f64, b: f64| b - a > 8.0 * f64::EPSILON * a.abs().max(b.abs()).max(1.0);
    wide(u0, u1) && wide(v0, v1)
}

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

fn collide<F: FnMut(NurbsEvent)>(
    ctx: &mut Context<'_, F>,
    first: Piece<'_>,
    first_box: &Obb,
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
    let second_box = piece_box(second.surface, second.parent_box);
    ctx.stats.boxes_built += 1;
    let axis = separating_axis(first_box, &second_box);
    let (pa, pb, box_a, box_b) = if first.is_a {
        (&first, &second, first_box, &second_box)
    } else {
        (&second, &first, &second_box, first_box)
    };
    (ctx.on_event)(box_pair_event(ctx.ids, pa.path, pb.path, axis));
    if axis.is_some() {
        return;
    }
    let at_stop = reached_stop(ctx.options.stop, depth, box_a, box_b);
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
        record_hit(ctx, pa, pb, box_a, box_b);
        if ctx.options.mode == HitMode::First {
            ctx.done = true;
        }
        return;
    }
    let dir = split_direction(cut.surface, cut.path.depth);
    let [u0, u1, v0, v1] = cut.surface.domain();
    let t = match dir {
        Direction::U => (u0 + u1) * 0.5,
        Direction::V => (v0 + v1) * 0.5,
    };
    let mut lo = ctx.pool.pop().unwrap_or_else(|| cut.surface.clone());
    let mut hi = ctx.pool.pop().unwrap_or_else(|| cut.surface.clone());
    cut.surface.split_into(dir, t, &mut lo, &mut hi);
    ctx.stats.splits += 1;
    let (ida, idb) = ctx.ids;
    (ctx.on_event)(NurbsEvent::Split {
        surface: if cut.is_a { ida } else { idb },
        path: cut.path,
    });
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

fn record_hit<F: FnMut(NurbsEvent)>(
    ctx: &mut Context<'_, F>,
    pa: &Piece<'_>,
    pb: &Piece<'_>,
    box_a: &Obb,
    box_b: &Obb,
) {
    let rect_a = pa.surface.domain();
    let rect_b = pb.surface.domain();
    let centre = |r: [f64; 4]| ((r[0] + r[1]) * 0.5, (r[2] + r[3]) * 0.5);
    let (ua, va) = centre(rect_a);
    let (ub, vb) = centre(rect_b);
    let hit = NurbsHit {
        point: Point3::from((box_a.center.coords + box_b.center.coords) * 0.5),
        normal_a: ctx.originals.0.normal(ua, va),
        normal_b: ctx.originals.1.normal(ub, vb),
        rect_a,
        rect_b,
        path_a: pa.path,
        path_b: pb.path,
    };
    (ctx.on_event)(NurbsEvent::Hit {
        surface_a: ctx.ids.0,
        surface_b: ctx.ids.1,
        path_a: pa.path,
        path_b: pb.path,
    });
    ctx.hits.push(hit);
}

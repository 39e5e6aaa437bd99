//! The query on rigid surfaces with a warm cache: the subdivision tree of a surface in its own
//! frame does not change when the surface moves rigidly, so its pieces (their boxes, the nets
//! to halve further) are built once, the first time a query visits them, and kept. A query
//! then only places boxes by the pose (centre and axes turn, extents stay) and runs the
//! 15-axis test.
//!
//! The traversal is the cold query's ([`super::query::intersect_traced`]) step for step: the
//! same box rule on the same pieces, the same stop, split and visiting order, the same events
//! and counters; only rounding differs (boxes built in the surface's frame and turned, instead
//! of built from turned control points). Deforming surfaces keep the cold query, which needs no
//! precomputation.
//!
//! The test runs in the first surface's frame: its boxes are used as stored and only the
//! second surface's are moved (by the relative pose).

use super::event::{MAX_PATH_DEPTH, NurbsEvent, PatchPath};
use super::piece_box::piece_box;
use super::query::{
    HitMode, NormalRule, NurbsHit, QueryOptions, QueryStats, Recursion, box_pair_event,
    corner_mean, flat_enough, halves_second, intersect_traced, reached_stop, separating_axis,
    splittable,
};
use super::rules::{BoxRule, SplitRule, split_plan};
use super::surface::NurbsSurface;
use crate::geom::{Mat3, Obb, Point3, Pose, Vec3};

/// One piece of the tree, in the surface's frame.
#[derive(Clone, Debug)]
struct Node {
    /// The piece's box, built when a query first tests it (`None` before): a first-hit query
    /// often never visits the second half of a split.
    obb: Option<Obb>,
    domain: [f64; 4],
    /// Mean of the four corner control points (which half lies nearer, in first-hit mode).
    corner_mean: Vec3,
    splittable: bool,
    /// Index of the lower half (the upper one follows it); 0 until the node is halved (the
    /// root is node 0, so no half is).
    halves: u32,
    /// The piece's net, kept until it is halved (the halves then hold what deeper levels need);
    /// the root's is the tree's surface, not copied.
    net: Option<NurbsSurface>,
}

impl Node {
    fn of(net: &NurbsSurface, obb: Option<Obb>) -> Self {
        Self {
            obb,
            domain: net.domain(),
            corner_mean: corner_mean(net),
            splittable: splittable(net),
            halves: 0,
            net: None,
        }
    }
}

/// A rigid surface in its own frame and the part of its subdivision tree that queries have
/// visited so far. Owned by the caller (one per surface, kept across frames); a tree grows
/// with the pieces queries reach and [`SurfaceTree::clear`] drops them.
#[derive(Clone, Debug)]
pub struct SurfaceTree {
    surface: NurbsSurface,
    nodes: Vec<Node>,
    /// The rules the cached pieces and boxes were built by; a query with other rules
    /// drops them first.
    rules: (BoxRule, SplitRule),
}

impl SurfaceTree {
    /// The tree of `surface` (given in its own frame): only the root box is built here.
    pub fn new(surface: NurbsSurface) -> Self {
        let root = Node::of(
            &surface,
            Some(piece_box(&surface, None, BoxRule::default())),
        );
        Self {
            surface,
            nodes: vec![root],
            rules: (BoxRule::default(), SplitRule::default()),
        }
    }

    /// Drops the cached pieces if they were built by other rules (the root box is the same
    /// under every box rule).
    fn use_rules(&mut self, options: &QueryOptions) {
        let rules = (options.box_rule, options.split_rule);
        if self.rules != rules {
            self.clear();
            self.rules = rules;
        }
    }

    pub fn surface(&self) -> &NurbsSurface {
        &self.surface
    }

    /// Pieces built so far, the root included.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Drops every piece below the root (a bound on memory for long runs at fine precision).
    pub fn clear(&mut self) {
        self.nodes.truncate(1);
        if let Some(root) = self.nodes.first_mut() {
            root.halves = 0;
        }
    }

    /// The box of node `index` in the surface's frame, built on the first call.
    fn node_box(&mut self, index: u32) -> Obb {
        let root_box = self.nodes[0].obb;
        let node = &mut self.nodes[index as usize];
        if let Some(obb) = node.obb {
            return obb;
        }
        // `piece_box` only asks whether a piece is the whole surface (the root's box is built
        // with the tree). A node loses its net only when halved, after its box was tested; the
        // root's box holds every piece, should that ever not hold.
        let obb = match (&node.net, root_box) {
            (Some(net), Some(root)) => piece_box(net, Some(&root), self.rules.0),
            (_, root) => root.unwrap_or_else(|| piece_box(&self.surface, None, self.rules.0)),
        };
        node.obb = Some(obb);
        obb
    }

    /// The lower half of node `index` (the upper one is the next node), halving it on the
    /// first visit as the cold query does. `None` only if the tree cannot grow (u32 indices).
    fn halves(&mut self, index: u32, depth: u8) -> Option<u32> {
        let node = self.nodes.get(index as usize)?;
        if node.halves != 0 {
            return Some(node.halves);
        }
        let first = u32::try_from(self.nodes.len()).ok()?;
        first.checked_add(1)?;
        let taken = match index {
            0 => None,
            _ => Some(self.nodes[index as usize].net.take()?),
        };
        let net = taken.as_ref().unwrap_or(&self.surface);
        // The cold query's split (`split_half`'s midpoint), into fresh storage: nothing copied
        // that the split overwrites.
        let (dir, t) = split_plan(net, depth, self.rules.1);
        let (mut lo, mut hi) = (empty_net(), empty_net());
        net.split_into(dir, t, &mut lo, &mut hi);
        for half in [lo, hi] {
            let mut node = Node::of(&half, None);
            node.net = Some(half);
            self.nodes.push(node);
        }
        self.nodes[index as usize].halves = first;
        Some(first)
    }
}

/// Storage for a split to fill.
fn empty_net() -> NurbsSurface {
    NurbsSurface {
        degree_u: 0,
        degree_v: 0,
        knots_u: Vec::new(),
        knots_v: Vec::new(),
        count_u: 0,
        count_v: 0,
        points: Vec::new(),
    }
}

/// [`intersect_posed_traced`] without tracing.
pub fn intersect_posed(
    a: &mut SurfaceTree,
    pose_a: &Pose,
    b: &mut SurfaceTree,
    pose_b: &Pose,
    options: QueryOptions,
) -> (Vec<NurbsHit>, QueryStats) {
    intersect_posed_traced(a, pose_a, b, pose_b, (0, 1), options, |_| {})
}

/// Intersects two rigid surfaces at their poses (world = pose · own frame), reusing and
/// growing their trees. Hits, events and counters are those of the cold query on the two
/// surfaces moved to their poses, up to rounding; hit points and normals are in world space.
///
/// The trees serve Algorithm 2.3 with surface normals in first- and all-hits modes; other
/// recursions, the thinnest-axis normal and curve mode run the cold query on the placed
/// surfaces (the same answer, without the cache).
pub fn intersect_posed_traced(
    a: &mut SurfaceTree,
    pose_a: &Pose,
    b: &mut SurfaceTree,
    pose_b: &Pose,
    ids: (u32, u32),
    options: QueryOptions,
    on_event: impl FnMut(NurbsEvent),
) -> (Vec<NurbsHit>, QueryStats) {
    if options.recursion != Recursion::OneSplit
        || options.normal != NormalRule::Surface
        || options.mode == HitMode::Curve
    {
        let (wa, wb) = (a.surface.transformed(pose_a), b.surface.transformed(pose_b));
        return intersect_traced(&wa, &wb, ids, options, on_event);
    }
    a.use_rules(&options);
    b.use_rules(&options);
    let relative = pose_a.inverse() * pose_b;
    let mut ctx = Context {
        options,
        ids,
        trees: [a, b],
        turn_b: *relative.rotation.to_rotation_matrix().matrix(),
        shift_b: relative.translation.vector,
        pose_a: *pose_a,
        pose_b: *pose_b,
        hits: Vec::new(),
        stats: QueryStats::default(),
        on_event,
        done: false,
    };
    let first = Piece {
        node: 0,
        path: PatchPath::default(),
        is_a: true,
    };
    let second = Piece {
        node: 0,
        path: PatchPath::default(),
        is_a: false,
    };
    let first_box = ctx.placed_box(first);
    ctx.stats.boxes_built += 1;
    collide(&mut ctx, first, &first_box, second, 0);
    (ctx.hits, ctx.stats)
}

#[derive(Clone, Copy)]
struct Piece {
    node: u32,
    path: PatchPath,
    is_a: bool,
}

struct Context<'t, F> {
    options: QueryOptions,
    ids: (u32, u32),
    trees: [&'t mut SurfaceTree; 2],
    /// The second surface's pose in the first one's frame.
    turn_b: Mat3,
    shift_b: Vec3,
    pose_a: Pose,
    pose_b: Pose,
    hits: Vec<NurbsHit>,
    stats: QueryStats,
    on_event: F,
    done: bool,
}

impl<F> Context<'_, F> {
    fn node(&self, p: Piece) -> &Node {
        &self.trees[usize::from(!p.is_a)].nodes[p.node as usize]
    }

    /// A point of a piece's surface frame in the first surface's frame.
    fn place_point(&self, is_a: bool, p: Vec3) -> Vec3 {
        if is_a {
            p
        } else {
            self.turn_b * p + self.shift_b
        }
    }

    fn placed_box(&mut self, p: Piece) -> Obb {
        let obb = &self.trees[usize::from(!p.is_a)].node_box(p.node);
        if p.is_a {
            *obb
        } else {
            Obb {
                center: Point3::from(self.place_point(false, obb.center.coords)),
                axes: self.turn_b * obb.axes,
                half_extents: obb.half_extents,
            }
        }
    }
}

fn collide<F: FnMut(NurbsEvent)>(
    ctx: &mut Context<'_, F>,
    first: Piece,
    first_box: &Obb,
    second: Piece,
    depth: u32,
) {
    if ctx.done {
        return;
    }
    if !ctx.stats.count_call(&ctx.options, depth) {
        ctx.done = true;
        return;
    }
    let second_box = ctx.placed_box(second);
    ctx.stats.boxes_built += 1;
    let axis = separating_axis(first_box, &second_box);
    ctx.stats.count_test(axis);
    let (pa, pb, box_a, box_b) = if first.is_a {
        (first, second, first_box, &second_box)
    } else {
        (second, first, &second_box, first_box)
    };
    (ctx.on_event)(box_pair_event(ctx.ids, pa.path, pb.path, axis));
    let (ida, idb) = ctx.ids;
    if axis.is_some() {
        return;
    }
    let at_stop = reached_stop(ctx.options.stop, depth, box_a, box_b)
        || flat_enough(ctx.options.flat, box_a, box_b);
    let split_second = halves_second(ctx.options.stop, first_box, &second_box);
    let (cut, keep, keep_box) = if split_second {
        (second, first, first_box)
    } else {
        (first, second, &second_box)
    };
    let exhausted = depth >= ctx.options.max_depth
        || cut.path.depth >= MAX_PATH_DEPTH
        || !ctx.node(cut).splittable;
    let lower = if at_stop || exhausted {
        None
    } else {
        ctx.trees[usize::from(!cut.is_a)].halves(cut.node, cut.path.depth)
    };
    let Some(lower) = lower else {
        record_hit(ctx, pa, pb, box_a, box_b);
        if ctx.options.mode == HitMode::First {
            ctx.done = true;
        }
        return;
    };
    ctx.stats.splits += 1;
    (ctx.on_event)(NurbsEvent::Split {
        surface: if cut.is_a { ida } else { idb },
        path: cut.path,
    });
    let half = |which: u8| Piece {
        node: lower + u32::from(which),
        path: cut.path.child(which),
        is_a: cut.is_a,
    };
    let mut order = [half(0), half(1)];
    if ctx.options.mode == HitMode::First {
        let near = |p: Piece| {
            let mean = ctx.place_point(p.is_a, ctx.node(p).corner_mean);
            (mean - keep_box.center.coords).norm_squared()
        };
        if near(order[1]) < near(order[0]) {
            order.swap(0, 1);
        }
    }
    // `keep_box` may be `second_box`, a local: copied so the recursion borrows nothing.
    let keep_box = *keep_box;
    for child in order {
        collide(ctx, keep, &keep_box, child, depth + 1);
    }
}

fn record_hit<F: FnMut(NurbsEvent)>(
    ctx: &mut Context<'_, F>,
    pa: Piece,
    pb: Piece,
    box_a: &Obb,
    box_b: &Obb,
) {
    let rect_a = ctx.node(pa).domain;
    let rect_b = ctx.node(pb).domain;
    let centre = |r: [f64; 4]| ((r[0] + r[1]) * 0.5, (r[2] + r[3]) * 0.5);
    let (ua, va) = centre(rect_a);
    let (ub, vb) = centre(rect_b);
    let mid = Point3::from((box_a.center.coords + box_b.center.coords) * 0.5);
    let hit = NurbsHit {
        point: ctx.pose_a * mid,
        normal_a: ctx.trees[0]
            .surface
            .normal(ua, va)
            .map(|n| ctx.pose_a.rotation * n),
        normal_b: ctx.trees[1]
            .surface
            .normal(ub, vb)
            .map(|n| ctx.pose_b.rotation * n),
        rect_a,
        rect_b,
        path_a: pa.path,
        path_b: pb.path,
        segments: Vec::new(),
    };
    (ctx.on_event)(NurbsEvent::Hit {
        surface_a: ctx.ids.0,
        surface_b: ctx.ids.1,
        path_a: pa.path,
        path_b: pb.path,
    });
    ctx.hits.push(hit);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Quat;
    use crate::nurbs::query::intersect_traced;
    use crate::nurbs::shapes::random_bicubic;

    /// The second query on the same trees builds nothing new and answers the same; the cold
    /// query on the moved surfaces gives the same events.
    #[test]
    fn warm_trees_are_reused_and_match_the_cold_query() {
        let mut rng = crate::world::scene_kit::Lcg(17);
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
        let options = QueryOptions::precision(0.01, HitMode::All);
        let (mut ta, mut tb) = (SurfaceTree::new(a.clone()), SurfaceTree::new(b.clone()));
        let mut warm_events = Vec::new();
        let (warm, warm_stats) =
            intersect_posed_traced(&mut ta, &pose_a, &mut tb, &pose_b, (3, 4), options, |e| {
                warm_events.push(e)
            });
        assert!(!warm.is_empty(), "the placement was chosen to collide");
        let grown = (ta.node_count(), tb.node_count());
        assert!(grown.0 > 1 && grown.1 > 1);
        let (again, _) = intersect_posed(&mut ta, &pose_a, &mut tb, &pose_b, options);
        assert_eq!((ta.node_count(), tb.node_count()), grown);
        assert_eq!(again.len(), warm.len());
        let mut cold_events = Vec::new();
        let (cold, cold_stats) = intersect_traced(
            &a.transformed(&pose_a),
            &b.transformed(&pose_b),
            (3, 4),
            options,
            |e| cold_events.push(e),
        );
        assert_eq!(warm_events, cold_events);
        assert_eq!(warm_stats, cold_stats);
        assert_eq!(warm.len(), cold.len());
        for (w, c) in warm.iter().zip(&cold) {
            assert_eq!((w.rect_a, w.rect_b), (c.rect_a, c.rect_b));
            assert!((w.point - c.point).norm() < 1e-12);
        }
        ta.clear();
        assert_eq!(ta.node_count(), 1);
    }
}

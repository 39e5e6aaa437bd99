use super::axial_cull::SweptExtent;
use super::clip::{BrushClip, MissReason, Missed, clip_brush_why};
use super::event::{BspEvent, ClipOutcome, NodeSide, report};
use super::{BspTree, Child, Shape};
use crate::geom::inline_stack::InlineStack;
use crate::geom::{Point3, Real, Vec3};
use crate::trace::{Probe, Verdict};

/// The nearest impact of a sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepHit {
    pub brush: u32,
    pub plane: u16,
    pub normal: Vec3,
    /// Where the shape stops, `MIN_DISTANCE` clear of the wall (0 when it starts inside it).
    pub frac_impact: Real,
    /// Where it touches the wall.
    pub frac_real: Real,
}

/// What a sweep found: the nearest impact over every brush, or that the shape starts inside
/// a brush (then `hit` names that brush and the plane nearest the way out, fractions 0).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sweep {
    pub hit: Option<SweepHit>,
    pub start_solid: bool,
}

impl Sweep {
    /// The fraction of the movement the shape may make (1: no impact).
    pub fn fraction(&self) -> Real {
        self.hit.map_or(1.0, |h| h.frac_impact)
    }

    #[inline]
    pub fn contact_fraction(&self) -> Real {
        self.hit.map_or(1.0, |h| h.frac_real)
    }

    pub(super) fn offer(&mut self, tree: &BspTree, brush: u32, clip: BrushClip) {
        match clip {
            BrushClip::Miss => {}
            BrushClip::StartSolid { plane, .. } => {
                if !self.start_solid {
                    self.start_solid = true;
                    self.hit = Some(SweepHit {
                        brush,
                        plane,
                        normal: tree.brushes[brush as usize].planes[plane as usize].normal,
                        frac_impact: 0.0,
                        frac_real: 0.0,
                    });
                }
            }
            BrushClip::Hit {
                plane,
                enter,
                impact,
                ..
            } => {
                if !self.start_solid && self.hit.is_none_or(|h| enter < h.frac_real) {
                    self.hit = Some(SweepHit {
                        brush,
                        plane,
                        normal: tree.brushes[brush as usize].planes[plane as usize].normal,
                        frac_impact: impact,
                        frac_real: enter,
                    });
                }
            }
        }
    }
}

/// Sweeps `shape` from `start` to `end` through the tree: only the leaves the swept shape
/// can reach are visited, and each brush there is clipped as a whole.
pub fn sweep<P: Probe + ?Sized>(
    tree: &BspTree,
    shape: &Shape,
    start: &Point3,
    end: &Point3,
    probe: &mut P,
) -> Sweep {
    let mut out = Sweep::default();
    let half = shape.half_extents();
    // A traced sweep clips every brush it reaches, so the trace says why each one missed.
    let extent = if probe.enabled() {
        None
    } else {
        SweptExtent::with_half(&half, start, end)
    };
    if let (Some(extent), Some(nodes), true) = (&extent, tree.walk_nodes(), sizes_usable(&half)) {
        nodes.sweep(tree, shape, start, end, &half, extent, &mut out);
        return out;
    }
    walk_tree(tree, shape, start, end, half, extent, probe, &mut out);
    out
}

/// [`sweep`] walking the tree's own nodes, untraced: the compact walk's oracle.
#[cfg(test)]
pub(crate) fn sweep_by_tree_walk(
    tree: &BspTree,
    shape: &Shape,
    start: &Point3,
    end: &Point3,
) -> Sweep {
    let mut out = Sweep::default();
    let half = shape.half_extents();
    let extent = SweptExtent::with_half(&half, start, end);
    walk_tree(
        tree,
        shape,
        start,
        end,
        half,
        extent,
        &mut crate::trace::NoProbe,
        &mut out,
    );
    out
}

#[allow(clippy::too_many_arguments)]
fn walk_tree<P: Probe + ?Sized>(
    tree: &BspTree,
    shape: &Shape,
    start: &Point3,
    end: &Point3,
    half: Vec3,
    extent: Option<SweptExtent>,
    probe: &mut P,
    out: &mut Sweep,
) {
    let mut walk = Walk {
        tree,
        shape,
        half,
        start,
        end,
        seg: end - start,
        extent,
        out,
    };
    walk.run(tree.root, probe);
}

/// Finite, not negative half extents: the compact walk's margins are then positive.
#[inline]
fn sizes_usable(half: &Vec3) -> bool {
    let ok = |h: Real| (0.0..=Real::MAX).contains(&h);
    ok(half.x) & ok(half.y) & ok(half.z)
}

struct Walk<'a> {
    tree: &'a BspTree,
    shape: &'a Shape,
    half: Vec3,
    start: &'a Point3,
    end: &'a Point3,
    seg: Vec3,
    extent: Option<SweptExtent>,
    out: &'a mut Sweep,
}

impl Walk<'_> {
    /// Depth first, the side holding the start first, with the far sides waiting on a stack:
    /// the order of a recursive walk, without a call per node.
    fn run<P: Probe + ?Sized>(&mut self, root: Child, probe: &mut P) {
        // The far sides still to visit.
        let mut waiting = InlineStack::<Child, 48>::new(Child::Leaf(0));
        let mut next = Some(root);
        while let Some(child) = next.take().or_else(|| waiting.pop()) {
            match child {
                Child::Leaf(leaf) => self.leaf(leaf, probe),
                Child::Node(n) => {
                    if let (Some(extent), Some(reach)) = (&self.extent, self.tree.node_reach(n))
                        && extent.misses(reach)
                    {
                        // Every brush below would be dropped one by one: drop them at once.
                        continue;
                    }
                    let node = &self.tree.nodes[n as usize];
                    let (side, d1) = self.side(n);
                    report(probe, Verdict::Info, BspEvent::Node { node: n, side });
                    next = Some(match side {
                        NodeSide::Front => node.front,
                        NodeSide::Back => node.back,
                        // The side holding the start first: its hits come earlier and cut
                        // the rest.
                        NodeSide::Both if d1 >= 0.0 => {
                            waiting.push(node.back);
                            node.front
                        }
                        NodeSide::Both => {
                            waiting.push(node.front);
                            node.back
                        }
                    });
                }
            }
        }
    }

    /// Which sides of node `n`'s plane the swept shape reaches, up to the nearest hit so far
    /// (past it nothing matters), and the start's distance to the plane.
    #[inline]
    fn side(&self, n: u32) -> (NodeSide, Real) {
        let plane = &self.tree.nodes[n as usize].plane;
        let margin = Shape::box_offset(&self.half, &plane.normal) + 1e-9 * (1.0 + plane.d.abs());
        let reach = self.out.contact_fraction();
        let d1 = plane.signed_distance(self.start);
        let d2 = if reach < 1.0 {
            d1 + plane.normal.dot(&self.seg) * reach
        } else {
            plane.signed_distance(self.end)
        };
        let side = if d1 >= margin && d2 >= margin {
            NodeSide::Front
        } else if d1 <= -margin && d2 <= -margin {
            NodeSide::Back
        } else {
            NodeSide::Both
        };
        (side, d1)
    }

    fn leaf<P: Probe + ?Sized>(&mut self, leaf: u32, probe: &mut P) {
        for &b in self.tree.leaf_brush_ids(leaf) {
            if let (Some(extent), Some(axial)) = (&self.extent, self.tree.axial_planes(b))
                && extent.misses(axial)
            {
                continue;
            }
            let brush = &self.tree.brushes[b as usize];
            let (clip, why) = clip_brush_why(brush, self.shape, self.start, self.end);
            if probe.enabled() {
                report_clip(probe, b, clip, why);
            }
            self.out.offer(self.tree, b, clip);
        }
    }
}

fn report_clip<P: Probe + ?Sized>(probe: &mut P, brush: u32, clip: BrushClip, why: Option<Missed>) {
    let (plane, enter, exit, outcome, verdict) = match clip {
        BrushClip::Hit {
            plane, enter, exit, ..
        } => (plane, enter, exit, ClipOutcome::Hit, Verdict::Hit),
        BrushClip::StartSolid { plane, .. } => {
            (plane, 0.0, 0.0, ClipOutcome::StartSolid, Verdict::Warning)
        }
        BrushClip::Miss => {
            let m = why.unwrap_or(Missed {
                reason: MissReason::InFrontOf,
                plane: 0,
                enter: 0.0,
                exit: 0.0,
            });
            let outcome = ClipOutcome::Missed(m.reason);
            (m.plane, m.enter, m.exit, outcome, Verdict::Miss)
        }
    };
    report(
        probe,
        verdict,
        BspEvent::Clip {
            brush,
            plane,
            enter,
            exit,
            outcome,
        },
    );
}

/// Every brush clipped directly, no tree: the oracle of the traversal and the bench baseline.
pub fn sweep_brute_force(tree: &BspTree, shape: &Shape, start: &Point3, end: &Point3) -> Sweep {
    let mut out = Sweep::default();
    for (b, brush) in tree.brushes.iter().enumerate() {
        out.offer(
            tree,
            b as u32,
            super::clip::clip_brush(brush, shape, start, end),
        );
    }
    out
}

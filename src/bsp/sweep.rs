use super::clip::{BrushClip, MissReason, Missed, clip_brush_why};
use super::event::{BspEvent, ClipOutcome, NodeSide, report};
use super::{BspTree, Child, Shape};
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

    pub fn contact_fraction(&self) -> Real {
        self.hit.map_or(1.0, |h| h.frac_real)
    }

    fn offer(&mut self, tree: &BspTree, brush: u32, clip: BrushClip) {
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
    let mut walk = Walk {
        tree,
        shape,
        half,
        start,
        end,
        seg: end - start,
        out: &mut out,
    };
    walk.visit(tree.root, probe);
    out
}

struct Walk<'a> {
    tree: &'a BspTree,
    shape: &'a Shape,
    half: Vec3,
    start: &'a Point3,
    end: &'a Point3,
    seg: Vec3,
    out: &'a mut Sweep,
}

impl Walk<'_> {
    fn visit<P: Probe + ?Sized>(&mut self, child: Child, probe: &mut P) {
        match child {
            Child::Leaf(leaf) => {
                for &b in self.tree.leaf_brush_ids(leaf) {
                    let brush = &self.tree.brushes[b as usize];
                    let (clip, why) = clip_brush_why(brush, self.shape, self.start, self.end);
                    if probe.enabled() {
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
                                brush: b,
                                plane,
                                enter,
                                exit,
                                outcome,
                            },
                        );
                    }
                    self.out.offer(self.tree, b, clip);
                }
            }
            Child::Node(n) => {
                let node = &self.tree.nodes[n as usize];
                let margin = Shape::box_offset(&self.half, &node.plane.normal)
                    + 1e-9 * (1.0 + node.plane.d.abs());
                // Past the nearest hit nothing matters: judge the segment up to it.
                let reach = self.out.contact_fraction();
                let d1 = node.plane.signed_distance(self.start);
                let d2 = if reach < 1.0 {
                    d1 + node.plane.normal.dot(&self.seg) * reach
                } else {
                    node.plane.signed_distance(self.end)
                };
                let side = if d1 >= margin && d2 >= margin {
                    NodeSide::Front
                } else if d1 <= -margin && d2 <= -margin {
                    NodeSide::Back
                } else {
                    NodeSide::Both
                };
                report(probe, Verdict::Info, BspEvent::Node { node: n, side });
                match side {
                    NodeSide::Front => self.visit(node.front, probe),
                    NodeSide::Back => self.visit(node.back, probe),
                    // The side holding the start first: its hits come earlier and cut the rest.
                    NodeSide::Both if d1 >= 0.0 => {
                        self.visit(node.front, probe);
                        self.visit(node.back, probe);
                    }
                    NodeSide::Both => {
                        self.visit(node.back, probe);
                        self.visit(node.front, probe);
                    }
                }
            }
        }
    }
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

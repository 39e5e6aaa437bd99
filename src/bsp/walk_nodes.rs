//! A compact copy of the tree for untraced sweeps: each node's plane (most are axial: an axis
//! and a `d`), its children as two codes and the axial reach of the brushes below it in one
//! cache line; each leaf's brushes with their axial planes in one run.
//!
//! The walk over it visits the nodes and clips the brushes of the tree's own walk
//! (`sweep::Walk`) in the same order, so its sweeps are the same to the bit:
//! - a node of normal `±e_a` takes the distances and the margin from the move's coordinates,
//!   which is what the tree's dot products give for such a normal (the other two products are
//!   zeros, the margin's other terms too: the move and the shape's sizes are finite here);
//! - the rounded reach (see `axial_cull::RoundedExtent`) drops a subtree only where the
//!   exact reach would, and a subtree it keeps that the exact one drops holds only brushes
//!   their own exact planes drop: nothing more is clipped;
//! - the side a node sends the shape to is decided without a branch (it changes with every
//!   sweep, so a branch there is mispredicted half the time), from one comparison.
//!
//! The traced walk keeps the tree, whose node ids the trace names.

use super::axial_cull::{AxialPlanes, RoundedPlanes, SweptExtent};
use super::clip::clip_brush;
use super::sweep::Sweep;
use super::{BspTree, Child, Shape};
use crate::geom::{Point3, Real, Vec3};
use std::hint::select_unpredictable;

/// A child code with this bit set names a leaf (an index into [`WalkNodes::leaves`]);
/// without it, a node (an index into [`WalkNodes::nodes`], the tree's own numbering).
const LEAF: u32 = 1 << 31;
/// Under everything on the walk's stack: popping it ends the walk (a leaf code, so the walk
/// tests it only where it tests for leaves).
const END: u32 = u32::MAX;

/// Entries of the walk's stack. At a node of depth `k` it holds [`END`] and at most one waiting
/// sibling per ancestor, and the node writes one more, so a tree whose leaves are at most
/// `STACK - 1` nodes deep fits; deeper trees keep the tree's walk.
const STACK: usize = 64;

/// [`WalkNode::axis`] of a node whose normal is not along an axis.
const SLANTED: u32 = 6;

/// One cache line.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
struct WalkNode {
    d: Real,
    /// `1e-9 (1 + |d|)`: the margin's slack for rounding, as the tree's walk computes it.
    slack: Real,
    /// The front child's code, then the back child's.
    children: [u32; 2],
    /// `a` for the normal `+e_a`, `3 + a` for `-e_a`, else [`SLANTED`] (the normal is then
    /// in [`WalkNodes::normals`]).
    axis: u32,
    reach: RoundedPlanes,
}

/// A brush of a leaf, with the axial planes that let the walk drop it without its clip.
#[derive(Clone, Copy, Debug, PartialEq)]
struct LeafBrush {
    axial: AxialPlanes,
    brush: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) struct WalkNodes {
    nodes: Vec<WalkNode>,
    /// Per node, its plane's normal (read for slanted planes only).
    normals: Vec<Vec3>,
    /// Per leaf, its run `[first, end)` in `brushes`.
    leaves: Vec<[u32; 2]>,
    brushes: Vec<LeafBrush>,
    root: u32,
}

/// `a` for a normal `+e_a`, `3 + a` for `-e_a` (the other components zeros of either sign),
/// else [`SLANTED`].
fn axis_of(n: &Vec3) -> u32 {
    for a in 0..3 {
        let others_zero = (0..3).all(|b| b == a || n[b] == 0.0);
        if others_zero && n[a] == 1.0 {
            return a as u32;
        }
        if others_zero && n[a] == -1.0 {
            return 3 + a as u32;
        }
    }
    SLANTED
}

impl WalkNodes {
    /// The copy of `tree`, given its brushes' axial planes and its nodes' reaches; `None`
    /// when the tree is too deep for the walk's stack or too big for the codes.
    pub(super) fn of(
        tree: &BspTree,
        axial: &[AxialPlanes],
        reach: &[AxialPlanes],
    ) -> Option<WalkNodes> {
        if tree.nodes.len() >= LEAF as usize
            || tree.leaves.len() >= LEAF as usize
            || reach.len() != tree.nodes.len()
            || axial.len() != tree.brushes.len()
            || tree.leaf_brushes.len() >= u32::MAX as usize
            || depth(tree, tree.root) >= STACK
        {
            return None;
        }
        let code = |c: Child| match c {
            Child::Node(n) => n,
            Child::Leaf(l) => l | LEAF,
        };
        let nodes = tree
            .nodes
            .iter()
            .zip(reach)
            .map(|(n, reach)| WalkNode {
                d: n.plane.d,
                slack: 1e-9 * (1.0 + n.plane.d.abs()),
                children: [code(n.front), code(n.back)],
                axis: if n.plane.d.is_finite() {
                    axis_of(&n.plane.normal)
                } else {
                    SLANTED
                },
                reach: RoundedPlanes::of(reach),
            })
            .collect();
        let mut brushes = Vec::with_capacity(tree.leaf_brushes.len());
        let mut leaves = Vec::with_capacity(tree.leaves.len());
        for l in 0..tree.leaves.len() as u32 {
            let first = brushes.len() as u32;
            for &b in tree.leaf_brush_ids(l) {
                brushes.push(LeafBrush {
                    axial: *axial.get(b as usize)?,
                    brush: b,
                });
            }
            leaves.push([first, brushes.len() as u32]);
        }
        Some(WalkNodes {
            nodes,
            normals: tree.nodes.iter().map(|n| n.plane.normal).collect(),
            leaves,
            brushes,
            root: code(tree.root),
        })
    }

    /// The tree's untraced sweep (see the module's note), into `out`. The shape's `half`
    /// extents must be finite and not negative (then every margin is positive).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn sweep(
        &self,
        tree: &BspTree,
        shape: &Shape,
        start: &Point3,
        end: &Point3,
        half: &Vec3,
        extent: &SweptExtent,
        out: &mut Sweep,
    ) {
        let mv = AxialMove::new(start, end, half);
        let rounded = extent.rounded();
        let seg = end - start;
        let mut stack = [END; STACK];
        // `stack[..len]` waits, `END` at the bottom; the node or leaf to visit now is `code`.
        let mut len = 1usize;
        let mut code = self.root;
        loop {
            if code & LEAF != 0 {
                if code == END {
                    return;
                }
                self.leaf(code & !LEAF, tree, shape, start, end, extent, out);
                len -= 1;
                code = stack[len % STACK];
                continue;
            }
            let Some(node) = self.nodes.get(code as usize) else {
                return;
            };
            // What the node leads to when nothing below it is reached, read before it is known.
            let waiting = stack[(len - 1) % STACK];
            // Every brush below would be dropped one by one: nothing below is visited.
            let open = !rounded.misses(&node.reach);
            // Up to the nearest hit so far: past it nothing matters.
            let reach = out.contact_fraction();
            // `s1 ≥ d` is `d1 ≥ 0` (a difference of doubles rounds to zero only when they are
            // equal, and keeps its sign otherwise), read before `d1` is.
            let (s1, d1, d2, margin) = if node.axis < SLANTED {
                let k = node.axis as usize;
                let s1 = mv.start[k];
                let d1 = s1 - node.d;
                let d2 = if reach < 1.0 {
                    d1 + mv.seg[k] * reach
                } else {
                    mv.end[k] - node.d
                };
                (s1, d1, d2, mv.half[k] + node.slack)
            } else {
                let n = self.normals.get(code as usize).copied().unwrap_or_default();
                let s1 = n.dot(&start.coords);
                let d1 = s1 - node.d;
                let d2 = if reach < 1.0 {
                    d1 + n.dot(&seg) * reach
                } else {
                    n.dot(&end.coords) - node.d
                };
                (s1, d1, d2, Shape::box_offset(half, &n) + node.slack)
            };
            let front = (d1 >= margin) & (d2 >= margin);
            let back = !front & (d1 <= -margin) & (d2 <= -margin);
            let both = !front & !back;
            // The side holding the start first: its hits come earlier and cut the rest. The
            // tree's walk takes the front on `front`, or on `both` when `d1 ≥ 0`; as the margin
            // is positive, `front` implies `d1 ≥ 0` and `back` that `d1 < 0`, so `d1 ≥ 0` alone
            // decides: the next node waits on one comparison, not on the margin's sums.
            let near_front = s1 >= node.d;
            // Unpredictable choices: as jumps they would be mispredicted half the time.
            let [front_child, back_child] = node.children;
            let near = select_unpredictable(near_front, front_child, back_child);
            let far = select_unpredictable(near_front, back_child, front_child);
            // The far side waits when both are reached; otherwise the write is overwritten
            // later. `len` stays below `STACK` (see there): the mask only spares the checks.
            stack[len % STACK] = far;
            len += usize::from(both & open);
            len -= usize::from(!open);
            code = select_unpredictable(open, near, waiting);
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn leaf(
        &self,
        leaf: u32,
        tree: &BspTree,
        shape: &Shape,
        start: &Point3,
        end: &Point3,
        extent: &SweptExtent,
        out: &mut Sweep,
    ) {
        let Some(&[first, end_of]) = self.leaves.get(leaf as usize) else {
            return;
        };
        let run = self
            .brushes
            .get(first as usize..end_of as usize)
            .unwrap_or(&[]);
        for entry in run {
            if extent.misses(&entry.axial) {
                continue;
            }
            let Some(brush) = tree.brushes.get(entry.brush as usize) else {
                continue;
            };
            out.offer(tree, entry.brush, clip_brush(brush, shape, start, end));
        }
    }
}

/// The move's coordinates along the six axial normals, `+e_a` at `a` and `-e_a` at `3 + a`:
/// the dot products of those normals with the move, exactly. (Eight entries, so that the
/// index is masked rather than checked.)
struct AxialMove {
    start: [Real; 8],
    end: [Real; 8],
    seg: [Real; 8],
    /// The shape's offsets along them: its half extents twice.
    half: [Real; 8],
}

impl AxialMove {
    fn new(start: &Point3, end: &Point3, half: &Vec3) -> AxialMove {
        let seg = end - start;
        let signed = |v: [Real; 3]| [v[0], v[1], v[2], -v[0], -v[1], -v[2], 0.0, 0.0];
        AxialMove {
            start: signed(start.coords.into()),
            end: signed(end.coords.into()),
            seg: signed(seg.into()),
            half: [half.x, half.y, half.z, half.x, half.y, half.z, 0.0, 0.0],
        }
    }
}

/// Nodes on the longest path from `c` to a leaf, without recursion (a level may be deep).
fn depth(tree: &BspTree, c: Child) -> usize {
    let mut deepest = 0;
    let mut todo = vec![(c, 0usize)];
    while let Some((c, d)) = todo.pop() {
        match c {
            Child::Leaf(_) => deepest = deepest.max(d),
            Child::Node(n) => {
                if let Some(node) = tree.nodes.get(n as usize) {
                    todo.push((node.front, d + 1));
                    todo.push((node.back, d + 1));
                }
            }
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bsp::sweep::{sweep, sweep_by_tree_walk};
    use crate::bsp::{Brush, box_planes};
    use crate::geom::Plane;
    use crate::trace::NoProbe;
    use proptest::prelude::*;

    fn shapes() -> impl Strategy<Value = Shape> {
        prop_oneof![
            crate::bsp::shape::any_shape(1.0, 0.05),
            Just(Shape::Sphere { radius: 0.0 }),
            Just(Shape::Box {
                half_extents: Vec3::new(0.5, 1.0, 0.5)
            }),
        ]
    }

    /// Boxes on a half-unit lattice, so that faces are shared and hits tie, some cut by a
    /// slanted plane (slanted nodes), with or without bevels.
    fn brushes() -> impl Strategy<Value = Vec<Brush>> {
        let brush = (
            (-6i32..6, -6i32..6, -6i32..6),
            (1i32..5, 1i32..5, 1i32..5),
            proptest::option::of((-1.0..1.0f64, -1.0..1.0f64, 0.2..1.0f64)),
            any::<bool>(),
        )
            .prop_filter_map("a brush", |(lo, size, cut, bevels)| {
                let lo = [lo.0 as Real * 0.5, lo.1 as Real * 0.5, lo.2 as Real * 0.5];
                let hi = [
                    lo[0] + size.0 as Real * 0.5,
                    lo[1] + size.1 as Real * 0.5,
                    lo[2] + size.2 as Real * 0.5,
                ];
                let mut planes = box_planes(lo, hi);
                if let Some((x, y, z)) = cut {
                    let n = Vec3::new(x, y, z).normalize();
                    let c = (Vec3::from(lo) + Vec3::from(hi)) * 0.5;
                    planes.push(Plane {
                        normal: n,
                        d: n.dot(&c),
                    });
                }
                Brush::from_planes_with(&planes, bevels).ok()
            });
        proptest::collection::vec(brush, 1..40)
    }

    fn point() -> impl Strategy<Value = Point3> {
        prop_oneof![
            (-16i32..16, -16i32..16, -16i32..16)
                .prop_map(|(x, y, z)| Point3::new(x as Real, y as Real, z as Real) * 0.25),
            (-5.0..5.0f64, -5.0..5.0f64, -5.0..5.0f64).prop_map(|(x, y, z)| Point3::new(x, y, z)),
        ]
    }

    fn segment() -> impl Strategy<Value = (Point3, Point3)> {
        prop_oneof![
            4 => (point(), point()),
            1 => point().prop_map(|p| (p, p)),
            2 => (point(), 0..3usize, -6i32..6).prop_map(|(p, axis, len)| {
                let mut e = p;
                e[axis] += len as Real * 0.5;
                (p, e)
            }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        /// The compact walk against the tree's own walk: the same sweep to the bit (the
        /// nearest hit, which brush among tied ones, start inside solid), so it also visits
        /// the brushes that can win in the same order.
        #[test]
        fn the_compact_walk_sweeps_as_the_tree_walk(
            brushes in brushes(),
            shape in shapes(),
            segs in proptest::collection::vec(segment(), 1..16),
        ) {
            let tree = BspTree::build(brushes);
            prop_assert!(tree.walk_nodes().is_some());
            for (a, b) in segs {
                let fast = sweep(&tree, &shape, &a, &b, &mut NoProbe);
                let walked = sweep_by_tree_walk(&tree, &shape, &a, &b);
                prop_assert_eq!(fast.start_solid, walked.start_solid);
                let bits = |s: &Sweep| s.hit.map(|h| {
                    (h.brush, h.plane, h.frac_impact.to_bits(), h.frac_real.to_bits(),
                        h.normal.map(Real::to_bits))
                });
                prop_assert_eq!(bits(&fast), bits(&walked), "{:?} → {:?}", a, b);
            }
        }
    }

    /// A floor of two boxes sharing a top face: a drop onto the seam enters both at the same
    /// fraction, and the brush reported is the one the tree's walk meets first.
    #[test]
    fn a_tie_on_a_seam_names_the_brush_the_tree_walk_names() {
        let floor = |x0: Real, x1: Real| {
            Brush::from_planes(&box_planes([x0, -1.0, -1.0], [x1, 0.0, 1.0])).unwrap()
        };
        let tree = BspTree::build(vec![floor(-2.0, 0.0), floor(0.0, 2.0), floor(3.0, 5.0)]);
        let ball = Shape::Sphere { radius: 0.5 };
        for x in [-0.25, 0.0, 0.25] {
            let (a, b) = (Point3::new(x, 2.0, 0.0), Point3::new(x, -1.0, 0.0));
            let fast = sweep(&tree, &ball, &a, &b, &mut NoProbe);
            assert!(fast.hit.is_some());
            assert_eq!(fast, sweep_by_tree_walk(&tree, &ball, &a, &b));
        }
    }

    #[test]
    fn axes_are_read_from_exact_unit_normals_only() {
        assert_eq!(axis_of(&Vec3::new(0.0, -1.0, 0.0)), 4);
        assert_eq!(axis_of(&Vec3::new(-0.0, 0.0, 1.0)), 2);
        assert_eq!(axis_of(&Vec3::new(1e-300, 1.0, 0.0)), SLANTED);
        assert_eq!(axis_of(&Vec3::new(0.6, 0.8, 0.0)), SLANTED);
    }
}

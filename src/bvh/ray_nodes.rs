//! A compact copy of an AABB hierarchy for ray casts: each internal node holds both children's
//! boxes in single precision, rounded outwards, in one 64-byte record. A cast then reads one
//! cache line per node instead of two scattered 56-byte nodes, which is where a cast on a
//! large mesh spends its time (the node loads miss the cache).
//!
//! The casts stay exact: boxes only ever grow (outward rounding, then a slack larger than the
//! single-precision error of the slab test), so a node is skipped only when every triangle in
//! it lies strictly beyond the best hit; the triangles are tested in double precision as
//! before.

use crate::geom::inline_stack::InlineStack;
use crate::geom::{Aabb, Ray, Real, Vec3};

/// A child code with this bit set names a leaf (by its node id in the hierarchy); without
/// it, an index into [`RayNodes::nodes`].
const LEAF: u32 = 1 << 31;
/// Past this size single precision loses the boxes: such hierarchies keep the exact path.
const F32_SAFE: Real = 1e30;

/// Both children of an internal node: per axis `a`, `lo[a][k]` and `hi[a][k]` bound child `k`.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct PairNode {
    lo: [[f32; 2]; 3],
    hi: [[f32; 2]; 3],
    child: [u32; 2],
}

#[derive(Clone, Debug)]
pub(crate) struct RayNodes {
    nodes: Vec<PairNode>,
    /// The root's code, and its largest coordinate (for the slack).
    root: u32,
    reach: Real,
}

/// `x` rounded to a single-precision value no greater than it.
fn down(x: Real) -> f32 {
    let f = x as f32;
    if f as Real > x { f.next_down() } else { f }
}

fn up(x: Real) -> f32 {
    let f = x as f32;
    if (f as Real) < x { f.next_up() } else { f }
}

/// What the compact copy takes from one node of the hierarchy (kept apart from the tree's
/// own types so that the tree may hold its copy).
pub(crate) struct NodeBox {
    pub aabb: Aabb,
    pub leaf: bool,
    /// An internal node's right child (its left child is the next node).
    pub right: u32,
}

impl RayNodes {
    /// The copy of a hierarchy given in pre-order, `reach` its root's largest coordinate;
    /// `None` when it is empty or too large for single precision.
    pub(crate) fn of(tree: &[NodeBox], reach: Real) -> Option<RayNodes> {
        if tree.is_empty() || !(reach < F32_SAFE) {
            return None;
        }
        // Internal nodes numbered in id order (pre-order): a left child follows its parent.
        let mut rank = vec![0u32; tree.len()];
        let mut internal = 0u32;
        for (id, n) in tree.iter().enumerate() {
            if !n.leaf {
                rank[id] = internal;
                internal += 1;
            }
        }
        let code = |id: u32| {
            if tree[id as usize].leaf {
                id | LEAF
            } else {
                rank[id as usize]
            }
        };
        let mut nodes = Vec::with_capacity(internal as usize);
        for (id, n) in tree.iter().enumerate() {
            if n.leaf {
                continue;
            }
            let kids = [id as u32 + 1, n.right];
            if kids.iter().any(|&k| k as usize >= tree.len()) {
                return None;
            }
            let mut pair = PairNode {
                lo: [[0.0; 2]; 3],
                hi: [[0.0; 2]; 3],
                child: kids.map(code),
            };
            for (k, &c) in kids.iter().enumerate() {
                let b = &tree[c as usize].aabb;
                for a in 0..3 {
                    pair.lo[a][k] = down(b.min[a]);
                    pair.hi[a][k] = up(b.max[a]);
                }
            }
            nodes.push(pair);
        }
        Some(RayNodes {
            nodes,
            root: code(0),
            reach,
        })
    }
}

/// A ray prepared for the single-precision slab tests.
pub(crate) struct RayF32 {
    origin: [f32; 3],
    inv: [f32; 3],
    slack: f32,
}

impl RayF32 {
    /// `None` when the ray's origin is too far for single precision.
    pub(crate) fn new(ray: &Ray, nodes: &RayNodes) -> Option<RayF32> {
        let o = ray.origin.coords.abs().max();
        if !(o < F32_SAFE) {
            return None;
        }
        let inv: Vec3 = ray.inverse_dir();
        // Far above the slab test's rounding in f32 (a few units in the last place of the
        // largest coordinate, relative to t): see the module's note.
        let slack = up(64.0 * f32::EPSILON as Real * (nodes.reach + o) * (1.0 + 1e-6));
        Some(RayF32 {
            origin: [
                ray.origin.x as f32,
                ray.origin.y as f32,
                ray.origin.z as f32,
            ],
            inv: [inv.x as f32, inv.y as f32, inv.z as f32],
            slack,
        })
    }

    /// Entry parameters of both children of `node` before `limit` (infinite when missed).
    #[inline]
    fn entries(&self, node: &PairNode, limit: f32) -> [f32; 2] {
        let mut out = [f32::INFINITY; 2];
        for (k, slot) in out.iter_mut().enumerate() {
            let mut t0: f32 = 0.0;
            let mut t1 = limit;
            for a in 0..3 {
                let mut lo = (node.lo[a][k] - self.slack - self.origin[a]) * self.inv[a];
                let mut hi = (node.hi[a][k] + self.slack - self.origin[a]) * self.inv[a];
                if lo > hi {
                    std::mem::swap(&mut lo, &mut hi);
                }
                // NaN (0 * inf): the ray runs inside the slab's plane, no constraint.
                if !lo.is_nan() {
                    t0 = t0.max(lo);
                }
                if !hi.is_nan() {
                    t1 = t1.min(hi);
                }
            }
            if t0 <= t1 {
                *slot = t0;
            }
        }
        out
    }
}

/// Leaves in the order a cast reaches them, nearest box first, each with its entry
/// parameter; `visit_leaf` answers the cast's best `t` so far.
pub(crate) fn walk(
    nodes: &RayNodes,
    ray: &RayF32,
    max_t: Real,
    mut visit_leaf: impl FnMut(u32) -> Real,
) {
    // Far children waiting, with their entry parameter.
    let mut waiting = InlineStack::<(u32, f32), 64>::new((0, 0.0));
    let mut best = max_t;
    // The root's own box was tested by the caller in double precision.
    let mut next = Some((nodes.root, 0.0f32));
    while let Some((code, entry)) = next.take().or_else(|| waiting.pop()) {
        if entry as Real > best {
            continue;
        }
        if code & LEAF != 0 {
            best = visit_leaf(code & !LEAF);
            continue;
        }
        let node = &nodes.nodes[code as usize];
        let [a, b] = ray.entries(node, up(best));
        let [ca, cb] = node.child;
        // The nearer child next, the farther one waits.
        let (near, far) = if a <= b {
            ((ca, a), (cb, b))
        } else {
            ((cb, b), (ca, a))
        };
        if far.1.is_finite() {
            waiting.push(far);
        }
        if near.1.is_finite() {
            next = Some(near);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn single_precision_bounds_round_outwards(x in prop_oneof![
            -1e30..1e30f64,
            -1.0..1.0f64,
            Just(0.0),
            Just(-0.0),
            Just(1e-300),
        ]) {
            prop_assert!(down(x) as Real <= x);
            prop_assert!(up(x) as Real >= x);
        }
    }
}

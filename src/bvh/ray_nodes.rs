//! A compact copy of an AABB hierarchy for ray casts: each internal node holds both children's
//! boxes in single precision, rounded outwards, in one 64-byte record, and the leaves'
//! triangles are copied in leaf order. A cast then reads one cache line per node instead of
//! two scattered 56-byte nodes, and a leaf's triangles in one run instead of the leaf's node,
//! its triangle indices, each triangle's corner indices and its three corners: on a large
//! mesh those dependent loads miss the cache, and they are where a cast spends its time.
//!
//! The casts stay exact: boxes only ever grow (outward rounding, then a slack larger than the
//! single-precision error of the slab test), so a node is skipped only when every triangle in
//! it lies strictly beyond the best hit; the triangles are the mesh's own corners, tested in
//! double precision as before. The copy is of the mesh the hierarchy was built (or refitted)
//! for: a refit drops it.

use crate::geom::inline_stack::InlineStack;
use crate::geom::{Aabb, Ray, Real, TriMesh, Triangle, Vec3};

/// A child code with this bit set names a leaf (by the position of its first triangle in
/// [`RayNodes::triangles`]); without it, an index into [`RayNodes::nodes`].
const LEAF: u32 = 1 << 31;
/// Past this size single precision loses the boxes: such hierarchies keep the exact path.
const F32_SAFE: Real = 1e30;

/// The last triangle of a leaf has this bit set in its [`LeafTriangle::id`].
const LAST: u32 = 1 << 31;

/// Both children of an internal node: per axis `a`, `lo[a][k]` and `hi[a][k]` bound child `k`.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct PairNode {
    lo: [[f32; 2]; 3],
    hi: [[f32; 2]; 3],
    child: [u32; 2],
}

/// A leaf's triangle: its index in the mesh (with [`LAST`] on a leaf's last) and its corners.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LeafTriangle {
    id: u32,
    pub triangle: Triangle,
}

impl LeafTriangle {
    /// The triangle's index in the mesh.
    #[inline]
    pub(crate) fn index(&self) -> u32 {
        self.id & !LAST
    }
}

#[derive(Clone, Debug)]
pub(crate) struct RayNodes {
    nodes: Vec<PairNode>,
    triangles: Vec<LeafTriangle>,
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
    /// A leaf's number of triangles; 0 for an internal node.
    pub count: u32,
    /// An internal node's right child (its left child is the next node); a leaf's first
    /// triangle in the hierarchy's primitives.
    pub index: u32,
}

impl RayNodes {
    /// The copy of a hierarchy given in pre-order, with its primitives and mesh, `reach` its
    /// root's largest coordinate; `None` when it is empty, does not match its primitives or
    /// mesh, or is too large for single precision.
    pub(crate) fn of(
        tree: &[NodeBox],
        primitives: &[u32],
        mesh: &TriMesh,
        reach: Real,
    ) -> Option<RayNodes> {
        if tree.is_empty() || !(reach < F32_SAFE) {
            return None;
        }
        let (triangles, first) = leaf_triangles(tree, primitives, mesh)?;
        // Internal nodes numbered in id order (pre-order): a left child follows its parent.
        let mut rank = vec![0u32; tree.len()];
        let mut internal = 0u32;
        for (id, n) in tree.iter().enumerate() {
            if n.count == 0 {
                rank[id] = internal;
                internal += 1;
            }
        }
        let code = |id: u32| {
            if tree[id as usize].count > 0 {
                first[id as usize] | LEAF
            } else {
                rank[id as usize]
            }
        };
        let mut nodes = Vec::with_capacity(internal as usize);
        for (id, n) in tree.iter().enumerate() {
            if n.count > 0 {
                continue;
            }
            let kids = [id as u32 + 1, n.index];
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
            triangles,
            root: code(0),
            reach,
        })
    }

    /// The triangles of the leaf whose run starts at `start`.
    #[inline]
    fn leaf(&self, start: usize) -> &[LeafTriangle] {
        let run = &self.triangles[start..];
        let end = run
            .iter()
            .position(|t| t.id & LAST != 0)
            .map_or(run.len(), |i| i + 1);
        &run[..end]
    }
}

/// The leaves' triangles in pre-order, and where each leaf's run starts (by node id).
fn leaf_triangles(
    tree: &[NodeBox],
    primitives: &[u32],
    mesh: &TriMesh,
) -> Option<(Vec<LeafTriangle>, Vec<u32>)> {
    if primitives.len() >= LEAF as usize || primitives.iter().any(|&t| t & LAST != 0) {
        return None;
    }
    let mut triangles = Vec::with_capacity(primitives.len());
    let mut first = vec![0u32; tree.len()];
    for (id, n) in tree.iter().enumerate().filter(|(_, n)| n.count > 0) {
        first[id] = triangles.len() as u32;
        let start = n.index as usize;
        let run = primitives.get(start..start + n.count as usize)?;
        for (k, &tri) in run.iter().enumerate() {
            let corners = mesh.triangles.get(tri as usize)?;
            let corner = |k: usize| mesh.vertices.get(corners[k] as usize).copied();
            triangles.push(LeafTriangle {
                id: if k + 1 == run.len() { tri | LAST } else { tri },
                triangle: Triangle::new(corner(0)?, corner(1)?, corner(2)?),
            });
        }
    }
    Some((triangles, first))
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
        [0, 1].map(|k| {
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
            if t0 <= t1 { t0 } else { f32::INFINITY }
        })
    }
}

/// Leaves in the order a cast reaches them, nearest box first; `visit_leaf` gets each one's
/// triangles and answers the cast's best `t` so far.
pub(crate) fn walk(
    nodes: &RayNodes,
    ray: &RayF32,
    max_t: Real,
    mut visit_leaf: impl FnMut(&[LeafTriangle]) -> Real,
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
            best = visit_leaf(nodes.leaf((code & !LEAF) as usize));
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

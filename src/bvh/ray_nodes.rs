//! A compact copy of an AABB hierarchy for ray casts, four children to a node: the binary
//! tree is collapsed so that each node holds the boxes of up to four descendants (a node's
//! children, with the largest internal one opened while there is room) in single precision,
//! rounded outwards, axis by axis in lanes of four, in two cache lines. The leaves' triangles
//! are copied in leaf order. A cast then tests four boxes in one pass of vector arithmetic and
//! takes about half the dependent loads of the binary tree to reach a leaf, and reads a leaf's
//! triangles in one run instead of the leaf's node, its triangle indices, each triangle's
//! corner indices and its three corners: on a large mesh those dependent loads miss the
//! cache, and they are where a cast spends its time.
//!
//! The casts stay exact: boxes only ever grow (outward rounding, then a slack larger than the
//! single-precision error of the slab test), so a node is skipped only when every triangle in
//! it lies strictly beyond the best hit; the triangles are the mesh's own corners, tested in
//! double precision as before. The copy is of the mesh the hierarchy was built (or refitted)
//! for: a refit drops it.

use crate::geom::inline_stack::InlineStack;
use crate::geom::prefetch::prefetch;
use crate::geom::{Aabb, Point3, Ray, Real, TriMesh, Triangle, Vec3};

/// A child code with this bit set names a leaf (by the position of its first triangle in
/// [`RayNodes::triangles`]); without it, an index into [`RayNodes::nodes`].
const LEAF: u32 = 1 << 31;
/// Past this size single precision loses the boxes: such hierarchies keep the exact path.
const F32_SAFE: Real = 1e30;

/// The last triangle of a leaf has this bit set in its [`LeafTriangle::id`].
const LAST: u32 = 1 << 31;

/// Up to four children of a node: per axis `a`, `lo[a][k]` and `hi[a][k]` bound child `k`.
/// Children are packed first; an unused slot's code is [`NO_CHILD`].
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct QuadNode {
    lo: [[f32; 4]; 3],
    hi: [[f32; 4]; 3],
    child: [u32; 4],
}

/// The code of an unused child slot (a leaf's code is below it: the triangles are fewer
/// than [`LEAF`]).
const NO_CHILD: u32 = u32::MAX;

/// A leaf's triangle: its index in the mesh (with [`LAST`] on a leaf's last), its first
/// corner and its two edges from that corner (what the ray test subtracts first, taken once).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LeafTriangle {
    id: u32,
    corner: Point3,
    edges: [Vec3; 2],
}

impl LeafTriangle {
    fn new(id: u32, t: &Triangle) -> Self {
        Self {
            id,
            corner: t.a,
            edges: [t.b - t.a, t.c - t.a],
        }
    }

    /// The triangle's index in the mesh.
    #[inline]
    pub(crate) fn index(&self) -> u32 {
        self.id & !LAST
    }

    /// The closest hit's `t` in `[0, max_t]`, as [`Ray::intersect_triangle`] gives it.
    #[inline]
    pub(crate) fn hit_t(&self, ray: &Ray, max_t: Real) -> Option<Real> {
        let (t, _, _) = ray.intersect_edges(&self.corner, &self.edges[0], &self.edges[1])?;
        within(t, max_t)
    }

    /// The unit normal by the winding, as [`Triangle::normal`] gives it.
    pub(crate) fn normal(&self) -> Option<Vec3> {
        self.edges[0].cross(&self.edges[1]).try_normalize(1e-300)
    }
}

#[derive(Clone, Debug)]
pub(crate) struct RayNodes {
    nodes: Vec<QuadNode>,
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
        if tree.iter().enumerate().any(|(id, n)| {
            n.count == 0 && !(id + 1 < tree.len() && (n.index as usize) < tree.len())
        }) {
            return None;
        }
        let mut nodes = Vec::new();
        // Internal nodes whose quad node (at the given position) is still to fill.
        let mut todo = Vec::new();
        let root = if tree[0].count > 0 {
            first[0] | LEAF
        } else {
            nodes.push(EMPTY_QUAD);
            todo.push((0usize, 0usize));
            0
        };
        while let Some((id, at)) = todo.pop() {
            for (k, kid) in quad_children(tree, id).into_iter().enumerate() {
                let b = &tree[kid].aabb;
                for a in 0..3 {
                    nodes[at].lo[a][k] = down(b.min[a]);
                    nodes[at].hi[a][k] = up(b.max[a]);
                }
                nodes[at].child[k] = if tree[kid].count > 0 {
                    first[kid] | LEAF
                } else {
                    nodes.push(EMPTY_QUAD);
                    todo.push((kid, nodes.len() - 1));
                    (nodes.len() - 1) as u32
                };
            }
        }
        Some(RayNodes {
            nodes,
            triangles,
            root,
            reach,
        })
    }

    /// Brings the node or the leaf's first triangles that `code` names towards the cache.
    #[inline(always)]
    fn prefetch(&self, code: u32) {
        if code & LEAF != 0 {
            if let Some(t) = self.triangles.get((code & !LEAF) as usize) {
                prefetch(t);
            }
        } else if let Some(n) = self.nodes.get(code as usize) {
            prefetch(n);
        }
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

/// A node with no children yet: its boxes are empty.
const EMPTY_QUAD: QuadNode = QuadNode {
    lo: [[f32::INFINITY; 4]; 3],
    hi: [[f32::NEG_INFINITY; 4]; 3],
    child: [NO_CHILD; 4],
};

/// The up to four descendants of internal node `id` that its quad node holds: its children,
/// then, while fewer than four, the internal one of largest box area replaced by its own
/// children (the nodes a ray most often enters are the ones worth skipping a level for).
fn quad_children(tree: &[NodeBox], id: usize) -> Vec<usize> {
    let children = |n: usize| [n + 1, tree[n].index as usize];
    let mut kids = children(id).to_vec();
    while kids.len() < 4 {
        let widest = kids
            .iter()
            .enumerate()
            .filter(|&(_, &k)| tree[k].count == 0)
            .max_by(|a, b| area(&tree[*a.1].aabb).total_cmp(&area(&tree[*b.1].aabb)));
        let Some((at, &open)) = widest else { break };
        kids.splice(at..=at, children(open));
    }
    kids
}

fn area(b: &Aabb) -> Real {
    let e = b.max - b.min;
    e.x * e.y + e.y * e.z + e.z * e.x
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
            let id = if k + 1 == run.len() { tri | LAST } else { tri };
            let triangle = Triangle::new(corner(0)?, corner(1)?, corner(2)?);
            triangles.push(LeafTriangle::new(id, &triangle));
        }
    }
    Some((triangles, first))
}

/// `t` when it lies in `[0, max_t]`: the hits a cast keeps.
#[inline]
pub(crate) fn within(t: Real, max_t: Real) -> Option<Real> {
    (t >= 0.0 && t <= max_t).then_some(t)
}

/// A ray prepared for the single-precision slab tests.
pub(crate) struct RayF32 {
    origin: [f32; 3],
    inv: [f32; 3],
    /// Per axis, whether the ray runs towards smaller coordinates: it meets a slab's upper
    /// plane first.
    backwards: [bool; 3],
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
            backwards: [0, 1, 2].map(|a| (inv[a] as f32).is_sign_negative()),
            slack,
        })
    }

    /// Entry parameters of the four children of `node` before `limit` (infinite when
    /// missed). Written lane by lane over arrays of four, with selects that compile to
    /// single vector min/max instructions; a NaN (0 × ∞: the ray runs in a slab's plane)
    /// loses every comparison, so it constrains nothing.
    #[inline]
    fn entries(&self, node: &QuadNode, limit: f32) -> [f32; 4] {
        let mut t0 = [0.0f32; 4];
        let mut t1 = [limit; 4];
        for a in 0..3 {
            let (o, inv, s) = (self.origin[a], self.inv[a], self.slack);
            for k in 0..4 {
                let lo = (node.lo[a][k] - s - o) * inv;
                let hi = (node.hi[a][k] + s - o) * inv;
                let (near, far) = if self.backwards[a] {
                    (hi, lo)
                } else {
                    (lo, hi)
                };
                t0[k] = if near > t0[k] { near } else { t0[k] };
                t1[k] = if far < t1[k] { far } else { t1[k] };
            }
        }
        std::array::from_fn(|k| if t0[k] <= t1[k] { t0[k] } else { f32::INFINITY })
    }
}

/// Leaves in the order a cast reaches them, nearest box first; `visit_leaf` gets each one's
/// triangles and answers the cast's best `t` so far.
pub(crate) fn walk<'a>(
    nodes: &'a RayNodes,
    ray: &RayF32,
    max_t: Real,
    mut visit_leaf: impl FnMut(&'a [LeafTriangle]) -> Real,
) {
    // Farther children waiting, with their entry parameter.
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
        let entries = ray.entries(node, up(best));
        let entered = nearest_first(node, &entries);
        // The nearest child next, the others wait, the farthest deepest.
        if let Some((&near, rest)) = entered.split_first() {
            for &far in rest.iter().rev() {
                nodes.prefetch(far.0);
                waiting.push(far);
            }
            next = Some(near);
        }
    }
}

/// The children a ray enters, nearest first (an insertion sort: the run is at most four long
/// and most often one or two).
#[inline(always)]
fn nearest_first(node: &QuadNode, entries: &[f32; 4]) -> Entered {
    let mut out = Entered {
        children: [(NO_CHILD, 0.0); 4],
        len: 0,
    };
    for (k, &t) in entries.iter().enumerate() {
        if node.child[k] == NO_CHILD || !t.is_finite() {
            continue;
        }
        let mut at = out.len;
        while at > 0 && out.children[at - 1].1 > t {
            out.children[at] = out.children[at - 1];
            at -= 1;
        }
        out.children[at] = (node.child[k], t);
        out.len += 1;
    }
    out
}

struct Entered {
    children: [(u32, f32); 4],
    len: usize,
}

impl std::ops::Deref for Entered {
    type Target = [(u32, f32)];
    fn deref(&self) -> &[(u32, f32)] {
        &self.children[..self.len]
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

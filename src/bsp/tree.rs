use super::Brush;
use super::axial_cull::AxialPlanes;
use super::walk_nodes::WalkNodes;
use crate::geom::{Plane, Real};
use serde::{Deserialize, Serialize};

/// A child of a node: another node, or a leaf (an index into `leaves`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Child {
    Node(u32),
    Leaf(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Node {
    pub plane: Plane,
    pub front: Child,
    pub back: Child,
    /// The brush whose face gave the plane.
    pub from_brush: u32,
}

/// A convex cell of space. Solid when brushes reach into it (their ids are
/// `leaf_brushes[first..first + count]`), empty otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leaf {
    pub first: u32,
    pub count: u32,
    pub depth: u32,
}

impl Leaf {
    pub fn is_solid(&self) -> bool {
        self.count > 0
    }
}

/// Tree statistics, for the viewer's list and `bsp_stats`-like reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TreeStats {
    pub brushes: usize,
    pub nodes: usize,
    pub solid_leaves: usize,
    pub empty_leaves: usize,
    pub max_depth: usize,
    pub mean_leaf_depth: f64,
    /// Brush references beyond one per brush: brushes cut by a splitting plane.
    pub split_brushes: usize,
    pub bevel_planes: usize,
}

/// A BSP over convex brushes. Nodes split space by brush faces chosen by a heuristic that
/// weighs balance against splits; leaves list the brushes reaching into them and a sweep clips
/// the shape against each such brush as a whole (per-brush entry and exit).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BspTree {
    pub brushes: Vec<Brush>,
    pub nodes: Vec<Node>,
    pub leaves: Vec<Leaf>,
    pub leaf_brushes: Vec<u32>,
    pub root: Child,
    pub stats: TreeStats,
    /// Each brush's axis-aligned planes, for the sweep's quick rejection. Derived from
    /// `brushes`: not written, and a tree read back without it clips every brush in full.
    #[serde(skip)]
    axial: Vec<AxialPlanes>,
    /// Per node, the union of the axial planes of the brushes below it.
    #[serde(skip)]
    node_reach: Vec<AxialPlanes>,
    /// The compact copy untraced sweeps walk (see [`WalkNodes`]). Derived like `axial`: a
    /// tree read back, or too deep for the copy's walk, walks the nodes themselves.
    #[serde(skip)]
    walk: Option<WalkNodes>,
}

/// A leaf with this many brushes or fewer is not split further.
const LEAF_BRUSHES: usize = 2;
/// How much one split costs against one unit of imbalance.
const SPLIT_COST: usize = 4;
/// Candidate planes tried per node: enough for good trees, bounded for big levels.
const CANDIDATES: usize = 48;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Front,
    Back,
    Both,
}

fn side(brush: &Brush, plane: &Plane) -> Side {
    let tol = 1e-9 * brush.bounds.max.coords.amax().max(1.0);
    let (mut lo, mut hi) = (Real::INFINITY, Real::NEG_INFINITY);
    for v in &brush.vertices {
        let d = plane.signed_distance(v);
        lo = lo.min(d);
        hi = hi.max(d);
    }
    if lo >= -tol {
        Side::Front
    } else if hi <= tol {
        Side::Back
    } else {
        Side::Both
    }
}

impl BspTree {
    pub fn build(brushes: Vec<Brush>) -> BspTree {
        let mut tree = BspTree {
            brushes,
            nodes: Vec::new(),
            leaves: Vec::new(),
            leaf_brushes: Vec::new(),
            root: Child::Leaf(0),
            stats: TreeStats::default(),
            axial: Vec::new(),
            node_reach: Vec::new(),
            walk: None,
        };
        tree.axial = tree.brushes.iter().map(AxialPlanes::of).collect();
        let all: Vec<u32> = (0..tree.brushes.len() as u32).collect();
        tree.root = tree.build_node(all, 0);
        tree.stats = tree.compute_stats();
        tree.node_reach = tree.node_reaches();
        tree.walk = WalkNodes::of(&tree, &tree.axial, &tree.node_reach);
        tree
    }

    /// Children are pushed after their parent, so a backward pass sees them first.
    fn node_reaches(&self) -> Vec<AxialPlanes> {
        let mut reach = vec![AxialPlanes::NOTHING; self.nodes.len()];
        let of_child = |reach: &[AxialPlanes], c: Child| match c {
            Child::Node(n) => reach[n as usize],
            Child::Leaf(l) => self
                .leaf_brush_ids(l)
                .iter()
                .fold(AxialPlanes::NOTHING, |u, &b| {
                    u.union(&self.axial[b as usize])
                }),
        };
        for n in (0..self.nodes.len()).rev() {
            let node = &self.nodes[n];
            reach[n] = of_child(&reach, node.front).union(&of_child(&reach, node.back));
        }
        reach
    }

    /// The union of the axial planes of the brushes below node `n` (see [`Self::axial_planes`]).
    pub(super) fn node_reach(&self, n: u32) -> Option<&AxialPlanes> {
        self.node_reach.get(n as usize)
    }

    fn build_node(&mut self, ids: Vec<u32>, depth: u32) -> Child {
        let split = if ids.len() > LEAF_BRUSHES {
            self.choose_split(&ids)
        } else {
            None
        };
        let Some((plane, from_brush)) = split else {
            let first = self.leaf_brushes.len() as u32;
            self.leaf_brushes.extend_from_slice(&ids);
            self.leaves.push(Leaf {
                first,
                count: ids.len() as u32,
                depth,
            });
            return Child::Leaf(self.leaves.len() as u32 - 1);
        };
        let (mut front, mut back) = (Vec::new(), Vec::new());
        for &b in &ids {
            match side(&self.brushes[b as usize], &plane) {
                Side::Front => front.push(b),
                Side::Back => back.push(b),
                Side::Both => {
                    front.push(b);
                    back.push(b);
                }
            }
        }
        let index = self.nodes.len() as u32;
        self.nodes.push(Node {
            plane,
            front: Child::Leaf(0),
            back: Child::Leaf(0),
            from_brush,
        });
        let f = self.build_node(front, depth + 1);
        let b = self.build_node(back, depth + 1);
        self.nodes[index as usize].front = f;
        self.nodes[index as usize].back = b;
        Child::Node(index)
    }

    /// The face plane with the lowest `imbalance + SPLIT_COST × splits` that puts brushes on
    /// both sides; `None` when no face separates them.
    fn choose_split(&self, ids: &[u32]) -> Option<(Plane, u32)> {
        let faces: usize = ids
            .iter()
            .map(|&b| self.brushes[b as usize].face_count)
            .sum();
        let stride = faces.div_ceil(CANDIDATES).max(1);
        let mut best: Option<(usize, Plane, u32)> = None;
        let mut k = 0usize;
        for &b in ids {
            for plane in self.brushes[b as usize].faces() {
                k += 1;
                if !k.is_multiple_of(stride) {
                    continue;
                }
                let (mut nf, mut nb, mut ns) = (0usize, 0usize, 0usize);
                for &o in ids {
                    match side(&self.brushes[o as usize], plane) {
                        Side::Front => nf += 1,
                        Side::Back => nb += 1,
                        Side::Both => ns += 1,
                    }
                }
                // A brush strictly on each side: both children hold fewer brushes.
                if nf == 0 || nb == 0 {
                    continue;
                }
                let score = nf.abs_diff(nb) + SPLIT_COST * ns;
                if best.as_ref().is_none_or(|(s, ..)| score < *s) {
                    best = Some((score, *plane, b));
                }
            }
        }
        best.map(|(_, p, b)| (p, b))
    }

    fn compute_stats(&self) -> TreeStats {
        let solid = self.leaves.iter().filter(|l| l.is_solid()).count();
        let depth_sum: u64 = self.leaves.iter().map(|l| l.depth as u64).sum();
        TreeStats {
            brushes: self.brushes.len(),
            nodes: self.nodes.len(),
            solid_leaves: solid,
            empty_leaves: self.leaves.len() - solid,
            max_depth: self
                .leaves
                .iter()
                .map(|l| l.depth as usize)
                .max()
                .unwrap_or(0),
            mean_leaf_depth: if self.leaves.is_empty() {
                0.0
            } else {
                depth_sum as f64 / self.leaves.len() as f64
            },
            split_brushes: self.leaf_brushes.len().saturating_sub(self.brushes.len()),
            bevel_planes: self
                .brushes
                .iter()
                .map(|b| b.planes.len() - b.face_count)
                .sum(),
        }
    }

    /// The compact copy of the tree, when it was built here and is not too deep for it.
    pub(super) fn walk_nodes(&self) -> Option<&WalkNodes> {
        self.walk.as_ref()
    }

    /// Brush `b`'s axial planes, when the tree was built here rather than read back.
    pub(super) fn axial_planes(&self, b: u32) -> Option<&AxialPlanes> {
        self.axial.get(b as usize)
    }

    pub fn leaf_brush_ids(&self, leaf: u32) -> &[u32] {
        let l = self.leaves[leaf as usize];
        &self.leaf_brushes[l.first as usize..(l.first + l.count) as usize]
    }
}

//! Hierarchy quality: the numbers the node table, the heat maps and the `bvh_stats` query show.
//!
//! - **SAH cost** (MacDonald & Booth; Wald 2007): the expected cost of a random ray-like query,
//!   `Σ_internal A(n)/A(root)·C_T + Σ_leaf A(l)/A(root)·|l|·C_I`, where `A` is the surface
//!   area of the node's own volume (sphere, box, k-DOP polytope) and `C_T = C_I = 1`. When the
//!   root has no area (a single point), every ratio counts as 1.
//! - **Sibling overlap volume**: the volume shared by the two children of each internal node,
//!   summed over the tree. Zero for a perfect partition of space; large when a query must
//!   descend both sides.
//! - **Depth**: of leaves (the root is at depth 0); the mean is over leaves.

use super::build_options::BuildStrategy;
use super::tree::Bvh;
use super::volumes::{BoundingVolume, BvKind};
use crate::geom::Real;
use serde::{Deserialize, Serialize};

/// Cost of one volume test relative to one triangle test in the SAH cost.
pub const SAH_TRAVERSAL_COST: Real = 1.0;
pub const SAH_TRIANGLE_COST: Real = 1.0;

/// One node's row in the viewer's node table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeStats {
    pub id: u32,
    pub parent: Option<u32>,
    pub depth: u32,
    /// Triangles under the node (for a leaf, its own).
    pub triangles: u32,
    pub leaf: bool,
    pub surface_area: Real,
    pub volume: Real,
    /// This node's term in the SAH cost.
    pub sah_contribution: Real,
    /// Internal node: the volume its two children share. Leaf: 0.
    pub children_overlap_volume: Real,
    /// The volume this node shares with its sibling (0 for the root).
    pub sibling_overlap_volume: Real,
    /// Volume tests this node took part in during the frame's traversals.
    pub tested: u32,
}

/// The headline numbers (also what `bvh_stats` answers).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeSummary {
    pub kind: BvKind,
    pub strategy: BuildStrategy,
    pub nodes: usize,
    pub leaves: usize,
    pub depth_max: u32,
    pub depth_mean: Real,
    pub sah_cost: Real,
    pub sibling_overlap_volume: Real,
    pub memory_bytes: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeStats {
    pub summary: TreeSummary,
    /// `depth_histogram[d]`: leaves at depth d.
    pub depth_histogram: Vec<u32>,
    /// `leaf_size_histogram[n]`: leaves holding n triangles.
    pub leaf_size_histogram: Vec<u32>,
    pub per_node: Vec<NodeStats>,
}

impl<V: BoundingVolume> Bvh<V> {
    /// The headline numbers, without the per-node table.
    pub fn summary(&self) -> TreeSummary {
        self.stats().summary
    }

    pub fn stats(&self) -> TreeStats {
        self.stats_with_tests(&[])
    }

    /// Statistics with each node's test count of the frame (`tested[id]`, as
    /// `TraversalResult::tested_a` gives them; missing entries count as 0).
    pub fn stats_with_tests(&self, tested: &[u32]) -> TreeStats {
        let n = self.nodes.len();
        let parents = self.parents();
        let depths = self.depths();
        let areas: Vec<Real> = self.nodes.iter().map(|x| x.volume.surface_area()).collect();
        let root_area = areas.first().copied().unwrap_or(0.0);
        let ratio = |a: Real| if root_area > 0.0 { a / root_area } else { 1.0 };

        // Triangles under each node: leaves first, then parents in a backward sweep.
        let mut under = vec![0u32; n];
        for id in (0..n).rev() {
            let node = &self.nodes[id];
            under[id] = if node.is_leaf() {
                node.count
            } else {
                under[id + 1] + under[node.index as usize]
            };
        }

        let mut per_node: Vec<NodeStats> = (0..n)
            .map(|id| {
                let node = &self.nodes[id];
                let sah = if node.is_leaf() {
                    ratio(areas[id]) * node.count as Real * SAH_TRIANGLE_COST
                } else {
                    ratio(areas[id]) * SAH_TRAVERSAL_COST
                };
                let children_overlap = if node.is_leaf() {
                    0.0
                } else {
                    self.nodes[id + 1]
                        .volume
                        .overlap_volume(&self.nodes[node.index as usize].volume)
                };
                NodeStats {
                    id: id as u32,
                    parent: parents[id],
                    depth: depths[id],
                    triangles: under[id],
                    leaf: node.is_leaf(),
                    surface_area: areas[id],
                    volume: node.volume.volume(),
                    sah_contribution: sah,
                    children_overlap_volume: children_overlap,
                    sibling_overlap_volume: 0.0,
                    tested: tested.get(id).copied().unwrap_or(0),
                }
            })
            .collect();
        for id in 0..n {
            if let Some(p) = parents[id] {
                per_node[id].sibling_overlap_volume = per_node[p as usize].children_overlap_volume;
            }
        }

        let leaves: Vec<&NodeStats> = per_node.iter().filter(|s| s.leaf).collect();
        let depth_max = leaves.iter().map(|s| s.depth).max().unwrap_or(0);
        let mut depth_histogram = vec![0u32; depth_max as usize + 1];
        let mut leaf_size_histogram = Vec::new();
        for s in &leaves {
            depth_histogram[s.depth as usize] += 1;
            let size = s.triangles as usize;
            if leaf_size_histogram.len() <= size {
                leaf_size_histogram.resize(size + 1, 0);
            }
            leaf_size_histogram[size] += 1;
        }
        let depth_mean = if leaves.is_empty() {
            0.0
        } else {
            leaves.iter().map(|s| s.depth as Real).sum::<Real>() / leaves.len() as Real
        };
        let summary = TreeSummary {
            kind: V::KIND,
            strategy: self.options.strategy,
            nodes: n,
            leaves: leaves.len(),
            depth_max,
            depth_mean,
            sah_cost: per_node.iter().map(|s| s.sah_contribution).sum(),
            sibling_overlap_volume: per_node.iter().map(|s| s.children_overlap_volume).sum(),
            memory_bytes: self.memory_bytes(),
        };
        TreeStats {
            summary,
            depth_histogram,
            leaf_size_histogram,
            per_node,
        }
    }
}

/// The SAH cost of any binary tree given as (surface area, triangle count or 0 for an
/// internal node) per node, root first: to score other libraries' trees the same way.
pub fn sah_cost_of(nodes: impl IntoIterator<Item = (Real, u32)>) -> Real {
    let mut iter = nodes.into_iter().peekable();
    let root_area = iter.peek().map_or(0.0, |n| n.0);
    iter.map(|(area, count)| {
        let r = if root_area > 0.0 {
            area / root_area
        } else {
            1.0
        };
        if count == 0 {
            r * SAH_TRAVERSAL_COST
        } else {
            r * count as Real * SAH_TRIANGLE_COST
        }
    })
    .sum()
}

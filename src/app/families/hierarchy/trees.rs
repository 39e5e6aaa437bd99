//! The metrics of each mesh body's hierarchy, computed once per session: the trees
//! themselves are the engine's, in the scene's static data.

use crate::app::families::FamilyContext;
use crate::bvh::TreeStats;
use crate::trace::BodyId;
use std::collections::HashMap;
use std::sync::Arc;

#[derive(Default)]
pub struct TreeStatsCache {
    generation: Option<u64>,
    stats: HashMap<BodyId, Arc<TreeStats>>,
    leaves: HashMap<BodyId, Arc<Vec<u32>>>,
    layouts: HashMap<BodyId, Arc<Vec<(f32, f32)>>>,
}

impl TreeStatsCache {
    fn sync(&mut self, cx: &FamilyContext) {
        if self.generation != Some(cx.generation()) {
            self.generation = Some(cx.generation());
            self.stats.clear();
            self.leaves.clear();
            self.layouts.clear();
        }
    }

    /// The leaf holding each triangle of a body's mesh (`u32::MAX` for none).
    pub fn leaf_of_triangle(&mut self, cx: &FamilyContext, body: BodyId) -> Option<Arc<Vec<u32>>> {
        self.sync(cx);
        if let Some(l) = self.leaves.get(&body) {
            return Some(l.clone());
        }
        let tree = cx.statics.tree(body)?;
        let stats = self.stats(cx, body)?;
        let mut leaf_of = Vec::new();
        for n in stats.per_node.iter().filter(|n| n.leaf) {
            for &t in tree.leaf_triangles(n.id) {
                if leaf_of.len() <= t as usize {
                    leaf_of.resize(t as usize + 1, u32::MAX);
                }
                leaf_of[t as usize] = n.id;
            }
        }
        let l = Arc::new(leaf_of);
        self.leaves.insert(body, l.clone());
        Some(l)
    }

    /// Each node's horizontal span in an icicle diagram of the tree, within 0–1: the root
    /// spans everything, children split their parent's span by their triangle counts.
    pub fn layout(&mut self, cx: &FamilyContext, body: BodyId) -> Option<Arc<Vec<(f32, f32)>>> {
        self.sync(cx);
        if let Some(l) = self.layouts.get(&body) {
            return Some(l.clone());
        }
        let tree = cx.statics.tree(body)?;
        let stats = self.stats(cx, body)?;
        let l = Arc::new(icicle(&stats.per_node, |id| tree.children(id)));
        self.layouts.insert(body, l.clone());
        Some(l)
    }

    pub fn stats(&mut self, cx: &FamilyContext, body: BodyId) -> Option<Arc<TreeStats>> {
        self.sync(cx);
        if let Some(s) = self.stats.get(&body) {
            return Some(s.clone());
        }
        let s = Arc::new(cx.statics.tree(body)?.stats_with_tests(&[]));
        self.stats.insert(body, s.clone());
        Some(s)
    }
}

/// Bodies with a hierarchy, in id order.
pub fn mesh_bodies(cx: &FamilyContext) -> Vec<BodyId> {
    let Some(w) = cx.world() else {
        return vec![];
    };
    (0..w.bodies.len() as u32)
        .filter(|&b| w.tree(b).is_some())
        .collect()
}

/// Spans of an icicle layout (see [`TreeStatsCache::layout`]); a node unreachable from the
/// root keeps an empty span.
pub fn icicle(
    nodes: &[crate::bvh::NodeStats],
    children: impl Fn(u32) -> Option<(u32, u32)>,
) -> Vec<(f32, f32)> {
    let mut spans = vec![(0.0f32, 0.0f32); nodes.len()];
    if nodes.is_empty() {
        return spans;
    }
    spans[0] = (0.0, 1.0);
    let mut stack = vec![0u32];
    while let Some(id) = stack.pop() {
        let Some((l, r)) = children(id) else {
            continue;
        };
        let (x0, x1) = spans[id as usize];
        let weight = |n: u32| nodes.get(n as usize).map_or(1, |s| s.triangles.max(1)) as f32;
        let (wl, wr) = (weight(l), weight(r));
        let split = x0 + (x1 - x0) * wl / (wl + wr);
        for (child, span) in [(l, (x0, split)), (r, (split, x1))] {
            if let Some(s) = spans.get_mut(child as usize) {
                *s = span;
                stack.push(child);
            }
        }
    }
    spans
}

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
}

impl TreeStatsCache {
    pub fn stats(&mut self, cx: &FamilyContext, body: BodyId) -> Option<Arc<TreeStats>> {
        if self.generation != Some(cx.generation()) {
            self.generation = Some(cx.generation());
            self.stats.clear();
        }
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

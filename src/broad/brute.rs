//! All pairs: quadratic, and the oracle of the others.

use super::{BroadStats, test_pair};
use crate::geom::Aabb;
use crate::trace::Probe;

#[derive(Clone, Debug, Default)]
pub struct BruteForce {
    pub stats: BroadStats,
}

impl BruteForce {
    pub fn update<P: Probe>(&mut self, boxes: &[Aabb], probe: &mut P) -> Vec<(u32, u32)> {
        self.stats = BroadStats::default();
        let mut out = Vec::new();
        for a in 0..boxes.len() as u32 {
            for b in a + 1..boxes.len() as u32 {
                if test_pair(boxes, a, b, &mut self.stats, probe) {
                    out.push((a, b));
                }
            }
        }
        out
    }
}

//! Tallies of the rays a pair or a pass cast, by class and by caster.

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RayCounts {
    /// Vertices outside the target's box inflated by `d_pred` (complete casts).
    pub culled_by_box: u32,
    /// Vertices with no kept ray on this target (walked casts).
    pub culled_no_data: u32,
    pub collision: u32,
    pub prediction: u32,
    pub rejected: u32,
    pub complete: u32,
    pub walked: u32,
    /// Walks that stopped, the ray then cast completely.
    pub walk_failed: u32,
    /// Pairs whose gate allowed the walk.
    pub walked_pairs: u32,
}

impl RayCounts {
    pub fn add(&mut self, o: &RayCounts) {
        self.culled_by_box += o.culled_by_box;
        self.culled_no_data += o.culled_no_data;
        self.collision += o.collision;
        self.prediction += o.prediction;
        self.rejected += o.rejected;
        self.complete += o.complete;
        self.walked += o.walked;
        self.walk_failed += o.walk_failed;
        self.walked_pairs += o.walked_pairs;
    }

    pub fn rays(&self) -> u32 {
        self.collision + self.prediction + self.rejected
    }
}

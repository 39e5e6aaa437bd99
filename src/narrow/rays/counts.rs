//! Tallies of the rays a pair or a pass cast, by class and by caster.

use crate::geom::Real;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
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
    /// Collision rays' raw lengths and re-projected lengths, added up: Table 3.4's
    /// interpenetration metric.
    pub collision_raw_m: Real,
    pub collision_projected_m: Real,
    /// With the audit on (`RayNarrow::audit`), every vertex of a walked pair is also cast
    /// completely, and its kept result compared (the thesis's erroneous rays, §3.4.5):
    /// vertices with a result either way,
    pub audited: u32,
    /// a collision the complete cast finds and the walk does not,
    pub false_negative: u32,
    /// a collision the walk finds and the complete cast does not,
    pub false_positive: u32,
    /// a collision both find, on different triangles.
    pub wrong_location: u32,
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
        self.collision_raw_m += o.collision_raw_m;
        self.collision_projected_m += o.collision_projected_m;
        self.audited += o.audited;
        self.false_negative += o.false_negative;
        self.false_positive += o.false_positive;
        self.wrong_location += o.wrong_location;
    }

    pub fn erroneous(&self) -> u32 {
        self.false_negative + self.false_positive + self.wrong_location
    }

    pub fn rays(&self) -> u32 {
        self.collision + self.prediction + self.rejected
    }
}

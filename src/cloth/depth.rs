//! How far a collision ray's vertex must move to clear the target (the depth handed to the
//! response, spec 002 §4.3 note): one rule for the engine's contacts and the viewer's
//! penetration heatmap.

use super::classify::RayHitInfo;
use crate::geom::Real;

/// A back hit on a closed target means the vertex is inside it: out through the surface and
/// past the cloth's own shell (`half_thickness_m`). Otherwise the vertex is within
/// `clearance_m` of the surface (`e` for a rigid target, `e + e'` for a cloth) and moves out
/// to it: `clearance_m - L`, with `L` the re-projected length (§3.2).
pub fn collision_depth_m(
    hit: &RayHitInfo,
    clearance_m: Real,
    half_thickness_m: Real,
    target_closed: bool,
    reproject: bool,
) -> Real {
    let length = hit.length(reproject);
    if target_closed && hit.hits_back() {
        length + half_thickness_m
    } else {
        clearance_m - length
    }
}

//! The distance conservative advancement needs: signed (negative inside), exact or a lower
//! bound, never more than the true distance, so an advancement step never jumps past contact.
//!
//! It comes from the narrow phase run with a large margin: round shapes give their exact
//! distance, polyhedra the separation along their best separating axis (a lower bound).
//! Mesh against mesh has no distance here (contacts go through the hierarchies): `None`.

use crate::dynamics::Shape;
use crate::geom::{Pose, Real};
use crate::narrow;

/// The signed distance between two shapes at their poses, or `cap` when they are further
/// apart than `cap` (a valid lower bound, and cheap: the narrow phase culls by it).
pub fn signed_distance(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    cap: Real,
) -> Option<Real> {
    if matches!((a, b), (Shape::Mesh(_), Shape::Mesh(_))) {
        return None;
    }
    let contacts = narrow::collide(a, pose_a, b, pose_b, cap);
    if contacts.is_empty() {
        return Some(cap);
    }
    Some((-narrow::max_depth(&contacts)).min(cap))
}

//! A GJK distance before the separating-axis search between two polyhedra: most pairs the
//! broad phase hands over are apart by more than the margin, and GJK says so from a few
//! support points on the untransformed hulls, where SAT would transform both hulls and try
//! every face and edge-pair axis.

use crate::convex::gjk::{GjkWarmStart, gjk_apart_beyond};
use crate::convex::support::Posed;
use crate::geom::{ConvexPolyhedron, Pose, Real};

/// Whether the two placed hulls are certainly further apart than `margin`.
pub fn apart_beyond(
    a: &ConvexPolyhedron,
    pose_a: &Pose,
    b: &ConvexPolyhedron,
    pose_b: &Pose,
    margin: Real,
) -> bool {
    let a = Posed {
        shape: a,
        pose: pose_a,
    };
    let b = Posed {
        shape: b,
        pose: pose_b,
    };
    gjk_apart_beyond(&a, &b, GjkWarmStart::default(), apart_limit(margin)).is_some()
}

/// The distance past which two shapes count as apart for a `margin`. GJK's distance exceeds
/// the true one by at most its relative tolerance; the slack keeps a pair right at the
/// margin with the full test.
pub fn apart_limit(margin: Real) -> Real {
    margin.max(0.0) * (1.0 + 1e-9) + 1e-12
}

//! The magnitudes the geometric ops accept, checked before an op runs and naming the field.
//! Far from the origin a shape keeps too few bits for its own shape: a unit tetrahedron posed
//! at 1e155 rounds to a point, so GJK called it penetrating, and V-Clip's squared distances
//! overflowed to a `null` distance.

use super::args::{ArgError, arg_error};
use crate::geom::{Point3, Pose};

/// The largest coordinate, or translation component, accepted: hull and surface code forms
/// products of up to a few coordinates (volumes, squared areas, squared cross products of
/// derivatives), which stay finite far beyond it.
pub const MAX_COORDINATE: f64 = 1e30;

/// How far from the origin a shape may sit, in multiples of its own size: rounding moves its
/// posed points by about 1e-16 of that distance, so the shape keeps about 7 of its 16 digits
/// (GJK's, V-Clip's and the NURBS boxes' tolerances are far coarser than 1e-7 of a size).
pub const MAX_OFFSET_PER_SIZE: f64 = 1e9;

/// Checks one point set as `field` names it: every coordinate within `MAX_COORDINATE`.
pub fn check_points(points: &[Point3], field: &str) -> Result<(), ArgError> {
    for (i, p) in points.iter().enumerate() {
        if let Some(x) = p.iter().find(|x| x.abs() > MAX_COORDINATE) {
            return Err(arg_error(
                &format!("{field}[{i}]"),
                format!("coordinate {x:e} is beyond ±{MAX_COORDINATE:e}"),
            ));
        }
    }
    Ok(())
}

/// Checks a shape's pose (its points are its hull's or control net's): the translation within `MAX_COORDINATE`, and the posed shape near
/// enough to the origin, for its size, to keep its shape. `shape` and `pose_field` name the
/// point set and its pose (`a`, `pose_a`).
pub fn check_pose(
    points: &[Point3],
    pose: &Pose,
    shape: &str,
    pose_field: &str,
) -> Result<(), ArgError> {
    let field = format!("{pose_field}.translation");
    let t = pose.translation.vector;
    if let Some(x) = t.iter().find(|x| x.abs() > MAX_COORDINATE) {
        return Err(arg_error(
            &field,
            format!("component {x:e} is beyond ±{MAX_COORDINATE:e}"),
        ));
    }
    let size = diameter(points);
    let reach = points
        .iter()
        .map(|p| (pose * p).coords.amax())
        .fold(0.0, f64::max);
    if reach > size * MAX_OFFSET_PER_SIZE {
        // The points alone may already be far out; name the translation only when it is
        // what carries the shape away.
        let local = points.iter().map(|p| p.coords.amax()).fold(0.0, f64::max);
        let culprit = if local > size * MAX_OFFSET_PER_SIZE {
            shape.to_string()
        } else {
            field
        };
        return Err(arg_error(
            &culprit,
            format!(
                "the shape (size {size:e}) would sit {reach:e} from the origin, more than \
                 {MAX_OFFSET_PER_SIZE:e} times its size: too few bits would be left for its \
                 shape; move both shapes nearer the origin"
            ),
        ));
    }
    Ok(())
}

/// The largest extent of the points' bounding box (a diameter within a factor √3).
fn diameter(points: &[Point3]) -> f64 {
    let Some(first) = points.first() else {
        return 0.0;
    };
    let (lo, hi) = points
        .iter()
        .fold((first.coords, first.coords), |(lo, hi), p| {
            (lo.inf(&p.coords), hi.sup(&p.coords))
        });
    (hi - lo).amax()
}

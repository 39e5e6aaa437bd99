//! The time of impact of one pair over one step: an exact swept test where one exists (a
//! sphere, or any body small against its motion, against a partner that does not turn: the
//! ray between positions inflated by the radius), conservative advancement otherwise.

use super::advance::{Advance, Band, advance_into, conservative_advancement};
use super::distance::{ShapeAt, signed_distance_until};
use super::motion::{Motion, centre};
use super::ray::segment_vs_local_shape;
use crate::bvh::AnyBvh;
use crate::ccd::CcdEvent;
use crate::geom::Shape;
use crate::geom::{Pose, Real};
use crate::trace::{BodyId, Probe, Verdict};

/// Below this angle over a step a partner counts as not turning, so the relative path of a
/// point is a straight line in its frame (to well under the target distance).
const STILL_ANGLE: Real = 1e-9;

/// A body small against its motion: the ray between its positions, inflated by its rim,
/// skips the empty part of the step before advancement refines it.
const TINY_RATIO: Real = 4.0;

/// One side of a pair: its id, shape, motion over the step, rim, and hierarchy (meshes).
#[derive(Clone, Copy)]
pub struct Mover<'a> {
    pub id: BodyId,
    pub shape: &'a Shape,
    pub motion: Motion,
    pub rim: Real,
    pub tree: Option<&'a AnyBvh>,
}

impl<'a> Mover<'a> {
    fn placed<'p>(&self, pose: &'p Pose) -> ShapeAt<'p>
    where
        'a: 'p,
    {
        ShapeAt {
            shape: self.shape,
            pose,
            tree: self.tree,
        }
    }
}

/// How a pair's time of impact was found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Toi {
    /// The first time the pair comes within the target distance, a fraction of the step.
    Impact(Real),
    Clear,
    /// Touching or overlapping at the start: left to the discrete contacts.
    Touching,
    /// No distance for these shapes (mesh against mesh).
    Unsupported,
    /// Advancement ran out of steps at this time, still apart: an impact there is safe.
    GaveUp(Real),
}

/// The time of impact of `a` moving against `b` moving, within `target` of touching.
pub fn time_of_impact<P: Probe>(a: &Mover, b: &Mover, target: Real, probe: &mut P) -> Toi {
    let b_still = b.motion.angle() <= STILL_ANGLE;
    let mut t_from = 0.0;
    if b_still {
        let radius = match a.shape {
            Shape::Sphere { radius } => Some(*radius),
            _ if a.motion.displacement().norm() > TINY_RATIO * a.rim
                && a.motion.angle() * a.rim < target =>
            {
                Some(a.rim)
            }
            _ => None,
        };
        if let Some(radius) = radius {
            let exact = matches!(a.shape, Shape::Sphere { .. });
            let hit = ray_between_positions(a, b, radius, probe);
            match hit {
                None => return Toi::Clear,
                Some(t) if t <= 0.0 && exact => return Toi::Touching,
                Some(t) if exact => {
                    // Back off along the path so the sphere stops `target` short of contact.
                    let len = (a.motion.displacement() - b.motion.displacement()).norm();
                    return Toi::Impact((t - target / len.max(1e-300)).max(0.0));
                }
                // The bounding ball touches first: the shape itself cannot touch earlier.
                Some(t) => t_from = t,
            }
        }
    }
    let result = conservative_advancement(
        (a.id, b.id),
        t_from,
        reach(a, b),
        target,
        |t, cap| {
            let (pose_a, pose_b) = (a.motion.at(t), b.motion.at(t));
            signed_distance_until(a.placed(&pose_a), b.placed(&pose_b), cap, target)
        },
        probe,
    );
    match result {
        Advance::Impact { t, .. } => Toi::Impact(t),
        Advance::Clear { .. } => Toi::Clear,
        // Touching where the ray put us is an impact there, not a resting contact.
        Advance::Touching { .. } if t_from > 0.0 => Toi::Impact(t_from),
        Advance::Touching { .. } => Toi::Touching,
        Advance::Unsupported => Toi::Unsupported,
        Advance::GaveUp { t } => Toi::GaveUp(t),
    }
}

/// The most the pair's distance can change over the step: their relative reach.
fn reach(a: &Mover, b: &Mover) -> Real {
    (a.motion.displacement() - b.motion.displacement()).norm()
        + a.motion.angle() * a.rim
        + b.motion.angle() * b.rim
}

/// For a pair touching at the start (within `margin`), the first time it sinks a margin
/// deeper than `limit`, as an impact at most two margins past (or, when it starts deeper than
/// that, half a margin deeper than it starts, as an impact at most a margin past): a body
/// sliding and turning along a contact can bury a corner in its partner where no contact was
/// looked for. Half a margin, because both `Toi` passes of a step may let a squeezed pair go
/// that much deeper. `Touching` when it sinks no deeper than that, `Clear` when it was not
/// touching.
pub fn time_of_sinking<P: Probe>(
    a: &Mover,
    b: &Mover,
    limit: Real,
    margin: Real,
    probe: &mut P,
) -> Toi {
    if !(limit < Real::INFINITY) {
        return Toi::Touching;
    }
    let bound = reach(a, b);
    // The distance at the start is the advancement's first: one query for a pair that cannot
    // sink that far this step. (A cap can only lower it when no impact is reachable.)
    let sink = |band: Band, start: &mut Option<Real>, probe: &mut P| {
        let below = band.below;
        let distance = |t: Real, cap: Real| {
            let (pose_a, pose_b) = (a.motion.at(t), b.motion.at(t));
            let d = signed_distance_until(a.placed(&pose_a), b.placed(&pose_b), cap, below);
            start.get_or_insert(d?);
            d
        };
        advance_into((a.id, b.id), 0.0, bound, band, distance, probe)
    };
    let mut start = None;
    let past_limit = Band {
        below: -limit - margin,
        width: margin,
    };
    let mut result = sink(past_limit, &mut start, probe);
    match start {
        None => return Toi::Unsupported,
        Some(d) if d > margin => return Toi::Clear,
        Some(_) => {}
    }
    if let Advance::Touching { distance } = result {
        let past_start = Band {
            below: distance - 0.5 * margin,
            width: 0.5 * margin,
        };
        result = sink(past_start, &mut None, probe);
    }
    match result {
        Advance::Impact { t, .. } => Toi::Impact(t),
        Advance::GaveUp { t } => Toi::GaveUp(t),
        Advance::Unsupported => Toi::Unsupported,
        Advance::Clear { .. } | Advance::Touching { .. } => Toi::Touching,
    }
}

/// The course's ray between two positions: `a`'s centre from its start to its end, seen from
/// `b` (which translates but does not turn), against `b` inflated by `radius`.
pub fn ray_between_positions<P: Probe>(
    a: &Mover,
    b: &Mover,
    radius: Real,
    probe: &mut P,
) -> Option<Real> {
    let o = b
        .motion
        .start
        .inverse_transform_point(&centre(&a.motion.start));
    let e = b.motion.end.inverse_transform_point(&centre(&a.motion.end));
    let t = segment_vs_local_shape(&o, &(e - o), radius, b.shape, b.tree);
    super::event::report(
        probe,
        if t.is_some() {
            Verdict::Hit
        } else {
            Verdict::Miss
        },
        CcdEvent::Ray {
            body: a.id,
            other: b.id,
            radius,
            t,
        },
    );
    t
}

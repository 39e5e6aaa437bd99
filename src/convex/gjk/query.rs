//! The whole question as callers ask it: how far apart, or how deep, with the points and the
//! normal either way. GJK answers when apart; EPA takes its simplex when not.

use super::distance::{GjkResult, GjkWarmStart, gjk_distance_warm};
use super::epa::{EpaResult, epa};
use super::event::{GjkProbe, GjkStatus, GjkStep, report};
use crate::convex::support::SupportMap;
use crate::geom::{Point3, Real, Vec3};
use crate::trace::{BodyId, Verdict};

/// Distance or penetration between two convex shapes.
#[derive(Clone, Copy, Debug)]
pub struct GjkQuery {
    pub gjk: GjkResult,
    /// Present when GJK found the shapes touching or overlapping.
    pub epa: Option<EpaResult>,
}

impl GjkQuery {
    /// Distance when apart, minus the depth when overlapping.
    pub fn signed_distance(&self) -> Real {
        match &self.epa {
            Some(e) => -e.depth,
            None => self.gjk.distance,
        }
    }

    /// Unit normal from A toward B: along the closest points when apart, EPA's when not.
    pub fn normal(&self) -> Option<Vec3> {
        match &self.epa {
            Some(e) => Some(e.normal),
            None => self.gjk.separating_axis(),
        }
    }

    /// The witness points on A and B: closest when apart, deepest when overlapping.
    pub fn points(&self) -> (Point3, Point3) {
        match &self.epa {
            Some(e) => (e.point_a, e.point_b),
            None => (self.gjk.point_a, self.gjk.point_b),
        }
    }

    pub fn warm_start(&self) -> GjkWarmStart {
        GjkWarmStart::from_result(&self.gjk)
    }
}

/// GJK, then EPA when the shapes overlap; one `End` event sums it up.
pub fn gjk_query<A, B, G>(
    a: &A,
    b: &B,
    warm: GjkWarmStart,
    bodies: [BodyId; 2],
    probe: &mut G,
) -> GjkQuery
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    G: GjkProbe + ?Sized,
{
    let gjk = gjk_distance_warm(a, b, warm, bodies, probe);
    let epa = gjk
        .penetrating
        .then(|| epa(a, b, &gjk.simplex, bodies, probe));
    let verdict = if gjk.penetrating {
        Verdict::Hit
    } else if gjk.status == GjkStatus::IterationCap {
        Verdict::Warning
    } else {
        Verdict::Miss
    };
    report(probe, bodies, verdict, || GjkStep::End {
        status: gjk.status,
        distance: gjk.distance,
        depth: epa.map_or(0.0, |e| e.depth),
        iterations: gjk.iterations,
        epa_iterations: epa.map_or(0, |e| e.iterations),
        warm: warm.direction.is_some(),
    });
    GjkQuery { gjk, epa }
}

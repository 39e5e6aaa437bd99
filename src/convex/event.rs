//! The convex family's trace events: feature ids and the scalars a step cannot be drawn
//! without; the polyhedra and poses are in the recording already.

use super::Feature;
use super::gjk::GjkEvent;
use crate::trace::FamilyEvent;
use crate::trace::{BodyId, Verdict};
use serde::{Deserialize, Serialize};

/// Why the V-Clip walk moved from one feature pair to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reason {
    /// A vertex lies outside a plane of the other feature's region: that feature moves to the
    /// plane's neighbour.
    OutsideRegion,
    /// An edge lies wholly outside one plane of the other feature's region.
    EdgeExcluded,
    /// An edge misses the region, but no single plane excludes it.
    EdgeCompoundExcluded,
    /// Clipped to the region, the distance still falls below the lower clip point.
    DerivativeLow,
    /// Clipped to the region, the distance still falls past the upper clip point.
    DerivativeHigh,
    /// An edge of the vertex leads closer to the face's plane.
    EdgeTowardFace,
    /// Along an edge facing a face, the distance falls toward one of the edge's ends.
    TowardEdgeEnd,
    /// The vertex is below the face yet inside its prism: a local minimum; the walk jumps to
    /// the face the vertex is farthest above.
    LocalMinimum,
    /// Face–face is no state of the walk: one face gives way to one of its vertices.
    FaceFaceStart,
}

impl Reason {
    /// Whether the distance may stay equal across this move (a dashed arrow in Mirtich's
    /// state chart) rather than strictly decrease.
    pub fn may_keep_distance(self) -> bool {
        matches!(
            self,
            Reason::DerivativeLow
                | Reason::DerivativeHigh
                | Reason::TowardEdgeEnd
                | Reason::FaceFaceStart
                | Reason::EdgeCompoundExcluded
        )
    }

    pub fn explain(self) -> &'static str {
        match self {
            Reason::OutsideRegion => "a vertex lies outside a plane of the other feature's region",
            Reason::EdgeExcluded => "the edge lies wholly outside one plane of the region",
            Reason::EdgeCompoundExcluded => "the edge misses the region, cut by two planes",
            Reason::DerivativeLow => "the distance keeps falling below the lower clip point",
            Reason::DerivativeHigh => "the distance keeps falling past the upper clip point",
            Reason::EdgeTowardFace => "an edge of the vertex leads closer to the face's plane",
            Reason::TowardEdgeEnd => "along the edge the distance falls toward one end",
            Reason::LocalMinimum => "vertex below the face inside its prism: a local minimum",
            Reason::FaceFaceStart => "face–face is no state: a face gives way to a vertex",
        }
    }
}

/// How a walk ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Each closest point lies in the other feature's region: the distance is exact.
    Separated,
    /// The features touch: distance zero, no overlap.
    Touching,
    /// An edge crosses a face inside its prism, or a vertex is inside every face plane.
    Penetrating,
    /// The iteration cap stopped the walk: a bug to report, never expected.
    IterationCap,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ConvexEvent {
    /// One move of the V-Clip walk between `bodies`: from one feature pair to the next.
    /// `clip` is the parameter interval of the clipped edge when the move came from
    /// clipping; `distance` is between the new pair's features.
    Step {
        bodies: [BodyId; 2],
        from: [Feature; 2],
        to: [Feature; 2],
        reason: Reason,
        clip: Option<[f32; 2]>,
        distance: f32,
    },
    /// The end of a walk: its closest features and distance.
    End {
        bodies: [BodyId; 2],
        features: [Feature; 2],
        outcome: Outcome,
        distance: f64,
        iterations: u32,
        /// The walk started from last frame's pair.
        warm: bool,
    },
    /// A step of GJK (or EPA) on the same pair: the independent cross-check.
    Gjk(GjkEvent),
}

impl FamilyEvent for ConvexEvent {
    fn bodies(&self) -> Vec<BodyId> {
        match self {
            ConvexEvent::Step { bodies, .. } | ConvexEvent::End { bodies, .. } => bodies.to_vec(),
            ConvexEvent::Gjk(e) => e.bodies(),
        }
    }

    fn summary(&self, verdict: Verdict) -> String {
        match self {
            ConvexEvent::Gjk(e) => e.summary(verdict),
            ConvexEvent::Step {
                from,
                to,
                reason,
                distance,
                ..
            } => format!(
                "{}-{} → {}-{}: {} (distance {distance:.4})",
                from[0],
                from[1],
                to[0],
                to[1],
                reason.explain()
            ),
            ConvexEvent::End {
                features,
                outcome,
                distance,
                iterations,
                warm,
                ..
            } => format!(
                "closest {}-{}: {outcome:?}, distance {distance:.6} after {iterations} step(s){}",
                features[0],
                features[1],
                if *warm { ", warm start" } else { "" }
            ),
        }
    }
}

use super::clip::MissReason;
use super::level::BspSweepMode;
use crate::geom::{Point3, Real, Vec3};
use crate::trace::FamilyEvent;
use crate::trace::{BodyId, Verdict};
use serde::{Deserialize, Serialize};

/// Which children of a node the swept shape reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NodeSide {
    Front,
    Back,
    Both,
}

/// What one brush clip found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClipOutcome {
    Hit,
    StartSolid,
    Missed(MissReason),
}

/// How a slide iteration chose the next movement (spec 001 §8.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SlideBranch {
    /// No impact: the whole remaining movement was made.
    Free,
    /// Projected on the wall of the accumulated normal `i`.
    Wall(u8),
    /// Along the crease of the two accumulated walls.
    Crease,
    /// Three or more walls block every projection.
    Corner,
    /// The shape already overlapped a brush: it stays where it is.
    StartSolid,
}

/// Why a slide ended (spec 001 §8.8, with the article's lost-movement cases fixed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SlideEnd {
    NoImpact,
    Corner,
    Reversed,
    TooShort,
    /// `MAX_IMPACT` iterations used: the last impact point is kept (the article lost it).
    MaxIterations,
    StartSolid,
    /// No movement asked.
    Still,
    /// The article's slide only: its crease of one wall met twice normalised a zero vector and
    /// the position it would write is NaN (spec 001 §13.2).
    NotFinite,
}

/// The BSP family's trace events: ids and the scalars that cannot be derived. Planes are
/// `(brush, plane index)` into the recorded level; points follow from `start`, `remaining` and
/// the fractions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BspEvent {
    /// A node of the tree was visited during a sweep.
    Node { node: u32, side: NodeSide },
    /// A brush in a reached leaf was clipped: latest entry, earliest exit, the entry plane.
    Clip {
        brush: u32,
        plane: u16,
        enter: Real,
        exit: Real,
        outcome: ClipOutcome,
    },
    /// One slide iteration: from `start` the shape asked for `remaining`; it hit `(brush,
    /// plane)` at the two fractions (none: free); `normals` walls were held after the push
    /// (`reset`: older walls forgotten); `next` is the movement chosen for the next iteration.
    Iteration {
        index: u8,
        start: Point3,
        remaining: Vec3,
        hit: Option<(u32, u16)>,
        frac_impact: Real,
        frac_real: Real,
        normals: u8,
        reset: bool,
        branch: SlideBranch,
        next: Vec3,
    },
    /// The slide ended.
    End { reason: SlideEnd, iterations: u8 },
    /// The article's search reached the solid leaf of `brush` (spec 001 §7.3): what its
    /// `iBrush` carried there, the plane stored last (none: nothing stored, fraction 1), and
    /// whether it replaced the nearest impact so far (`setNearerImpact`).
    ArticleLeaf {
        brush: u32,
        plane: Option<u16>,
        frac_impact: Real,
        frac_real: Real,
        nearer: bool,
    },
    /// The events after this one are the same move slid with `mode` from the same start, for
    /// comparison (the walker keeps the result of the slide before).
    Compare { mode: BspSweepMode },
}

impl FamilyEvent for BspEvent {
    fn bodies(&self) -> Vec<BodyId> {
        Vec::new()
    }

    fn summary(&self, _verdict: Verdict) -> String {
        match self {
            BspEvent::Node { node, side } => format!("node {node}: {side:?}"),
            BspEvent::Clip {
                brush,
                plane,
                enter,
                exit,
                outcome,
            } => match outcome {
                ClipOutcome::Hit => {
                    format!(
                        "brush {brush}: enters by plane {plane} at {enter:.4}, exits at {exit:.4}"
                    )
                }
                ClipOutcome::StartSolid => format!("brush {brush}: START SOLID"),
                ClipOutcome::Missed(MissReason::InFrontOf) => {
                    format!("brush {brush}: missed (all in front of plane {plane})")
                }
                ClipOutcome::Missed(MissReason::ExitBeforeEntry) => format!(
                    "brush {brush}: missed (latest entry {enter:.4} after earliest exit {exit:.4})"
                ),
            },
            BspEvent::Iteration {
                index,
                hit,
                frac_impact,
                branch,
                ..
            } => match hit {
                Some((b, p)) => format!(
                    "slide {}: hit brush {b} plane {p} at {frac_impact:.4}, {branch:?}",
                    index + 1
                ),
                None => format!("slide {}: free", index + 1),
            },
            BspEvent::End { reason, iterations } => {
                format!("slide ended: {reason:?} after {iterations} iteration(s)")
            }
            BspEvent::ArticleLeaf {
                brush,
                plane,
                frac_real,
                nearer,
                ..
            } => match plane {
                Some(p) => format!(
                    "article: solid leaf of brush {brush}, plane {p} at {frac_real:.4}{}",
                    if *nearer { ", nearest so far" } else { "" }
                ),
                None => format!("article: solid leaf of brush {brush} with nothing stored"),
            },
            BspEvent::Compare { mode } => format!("the same move with the {} slide", mode.name()),
        }
    }
}

#[inline(always)]
pub(crate) fn report<P: crate::trace::Probe + ?Sized>(
    probe: &mut P,
    verdict: Verdict,
    event: BspEvent,
) {
    crate::trace_event!(probe, crate::trace::TraceEvent::new(verdict, event));
}

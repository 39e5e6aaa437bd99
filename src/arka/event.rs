//! The Arka3D family's trace events: ids (ball, cell, face) and what the recording cannot give
//! back (where a tested segment crossed a plane, the bounce normal of a corner hit, where a
//! recovery moved a ball from and to).

use crate::geom::{Point3, Vec3};
use crate::trace::{BodyId, FamilyEvent, Verdict};
use serde::{Deserialize, Serialize};

/// The Voronoi region of a facet that decided a bounce: the face region (flat bounce) or the
/// edge and vertex bands of the square grown by the radius (corner bounce).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Region {
    Face,
    Edge,
    Vertex,
}

impl Region {
    /// The region and the bounce it gives, as the view and the summaries name them.
    pub fn describe(self) -> &'static str {
        match self {
            Region::Face => "face region: flat bounce",
            Region::Edge => "edge band: corner bounce",
            Region::Vertex => "vertex band: corner bounce",
        }
    }
}

/// Why a recovery moved a ball without advancing time (thesis §2.4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RecoveryKind {
    /// The centre ended a step inside the cube of this cell.
    InsideCube { cell: u16 },
    /// The same facet was hit twice in one instant.
    SameFacet { cell: u16, face: u8 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ArkaEvent {
    /// Steps 1–2 of one pass for `ball`: facets kept by preselection, and given the full test.
    Pass {
        ball: u8,
        preselected: u16,
        treated: u16,
    },
    /// Step 3 found a hit: the tested segment `from → to` crossed the facet `(cell, face)`'s
    /// plane at `point`, in `region`; the ball bounced about `normal`.
    Bounce {
        ball: u8,
        cell: u16,
        face: u8,
        region: Region,
        from: Point3,
        to: Point3,
        point: Point3,
        normal: Vec3,
    },
    /// A cube lost a hit (`state` is its new cell byte; 0: destroyed).
    Cube { cell: u16, state: u8 },
    /// A ball bounced off a wall (axis 0–2, `high`: the wall at the board's far side).
    Wall { ball: u8, axis: u8, high: bool },
    /// Two balls met; `pursuit`: same general direction (the faster bounces, the slower is
    /// deflected); `separated`: an intemporal displacement moved them apart.
    BallBall {
        a: u8,
        b: u8,
        pursuit: bool,
        separated: bool,
    },
    /// An error recovery: an intemporal displacement of `ball` from `from` to `to`.
    Recovery {
        ball: u8,
        kind: RecoveryKind,
        from: Point3,
        to: Point3,
    },
    /// A ball bounced off the paddle: `point` is the paddle's point nearest the ball's
    /// centre, `normal` the normal used there (the rim deflects more than the centre).
    Paddle {
        ball: u8,
        point: Point3,
        normal: Vec3,
    },
}

impl FamilyEvent for ArkaEvent {
    fn bodies(&self) -> Vec<BodyId> {
        Vec::new()
    }

    fn summary(&self, _verdict: Verdict) -> String {
        match self {
            ArkaEvent::Pass {
                ball,
                preselected,
                treated,
            } => format!("ball {ball}: {preselected} facets preselected, {treated} tested"),
            ArkaEvent::Bounce {
                ball,
                cell,
                face,
                region,
                ..
            } => {
                format!(
                    "ball {ball}: cube {cell} facet {face}, {}",
                    region.describe()
                )
            }
            ArkaEvent::Cube { cell, state: 0 } => format!("cube {cell} destroyed"),
            ArkaEvent::Cube { cell, state } => format!("cube {cell} hit (state {state})"),
            ArkaEvent::Wall { ball, axis, high } => {
                let side = if *high { "far" } else { "near" };
                format!("ball {ball}: bounce on the {side} wall of axis {axis}")
            }
            ArkaEvent::BallBall {
                a,
                b,
                pursuit,
                separated,
            } => format!(
                "balls {a} and {b} bounce ({}){}",
                if *pursuit { "pursuit" } else { "head-on" },
                if *separated { ", moved apart" } else { "" }
            ),
            ArkaEvent::Paddle { ball, normal, .. } => format!(
                "ball {ball}: paddle bounce, {:.0}° off straight",
                normal.z.abs().clamp(0.0, 1.0).acos().to_degrees()
            ),
            ArkaEvent::Recovery { ball, kind, .. } => match kind {
                RecoveryKind::InsideCube { cell } => {
                    format!("RECOVERY ball {ball}: centre inside cube {cell}, moved out")
                }
                RecoveryKind::SameFacet { cell, face } => format!(
                    "RECOVERY ball {ball}: cube {cell} facet {face} hit twice in one instant"
                ),
            },
        }
    }
}

#[inline(always)]
pub(crate) fn report<P: crate::trace::Probe + ?Sized>(
    probe: &mut P,
    verdict: Verdict,
    event: ArkaEvent,
) {
    crate::trace_event!(probe, crate::trace::TraceEvent::new(verdict, event));
}

//! The cloth family's trace events: ids and scalars only. A ray's origin and direction are
//! its vertex and that vertex's normal in the frame's recorded cloth, its hit point follows
//! from `t`; an inversion names the triangle the vertex went through.

use super::classify::{RayKind, RaySide, RejectReason, Target};
use crate::trace::FamilyEvent;
use crate::trace::{BodyId, Verdict};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ClothEvent {
    /// One ray of a cloth vertex: along `-normal` (inner) or `+normal` (outer), its class and,
    /// when rejected, why. `t` is the raw length along the unit ray (before re-projection),
    /// f32 because a debugger draws it and the recording holds a ray per vertex and side.
    Ray {
        vertex: u32,
        side: RaySide,
        target: Target,
        triangle: Option<u32>,
        t: f32,
        kind: RayKind,
        reason: Option<RejectReason>,
        /// Walked from last step's triangle (the iterative cast), not cast completely.
        iterative: bool,
    },
    /// The vertex went through `triangle` of `target` during the step (§4.5). `promoted`: its
    /// ray was no collision before; `corrected`: the response put it back on its side.
    Inversion {
        vertex: u32,
        target: Target,
        triangle: u32,
        promoted: bool,
        corrected: bool,
    },
}

fn target_bodies(target: &Target) -> Vec<BodyId> {
    match target {
        Target::Rigid(body) => vec![*body],
        Target::Cloth(_) => Vec::new(),
    }
}

fn target_name(target: &Target) -> String {
    match target {
        Target::Rigid(body) => format!("body {body}"),
        Target::Cloth(c) => format!("cloth {c}"),
    }
}

impl FamilyEvent for ClothEvent {
    fn bodies(&self) -> Vec<BodyId> {
        match self {
            ClothEvent::Ray { target, .. } | ClothEvent::Inversion { target, .. } => {
                target_bodies(target)
            }
        }
    }

    fn summary(&self, verdict: Verdict) -> String {
        match self {
            ClothEvent::Ray {
                vertex,
                side,
                target,
                triangle,
                t,
                kind,
                reason,
                iterative,
            } => {
                let hit = match triangle {
                    Some(tri) => format!("triangle {tri} of {} at {t:.4} m", target_name(target)),
                    None => format!("nothing of {}", target_name(target)),
                };
                let why = reason.map_or(String::new(), |r| format!(" ({r:?})"));
                let how = if *iterative { ", walked" } else { "" };
                format!(
                    "ray {side:?} of vertex {vertex}: {hit}: {kind:?}{why}{how}: {}",
                    verdict.word()
                )
            }
            ClothEvent::Inversion {
                vertex,
                target,
                triangle,
                promoted,
                corrected,
            } => format!(
                "inverted vertex {vertex} through triangle {triangle} of {}{}: {}",
                target_name(target),
                match (promoted, corrected) {
                    (_, false) => ", left uncorrected",
                    (true, true) => ", prediction promoted, corrected",
                    (false, true) => ", corrected",
                },
                verdict.word()
            ),
        }
    }
}

//! The cloth family's trace events: ids and scalars only. A ray's origin and direction are
//! its vertex and that vertex's normal in the frame's recorded cloth, its hit point follows
//! from `t`; an inversion names the triangle the vertex went through.

use super::classify::{RayKind, RaySide, RejectReason, Target};
use crate::raycast::WalkStop;
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
    /// A ray the walk found (§3.4): as `Ray`, with the triangle the walk started from and the
    /// triangles it tested, so that its path can be retraced and drawn. Recordings made
    /// before it have `Ray { iterative: true }` instead.
    WalkedRay {
        vertex: u32,
        side: RaySide,
        target: Target,
        triangle: Option<u32>,
        t: f32,
        kind: RayKind,
        reason: Option<RejectReason>,
        from: u32,
        steps: u32,
    },
    /// The walk of `vertex`'s inner ray on `target` from `from` found no triangle after
    /// testing `steps` (§3.4.5, a lost ray); `stop` says why.
    LostRay {
        vertex: u32,
        target: Target,
        from: u32,
        steps: u32,
        stop: WalkStop,
    },
    /// A ray from vertex `vertex` of rigid body `body` against the cloth (volume → cloth,
    /// §4.3 a): its hit triangle of the cloth, raw length and class.
    VolumeRay {
        body: u32,
        vertex: u32,
        side: RaySide,
        triangle: Option<u32>,
        t: f32,
        kind: RayKind,
        reason: Option<RejectReason>,
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
            ClothEvent::Ray { target, .. }
            | ClothEvent::WalkedRay { target, .. }
            | ClothEvent::Inversion { target, .. }
            | ClothEvent::LostRay { target, .. } => target_bodies(target),
            ClothEvent::VolumeRay { body, .. } => vec![*body],
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
                let how = if *iterative { ", walked" } else { "" };
                let words = ray_words(*vertex, *side, target, *triangle, *t, *kind, *reason);
                format!("{words}{how}: {}", verdict.word())
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
            ClothEvent::WalkedRay {
                vertex,
                side,
                target,
                triangle,
                t,
                kind,
                reason,
                from,
                steps,
            } => {
                let words = ray_words(*vertex, *side, target, *triangle, *t, *kind, *reason);
                format!(
                    "{words}, walked from triangle {from} in {steps} tests: {}",
                    verdict.word()
                )
            }
            ClothEvent::LostRay {
                vertex,
                target,
                from,
                steps,
                stop,
            } => format!(
                "lost ray of vertex {vertex} on {}: the walk from triangle {from} stopped after \
                 {steps} tests ({}): {}",
                target_name(target),
                stop_words(*stop),
                verdict.word()
            ),
            ClothEvent::VolumeRay {
                body,
                vertex,
                side,
                triangle,
                t,
                kind,
                reason,
            } => {
                let hit = match triangle {
                    Some(tri) => format!("cloth triangle {tri} at {t:.4} m"),
                    None => "nothing of the cloth".into(),
                };
                let why = reason.map_or(String::new(), |r| format!(" ({r:?})"));
                format!(
                    "ray {side:?} of vertex {vertex} of body {body}: {hit}: {kind:?}{why}: {}",
                    verdict.word()
                )
            }
        }
    }
}

/// A cloth vertex's ray in words: its side, what it met and its class.
fn ray_words(
    vertex: u32,
    side: RaySide,
    target: &Target,
    triangle: Option<u32>,
    t: f32,
    kind: RayKind,
    reason: Option<RejectReason>,
) -> String {
    let hit = match triangle {
        Some(tri) => format!("triangle {tri} of {} at {t:.4} m", target_name(target)),
        None => format!("nothing of {}", target_name(target)),
    };
    let why = reason.map_or(String::new(), |r| format!(" ({r:?})"));
    format!("ray {side:?} of vertex {vertex}: {hit}: {kind:?}{why}")
}

fn stop_words(stop: WalkStop) -> &'static str {
    match stop {
        WalkStop::IterationCap => "its step cap ran out",
        WalkStop::Border => "it reached the border of an open mesh",
        WalkStop::Parallel => "the ray ran parallel to a triangle",
        WalkStop::BadStart => "its start triangle no longer exists",
    }
}

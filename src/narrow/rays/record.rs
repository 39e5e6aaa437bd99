//! One cast ray of the rigid ray-traced narrow phase as the trace records it: ids and
//! scalars only. Its origin and direction are the source vertex and that vertex's normal
//! (the viewer rebuilds them from the body's shape and the frame's pose), its hit point
//! follows from `t`. The type names say "rigid" because recorded names must be unique across
//! families, and the cloth records rays of its own.

use crate::raycast::WalkStop;
use crate::trace::BodyId;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RigidRaySide {
    /// Along the vertex normal's opposite, into the source: the collision ray.
    Inner,
    /// Along the vertex normal: the prediction ray.
    Outer,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RigidRayClass {
    Collision,
    Prediction,
    Rejected,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RigidRayReject {
    /// Hermann's first condition: the inner ray left the source before reaching the target
    /// (the target is nearer the vertex's other side, whose rays will find it).
    LeftSource,
    /// Hermann's second condition: the inner ray hit the outer side of a target face, so the
    /// vertex is not inside the target there.
    FrontFace,
    /// The outer ray hit the inside of a target face: the vertex is inside, and only its
    /// inner ray may say so.
    BackFace,
    /// Longer than the prediction distance `d_pred`.
    TooFar,
    /// No target triangle on the ray (within `d_pred` for an outer ray).
    NoHit,
}

/// How the ray's hit was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RigidRayCaster {
    /// Through the target's hierarchy.
    Complete,
    /// Walked from last step's triangle (the iterative cast).
    Walked,
    /// The walk stopped (the reason), then a complete cast found the hit.
    WalkFailed(WalkStop),
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RigidRay {
    pub source: BodyId,
    pub vertex: u32,
    pub target: BodyId,
    pub side: RigidRaySide,
    pub triangle: Option<u32>,
    /// The raw length along the unit ray, before re-projection; f32 because the debugger only
    /// draws it, and a frame holds up to two rays per vertex near a target.
    pub t: f32,
    pub class: RigidRayClass,
    pub reject: Option<RigidRayReject>,
    pub caster: RigidRayCaster,
}

impl RigidRay {
    pub fn summary(&self) -> String {
        let side = match self.side {
            RigidRaySide::Inner => "inner",
            RigidRaySide::Outer => "outer",
        };
        let hit = match self.triangle {
            Some(tri) => format!("triangle {tri} of body {} at {:.4} m", self.target, self.t),
            None => format!("nothing of body {}", self.target),
        };
        let why = self.reject.map_or(String::new(), |r| format!(" ({r:?})"));
        let how = match self.caster {
            RigidRayCaster::Complete => String::new(),
            RigidRayCaster::Walked => ", walked".into(),
            RigidRayCaster::WalkFailed(stop) => format!(", walk failed ({stop:?}), cast"),
        };
        format!(
            "{side} ray of body {} vertex {}: {hit}: {:?}{why}{how}",
            self.source, self.vertex, self.class
        )
    }
}

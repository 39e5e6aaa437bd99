//! What the ray-traced narrow phase keeps from one pass to the next: one ray result per
//! source vertex (§3.4.1: storage linear in the vertices, the nearest target only) and, per
//! body pair, the relative transform at its last complete cast (Eq. 4.2).

use super::record::RigidRayClass;
use crate::geom::{Pose, Quat, Real, Vec3};
use crate::raycast::{IterativeGate, rigid_max_displacement};
use std::collections::HashMap;

/// A vertex's kept ray: the collision, else the shortest prediction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kept {
    pub target: u32,
    pub triangle: u32,
    pub class: RigidRayClass,
    pub length: Real,
}

impl Kept {
    pub fn beats(&self, other: &Kept) -> bool {
        match (self.class, other.class) {
            (RigidRayClass::Collision, RigidRayClass::Prediction) => true,
            (RigidRayClass::Prediction, RigidRayClass::Collision) => false,
            _ => self.length < other.length,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct PairGate {
    translation: Vec3,
    rotation: Quat,
    seen: u64,
}

#[derive(Clone, Debug, Default)]
pub struct RayMemory {
    /// Last pass's kept rays, per body, per vertex: what walks start from.
    last: HashMap<u32, Vec<Option<Kept>>>,
    /// This pass's, filled pair by pair.
    next: HashMap<u32, Vec<Option<Kept>>>,
    gates: HashMap<(u32, u32), PairGate>,
    pass: u64,
}

impl RayMemory {
    pub fn kept(&self, body: u32, vertex: usize) -> Option<Kept> {
        self.last.get(&body)?.get(vertex).copied().flatten()
    }

    /// Offers this pass's result of one vertex; the better of it and the one already kept
    /// from another pair stays.
    pub fn offer(&mut self, body: u32, vertices: usize, vertex: usize, kept: Kept) {
        let slots = self
            .next
            .entry(body)
            .or_insert_with(|| vec![None; vertices]);
        if let Some(slot) = slots.get_mut(vertex)
            && slot.is_none_or(|old| kept.beats(&old))
        {
            *slot = Some(kept);
        }
    }

    /// Eq. 4.2 for pair `key` at relative pose `rel` (B in A's frame), `r_max` the larger
    /// body's radius: whether the walk may run. When it may not (moved too far, or a new
    /// pair), the pair casts completely and its reference transform is reset to `rel`.
    pub fn gate_allows(
        &mut self,
        key: (u32, u32),
        rel: &Pose,
        r_max: Real,
        gate: &IterativeGate,
    ) -> bool {
        let (translation, rotation) = (rel.translation.vector, rel.rotation);
        let pass = self.pass;
        let walk = self.gates.get_mut(&key).is_some_and(|g| {
            g.seen = pass;
            gate.allows(rigid_max_displacement(
                &g.translation,
                &g.rotation,
                &translation,
                &rotation,
                r_max,
            ))
        });
        if !walk {
            self.gates.insert(
                key,
                PairGate {
                    translation,
                    rotation,
                    seen: pass,
                },
            );
        }
        walk
    }

    /// Ends a pass over the broad phase's pairs: this pass's rays become the walks' starts,
    /// and pairs not handed over are forgotten.
    pub fn end_pass(&mut self) {
        self.last = std::mem::take(&mut self.next);
        let pass = self.pass;
        self.gates.retain(|_, g| g.seen == pass);
        self.pass += 1;
    }

    pub fn clear(&mut self) {
        *self = Self::default();
    }
}

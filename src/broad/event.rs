//! The broad phase's trace events.

use crate::geom::{Aabb, Real};
use crate::trace::FamilyEvent;
use crate::trace::{BodyId, DebugShape, DiffRole, ShapeRole, Verdict, axis_name};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BroadEvent {
    /// A broad-phase candidate pair with the boxes that made it one (or not).
    BroadPair {
        a: BodyId,
        b: BodyId,
        box_a: Aabb,
        box_b: Aabb,
    },
    /// Sweep and prune swapped two interval ends on an axis.
    SapSwap {
        axis: u8,
        a: BodyId,
        b: BodyId,
        value: Real,
    },
    /// A pair entered (`Hit`) or left (`Miss`) the persistent broad-phase pair set.
    PairChanged { a: BodyId, b: BodyId },
    /// A cell of a uniform grid or an octree and the bodies in it.
    SpatialCell {
        bounds: Aabb,
        depth: u8,
        bodies: Vec<BodyId>,
    },
}

impl FamilyEvent for BroadEvent {
    fn bodies(&self) -> Vec<BodyId> {
        use BroadEvent::*;
        match self {
            BroadPair { a, b, .. } | SapSwap { a, b, .. } | PairChanged { a, b } => vec![*a, *b],
            SpatialCell { bodies, .. } => bodies.clone(),
        }
    }

    fn summary(&self, verdict: Verdict) -> String {
        use BroadEvent::*;
        match self {
            BroadPair { a, b, .. } => format!("broad pair {a}–{b}: {}", verdict.word()),
            SapSwap { axis, a, b, value } => {
                format!("SAP swap on {} at {value:.3}: {a} ↔ {b}", axis_name(*axis))
            }
            PairChanged { a, b } => match verdict {
                Verdict::Hit => format!("pair {a}–{b} added"),
                _ => format!("pair {a}–{b} removed"),
            },
            SpatialCell { depth, bodies, .. } => {
                format!("cell at depth {depth} holds {} bodies", bodies.len())
            }
        }
    }

    fn shapes(&self, out: &mut Vec<DebugShape>) {
        match self {
            BroadEvent::BroadPair { box_a, box_b, .. } => {
                out.push(DebugShape::Box(*box_a, ShapeRole::First));
                out.push(DebugShape::Box(*box_b, ShapeRole::Second));
            }
            BroadEvent::SpatialCell { bounds, .. } => {
                out.push(DebugShape::Box(*bounds, ShapeRole::First))
            }
            BroadEvent::SapSwap { .. } | BroadEvent::PairChanged { .. } => {}
        }
    }

    fn diff_role(&self, verdict: Verdict) -> DiffRole {
        match self {
            BroadEvent::BroadPair { a, b, .. } if verdict == Verdict::Hit => {
                DiffRole::Pair { a: *a, b: *b }
            }
            _ => DiffRole::Event,
        }
    }

    fn heap_bytes(&self) -> usize {
        match self {
            BroadEvent::SpatialCell { bodies, .. } => bodies.len() * std::mem::size_of::<BodyId>(),
            _ => 0,
        }
    }
}

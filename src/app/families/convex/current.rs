//! What the view shows at one moment: the pair of bodies, where they are (recorded, or moved
//! by a live drag), the walk between them and the position in it. Everything else (panel,
//! overlay, inspector) reads this.

use super::draw::Scale;
use super::shapes::PosedShape;
use super::walk::Walk;
use crate::convex::Feature;
use crate::convex::closest::feature_distance;
use crate::geom::Real;
use crate::trace::BodyId;

pub struct Current {
    /// Index of the pair in the scene's list.
    pub pair: usize,
    pub a: PosedShape,
    pub b: PosedShape,
    pub walk: Walk,
    pub position: usize,
    /// The walk is a live re-run under a drag, not the recorded one.
    pub live: bool,
}

/// Which edge a clipping move clipped, against which side's region.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clipped {
    /// 0 when the edge is A's, 1 when B's.
    pub side: usize,
    pub edge: u32,
    pub interval: [f32; 2],
    /// The feature (of the other side) whose region the edge was clipped against.
    pub against: Feature,
}

impl Current {
    pub fn bodies(&self) -> [BodyId; 2] {
        [self.a.body, self.b.body]
    }

    pub fn features(&self) -> Option<[Feature; 2]> {
        self.walk.pair_at(self.position)
    }

    /// The pair the walk just left, if it moved into this position.
    pub fn previous(&self) -> Option<[Feature; 2]> {
        self.walk.move_into(self.position).map(|m| m.from)
    }

    pub fn at_end(&self) -> bool {
        self.position == self.walk.last()
    }

    /// The distance at every position: the start pair's measured here, the others as the
    /// engine reported them with each move.
    pub fn distances(&self) -> Vec<f64> {
        let (a, b) = (self.a.placed(), self.b.placed());
        let start = self.walk.pair_at(0).and_then(|[fa, fb]| {
            (a.shape.contains(fa) && b.shape.contains(fb)).then(|| feature_distance(&a, fa, &b, fb))
        });
        start
            .into_iter()
            .chain(self.walk.moves.iter().map(|m| m.distance as f64))
            .collect()
    }

    pub fn scale(&self) -> Scale {
        let size = self.a.shape.radius.max(self.b.shape.radius).max(1e-6);
        Scale { size: size as Real }
    }

    /// The edge the move into this position clipped. The side that moved owns the region;
    /// the clipped edge is the other side's, except when an edge-face move gives the edge
    /// way to one of its ends (then the edge itself moved and the face's region clipped it).
    pub fn clipped(&self) -> Option<Clipped> {
        let m = self.walk.move_into(self.position)?;
        let interval = m.clip?;
        let edge_side = match (m.from[0], m.from[1]) {
            (Feature::Edge(_), Feature::Edge(_)) => {
                if m.from[0] == m.to[0] {
                    0
                } else {
                    1
                }
            }
            (Feature::Edge(_), _) => 0,
            (_, Feature::Edge(_)) => 1,
            _ => return None,
        };
        let Feature::Edge(edge) = m.from[edge_side] else {
            return None;
        };
        Some(Clipped {
            side: edge_side,
            edge,
            interval,
            against: m.from[1 - edge_side],
        })
    }
}

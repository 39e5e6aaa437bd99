//! What the view shows at one moment: the pair of bodies, where they are (recorded, or moved
//! by a live drag), the walk between them and the position in it. Everything else (panel,
//! overlay, inspector) reads this.

use super::draw::Scale;
use super::gjk_steps::GjkSteps;
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
    /// GJK (and EPA) on the same pair at the same poses, and the step shown.
    pub gjk: GjkSteps,
    pub gjk_position: usize,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::families::convex::shapes::PosedShape;
    use crate::app::families::convex::walk::Move;
    use crate::convex::{Polyhedron, Reason};
    use crate::geom::{ConvexPolyhedron, Pose, Vec3};
    use Feature::*;
    use std::sync::Arc;

    fn at(from: [Feature; 2], to: [Feature; 2]) -> Current {
        let cube = Arc::new(
            Polyhedron::from_convex(&ConvexPolyhedron::cuboid(Vec3::new(0.5, 0.5, 0.5)))
                .expect("cube"),
        );
        let side = |body| PosedShape {
            body,
            shape: cube.clone(),
            pose: Pose::identity(),
        };
        let (a, b) = (side(0), side(1));
        let gjk = GjkSteps::rerun(&a, &b);
        Current {
            pair: 0,
            a,
            b,
            gjk,
            gjk_position: 0,
            walk: Walk {
                moves: vec![Move {
                    event: 0,
                    from,
                    to,
                    reason: Reason::DerivativeLow,
                    clip: Some([0.25, 0.75]),
                    distance: 1.0,
                }],
                end: None,
            },
            position: 1,
            live: false,
        }
    }

    #[test]
    fn the_clipped_edge_is_the_one_that_stayed_or_the_only_one() {
        // Edge–edge: A's edge gave way, so B's edge was clipped against A's edge's region.
        let c = at([Edge(1), Edge(2)], [Vertex(0), Edge(2)]).clipped();
        assert_eq!(
            c.map(|c| (c.side, c.edge, c.against)),
            Some((1, 2, Edge(1)))
        );
        // Vertex–edge: B's edge, against A's vertex's region.
        let c = at([Vertex(0), Edge(4)], [Edge(5), Edge(4)]).clipped();
        assert_eq!(
            c.map(|c| (c.side, c.edge, c.against)),
            Some((1, 4, Vertex(0)))
        );
        // Edge–face: the edge gives way to its end, clipped against the face's prism.
        let c = at([Edge(3), Face(1)], [Vertex(2), Face(1)]).clipped();
        assert_eq!(
            c.map(|c| (c.side, c.edge, c.against)),
            Some((0, 3, Face(1)))
        );
        assert_eq!(c.map(|c| c.interval), Some([0.25, 0.75]));
        // No edge, no clip.
        assert_eq!(
            at([Vertex(0), Face(1)], [Vertex(0), Edge(2)]).clipped(),
            None
        );
    }
}

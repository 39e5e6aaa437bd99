//! One V-Clip walk as the step view reads it: the moves between feature pairs (from the
//! recorded trace, or from a live re-run under a drag) and how it ended. Positions count
//! the moves taken: position 0 is the start pair, position k the pair after move k.

use crate::convex::{ConvexEvent, Feature, Outcome, Reason};
use crate::trace::{BodyId, EventKind, TraceEvent};

#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    /// Index of the event in its trace (the frame's, or the live run's).
    pub event: usize,
    pub from: [Feature; 2],
    pub to: [Feature; 2],
    pub reason: Reason,
    pub clip: Option<[f32; 2]>,
    /// Between the features of `to`.
    pub distance: f32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct End {
    pub event: usize,
    pub features: [Feature; 2],
    pub outcome: Outcome,
    pub distance: f64,
    pub iterations: u32,
    pub warm: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Walk {
    pub moves: Vec<Move>,
    pub end: Option<End>,
}

impl Walk {
    /// The walk between `bodies` in a trace (the last one, should a frame hold several).
    pub fn of_pair(trace: &[TraceEvent], bodies: [BodyId; 2]) -> Walk {
        let mut walk = Walk::default();
        for (i, e) in trace.iter().enumerate() {
            let EventKind::Convex(c) = &e.kind else {
                continue;
            };
            match c {
                ConvexEvent::Step {
                    bodies: b,
                    from,
                    to,
                    reason,
                    clip,
                    distance,
                } if *b == bodies => {
                    if walk.end.is_some() {
                        walk = Walk::default();
                    }
                    walk.moves.push(Move {
                        event: i,
                        from: *from,
                        to: *to,
                        reason: *reason,
                        clip: *clip,
                        distance: *distance,
                    });
                }
                ConvexEvent::End {
                    bodies: b,
                    features,
                    outcome,
                    distance,
                    iterations,
                    warm,
                } if *b == bodies => {
                    if walk.end.is_some() {
                        walk = Walk::default();
                    }
                    walk.end = Some(End {
                        event: i,
                        features: *features,
                        outcome: *outcome,
                        distance: *distance,
                        iterations: *iterations,
                        warm: *warm,
                    });
                }
                _ => {}
            }
        }
        walk
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty() && self.end.is_none()
    }

    /// The last position (after every move).
    pub fn last(&self) -> usize {
        self.moves.len()
    }

    /// The feature pair at a position.
    pub fn pair_at(&self, position: usize) -> Option<[Feature; 2]> {
        if position == 0 {
            return self
                .moves
                .first()
                .map(|m| m.from)
                .or(self.end.as_ref().map(|e| e.features));
        }
        self.moves.get(position - 1).map(|m| m.to)
    }

    /// The move that led to a position (none at the start).
    pub fn move_into(&self, position: usize) -> Option<&Move> {
        position.checked_sub(1).and_then(|k| self.moves.get(k))
    }

    /// The position a trace event stands for: a move's event is the position after it, the
    /// end's is the last position.
    pub fn position_of_event(&self, event: usize) -> Option<usize> {
        if let Some(k) = self.moves.iter().position(|m| m.event == event) {
            return Some(k + 1);
        }
        self.end
            .as_ref()
            .filter(|e| e.event == event)
            .map(|_| self.last())
    }

    /// The trace event that shows a position (the move into it; the end for the start of a
    /// walk with no moves).
    pub fn event_of_position(&self, position: usize) -> Option<usize> {
        match self.move_into(position) {
            Some(m) => Some(m.event),
            None if self.moves.is_empty() => self.end.as_ref().map(|e| e.event),
            None => self.moves.first().map(|m| m.event),
        }
    }

    /// How many times each feature pair was visited more than once: V-Clip never revisits
    /// (Lin–Canny would cycle on penetration), so anything here is worth a flag.
    pub fn revisits(&self) -> usize {
        let mut seen = std::collections::HashSet::new();
        (0..=self.last())
            .filter_map(|p| self.pair_at(p))
            .filter(|p| !seen.insert(*p))
            .count()
    }
}

/// The state of the walk (Fig. 1.24 of the spec): the kinds of the two features, in a
/// canonical order (V-F and F-V are one state).
pub fn state_name(pair: [Feature; 2]) -> &'static str {
    use crate::convex::FeatureKind::*;
    match (pair[0].kind(), pair[1].kind()) {
        (Vertex, Vertex) => "V-V",
        (Vertex, Edge) | (Edge, Vertex) => "V-E",
        (Edge, Edge) => "E-E",
        (Vertex, Face) | (Face, Vertex) => "V-F",
        (Edge, Face) | (Face, Edge) => "E-F",
        (Face, Face) => "F-F",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Verdict;
    use Feature::*;

    fn step(bodies: [u32; 2], from: [Feature; 2], to: [Feature; 2], d: f32) -> TraceEvent {
        TraceEvent::new(
            Verdict::Info,
            ConvexEvent::Step {
                bodies,
                from,
                to,
                reason: Reason::OutsideRegion,
                clip: None,
                distance: d,
            },
        )
    }

    fn end(bodies: [u32; 2], features: [Feature; 2]) -> TraceEvent {
        TraceEvent::new(
            Verdict::Miss,
            ConvexEvent::End {
                bodies,
                features,
                outcome: Outcome::Separated,
                distance: 0.5,
                iterations: 3,
                warm: false,
            },
        )
    }

    #[test]
    fn positions_follow_the_moves_of_one_pair() {
        let trace = vec![
            step([0, 1], [Vertex(0), Vertex(0)], [Vertex(0), Edge(2)], 2.0),
            step([2, 3], [Vertex(0), Vertex(0)], [Vertex(1), Vertex(0)], 9.0),
            step([0, 1], [Vertex(0), Edge(2)], [Face(1), Edge(2)], 1.0),
            end([2, 3], [Vertex(1), Vertex(0)]),
            end([0, 1], [Face(1), Edge(2)]),
        ];
        let w = Walk::of_pair(&trace, [0, 1]);
        assert_eq!(w.moves.len(), 2);
        assert_eq!(w.pair_at(0), Some([Vertex(0), Vertex(0)]));
        assert_eq!(w.pair_at(2), Some([Face(1), Edge(2)]));
        assert_eq!(w.pair_at(3), None);
        assert_eq!(w.position_of_event(2), Some(2));
        assert_eq!(w.position_of_event(4), Some(2));
        assert_eq!(w.position_of_event(1), None);
        assert_eq!(w.event_of_position(1), Some(0));
        assert_eq!(w.event_of_position(0), Some(0));
        assert_eq!(w.revisits(), 0);
        assert_eq!(state_name([Face(1), Edge(2)]), "E-F");
    }

    #[test]
    fn a_walk_with_no_moves_starts_where_it_ends() {
        let w = Walk::of_pair(&[end([0, 1], [Edge(3), Vertex(4)])], [0, 1]);
        assert_eq!(w.last(), 0);
        assert_eq!(w.pair_at(0), Some([Edge(3), Vertex(4)]));
        assert_eq!(w.event_of_position(0), Some(0));
    }
}

//! The broad phase of one frame as draw data: each body's world box (from the engine's
//! `Shape::aabb`), its interval on each axis, and the pairs whose boxes overlap (from the
//! engine's brute-force broad phase over those boxes, the oracle every algorithm matches),
//! marked where the recorded trace reports them too.

use crate::app::state::catalog::BodyCatalog;
use crate::app::viewport::draw_list::DrawList;
use crate::app::views::colors::{self, with_alpha};
use crate::broad::BroadPhase;
use crate::geom::{Aabb, Pose};
use crate::record::Frame;
use crate::trace::{BodyId, EventKind, NoProbe, TraceEvent, Verdict};
use crate::world::BroadPhaseKind;
use std::collections::BTreeSet;

/// The broad phase's input and output for one frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BroadSnapshot {
    /// Box of each body, by body id (`None` when the body has no shape here).
    pub boxes: Vec<Option<Aabb>>,
    /// Pairs whose boxes overlap, `(a, b)` with `a < b`, sorted.
    pub pairs: Vec<(BodyId, BodyId)>,
    /// Pairs the recorded trace reports as overlapping (broad-pair hits and pairs added).
    pub recorded: BTreeSet<(BodyId, BodyId)>,
}

impl BroadSnapshot {
    pub fn of(frame: &Frame, catalog: &BodyCatalog) -> Self {
        let n = frame
            .bodies
            .iter()
            .map(|b| b.id as usize + 1)
            .max()
            .unwrap_or(0);
        let mut boxes = vec![None; n];
        for b in &frame.bodies {
            if let Some(shape) = catalog.shapes.get(b.id as usize) {
                let pose = Pose::from_parts(b.position.coords.into(), b.rotation);
                boxes[b.id as usize] = Some(shape.aabb(&pose));
            }
        }
        let dense: Vec<Aabb> = boxes
            .iter()
            .map(|b| b.unwrap_or_else(|| Aabb::new([f64::NAN; 3].into(), [f64::NAN; 3].into())))
            .collect();
        let pairs = BroadPhase::new(BroadPhaseKind::BruteForce)
            .update(&dense, &mut NoProbe)
            .into_iter()
            .filter(|&(a, b)| boxes[a as usize].is_some() && boxes[b as usize].is_some())
            .collect();
        Self {
            boxes,
            pairs,
            recorded: recorded_pairs(&frame.trace),
        }
    }

    /// Bodies in at least one overlapping pair.
    pub fn paired(&self) -> BTreeSet<BodyId> {
        self.pairs.iter().flat_map(|&(a, b)| [a, b]).collect()
    }
}

/// Pairs the trace says overlap: a broad-pair test that hit, or a pair entering the
/// persistent set (sweep and prune reports only changes).
pub fn recorded_pairs(trace: &[TraceEvent]) -> BTreeSet<(BodyId, BodyId)> {
    trace
        .iter()
        .filter(|e| e.verdict == Verdict::Hit)
        .filter_map(|e| match e.kind {
            EventKind::Broad(crate::broad::BroadEvent::BroadPair { a, b, .. })
            | EventKind::Broad(crate::broad::BroadEvent::PairChanged { a, b }) => {
                Some((a.min(b), a.max(b)))
            }
            _ => None,
        })
        .collect()
}

/// Intervals `(body, lo, hi)` on one axis, sorted by their low end (sweep and prune's order).
pub fn axis_intervals(boxes: &[Option<Aabb>], axis: usize) -> Vec<(BodyId, f64, f64)> {
    let mut v: Vec<(BodyId, f64, f64)> = boxes
        .iter()
        .enumerate()
        .filter_map(|(i, b)| b.map(|b| (i as BodyId, b.min[axis], b.max[axis])))
        .filter(|(_, lo, hi)| lo.is_finite() && hi.is_finite())
        .collect();
    v.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    v
}

/// Lanes for intervals sorted by their low end: each goes in the first lane whose last
/// interval ended before it starts, so overlapping intervals never share a lane.
pub fn pack_lanes(intervals: &[(BodyId, f64, f64)]) -> Vec<usize> {
    let mut ends: Vec<f64> = Vec::new();
    intervals
        .iter()
        .map(|&(_, lo, hi)| match ends.iter().position(|&e| e < lo) {
            Some(l) => {
                ends[l] = hi;
                l
            }
            None => {
                ends.push(hi);
                ends.len() - 1
            }
        })
        .collect()
}

/// Every body's box: bodies in an overlapping pair coloured, the others faint, the
/// highlighted pair bright and filled.
pub fn draw(snapshot: &BroadSnapshot, highlight: Option<(BodyId, BodyId)>, out: &mut DrawList) {
    let paired = snapshot.paired();
    for (id, b) in snapshot.boxes.iter().enumerate() {
        let Some(b) = b else {
            continue;
        };
        let id = id as BodyId;
        let (color, fill) = match highlight {
            Some((x, _)) if x == id => (colors::FIRST, true),
            Some((_, y)) if y == id => (colors::SECOND, true),
            _ if paired.contains(&id) => (
                with_alpha(super::COLOR, 0.8),
                false,
            ),
            _ => ([0.6, 0.6, 0.65, 0.25], false),
        };
        out.aabb(b.min.coords.into(), b.max.coords.into(), color, fill);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::viewport::draw_list::{Style, Template};
    use crate::geom::Point3;

    fn b(lo: f64, hi: f64) -> Option<Aabb> {
        Some(Aabb::new(
            Point3::new(lo, 0.0, 0.0),
            Point3::new(hi, 1.0, 1.0),
        ))
    }

    #[test]
    fn lanes_never_hold_overlapping_intervals() {
        let boxes = vec![
            b(0.0, 2.0),
            b(1.0, 3.0),
            b(2.5, 4.0),
            None,
            b(5.0, 6.0),
            b(0.5, 0.7),
        ];
        let iv = axis_intervals(&boxes, 0);
        assert_eq!(
            iv.iter().map(|i| i.0).collect::<Vec<_>>(),
            vec![0, 5, 1, 2, 4]
        );
        let lanes = pack_lanes(&iv);
        for i in 0..iv.len() {
            for j in i + 1..iv.len() {
                let overlap = iv[i].1 <= iv[j].2 && iv[j].1 <= iv[i].2;
                if overlap {
                    assert_ne!(lanes[i], lanes[j], "{:?} {:?}", iv[i], iv[j]);
                }
            }
        }
        assert_eq!(lanes, vec![0, 1, 1, 0, 0], "greedy: the first lane free");
    }

    #[test]
    fn recorded_pairs_are_hits_and_additions_in_order() {
        let ev = |verdict, kind| TraceEvent::staged(crate::trace::Stage::BroadPhase, verdict, kind);
        let trace = vec![
            ev(
                Verdict::Hit,
                EventKind::Broad(crate::broad::BroadEvent::PairChanged { a: 5, b: 2 }),
            ),
            ev(
                Verdict::Miss,
                EventKind::Broad(crate::broad::BroadEvent::PairChanged { a: 1, b: 2 }),
            ),
            ev(
                Verdict::Hit,
                EventKind::Broad(crate::broad::BroadEvent::SapSwap {
                    axis: 0,
                    a: 3,
                    b: 4,
                    value: 0.0,
                }),
            ),
        ];
        assert_eq!(
            recorded_pairs(&trace).into_iter().collect::<Vec<_>>(),
            vec![(2, 5)]
        );
    }

    #[test]
    fn draws_every_box_and_fills_the_highlighted_pair() {
        let snapshot = BroadSnapshot {
            boxes: vec![b(0.0, 2.0), b(1.0, 3.0), None, b(7.0, 8.0)],
            pairs: vec![(0, 1)],
            recorded: BTreeSet::new(),
        };
        let mut out = DrawList::default();
        draw(&snapshot, Some((0, 1)), &mut out);
        assert_eq!(out.volume_count(Template::Cube, Style::Wire), 3);
        assert_eq!(out.volume_count(Template::Cube, Style::Translucent), 2);
    }
}

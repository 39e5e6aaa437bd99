//! Broad phase: from the bodies' boxes to the pairs worth a narrow-phase test.
//!
//! Four interchangeable algorithms behind one [`BroadPhase`], chosen per scene by
//! `BroadPhaseKind`: brute force (the oracle), sweep and prune on three axes with insertion
//! sort and a persistent pair set (I-Collide), a uniform grid, and an octree (spec 003 §2.5,
//! §2.10; spec 004 §3). All return exactly the pairs whose boxes intersect by
//! `Aabb::intersects` (touching counts), as `(a, b)` with `a < b`, sorted; body ids are indices
//! into the box slice.
//!
//! **Stray boxes.** A box with a non-finite coordinate or `min > max` on some axis cannot be
//! sorted or binned meaningfully; every algorithm tests such boxes against all the others with
//! `Aabb::intersects`, so even then the answer equals the brute force's.

mod brute;
mod event;
pub mod family;
mod grid;
mod octree;
mod overlap_count;
mod sap;
mod scenes;

pub use brute::BruteForce;
pub use event::BroadEvent;
pub use grid::UniformGrid;
pub use octree::Octree;
pub use overlap_count::overlapping_pairs_up_to;
pub use sap::SweepAndPrune;

use crate::geom::Aabb;
use crate::scene::BroadPhaseKind;
use crate::trace::{Probe, TraceEvent, Verdict};

/// What the last update did, for the viewer's counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BroadStats {
    /// Box–box intersection tests run.
    pub box_tests: u64,
    /// Sweep and prune: endpoint swaps made by the insertion sorts.
    pub swaps: u64,
    /// Grid / octree: cells (nodes) holding at least one box.
    pub cells: u64,
    /// Persistent pair set changes (sweep and prune).
    pub pairs_added: u64,
    pub pairs_removed: u64,
}

/// The broad phase a world calls each step.
#[derive(Clone, Debug)]
pub struct BroadPhase {
    kind: BroadPhaseKind,
    algorithm: Algorithm,
}

#[derive(Clone, Debug)]
enum Algorithm {
    Brute(BruteForce),
    Sap(SweepAndPrune),
    Grid(UniformGrid),
    Octree(Octree),
}

impl BroadPhase {
    pub fn new(kind: BroadPhaseKind) -> BroadPhase {
        let algorithm = match kind {
            BroadPhaseKind::BruteForce => Algorithm::Brute(BruteForce::default()),
            BroadPhaseKind::SweepAndPrune => Algorithm::Sap(SweepAndPrune::default()),
            BroadPhaseKind::Grid => Algorithm::Grid(UniformGrid::default()),
            BroadPhaseKind::Octree => Algorithm::Octree(Octree::default()),
        };
        BroadPhase { kind, algorithm }
    }

    pub fn kind(&self) -> BroadPhaseKind {
        self.kind
    }

    /// The pairs of boxes that intersect, `(a, b)` with `a < b`, sorted.
    pub fn update<P: Probe>(&mut self, boxes: &[Aabb], probe: &mut P) -> Vec<(u32, u32)> {
        match &mut self.algorithm {
            Algorithm::Brute(b) => b.update(boxes, probe),
            Algorithm::Sap(s) => s.update(boxes, probe),
            Algorithm::Grid(g) => g.update(boxes, probe),
            Algorithm::Octree(o) => o.update(boxes, probe),
        }
    }

    pub fn stats(&self) -> BroadStats {
        match &self.algorithm {
            Algorithm::Brute(b) => b.stats,
            Algorithm::Sap(s) => s.stats,
            Algorithm::Grid(g) => g.stats,
            Algorithm::Octree(o) => o.stats,
        }
    }
}

/// A box every algorithm can handle: finite, and not inverted on any axis.
pub(crate) fn is_regular(b: &Aabb) -> bool {
    (0..3).all(|i| b.min[i].is_finite() && b.max[i].is_finite() && b.min[i] <= b.max[i])
}

pub(crate) fn ordered(a: u32, b: u32) -> (u32, u32) {
    if a < b { (a, b) } else { (b, a) }
}

/// Tests a pair, reports it, and keeps it when the boxes intersect.
pub(crate) fn test_pair<P: Probe>(
    boxes: &[Aabb],
    a: u32,
    b: u32,
    stats: &mut BroadStats,
    probe: &mut P,
) -> bool {
    stats.box_tests += 1;
    let (ba, bb) = (&boxes[a as usize], &boxes[b as usize]);
    let hit = ba.intersects(bb);
    let (a, b) = ordered(a, b);
    crate::trace_event!(
        probe,
        TraceEvent::new(
            if hit { Verdict::Hit } else { Verdict::Miss },
            BroadEvent::BroadPair {
                a,
                b,
                box_a: boxes[a as usize],
                box_b: boxes[b as usize],
            }
        )
    );
    hit
}

/// Pairs involving stray boxes, tested against every other box.
pub(crate) fn stray_pairs<P: Probe>(
    boxes: &[Aabb],
    stats: &mut BroadStats,
    probe: &mut P,
    out: &mut Vec<(u32, u32)>,
) {
    let strays: Vec<u32> = (0..boxes.len() as u32)
        .filter(|&i| !is_regular(&boxes[i as usize]))
        .collect();
    for (k, &s) in strays.iter().enumerate() {
        for other in 0..boxes.len() as u32 {
            // Stray–stray pairs once: only with a later stray.
            let other_is_stray = !is_regular(&boxes[other as usize]);
            if other == s || (other_is_stray && strays[..=k].contains(&other)) {
                continue;
            }
            if test_pair(boxes, s, other, stats, probe) {
                out.push(ordered(s, other));
            }
        }
    }
}

/// Sorted, without duplicates.
pub(crate) fn finish(mut pairs: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

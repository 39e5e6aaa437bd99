//! Broad phases against the brute force: over random motion sequences (small moves, jumps,
//! boxes appearing and disappearing, touching boxes on a lattice, stray boxes with NaN or
//! inverted extents), every algorithm must return exactly the pairs of intersecting boxes.
//! The sweep and prune's events must tell the same story as its answers.
//!
//! Case counts scale with `COLLIDOSCOPE_TEST_SCALE` (default 1).

use crate::test_scale::scale;
use collidoscope::broad::{BroadPhase, Octree, SweepAndPrune, UniformGrid};
use collidoscope::geom::{Aabb, Point3, Vec3};
use collidoscope::trace::{EventKind, NoProbe, TraceRecorder, Verdict};
use collidoscope::world::BroadPhaseKind;
use proptest::prelude::*;
use std::collections::BTreeSet;

fn oracle(boxes: &[Aabb]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for a in 0..boxes.len() {
        for b in a + 1..boxes.len() {
            if boxes[a].intersects(&boxes[b]) {
                out.push((a as u32, b as u32));
            }
        }
    }
    out
}

const KINDS: [BroadPhaseKind; 4] = [
    BroadPhaseKind::BruteForce,
    BroadPhaseKind::SweepAndPrune,
    BroadPhaseKind::Grid,
    BroadPhaseKind::Octree,
];

/// A box on a half-unit lattice: integer inputs keep touching faces exactly touching.
fn lattice_box(c: [i32; 3], h: [i32; 3]) -> Aabb {
    let c = Point3::new(c[0] as f64, c[1] as f64, c[2] as f64) * 0.5;
    Aabb::from_center_half_extents(c, Vec3::new(h[0] as f64, h[1] as f64, h[2] as f64) * 0.5)
}

#[derive(Clone, Debug)]
enum Step {
    /// Every box moves by its own small step.
    Drift(Vec<[i32; 3]>),
    /// One box jumps far.
    Jump(usize, [i32; 3]),
    /// A box is added at the end.
    Add([i32; 3], [i32; 3]),
    /// A box is removed (the later ones shift down).
    Remove(usize),
    /// A box turns stray (NaN or inverted) for this step, then comes back.
    Stray(usize, bool),
}

fn arb_step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => prop::collection::vec(prop::array::uniform3(-1i32..=1), 40).prop_map(Step::Drift),
        1 => (0usize..40, prop::array::uniform3(-12i32..=12)).prop_map(|(i, c)| Step::Jump(i, c)),
        1 => (prop::array::uniform3(-8i32..=8), prop::array::uniform3(0i32..=3)).prop_map(|(c, h)| Step::Add(c, h)),
        1 => (0usize..40).prop_map(Step::Remove),
        1 => (0usize..40, any::<bool>()).prop_map(|(i, nan)| Step::Stray(i, nan)),
    ]
}

/// Initial boxes (centre, half extents on the half-unit lattice) and what happens next.
type Scene = (Vec<([i32; 3], [i32; 3])>, Vec<Step>);

fn arb_scene() -> impl Strategy<Value = Scene> {
    (
        prop::collection::vec(
            (
                prop::array::uniform3(-8i32..=8),
                prop::array::uniform3(0i32..=3),
            ),
            0..30,
        ),
        prop::collection::vec(arb_step(), 1..25),
    )
}

fn run_sequence(
    initial: &[([i32; 3], [i32; 3])],
    steps: &[Step],
    phases: &mut [BroadPhase],
) -> Result<(), TestCaseError> {
    let mut boxes: Vec<([i32; 3], [i32; 3])> = initial.to_vec();
    for (k, step) in steps.iter().enumerate() {
        let mut stray: Option<(usize, bool)> = None;
        match step {
            Step::Drift(moves) => {
                for (i, b) in boxes.iter_mut().enumerate() {
                    let m = moves[i % moves.len()];
                    b.0 = [b.0[0] + m[0], b.0[1] + m[1], b.0[2] + m[2]];
                }
            }
            Step::Jump(i, c) if !boxes.is_empty() => {
                let n = boxes.len();
                boxes[i % n].0 = *c;
            }
            Step::Add(c, h) => boxes.push((*c, *h)),
            Step::Remove(i) if !boxes.is_empty() => {
                let n = boxes.len();
                boxes.remove(i % n);
            }
            Step::Stray(i, nan) if !boxes.is_empty() => stray = Some((i % boxes.len(), *nan)),
            _ => {}
        }
        let mut aabbs: Vec<Aabb> = boxes.iter().map(|(c, h)| lattice_box(*c, *h)).collect();
        if let Some((i, nan)) = stray {
            if nan {
                aabbs[i].max.y = f64::NAN;
            } else {
                let b = &mut aabbs[i];
                (b.min.x, b.max.x) = (b.max.x + 1.0, b.min.x);
            }
        }
        let expected = oracle(&aabbs);
        for phase in phases.iter_mut() {
            let got = phase.update(&aabbs, &mut NoProbe);
            prop_assert_eq!(&got, &expected, "{:?} at step {}", phase.kind(), k);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300 * scale(), ..ProptestConfig::default() })]

    #[test]
    fn every_broad_phase_equals_brute_force((initial, steps) in arb_scene()) {
        let mut phases: Vec<BroadPhase> = KINDS.iter().map(|k| BroadPhase::new(*k)).collect();
        run_sequence(&initial, &steps, &mut phases)?;
    }

    /// Grids with tiny cells (boxes too large for the grid go to the all-pairs list), huge
    /// cells, and octrees that split at every second box.
    #[test]
    fn odd_parameters_still_equal_brute_force((initial, steps) in arb_scene(), cell in prop_oneof![Just(0.1), Just(0.5), Just(50.0)],
                                              max_objects in 1usize..4, max_depth in 0u8..6) {
        let boxes: Vec<Aabb> = initial.iter().map(|(c, h)| lattice_box(*c, *h)).collect();
        let expected = oracle(&boxes);
        prop_assert_eq!(UniformGrid::with_cell_size(cell).update(&boxes, &mut NoProbe), expected.clone());
        prop_assert_eq!(Octree::new(max_objects, max_depth).update(&boxes, &mut NoProbe), expected);
        let _ = steps;
    }

    /// The persistent pair set changes only by the PairChanged events the probe saw, and every
    /// swap is reported.
    #[test]
    fn sap_events_tell_what_changed((initial, steps) in arb_scene()) {
        let mut sap = SweepAndPrune::default();
        let mut previous: BTreeSet<(u32, u32)> = BTreeSet::new();
        let mut count = initial.len();
        let mut boxes: Vec<Aabb> = initial.iter().map(|(c, h)| lattice_box(*c, *h)).collect();
        for step in &steps {
            if let Step::Drift(moves) = step {
                for (i, b) in boxes.iter_mut().enumerate() {
                    let m = moves[i % moves.len()];
                    let d = Vec3::new(m[0] as f64, m[1] as f64, m[2] as f64) * 0.5;
                    *b = Aabb::new(b.min + d, b.max + d);
                }
            }
            if let Step::Add(c, h) = step {
                boxes.push(lattice_box(*c, *h));
            }
            if boxes.len() != count {
                // membership changed: a rebuild, still reported as changes
                count = boxes.len();
            }
            let mut rec = TraceRecorder::new(usize::MAX);
            let out: BTreeSet<(u32, u32)> = sap.update(&boxes, &mut rec).into_iter().collect();
            let mut replay = previous.clone();
            let mut swaps = 0;
            for e in &rec.events {
                match (&e.kind, e.verdict) {
                    (EventKind::Broad(collidoscope::broad::BroadEvent::PairChanged { a, b }), Verdict::Hit) => prop_assert!(replay.insert((*a, *b))),
                    (EventKind::Broad(collidoscope::broad::BroadEvent::PairChanged { a, b }), _) => prop_assert!(replay.remove(&(*a, *b))),
                    (EventKind::Broad(collidoscope::broad::BroadEvent::SapSwap { .. }), _) => swaps += 1,
                    _ => {}
                }
            }
            prop_assert_eq!(&replay, &out);
            prop_assert_eq!(swaps, sap.stats.swaps);
            previous = out;
        }
    }
}

/// Boxes packed face to face, edge to edge and corner to corner on a lattice: every
/// neighbour touches, and the grid's cell boundaries fall on the shared faces.
#[test]
fn touching_lattice() {
    let mut boxes = Vec::new();
    let mut cells: Vec<[i32; 3]> = Vec::new();
    for x in 0..5 {
        for y in 0..4 {
            for z in 0..3 {
                cells.push([x, y, z]);
                boxes.push(Aabb::new(
                    Point3::new(x as f64, y as f64, z as f64),
                    Point3::new(x as f64 + 1.0, y as f64 + 1.0, z as f64 + 1.0),
                ));
            }
        }
    }
    let expected = oracle(&boxes);
    // Lattice neighbours (26-neighbourhood) are exactly the touching pairs.
    let neighbours: Vec<(u32, u32)> = (0..cells.len())
        .flat_map(|i| (i + 1..cells.len()).map(move |j| (i, j)))
        .filter(|&(i, j)| (0..3).all(|k| (cells[i][k] - cells[j][k]).abs() <= 1))
        .map(|(i, j)| (i as u32, j as u32))
        .collect();
    assert_eq!(expected, neighbours);
    for kind in KINDS {
        assert_eq!(
            BroadPhase::new(kind).update(&boxes, &mut NoProbe),
            expected,
            "{kind:?}"
        );
    }
    assert_eq!(
        UniformGrid::with_cell_size(1.0).update(&boxes, &mut NoProbe),
        expected
    );
    assert_eq!(Octree::new(1, 10).update(&boxes, &mut NoProbe), expected);
}

/// Temporal coherence: small moves cost few swaps, far fewer than sorting from scratch.
#[test]
fn coherent_motion_costs_few_swaps() {
    let n = 400;
    let mut boxes: Vec<Aabb> = (0..n)
        .map(|i| {
            // distinct coordinates: ties would make every move pass the equal ends
            let c = Point3::new(
                (i % 20) as f64 * 3.0 + i as f64 * 1.3e-3,
                (i / 20) as f64 * 3.0 + i as f64 * 0.7e-3,
                ((i * 7) % 11) as f64,
            );
            Aabb::from_center_half_extents(c, Vec3::repeat(1.0))
        })
        .collect();
    let mut sap = SweepAndPrune::default();
    sap.update(&boxes, &mut NoProbe);
    for b in boxes.iter_mut().step_by(7) {
        *b = Aabb::new(
            b.min + Vec3::new(0.01, 0.0, 0.0),
            b.max + Vec3::new(0.01, 0.0, 0.0),
        );
    }
    let pairs = sap.update(&boxes, &mut NoProbe);
    assert_eq!(pairs, oracle(&boxes));
    assert!(sap.stats.swaps < n as u64, "{} swaps", sap.stats.swaps);
}

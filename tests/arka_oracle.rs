//! Arka3D oracles (spec 003 §2.16): the facet list against a brute-force neighbour check, the
//! routine's first hit against every facet of the board tested by dense sampling of the tested
//! segment and of the facet square, the switches that must not change the answer (space
//! division when the ball is small and slow enough, the distance early exit) and the one that
//! does (orientation culling, documented in `docs/arka3d.md`), recovery, and the scenarios'
//! cube and facet counts. The ablation run is in `arka_thesis.rs`.

use collidoscope::arka::board::{Board, CELLS, EMPTY, Facet, SIDE};
use collidoscope::arka::routine::{PassCounts, Switches, first_hit, tested_segment};
use collidoscope::arka::scenes::{easy_board, hard_board, intermediate_board};
use collidoscope::arka::sim::{ArkaSim, RECOVERY_MARKER};
use collidoscope::arka::{ArkaScene, BallDesc, Region, recovery};
use collidoscope::family::{FamilySim, StageClock, StepContext};
use collidoscope::frame::MarkerKind;
use collidoscope::geom::{Point3, Vec3};
use collidoscope::trace::NoProbe;
use proptest::prelude::*;
use std::collections::BTreeSet;

use crate::test_scale::scale;

fn cases(n: u32) -> ProptestConfig {
    ProptestConfig {
        cases: n * scale(),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------- the brute force ----------

/// Exposed facets by a neighbour check written from coordinates alone.
fn brute_exposed(cells: &[u8]) -> BTreeSet<(u16, u8)> {
    let solid = |x: i64, y: i64, z: i64| {
        let n = SIDE as i64;
        x >= 0 && y >= 0 && z >= 0 && x < n && y < n && z < n && {
            cells[(x + n * y + n * n * z) as usize] != EMPTY
        }
    };
    let dirs = [
        (1, 0, 0),
        (-1, 0, 0),
        (0, 1, 0),
        (0, -1, 0),
        (0, 0, 1),
        (0, 0, -1),
    ];
    let mut out = BTreeSet::new();
    for c in 0..CELLS {
        let (x, y, z) = (
            (c % SIDE) as i64,
            ((c / SIDE) % SIDE) as i64,
            (c / (SIDE * SIDE)) as i64,
        );
        if !solid(x, y, z) {
            continue;
        }
        for (f, (dx, dy, dz)) in dirs.iter().enumerate() {
            if !solid(x + dx, y + dy, z + dz) {
                out.insert((c as u16, f as u8));
            }
        }
    }
    out
}

/// One facet's square as a corner and its two edge vectors, from its cell and face alone.
fn square(f: &Facet) -> (Point3, usize, [usize; 2]) {
    let c = f.cell as usize;
    let base = Point3::new(
        (c % SIDE) as f64,
        ((c / SIDE) % SIDE) as f64,
        (c / (SIDE * SIDE)) as f64,
    );
    let axis = f.face as usize / 2;
    let mut corner = base;
    if f.face.is_multiple_of(2) {
        corner[axis] += 1.0;
    }
    let others = [[1, 2], [0, 2], [0, 1]][axis];
    (corner, axis, others)
}

/// The distance from `p` to the facet square, by a dense grid over the square.
fn sampled_distance(f: &Facet, p: &Point3) -> f64 {
    let (corner, _, [u, v]) = square(f);
    let n = 60;
    let mut best = f64::INFINITY;
    for i in 0..=n {
        for j in 0..=n {
            let mut q = corner;
            q[u] += i as f64 / n as f64;
            q[v] += j as f64 / n as f64;
            best = best.min((q - p).norm());
        }
    }
    best
}

const SAMPLES: usize = 20_000;

/// Where the sampled segment first changes side of the facet's plane (either way when
/// `both_ways`, else only from the front), and the region of the crossing: the region is
/// `None` when the crossing lies within the sampling error of a region border.
fn sampled_crossing(
    f: &Facet,
    a: &Point3,
    b: &Point3,
    r: f64,
    both_ways: bool,
) -> Option<Option<Region>> {
    let (corner, axis, [u, v]) = square(f);
    let normal_sign = if f.face.is_multiple_of(2) { 1.0 } else { -1.0 };
    let side = |p: &Point3| (p[axis] - corner[axis]) * normal_sign;
    let s0 = side(a);
    // A straight segment with both ends on one side never crosses: no need to sample it.
    if s0 == 0.0 || (!both_ways && s0 < 0.0) || s0 * side(b) > 0.0 {
        return None;
    }
    let step = (b - a) / SAMPLES as f64;
    let tol = 2.0 * step.norm() + 1e-9;
    for i in 1..=SAMPLES {
        let p = a + step * i as f64;
        if side(&p) * s0 <= 0.0 {
            let mut outside = 0;
            let mut near_border = false;
            for ax in [u, v] {
                let off = (p[ax] - (corner[ax] + 0.5)).abs();
                if off > 0.5 + r + tol {
                    return None;
                }
                near_border |= (off - 0.5).abs() <= tol || (off - 0.5 - r).abs() <= tol;
                if off > 0.5 {
                    outside += 1;
                }
            }
            let region = [Region::Face, Region::Edge, Region::Vertex][outside];
            return Some((!near_border).then_some(region));
        }
    }
    None
}

/// Every facet the sampled segment crosses in its grown square, with its sampled distance.
fn brute_hits(
    cells: &[u8],
    old: &Point3,
    new: &Point3,
    r: f64,
    both_ways: bool,
) -> Vec<(f64, Facet, Option<Region>)> {
    let Some((a, b)) = tested_segment(old, new, r) else {
        return Vec::new();
    };
    brute_exposed(cells)
        .into_iter()
        .map(|(cell, face)| Facet { cell, face })
        .filter_map(|f| {
            sampled_crossing(&f, &a, &b, r, both_ways)
                .map(|reg| (sampled_distance(&f, old), f, reg))
        })
        .collect()
}

/// The routine's answer agrees with the brute force: none when it finds none; otherwise a
/// facet whose sampled distance is the least among the hits (up to the sampling error), with
/// the same region unless the crossing sits on a border.
fn check_against_brute(
    cells: &[u8],
    old: &Point3,
    new: &Point3,
    r: f64,
    switches: Switches,
) -> Result<(), String> {
    let board = Board::new(cells.to_vec());
    let mut scratch = Vec::new();
    let got = first_hit(
        &board,
        old,
        new,
        r,
        switches,
        &mut scratch,
        &mut PassCounts::default(),
    );
    let hits = brute_hits(cells, old, new, r, !switches.orientation_culling);
    let grid_error = 1.0 / 60.0;
    match got {
        // A crossing on the grown square's outer border may go either way.
        None if hits.iter().all(|h| h.2.is_none()) => Ok(()),
        None => Err(format!("routine: none; brute force: {hits:?}")),
        Some(h) => {
            let Some(mine) = hits.iter().find(|(_, f, _)| *f == h.facet) else {
                return Err(format!(
                    "routine hit {h:?}, which the brute force does not: {hits:?}"
                ));
            };
            let least = hits
                .iter()
                .filter(|x| x.2.is_some())
                .map(|x| x.0)
                .fold(f64::INFINITY, f64::min);
            if mine.0 > least + grid_error {
                return Err(format!(
                    "routine hit {h:?} at {}, a hit is nearer: {hits:?}",
                    mine.0
                ));
            }
            match mine.2 {
                Some(region) if region != h.region => Err(format!(
                    "routine region {:?}, brute force {region:?}",
                    h.region
                )),
                _ => Ok(()),
            }
        }
    }
}

// ---------- generators ----------

fn arb_board() -> impl Strategy<Value = Vec<u8>> {
    (0.05..0.9f64, any::<u64>()).prop_map(|(density, seed)| {
        let mut s = seed | 1;
        (0..CELLS)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                u8::from((s % 1000) as f64 / 1000.0 < density)
            })
            .collect()
    })
}

/// A start anywhere in the board and a motion small enough for the 3×3×3 neighbourhood
/// (`|motion| + r(1 + √2) ≤ 1`), with the degenerate cases drawn often: a start on a cube's
/// edge or vertex, a motion parallel to a facet, no motion.
fn arb_motion() -> impl Strategy<Value = (Point3, Vec3, f64)> {
    let start = prop_oneof![
        prop::array::uniform3(0.0..10.0f64),
        prop::array::uniform3(0..=10i32).prop_map(|a| a.map(f64::from)),
        (prop::array::uniform3(0..=10i32), 0..3usize, 0.0..1.0f64).prop_map(|(a, ax, t)| {
            let mut p = a.map(f64::from);
            p[ax] += t;
            p
        }),
    ];
    let motion = prop_oneof![
        prop::array::uniform3(-1.0..1.0f64),
        (prop::array::uniform3(-1.0..1.0f64), 0..3usize).prop_map(|(mut m, ax)| {
            m[ax] = 0.0;
            m
        }),
        Just([0.0; 3]),
    ];
    (start, motion, 0.05..0.24f64, 0.0..0.4f64).prop_map(|(p, m, r, len)| {
        let m = Vec3::from(m);
        let m = if m.norm() > 0.0 {
            m.normalize() * len
        } else {
            m
        };
        (Point3::from(p), m, r)
    })
}

const ALL_ON: Switches = Switches {
    space_division: true,
    orientation_culling: true,
    distance_early_exit: true,
    frame_rate_step: false,
    single_precision: false,
};

proptest! {
    #![proptest_config(cases(24))]

    #[test]
    fn exposed_facets_match_a_brute_force_neighbour_check(cells in arb_board()) {
        let board = Board::new(cells.clone());
        let ours: BTreeSet<(u16, u8)> = board.facets.iter().map(|f| (f.cell, f.face)).collect();
        prop_assert_eq!(ours.len(), board.facets.len(), "a facet listed twice");
        prop_assert_eq!(ours, brute_exposed(&cells));
    }

    #[test]
    fn the_routine_finds_the_nearest_facet_hit_of_the_brute_force(
        cells in arb_board(), (p, m, r) in arb_motion()
    ) {
        check_against_brute(&cells, &p, &(p + m), r, ALL_ON).map_err(TestCaseError::fail)?;
    }

    /// Without culling, back-facing facets count too, and the routine still agrees with the
    /// brute force that tests crossings both ways.
    #[test]
    fn without_culling_the_routine_matches_the_both_ways_brute_force(
        cells in arb_board(), (p, m, r) in arb_motion()
    ) {
        let s = Switches { orientation_culling: false, ..ALL_ON };
        check_against_brute(&cells, &p, &(p + m), r, s).map_err(TestCaseError::fail)?;
    }
}

proptest! {
    #![proptest_config(cases(128))]

    /// Space division (for a ball small and slow enough) and the distance early exit are
    /// safe: switched off, the first hit is the same.
    #[test]
    fn space_division_and_early_exit_never_change_the_first_hit(
        cells in arb_board(), (p, m, r) in arb_motion()
    ) {
        let board = Board::new(cells);
        let new = p + m;
        let run = |s: Switches| {
            first_hit(&board, &p, &new, r, s, &mut Vec::new(), &mut PassCounts::default())
        };
        let reference = run(ALL_ON);
        prop_assert_eq!(run(Switches { space_division: false, ..ALL_ON }), reference);
        prop_assert_eq!(run(Switches { distance_early_exit: false, ..ALL_ON }), reference);
        let none = Switches { space_division: false, distance_early_exit: false, ..ALL_ON };
        prop_assert_eq!(run(none), reference);
    }

    /// The inside-cube recovery puts the centre outside every cube, at least `r` off the
    /// cube it left, and inside the box (never out through a wall), when that cube has a
    /// face opening onto an empty cell of the box.
    #[test]
    fn recovery_puts_a_ball_out_of_its_cube(
        cells in arb_board(), cell in 0..CELLS, t in prop::array::uniform3(0.0..1.0f64),
        r in 0.05..0.45f64,
    ) {
        let mut cells = cells;
        cells[cell] = 1;
        let c = [cell % SIDE, (cell / SIDE) % SIDE, cell / (SIDE * SIDE)];
        // An empty neighbour inside the box (x, y within the board, z from 0 to 16).
        let open = [(1i64, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
            .iter()
            .any(|&(dx, dy, dz)| {
                let n = [c[0] as i64 + dx, c[1] as i64 + dy, c[2] as i64 + dz];
                let in_board = n.iter().all(|&a| (0..SIDE as i64).contains(&a));
                let above = (0..SIDE as i64).contains(&n[0])
                    && (0..SIDE as i64).contains(&n[1])
                    && n[2] >= SIDE as i64;
                above || (in_board && cells[(n[0] + 10 * n[1] + 100 * n[2]) as usize] == EMPTY)
            });
        prop_assume!(open);
        let board = Board::new(cells);
        let p = Point3::new(c[0] as f64 + t[0], c[1] as f64 + t[1], c[2] as f64 + t[2]);
        let (to, _) =
            recovery::out_of_cube(&board, cell, &p, &Vec3::new(0.0, 0.0, -1.0), r, 16.0);
        prop_assert!(board.solid_cell_at(&to).is_none(), "still inside: {to:?}");
        prop_assert!(
            (0.0..=10.0).contains(&to.x) && (0.0..=10.0).contains(&to.y) && (0.0..=16.0).contains(&to.z),
            "out of the box: {to:?}"
        );
        let lo = Point3::new(c[0] as f64, c[1] as f64, c[2] as f64);
        let outside = (0..3).map(|a| (lo[a] - to[a]).max(to[a] - lo[a] - 1.0)).fold(f64::MIN, f64::max);
        prop_assert!(outside >= r, "only {outside} off the cube");
    }
}

// ---------- fixed cases ----------

fn one_cube() -> Vec<u8> {
    let mut cells = vec![0; CELLS];
    cells[5 + 10 * 5 + 100 * 5] = 1;
    cells
}

#[test]
fn facet_counts_of_the_thesis_examples() {
    let mut block = vec![0; CELLS];
    for (i, j, k) in (0..2).flat_map(|i| (0..2).flat_map(move |j| (0..2).map(move |k| (i, j, k)))) {
        block[i + 10 * j + 100 * k] = 1;
    }
    assert_eq!(
        Board::new(block).facets.len(),
        24,
        "Fig. 2.15: a 2×2×2 block"
    );
    let mut block = vec![0; CELLS];
    for (i, j, k) in (0..3).flat_map(|i| (0..3).flat_map(move |j| (0..3).map(move |k| (i, j, k)))) {
        block[i + 10 * j + 100 * k] = 1;
    }
    assert_eq!(
        Board::new(block).facets.len(),
        54,
        "a 3×3×3 block (the thesis says 64)"
    );
    let full = Board::new(hard_board(3));
    assert_eq!((full.cube_count(), full.facets.len()), (1000, 600));
    let slabs = Board::new(intermediate_board());
    assert_eq!((slabs.cube_count(), slabs.facets.len()), (144, 372));
    let easy = Board::new(easy_board());
    assert_eq!((easy.cube_count(), easy.facets.len()), (44, 6 * 30 + 2 * 6));
}

#[test]
fn face_edge_and_vertex_regions_of_one_facet() {
    let cells = one_cube();
    let board = Board::new(cells);
    let r = 0.3;
    let hit = |x: f64, y: f64| {
        let old = Point3::new(x, y, 6.5);
        first_hit(
            &board,
            &old,
            &Point3::new(x, y, 6.1),
            r,
            ALL_ON,
            &mut Vec::new(),
            &mut PassCounts::default(),
        )
    };
    let face = hit(5.5, 5.5).expect("straight down onto the top facet");
    assert_eq!((face.facet.face, face.region), (4, Region::Face));
    assert_eq!(hit(6.2, 5.5).expect("past one edge").region, Region::Edge);
    assert_eq!(hit(6.2, 6.2).expect("past a corner").region, Region::Vertex);
    assert!(hit(6.4, 5.5).is_none(), "beyond the grown square");
}

/// The documented difference: without culling a facet crossed from behind is hit (the ball
/// leaving the cube's plane beside it), which the thesis blames for scenario 5's errors.
#[test]
fn without_culling_a_facet_is_hit_from_behind() {
    let board = Board::new(one_cube());
    let (old, new) = (Point3::new(6.3, 5.5, 5.9), Point3::new(6.3, 5.5, 6.2));
    let run = |s: Switches| {
        first_hit(
            &board,
            &old,
            &new,
            0.4,
            s,
            &mut Vec::new(),
            &mut PassCounts::default(),
        )
    };
    assert!(run(ALL_ON).is_none());
    let h = run(Switches {
        orientation_culling: false,
        ..ALL_ON
    })
    .expect("hit from behind");
    assert_eq!((h.facet.face, h.region), (4, Region::Edge));
}

fn step_sim(sim: &mut ArkaSim, frame: u64) -> Vec<String> {
    let mut markers = Vec::new();
    let mut ctx = StepContext {
        bodies: &mut [],
        gravity: Vec3::zeros(),
        dt_s: 1.0 / 60.0,
        frame_index: frame,
        time_s: frame as f64 / 60.0,
        markers: &mut markers,
        stages: StageClock::start(3),
    };
    sim.step(&mut ctx, &mut NoProbe);
    markers
        .into_iter()
        .filter(|m| m.kind == MarkerKind::Other(RECOVERY_MARKER.into()))
        .map(|m| m.text)
        .collect()
}

#[test]
fn a_centre_inside_a_cube_is_recovered_with_a_marker() {
    let scene = ArkaScene {
        board: one_cube(),
        balls: vec![BallDesc {
            position: [2.0, 2.0, 2.0],
            velocity: [0.0, 0.0, 0.0],
            radius: 0.3,
        }],
        height: 16.0,
        switches: Switches::default(),
        paddle: None,
    };
    let mut sim = ArkaSim::new(&scene).expect("valid");
    sim.balls[0].position = Point3::new(5.5, 5.5, 5.9);
    sim.balls[0].velocity = Vec3::new(0.0, 0.0, -1.0);
    let markers = step_sim(&mut sim, 1);
    assert_eq!(sim.counters.inside_cube_recoveries, 1);
    assert_eq!(markers.len(), 1, "{markers:?}");
    assert!(sim.board.solid_cell_at(&sim.balls[0].position).is_none());
    assert!(
        sim.balls[0].position.z >= 6.3,
        "out through the top: {:?}",
        sim.balls[0].position
    );
    assert!(sim.balls[0].velocity.z > 0.0, "bounced out of the cube");
}

#[test]
fn untrusted_scene_data_is_refused_with_the_field_named() {
    let good = ArkaScene {
        board: one_cube(),
        balls: vec![BallDesc {
            position: [2.0, 2.0, 12.0],
            velocity: [0.0, 0.0, -1.0],
            radius: 0.3,
        }],
        height: 16.0,
        switches: Switches::default(),
        paddle: None,
    };
    assert!(good.validate().is_ok());
    let mut bad = good.clone();
    bad.board.push(0);
    assert!(bad.validate().unwrap_err().contains("board"));
    let mut bad = good.clone();
    bad.board[3] = 7;
    assert!(bad.validate().unwrap_err().contains("board[3]"));
    let mut bad = good.clone();
    bad.balls[0].radius = 0.5;
    assert!(bad.validate().unwrap_err().contains("balls[0].radius"));
    let mut bad = good.clone();
    bad.balls[0].velocity[1] = f64::NAN;
    assert!(bad.validate().unwrap_err().contains("balls[0].velocity"));
    let mut bad = good.clone();
    bad.balls[0].position = [5.5, 5.5, 5.5];
    assert!(bad.validate().unwrap_err().contains("inside the cube"));
    let mut bad = good;
    bad.height = f64::INFINITY;
    assert!(bad.validate().unwrap_err().contains("height"));
}

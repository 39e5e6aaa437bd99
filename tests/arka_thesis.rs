//! Arka3D under the thesis' conditions (spec 003 §2.16.3, §4.3): the paddle against an
//! independent sampling of its cut sphere, balls that stay inside the walls, the two switches
//! that bring back the thesis' causes of error (a frame-rate-dependent step, single
//! precision), and the ablation table of every scenario with them off and on
//! (`arka_ablation_table`, printed with --nocapture; docs/arka3d.md holds its numbers).

use collidoscope::arka::board::Board;
use collidoscope::arka::paddle::{PaddleDesc, collide};
use collidoscope::arka::scenes::scenario_switches;
use collidoscope::arka::sim::ArkaSim;
use collidoscope::arka::{ArkaCounters, ArkaScene, BallDesc, Switches};
use collidoscope::families::{FamilyFrameData, FamilySceneData};
use collidoscope::family::{FamilySim, StageClock, StepContext};
use collidoscope::geom::{Point3, Vec3};
use collidoscope::trace::NoProbe;
use collidoscope::world::{Scene, World, builtin_scene, builtin_scenes};
use proptest::prelude::*;

use crate::test_scale::scale;

// ---------- the paddle against a sampled cut sphere ----------

fn arb_paddle() -> impl Strategy<Value = PaddleDesc> {
    (0.5..4.0f64, 0.05..1.0f64, 1.0..9.0f64, 1.0..9.0f64).prop_map(|(radius, h, x, y)| PaddleDesc {
        plane_z: 15.0,
        sphere_radius: radius,
        cap_height: h * radius,
        start: [x, y],
        speed: 5.0,
    })
}

/// Eq. (3) as written (with our −z forward): inside the sphere and on the cap's side of the
/// plane.
fn in_paddle(d: &PaddleDesc, p: &Point3) -> bool {
    let c = Point3::new(
        d.start[0],
        d.start[1],
        d.plane_z + d.sphere_radius - d.cap_height,
    );
    (p - c).norm() <= d.sphere_radius && p.z <= d.plane_z
}

/// The distance from `p` to the paddle by a dense sampling of its surface: the spherical
/// cap by polar and azimuth angle, the flat disc by radius and angle.
fn sampled_distance(d: &PaddleDesc, p: &Point3) -> f64 {
    if in_paddle(d, p) {
        return 0.0;
    }
    let big_r = d.sphere_radius;
    let c = Point3::new(d.start[0], d.start[1], d.plane_z + big_r - d.cap_height);
    let rim_polar = ((big_r - d.cap_height) / big_r).acos();
    let n = 160;
    let mut best = f64::INFINITY;
    for i in 0..=n {
        for j in 0..n {
            let az = j as f64 / n as f64 * std::f64::consts::TAU;
            let polar = rim_polar * i as f64 / n as f64;
            let on_cap = c + Vec3::new(
                big_r * polar.sin() * az.cos(),
                big_r * polar.sin() * az.sin(),
                -big_r * polar.cos(),
            );
            let rho = big_r * rim_polar.sin() * i as f64 / n as f64;
            let on_disc = Point3::new(c.x + rho * az.cos(), c.y + rho * az.sin(), d.plane_z);
            best = best.min((on_cap - p).norm()).min((on_disc - p).norm());
        }
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48 * scale(), failure_persistence: None, ..ProptestConfig::default() })]

    /// The nearest point of the paddle is on the paddle and as near as the sampled surface
    /// (up to the sampling's spacing).
    #[test]
    fn the_paddle_nearest_point_matches_a_sampled_cut_sphere(
        d in arb_paddle(), p in prop::array::uniform3(-2.0..12.0f64), z in 9.0..18.0f64,
    ) {
        let p = Point3::new(p[0], p[1], z);
        let q = d.closest_point(d.start, &p);
        let ours = (q - p).norm();
        let sampled = sampled_distance(&d, &p);
        let spacing = d.sphere_radius * std::f64::consts::TAU / 160.0;
        prop_assert!(ours <= sampled + 1e-9, "ours {ours} > sampled {sampled}");
        prop_assert!(ours >= sampled - spacing, "ours {ours}, sampled {sampled}");
        // The point returned belongs to the paddle (within rounding).
        let c = d.sphere_centre(d.start);
        prop_assert!((q - c).norm() <= d.sphere_radius + 1e-9 && q.z <= d.plane_z + 1e-9);
    }

    /// A bounce keeps the speed, always sends the ball toward the board, and only a ball
    /// moving toward the open side within `r` of the paddle is bounced.
    #[test]
    fn the_paddle_bounces_forward_only_and_keeps_the_speed(
        d in arb_paddle(), off in prop::array::uniform2(-3.0..3.0f64), z in 13.0..15.5f64,
        v in prop::array::uniform3(-5.0..5.0f64), r in 0.05..0.45f64,
    ) {
        let p = Point3::new(d.start[0] + off[0], d.start[1] + off[1], z);
        let v = Vec3::from(v);
        prop_assume!(v.norm() > 1e-3);
        let near = sampled_distance(&d, &p);
        match collide(&d, d.start, &p, &v, r) {
            Some(hit) => {
                prop_assert!(v.z > 0.0, "a ball moving toward the board was bounced");
                prop_assert!(near <= r + 1e-9, "bounced from {near} away (r = {r})");
                prop_assert!(hit.velocity.z < 0.0, "not sent forward: {:?}", hit.velocity);
                prop_assert!((hit.velocity.norm() - v.norm()).abs() < 1e-9 * v.norm().max(1.0));
            }
            None => {
                let spacing = d.sphere_radius * std::f64::consts::TAU / 160.0;
                let approaching = (p - d.closest_point(d.start, &p)).dot(&v) < 0.0;
                prop_assert!(
                    v.z <= 0.0 || near > r - spacing || !approaching,
                    "missed a ball {near} away moving {v:?}"
                );
            }
        }
    }
}

#[test]
fn the_paddle_bounces_like_a_wall_at_its_centre_and_deflects_at_its_rim() {
    let d = PaddleDesc {
        plane_z: 15.0,
        sphere_radius: 2.5,
        cap_height: 0.6,
        start: [5.0, 5.0],
        speed: 0.0,
    };
    let v = Vec3::new(0.0, 0.0, 3.0);
    let tip = 15.0 - 0.6;
    let centre = collide(&d, d.start, &Point3::new(5.0, 5.0, tip - 0.2), &v, 0.3).expect("hit");
    assert!((centre.velocity - Vec3::new(0.0, 0.0, -3.0)).norm() < 1e-12);
    let mid = collide(&d, d.start, &Point3::new(5.8, 5.0, 14.3), &v, 0.3).expect("hit");
    let rim = collide(&d, d.start, &Point3::new(6.5, 5.0, 14.8), &v, 0.3).expect("hit");
    assert!(
        0.0 < mid.velocity.x && mid.velocity.x < rim.velocity.x,
        "{mid:?} {rim:?}"
    );
    assert!(
        collide(&d, d.start, &Point3::new(5.0, 5.0, tip - 0.2), &-v, 0.3).is_none(),
        "a ball moving toward the board is not tested"
    );
}

// ---------- the walls ----------

fn arka_of(scene: &Scene) -> &ArkaScene {
    scene
        .families
        .iter()
        .find_map(|d| match d {
            FamilySceneData::Arka(s) => Some(s),
            _ => None,
        })
        .expect("an arka scene")
}

fn step(sim: &mut ArkaSim, frame: u64) {
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
}

/// The regression of the balls seen outside the board: a fast ball about to cross a wall
/// ended the step with its centre outside the box (the wall only flipped the velocity).
#[test]
fn a_ball_crossing_a_wall_ends_the_step_inside_the_box() {
    let scene = ArkaScene {
        board: vec![0; 1000],
        balls: vec![BallDesc {
            position: [0.3, 5.0, 12.0],
            velocity: [-30.0, 0.0, 0.0],
            radius: 0.2,
        }],
        height: 16.0,
        switches: Switches::default(),
        paddle: None,
    };
    let mut sim = ArkaSim::new(&scene).expect("valid");
    step(&mut sim, 1);
    let x = sim.balls[0].position.x;
    assert!((0.2..=9.8).contains(&x), "centre at x = {x}");
    assert!(sim.balls[0].velocity.x > 0.0, "bounced back");
}

/// Every built-in Arka3D scene: after every step, every ball lies wholly inside the walls.
#[test]
fn balls_stay_inside_the_walls_in_every_arka_scene() {
    for (name, _) in builtin_scenes()
        .into_iter()
        .filter(|(n, _)| n.starts_with("arka-"))
    {
        let scene = builtin_scene(name).expect("built in");
        let data = arka_of(&scene).clone();
        let hi = [10.0, 10.0, data.height];
        let mut world = World::new(scene).expect("valid");
        for _ in 0..600 * scale() {
            let frame = world.step(&mut NoProbe);
            for f in &frame.families {
                let FamilyFrameData::Arka(f) = f else {
                    continue;
                };
                for (b, s) in f.balls.iter().enumerate() {
                    let r = data.balls[b].radius;
                    for (axis, top) in hi.into_iter().enumerate() {
                        let c = s.position[axis];
                        assert!(
                            c >= r - 1e-5 && c <= top - r + 1e-5,
                            "{name} frame {}: ball {b} at {:?} crosses a wall",
                            frame.index,
                            s.position
                        );
                    }
                }
            }
        }
    }
}

/// A scene's bodies are none: the kinetic energy is an empty sum, +0 (it printed -0.0000).
#[test]
fn the_kinetic_energy_of_no_body_is_positive_zero() {
    let mut world = World::new(builtin_scene("arka-1-easy").expect("built in")).expect("valid");
    let first = world.initial_frame();
    let next = world.step(&mut NoProbe);
    for e in [
        first.counters.kinetic_energy_j,
        next.counters.kinetic_energy_j,
    ] {
        assert_eq!(e.to_bits(), 0.0f64.to_bits(), "{e:?}");
        assert_eq!(format!("{e:.4}"), "0.0000");
    }
}

// ---------- the thesis' causes of error as switches ----------

/// What a run gives: the summed counters, the longest step and the simulated time (s).
struct Run {
    totals: ArkaCounters,
    longest: f64,
    simulated: f64,
}

/// Runs scenario `n` (1–6) with the two thesis switches as given, for `frames` steps; no
/// frame may end with a centre inside a cube.
fn run(n: u8, clock: bool, single: bool, frames: u64) -> Run {
    let name = match n {
        1 => "arka-1-easy",
        2 => "arka-2-intermediate",
        _ => "arka-3-hard",
    };
    let mut scene = builtin_scene(name).expect("built in");
    for d in &mut scene.families {
        if let FamilySceneData::Arka(s) = d {
            let base = if n >= 3 {
                scenario_switches(n)
            } else {
                s.switches
            };
            s.switches = Switches {
                frame_rate_step: clock,
                single_precision: single,
                ..base
            };
        }
    }
    let data = arka_of(&scene).clone();
    let mut world = World::new(scene).expect("valid");
    let (mut totals, mut longest, mut simulated) = (ArkaCounters::default(), 0.0f64, 0.0);
    for _ in 0..frames {
        let frame = world.step(&mut NoProbe);
        for f in &frame.families {
            if let FamilyFrameData::Arka(f) = f {
                totals.add(&f.counters);
                longest = longest.max(f.step_s);
                simulated += f.step_s;
                let board = Board::new(f.board_cells(&data));
                for b in &f.balls {
                    assert!(
                        board.solid_cell_at(&b.position).is_none(),
                        "scenario {n}: frame {} ends with a centre in a cube",
                        frame.index
                    );
                }
            }
        }
    }
    Run {
        totals,
        longest,
        simulated,
    }
}

/// The frame-rate clock makes scenario 4's steps long (its slow frames) and brings its
/// recoveries; with the fixed step it makes none.
#[test]
fn the_frame_rate_step_brings_scenario_4_recoveries_and_the_fixed_step_none() {
    let frames = 600;
    let off = run(4, false, false, frames);
    assert_eq!(off.totals.recoveries(), 0);
    assert!((off.longest - 1.0 / 60.0).abs() < 1e-12);
    let on = run(4, true, false, frames);
    assert!(on.longest > 0.25, "longest step {} s", on.longest);
    assert!(on.totals.recoveries() > 0, "{:?}", on.totals);
}

/// The clock prices scenario 3's small work below a 1/60 s frame: its steps stay short.
#[test]
fn the_frame_rate_step_leaves_scenario_3_at_sixty_hertz() {
    let r = run(3, true, false, 600);
    assert!(r.longest < 0.05, "longest step {} s", r.longest);
}

/// Single precision is wired through the routine (scenario 3's run takes another course)
/// yet makes no recovery: our margins are the radius, far above a float's rounding
/// (docs/arka3d.md).
#[test]
fn single_precision_changes_the_run_but_brings_no_recovery() {
    let double = run(3, false, false, 1200);
    let single = run(3, false, true, 1200);
    assert_ne!(double.totals, single.totals, "f32 changed nothing");
    assert_eq!(single.totals.recoveries(), 0);
}

fn ablation_frames() -> u64 {
    3600 * scale() as u64
}

/// Every scenario, with the thesis' two switches off, each on, and both: recoveries beside
/// the thesis' Fig. 3.15, the facets per step (Figs. 3.13–3.14), the bounces, the paddle's.
/// docs/arka3d.md holds the table this prints.
#[test]
fn arka_ablation_table() {
    let frames = ablation_frames();
    println!(
        "scenario | switches | recoveries (inside + same-facet) | thesis | preselected / tested per step | bounces face + corner | paddle bounces, misses | longest step (ms) | simulated (s) | recoveries per simulated minute"
    );
    for (n, thesis) in [(1u8, 0), (2, 0), (3, 1), (4, 61), (5, 18), (6, 5)] {
        for (clock, single) in [(false, false), (true, false), (false, true), (true, true)] {
            let Run {
                totals: t,
                longest,
                simulated,
            } = run(n, clock, single, frames);
            let per = |x: u32| x as f64 / frames as f64;
            println!(
                "{n} | {}{} | {} ({} + {}) | {thesis} | {:.1} / {:.1} | {} + {} | {}, {} | {:.0} | {:.0} | {:.1}",
                if clock { "clock " } else { "" },
                if single {
                    "f32"
                } else if clock {
                    ""
                } else {
                    "fixed, f64"
                },
                t.recoveries(),
                t.inside_cube_recoveries,
                t.same_facet_recoveries,
                per(t.preselected),
                per(t.treated),
                t.face_bounces,
                t.corner_bounces,
                t.paddle_bounces,
                t.paddle_misses,
                longest * 1e3,
                simulated,
                t.recoveries() as f64 / (simulated / 60.0),
            );
        }
    }
}

//! Annex I's simulator (issue 29): the Table I.8 mass–spring systems against a fine RK4
//! integration of the same equations written here, their momentum and energy; the contact
//! time found by bisection against the kinematics of the step; the impulse against the
//! formula; the four-spring sheet's sag against m g / (4 k); and the demo's bodies turning.

// The reference integrator indexes its state arrays the way the equations are written.
#![allow(clippy::needless_range_loop)]

use collidoscope::families::{FamilyFrameData, FamilySceneData};
use collidoscope::geom::{Point3, Quat, Vec3};
use collidoscope::nurbs::annex_table::{self, TableRow, rows};
use collidoscope::nurbs::rigid::RigidState;
use collidoscope::nurbs::scenes::corner_springs;
use collidoscope::nurbs::shapes::{plane, sphere};
use collidoscope::nurbs::{HitMode, Motion, NurbsBody, NurbsFrame, NurbsScene};
use collidoscope::trace::NoProbe;
use collidoscope::world::{BroadPhaseKind, Scene, World, builtin_scene};

// --- an independent integrator of the two-cube system ------------------------------------

/// The state of one cube: position, velocity, orientation (w, x, y, z), angular velocity.
type Cube = [f64; 13];

fn rotate(q: &[f64], p: [f64; 3]) -> [f64; 3] {
    // p' = p + 2 w (u × p) + 2 u × (u × p), u = (x, y, z).
    let (w, u) = (q[0], [q[1], q[2], q[3]]);
    let c = |a: [f64; 3], b: [f64; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let t = c(u, p);
    let t2 = c(u, t);
    [0, 1, 2].map(|k| p[k] + 2.0 * w * t[k] + 2.0 * t2[k])
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Derivatives of both cubes (mass 1, identity inertia, so ω̇ = τ).
fn derivative(row: &TableRow, s: &[Cube; 2]) -> [Cube; 2] {
    let end = |c: &Cube, local: Point3| {
        let r = rotate(&c[6..10], [local.x, local.y, local.z]);
        let v = cross([c[10], c[11], c[12]], r);
        (
            r,
            [0, 1, 2].map(|k| c[k] + r[k]),
            [0, 1, 2].map(|k| c[3 + k] + v[k]),
        )
    };
    let (r1, p1, v1) = end(&s[0], row.attach_1);
    let (r2, p2, v2) = end(&s[1], row.attach_2);
    let d = [0, 1, 2].map(|k| p2[k] - p1[k]);
    let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    let dir = d.map(|x| x / len);
    let dv = [0, 1, 2].map(|k| v2[k] - v1[k]);
    let mag = row.stiffness * (len - row.rest)
        + row.damping * (dv[0] * dir[0] + dv[1] * dir[1] + dv[2] * dir[2]);
    let f = dir.map(|x| x * mag);
    let mut out = [[0.0; 13]; 2];
    for (i, (c, r, sign)) in [(&s[0], r1, 1.0), (&s[1], r2, -1.0)]
        .into_iter()
        .enumerate()
    {
        let fi = f.map(|x| x * sign);
        let tau = cross(r, fi);
        let (w, q) = ([c[10], c[11], c[12]], [c[6], c[7], c[8], c[9]]);
        // q̇ = ½ (0, ω) q.
        let dq = [
            -0.5 * (w[0] * q[1] + w[1] * q[2] + w[2] * q[3]),
            0.5 * (w[0] * q[0] + w[1] * q[3] - w[2] * q[2]),
            0.5 * (w[1] * q[0] + w[2] * q[1] - w[0] * q[3]),
            0.5 * (w[2] * q[0] + w[0] * q[2] - w[1] * q[1]),
        ];
        out[i][..3].copy_from_slice(&c[3..6]);
        out[i][3..6].copy_from_slice(&fi);
        out[i][6..10].copy_from_slice(&dq);
        out[i][10..13].copy_from_slice(&tau);
    }
    out
}

fn rk4(row: &TableRow, s: &mut [Cube; 2], h: f64) {
    let add = |s: &[Cube; 2], d: &[Cube; 2], k: f64| {
        let mut o = *s;
        for i in 0..2 {
            for j in 0..13 {
                o[i][j] += k * d[i][j];
            }
        }
        o
    };
    let k1 = derivative(row, s);
    let k2 = derivative(row, &add(s, &k1, h / 2.0));
    let k3 = derivative(row, &add(s, &k2, h / 2.0));
    let k4 = derivative(row, &add(s, &k3, h));
    for i in 0..2 {
        for j in 0..13 {
            s[i][j] += h / 6.0 * (k1[i][j] + 2.0 * k2[i][j] + 2.0 * k3[i][j] + k4[i][j]);
        }
        let n = (6..10).map(|j| s[i][j] * s[i][j]).sum::<f64>().sqrt();
        for j in 6..10 {
            s[i][j] /= n;
        }
    }
}

fn reference_start() -> [Cube; 2] {
    let mut s = [[0.0; 13]; 2];
    s[0][0] = -1.0;
    s[1][0] = 1.0;
    s[0][6] = 1.0;
    s[1][6] = 1.0;
    s
}

fn engine_run(row: &TableRow, h: f64, steps: usize) -> Vec<[RigidState; 2]> {
    let mut s = annex_table::start();
    let mut out = vec![s];
    for _ in 0..steps {
        annex_table::step(row, &mut s, h);
        out.push(s);
    }
    out
}

/// The spring's length between the world attach points.
fn length(row: &TableRow, s: &[RigidState; 2]) -> f64 {
    (s[1].world_point(&row.attach_2) - s[0].world_point(&row.attach_1)).norm()
}

#[test]
fn table_i8_follows_a_fine_rk4_integration_of_the_same_equations() {
    for k50 in [annex_table::K_READ, 50.0] {
        for row in rows(k50) {
            let (h, seconds) = (1e-4, 3.0);
            let steps = (seconds / h) as usize;
            let engine = engine_run(&row, h, steps);
            let mut r = reference_start();
            let fine = 10;
            let mut worst: f64 = 0.0;
            for (n, e) in engine.iter().enumerate().skip(1) {
                for _ in 0..fine {
                    rk4(&row, &mut r, h / fine as f64);
                }
                if n % 100 != 0 {
                    continue;
                }
                for i in 0..2 {
                    let p = Vec3::new(r[i][0], r[i][1], r[i][2]);
                    worst = worst.max((e[i].x.coords - p).norm());
                    let q = Quat::new_normalize(nalgebra::Quaternion::new(
                        r[i][6], r[i][7], r[i][8], r[i][9],
                    ));
                    worst = worst.max(e[i].q.angle_to(&q));
                }
            }
            // Euler's error is first order: h = 1e-4 over 3 s of oscillation.
            assert!(
                worst < 2e-3,
                "k {k50} system {}: off by {worst}",
                row.system
            );
        }
    }
}

#[test]
fn table_i8_keeps_momentum_and_damping_only_loses_energy() {
    for row in rows(annex_table::K_READ) {
        let h = 1e-4;
        let run = engine_run(&row, h, 40_000);
        let m = annex_table::cube_mass();
        let momentum = |s: &[RigidState; 2]| s[0].v + s[1].v;
        let angular = |s: &[RigidState; 2]| {
            collidoscope::nurbs::rigid::angular_momentum(&s[0], &m)
                + collidoscope::nurbs::rigid::angular_momentum(&s[1], &m)
        };
        let energy = |s: &[RigidState; 2]| {
            let stretch = length(&row, s) - row.rest;
            0.5 * row.stiffness * stretch * stretch
                + s.iter()
                    .map(|b| 0.5 * b.v.norm_squared() + 0.5 * b.w.norm_squared())
                    .sum::<f64>()
        };
        let e0 = energy(&run[0]);
        let mut last = e0;
        for s in run.iter().step_by(200) {
            assert!(
                momentum(s).norm() < 1e-9,
                "system {}: momentum {}",
                row.system,
                momentum(s)
            );
            assert!(
                angular(s).norm() < 5e-4,
                "system {}: angular momentum {}",
                row.system,
                angular(s)
            );
            let e = energy(s);
            if row.damping > 0.0 {
                assert!(
                    e <= last + 1e-9,
                    "system {}: energy rose {last} -> {e}",
                    row.system
                );
            } else {
                assert!(
                    (e - e0).abs() < 0.01 * e0,
                    "system {}: energy {e0} -> {e}",
                    row.system
                );
            }
            last = e;
        }
        if row.damping > 0.0 {
            assert!(
                last < 0.2 * e0,
                "system {}: still {last} of {e0}",
                row.system
            );
        }
    }
}

#[test]
fn table_i8_rows_on_the_line_oscillate_about_the_rest_length_at_the_spring_period() {
    for row in rows(annex_table::K_READ)
        .into_iter()
        .filter(|r| r.damping == 0.0 && r.system != 4)
    {
        let h = 1e-4;
        let run = engine_run(&row, h, 200_000);
        let lengths: Vec<f64> = run.iter().map(|s| length(&row, s)).collect();
        let (lo, hi) = lengths
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, u), &x| (l.min(x), u.max(x)));
        // Started 1.0 apart: the length swings between 1.0 and 2ℓ − 1.0.
        assert!(
            (0.5 * (lo + hi) - row.rest).abs() < 1e-3,
            "system {}: {lo}..{hi}",
            row.system
        );
        // Two unit masses: ω = √(2k), crossings of ℓ every half period.
        let crossings: Vec<usize> = (1..lengths.len())
            .filter(|&i| (lengths[i - 1] - row.rest) * (lengths[i] - row.rest) < 0.0)
            .collect();
        let period = 2.0 * (crossings[crossings.len() - 1] - crossings[0]) as f64 * h
            / (crossings.len() - 1) as f64;
        let expected = std::f64::consts::TAU / (2.0 * row.stiffness).sqrt();
        eprintln!(
            "Table I.8 system {}: length {lo:.4}..{hi:.4}, period {period:.4} s (√(2k) gives {expected:.4})",
            row.system
        );
        assert!(
            (period - expected).abs() < 2e-3 * expected,
            "system {}: {period} vs {expected}",
            row.system
        );
    }
}

#[test]
fn row_4_attached_off_centre_turns_the_cubes() {
    let row = rows(annex_table::K_READ)[3];
    let run = engine_run(&row, 1e-3, 3000);
    let turned = run.iter().map(|s| s[0].q.angle()).fold(0.0, f64::max);
    let lengths: Vec<f64> = run.iter().map(|s| length(&row, s)).collect();
    let (lo, hi) = lengths
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, u), &x| (l.min(x), u.max(x)));
    eprintln!("Table I.8 system 4: length {lo:.4}..{hi:.4}, largest turn {turned:.4} rad in 3 s");
    // The attach points are 0.2 apart across the line: about a degree of swing.
    assert!(turned > 0.01, "the cubes hardly turned: {turned}");
    // Rows on the line never turn.
    let straight = engine_run(&rows(annex_table::K_READ)[0], 1e-3, 3000);
    assert!(straight.iter().all(|s| s[0].q.angle() == 0.0));
}

fn nurbs_of(frame: &collidoscope::frame::Frame) -> NurbsFrame {
    frame
        .families
        .iter()
        .find_map(|f| match f {
            FamilyFrameData::Nurbs(d) => Some(d.clone()),
            #[allow(unreachable_patterns)]
            _ => None,
        })
        .expect("NURBS frame data")
}

#[test]
fn the_table_scene_runs_the_same_systems_as_the_harness() {
    let scene = builtin_scene("nurbs-annex-springs").expect("builds");
    let dt = scene.solver.dt_s;
    let mut world = World::new(scene).expect("world");
    let mut harness: Vec<[RigidState; 2]> = rows(annex_table::K_READ)
        .iter()
        .map(|_| annex_table::start())
        .collect();
    for _ in 0..180 {
        let f = nurbs_of(&world.step(&mut NoProbe));
        for (r, row) in rows(annex_table::K_READ).iter().enumerate() {
            annex_table::step(row, &mut harness[r], dt);
            for i in 0..2 {
                let z = Vec3::new(0.0, 0.0, annex_table::ROW_SPACING * r as f64);
                let b = 2 * r + i;
                assert!((f.positions[b] - z - harness[r][i].x).norm() < 1e-9);
                assert!(f.orientations[b].angle_to(&harness[r][i].q) < 1e-9);
            }
        }
        assert!(f.impulses.is_empty(), "the cubes of a system never touch");
    }
}

// --- scenes built here ---------------------------------------------------------------------

fn body(
    name: &str,
    surfaces: Vec<collidoscope::nurbs::NurbsSurface>,
    start: [f64; 3],
    motion: Motion,
) -> NurbsBody {
    NurbsBody::at_rest(name, surfaces, start, motion)
}

/// A plane in y = 0 (the shapes are z up).
fn floor() -> collidoscope::nurbs::NurbsSurface {
    let turn = Quat::from_axis_angle(&Vec3::x_axis(), -std::f64::consts::FRAC_PI_2);
    plane(8.0, 0.0).transformed(&collidoscope::geom::Pose::from_parts(
        Vec3::zeros().into(),
        turn,
    ))
}

fn world_of(data: NurbsScene, gravity: f64) -> World {
    let mut s: Scene = collidoscope::scene::scene_kit::scene(
        "annex test",
        "",
        Vec::new(),
        BroadPhaseKind::BruteForce,
    );
    s.gravity = [0.0, -gravity, 0.0];
    s.families.push(FamilySceneData::Nurbs(data));
    World::new(s).expect("world")
}

#[test]
fn the_bisection_finds_the_contact_time_of_the_step() {
    let (r, g, precision) = (0.5, 9.81, 0.002);
    let mut data = NurbsScene::new(
        vec![
            body("floor", vec![floor()], [0.0; 3], Motion::Fixed),
            body(
                "ball",
                sphere([0.0; 3], r),
                [0.0, 1.37, 0.0],
                Motion::Falling,
            ),
        ],
        precision,
        HitMode::First,
        0.5,
    );
    data.bisections = 16;
    let mut world = world_of(data, g);
    let h = world.scene().solver.dt_s;
    let mut before = nurbs_of(&world.step(&mut NoProbe));
    for _ in 0..200 {
        let f = nurbs_of(&world.step(&mut NoProbe));
        let Some(b) = f.bisections.first() else {
            before = f;
            continue;
        };
        assert_eq!(b.pairs, vec![[0, 1]]);
        assert_eq!(b.iterations, 16);
        let (lo, hi) = b.interval(16);
        assert!(hi - lo <= 1.0 / 65536.0 + 1e-15);
        // The step's kinematics: y(f) = y + (v − g f h) f h (velocity first, then position).
        let (y, v) = (before.positions[1].y, before.velocities[1].y);
        let (qa, qb, qc) = (g * h * h, -v * h, r - y);
        // The first root: v < 0, so −qb < 0 and the root with + is the smaller positive one.
        let f_star = (-qb + (qb * qb - 4.0 * qa * qc).sqrt()) / (2.0 * qa);
        eprintln!("bisection: lo {lo} hi {hi}, kinematic contact at {f_star} of the step");
        assert!(
            (0.0..1.0).contains(&f_star),
            "contact at {f_star} of the step"
        );
        // Touching is reported from a gap of about the precision: allow its time at this speed.
        let speed = (v - g * h * f_star).abs();
        let slack = 2.0 * precision / (speed * h);
        assert!(
            lo <= f_star + 1e-9 && lo >= f_star - slack - 1.0 / 65536.0,
            "lo {lo} against {f_star} (slack {slack})"
        );
        // The impulse: e = 0.5 against the ball's speed at the searched time, a static floor.
        let imp = f.impulses.first().expect("an impulse");
        let v_lo = v - g * h * lo;
        assert!(
            (imp.j - 1.5 * v_lo.abs()).abs() < 1e-9 * imp.j,
            "j {} vs {}",
            imp.j,
            1.5 * v_lo.abs()
        );
        assert!((imp.normal - Vec3::y()).norm() < 1e-3 || (imp.normal + Vec3::y()).norm() < 1e-3);
        assert!(f.velocities[1].y > 0.0, "the ball bounces up");
        return;
    }
    panic!("the ball never reached the floor");
}

#[test]
fn a_sheet_on_four_springs_sags_by_m_g_over_4_k() {
    let (m, k, g) = (2.0, 40.0, 9.81);
    let mut sheet = body("sheet", vec![floor()], [0.0; 3], Motion::Falling);
    sheet.mass = m;
    let mut data = NurbsScene::new(vec![sheet], 0.02, HitMode::First, 0.5);
    // Anchored one rest length above the corners: unstretched at the start.
    data.springs = corner_springs(0, 4.0, 1.5, (k, 6.0, 1.5));
    let mut world = world_of(data, g);
    let mut last = None;
    for _ in 0..900 {
        last = Some(nurbs_of(&world.step(&mut NoProbe)));
    }
    let f = last.expect("frames");
    let sag = -f.positions[0].y;
    assert!(
        (sag - m * g / (4.0 * k)).abs() < 1e-4,
        "sag {sag} vs {}",
        m * g / (4.0 * k)
    );
    assert!(
        f.orientations[0].angle() < 1e-6,
        "a symmetric sheet hangs level"
    );
    assert!(f.positions[0].x.abs() < 1e-9 && f.positions[0].z.abs() < 1e-9);
}

#[test]
fn the_demo_hangs_its_sheet_on_four_springs_and_its_bodies_turn() {
    let scene = builtin_scene("nurbs-torus-vase-sheet").expect("builds");
    let data = scene
        .families
        .iter()
        .find_map(|f| match f {
            FamilySceneData::Nurbs(d) => Some(d.clone()),
            #[allow(unreachable_patterns)]
            _ => None,
        })
        .expect("NURBS data");
    assert_eq!(data.springs.len(), 4);
    assert!(data.springs.iter().all(|s| s.a == 0 && s.b.is_none()));
    let mut world = World::new(scene).expect("world");
    let (mut impulses, mut turned, mut bisections) = (0, [0.0f64; 3], 0);
    let (mut bytes, mut new_bytes, mut halvings) = (0, 0, 0);
    for _ in 0..180 {
        let f = nurbs_of(&world.step(&mut NoProbe));
        // What format v9 adds to a frame, postcard-encoded.
        bytes += postcard::to_allocvec(&f).map_or(0, |b| b.len());
        new_bytes +=
            postcard::to_allocvec(&(&f.orientations, &f.spins, &f.bisections, &f.impulses))
                .map_or(0, |b| b.len());
        halvings += f
            .bisections
            .iter()
            .map(|b| u32::from(b.iterations))
            .sum::<u32>();
        impulses += f.impulses.len();
        bisections += f.bisections.len();
        for b in 0..3 {
            turned[b] = turned[b].max(f.orientations[b].angle());
        }
        assert!(
            f.positions.iter().all(|p| p.y > -2.0 && p.y < 3.0),
            "{:?}",
            f.positions
        );
    }
    eprintln!(
        "demo, 3 s: {impulses} impulses, {bisections} searches ({halvings} halvings), turned \
         {turned:?}; NURBS frame {} bytes a frame, {} of them new in v9",
        bytes / 180,
        new_bytes / 180
    );
    assert!(impulses > 0 && bisections > 0);
    // The torus lands off-centre on its rim and tips; the sheet it lands on tilts.
    assert!(turned[1] > 0.1 && turned[0] > 0.005, "turned {turned:?}");
}

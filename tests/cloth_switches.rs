//! Each fix of the ray-traced narrow phase, switched off, lets the failure it prevents appear;
//! switched on, the failure is gone (issue 28 item 3). The failures are measured with
//! oracles of their own (the analytic plate and floor, brute-force distances between sheets,
//! complete casts, walks retraced), not with the engine's verdicts.

use super::cloth_oracle::{recorded_sheet, run_sheets, sheet, thin_plate, uv_sphere};
use collidoscope::cloth::detect::{CastMemory, DetectInput, detect};
use collidoscope::cloth::{ClothMesh, ClothParams, Obstacle, RayKind, RayRecord};
use collidoscope::geom::{Point3, Real, TriMesh, Vec3};

/// A flat `n × n` sheet of side `size` at height `y` (normals up), as positions.
fn flat_sheet(n: u32, y: Real, size: Real) -> (ClothMesh, Vec<Point3>) {
    ClothMesh::grid(
        n,
        n,
        Point3::new(-size / 2.0, y, -size / 2.0),
        Vec3::new(0.0, 0.0, size),
        Vec3::new(size, 0.0, 0.0),
    )
    .expect("valid grid")
}

/// Per vertex of one detection: its kept verdict on the obstacle, (kind, t), collision
/// first, else the shortest prediction.
fn verdicts(rays: &[RayRecord], n: usize) -> Vec<Option<(RayKind, Real)>> {
    let mut out: Vec<Option<(RayKind, Real)>> = vec![None; n];
    for r in rays {
        if !matches!(r.kind, RayKind::Collision | RayKind::Prediction) {
            continue;
        }
        let slot = &mut out[r.vertex as usize];
        let better = match slot {
            None => true,
            Some((k, t)) => {
                (r.kind == RayKind::Collision && *k != RayKind::Collision)
                    || (r.kind == *k && r.t < *t)
            }
        };
        if better {
            *slot = Some((r.kind, r.t));
        }
    }
    out
}

/// What the walk got wrong against a complete cast, over a run.
#[derive(Debug, Default)]
struct WalkErrors {
    /// A verdict whose kind or length (beyond 1 mm) differs from the complete cast's.
    erroneous: usize,
    /// Collisions and predictions of the complete cast the walked detection did not report.
    missed: usize,
    lost: usize,
    compared: usize,
}

/// `body` (its local frame lifted by 0.15 m) at step `k` of a slide along x by `step_m` a
/// step from x = -0.3, as body 1.
fn slid(body: &TriMesh, k: usize, step_m: Real) -> Obstacle {
    let x = -0.3 + step_m * k as Real;
    let placed = body
        .vertices
        .iter()
        .map(|p| p + Vec3::new(x, 0.15, 0.0))
        .collect();
    let mut obstacle = Obstacle::new(
        1,
        TriMesh::new(placed, body.triangles.clone()).expect("body"),
    );
    obstacle.moved_m = step_m;
    obstacle
}

/// A flat sheet held still at `height` over `body` (its local frame lifted by 0.15 m) that
/// slides along x by `step_m` a step from x = -0.3.
fn sliding(
    body: &TriMesh,
    height: Real,
    step_m: Real,
    steps: usize,
    edit: impl Fn(&mut ClothParams),
) -> WalkErrors {
    let (mesh, positions) = flat_sheet(24, height, 1.6);
    let mut params = ClothParams {
        self_collision: false,
        ..ClothParams::default()
    };
    edit(&mut params);
    let complete = ClothParams {
        iterative_cast: false,
        ..params
    };
    let mut memory = CastMemory::default();
    let mut errors = WalkErrors::default();
    for k in 0..steps {
        let obstacle = slid(body, k, step_m);
        let input = |params| DetectInput {
            cloth: 0,
            mesh: &mesh,
            previous: &positions,
            current: &positions,
            obstacles: std::slice::from_ref(&obstacle),
            params,
            count_tests: false,
        };
        let walked = detect(&input(&params), &mut memory);
        let truth = detect(&input(&complete), &mut CastMemory::default());
        errors.lost += walked
            .rays
            .iter()
            .filter(|r| r.kind == RayKind::Lost)
            .count();
        let n = positions.len();
        for (w, t) in verdicts(&walked.rays, n)
            .into_iter()
            .zip(verdicts(&truth.rays, n))
        {
            errors.compared += t.is_some() as usize;
            match (w, t) {
                (None, Some(_)) => errors.missed += 1,
                (Some((a, ta)), Some((b, tb))) if a != b || (ta - tb).abs() > 1e-3 => {
                    errors.erroneous += 1;
                }
                (Some(_), None) => errors.erroneous += 1,
                _ => {}
            }
        }
    }
    errors
}

/// §4.5: a sheet thrown through a thin plate within one step. With inversion detection the
/// crossing is found and undone; without it every vertex stays under the plate (the analytic
/// plane y = 0 is the oracle), and the recording still shows the crossings, uncorrected.
#[test]
fn inversion_detection_keeps_a_fast_sheet_above_a_thin_plate() {
    let below = |on: bool| {
        let plate = thin_plate();
        let mut params = ClothParams {
            self_collision: false,
            ..ClothParams::default()
        };
        params.switches.inversion_detection = on;
        let mut cloth = sheet(8, 0.05, 1.0, params);
        for v in &mut cloth.velocities {
            *v = Vec3::new(0.0, -12.0, 0.0);
        }
        let mut uncorrected = 0;
        for _ in 0..10 {
            let out = cloth.step(1.0 / 60.0, std::slice::from_ref(&plate), false);
            uncorrected += out.inversions.iter().filter(|i| !i.corrected).count();
        }
        let below = cloth.positions.iter().filter(|p| p.y < 0.0).count();
        (below, uncorrected)
    };
    assert_eq!(below(true), (0, 0));
    let (under, uncorrected) = below(false);
    assert_eq!(
        under, 64,
        "every vertex of the 8 × 8 sheet stays under the plate"
    );
    assert_eq!(
        uncorrected, 64,
        "and each crossing is recorded, uncorrected"
    );
}

/// Fig. 3.25: two sheets on a ball. The upper sheet meets the lower one faster than its
/// shell can catch within a substep: with inversion detection they stay apart, without it
/// they tangle. Oracle: the brute-force signed distance between the sheets.
#[test]
fn inversion_detection_keeps_two_sheets_on_a_ball_apart() {
    let on = run_sheets("cloth-two-sheets-on-ball", 90, |_| {});
    let off = run_sheets("cloth-two-sheets-on-ball", 90, |p| {
        p.switches.inversion_detection = false;
    });
    eprintln!(
        "two sheets on a ball: worst {} m with inversion detection ({}), {} m without ({})",
        on.worst, on.worst_at, off.worst, off.worst_at
    );
    // With it no vertex is ever on the wrong side of the other sheet; without it some are,
    // by more than half the shell (the volume rays, lifting the lower sheet off the ball's
    // vertices, keep the tangle shallower than it was without them: 1.5 cm against 6.5).
    assert!(on.worst > 0.0, "{}: {}", on.worst_at, on.worst);
    assert!(
        off.worst < -on.half_thickness,
        "without it the sheets stay apart: {}",
        off.worst
    );
}

/// The self gate is what sends a cluster that meets another part of the sheet to a complete
/// cast: a walk only updates the rays it has (§3.4.5). Without it, a part of the sheet that
/// had nothing near never casts again, and the upper sheet falls through the lower one.
#[test]
fn the_self_gate_lets_new_self_contacts_be_found() {
    let off = run_sheets("cloth-two-sheets-on-ball", 90, |p| {
        p.switches.self_gate = false
    });
    let shell = 2.0 * off.half_thickness;
    eprintln!(
        "two sheets without the self gate: worst {} m ({})",
        off.worst, off.worst_at
    );
    assert!(
        off.worst < -shell,
        "without the gate the sheets stay apart: {}",
        off.worst
    );
}

/// Table 3.3 on the cloth: a sheet tilted 30° pressed into the floor. Re-projected, every
/// contact pushes along the floor's normal; with raw rays, along the sheet's own normal, so
/// the push has a tangential part of tan 30° (the deviation Hermann's rays give).
#[test]
fn reprojection_pushes_along_the_surface_normal() {
    let deviation = |on: bool| {
        let tilt: Real = 30f64.to_radians();
        let size = 1.0;
        let (mesh, positions) = ClothMesh::grid(
            12,
            12,
            Point3::new(
                -0.5,
                -0.004 - 0.5 * size * tilt.sin(),
                -0.5 * size * tilt.cos(),
            ),
            Vec3::new(0.0, tilt.sin(), tilt.cos()) * size,
            Vec3::new(size, 0.0, 0.0),
        )
        .expect("grid");
        let floor = collidoscope::geom::ConvexPolyhedron::cuboid(Vec3::new(3.0, 0.5, 3.0));
        let placed = floor
            .vertices
            .iter()
            .map(|p| p + Vec3::new(0.0, -0.5, 0.0))
            .collect();
        let floor = Obstacle::new(0, TriMesh::new(placed, floor.triangles()).expect("box"));
        let mut params = ClothParams {
            self_collision: false,
            iterative_cast: false,
            ..ClothParams::default()
        };
        params.switches.reprojection = on;
        let out = detect(
            &DetectInput {
                cloth: 0,
                mesh: &mesh,
                previous: &positions,
                current: &positions,
                obstacles: std::slice::from_ref(&floor),
                params: &params,
                count_tests: false,
            },
            &mut CastMemory::default(),
        );
        let contacts: Vec<Real> = out
            .contacts
            .iter()
            .map(|c| {
                let up = c.normal.y;
                (c.normal - Vec3::y() * up).norm() / up
            })
            .collect();
        assert!(contacts.len() >= 10, "{} contacts", contacts.len());
        contacts.iter().sum::<Real>() / contacts.len() as Real
    };
    let (on, off) = (deviation(true), deviation(false));
    eprintln!("mean deviation (tangential / normal push): {on:.4} re-projected, {off:.4} raw");
    assert!(on < 1e-9, "{on}");
    assert!((off - 30f64.to_radians().tan()).abs() < 0.05, "{off}");
}

/// §3.4: the walk finds what a complete cast finds for a quarter of the ray–triangle tests
/// (a sheet falling on a sphere, tests counted in both runs).
#[test]
fn the_iterative_cast_finds_the_same_contacts_for_fewer_tests() {
    let run = |on: bool| {
        let params = ClothParams {
            iterative_cast: on,
            ..ClothParams::default()
        };
        let mut cloth = sheet(20, 1.2, 1.6, params);
        let ball = uv_sphere(0.5, 32, 16);
        let v: Vec<Point3> = ball
            .vertices
            .iter()
            .map(|p| p + Vec3::new(0.0, 0.5, 0.0))
            .collect();
        let o = Obstacle::new(1, TriMesh::new(v, ball.triangles.clone()).expect("ball"));
        let (mut tests, mut contacts) = (0u64, 0usize);
        for _ in 0..120 {
            let out = cloth.step(1.0 / 60.0, std::slice::from_ref(&o), true);
            tests += out.work.ray_triangle_tests;
            contacts += out.contacts;
        }
        (tests, contacts)
    };
    let (walked, complete) = (run(true), run(false));
    eprintln!("ray–triangle tests (contacts): walked {walked:?}, complete {complete:?}");
    assert_eq!(walked.1, complete.1, "the same contacts");
    assert!(walked.0 * 2 < complete.0, "{walked:?} against {complete:?}");
}

/// §3.5: the displacement gate sends a pair that moved far to a complete cast. Without it the
/// walks run from triangles the body has carried away and lose their rays (§3.4.5); with it,
/// none is lost. Either way every verdict matches a complete cast's (lost rays are cast again).
#[test]
fn the_rigid_gate_keeps_walks_from_losing_their_rays() {
    let ball = uv_sphere(0.15, 10, 6);
    let with = sliding(&ball, 0.305, 0.05, 40, |_| {});
    let without = sliding(&ball, 0.305, 0.05, 40, |p| p.switches.rigid_gate = false);
    eprintln!("ball sliding 5 cm a step: gate {with:?}, no gate {without:?}");
    assert_eq!(with.lost, 0);
    assert!(without.lost > 10, "{without:?}");
    for e in [&with, &without] {
        assert_eq!((e.erroneous, e.missed), (0, 0), "{e:?}");
    }
}

/// Two boxes side by side, touching along x = 0, as one mesh of two parts: each box
/// `0.4 × 0.2 × 0.8` m, outward winding.
fn two_boxes() -> TriMesh {
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for x0 in [-0.4, 0.0] {
        let first = vertices.len() as u32;
        for i in 0..8u32 {
            let pick = |bit: u32, lo: Real, hi: Real| if i & bit == 0 { lo } else { hi };
            vertices.push(Point3::new(
                pick(1, x0, x0 + 0.4),
                pick(2, -0.1, 0.1),
                pick(4, -0.4, 0.4),
            ));
        }
        let faces = [
            [0, 4, 6],
            [0, 6, 2],
            [1, 3, 7],
            [1, 7, 5],
            [0, 1, 5],
            [0, 5, 4],
            [2, 6, 7],
            [2, 7, 3],
            [0, 2, 3],
            [0, 3, 1],
            [4, 5, 7],
            [4, 7, 6],
        ];
        triangles.extend(faces.iter().map(|f: &[u32; 3]| f.map(|k| first + k)));
    }
    TriMesh::new(vertices, triangles).expect("two boxes")
}

/// §3.4.5, ray loss: a walk only crosses triangles joined by edges, so when a vertex's hit
/// moves from one part of a body to another (two boxes side by side, one mesh) the walk fails.
/// Cast again at once, the vertex keeps its verdict; left lost, as in the thesis, it has none
/// for that step: a prediction the complete cast finds is missed.
#[test]
fn recasting_lost_rays_keeps_the_verdicts_a_walk_cannot_reach() {
    let boxes = two_boxes();
    let on = sliding(&boxes, 0.28, 0.01, 60, |_| {});
    let off = sliding(&boxes, 0.28, 0.01, 60, |p| {
        p.switches.recast_lost_rays = false
    });
    eprintln!("two boxes sliding 1 cm a step: recast {on:?}, left lost {off:?}");
    assert!(on.lost > 0, "{on:?}");
    assert_eq!((on.erroneous, on.missed), (0, 0), "{on:?}");
    assert!(off.missed > 0, "{off:?}");
}

/// The recorded walks retrace: every walked or lost ray of the sliding torus, walked again
/// from its recorded start on the same geometry, tests as many triangles and ends the same
/// way (the viewer draws the path it retraces).
#[test]
fn recorded_walks_retrace_to_the_same_end() {
    use collidoscope::raycast::{IterativeOutcome, walk_path};
    let (mesh, positions) = flat_sheet(24, 0.305, 1.6);
    let torus = collidoscope::scene::procedural::torus(0.4, 0.15, 32, 12);
    let params = ClothParams {
        self_collision: false,
        ..ClothParams::default()
    };
    let normals = mesh.vertex_normals(&positions);
    let mut memory = CastMemory::default();
    let (mut walked, mut lost) = (0, 0);
    for k in 0..40 {
        let obstacle = slid(&torus, k, 0.02);
        let out = detect(
            &DetectInput {
                cloth: 0,
                mesh: &mesh,
                previous: &positions,
                current: &positions,
                obstacles: std::slice::from_ref(&obstacle),
                params: &params,
                count_tests: false,
            },
            &mut memory,
        );
        let cap = params.gate.max_iterations(obstacle.mean_triangle_m);
        for r in &out.rays {
            let Some(walk) = r.walk else { continue };
            let v = r.vertex as usize;
            let ray = collidoscope::geom::Ray::new(positions[v], -normals[v]);
            let (path, outcome) =
                walk_path(&obstacle.mesh, &obstacle.adjacency, &ray, walk.from, cap);
            assert_eq!(path.len() as u32, walk.steps, "{r:?}");
            assert_eq!(path.first(), Some(&walk.from));
            match (outcome, walk.stop) {
                (IterativeOutcome::NotFound { reason, .. }, Some(stop)) => {
                    assert_eq!(reason, stop);
                    lost += 1;
                }
                (IterativeOutcome::Collision(h) | IterativeOutcome::Prediction(h), None) => {
                    assert_eq!(Some(h.triangle), r.triangle, "{r:?}");
                    assert_eq!(path.last(), Some(&h.triangle));
                    walked += 1;
                }
                other => panic!("{r:?} retraced to {other:?}"),
            }
        }
    }
    eprintln!("retraced {walked} walked and {lost} lost rays");
    assert!(walked > 100 && lost > 10, "{walked} walked, {lost} lost");
}

/// Issue 28 item 5: layers of cloth at rest on each other stay put. Inversions belong to the
/// landings only: after the sheets have settled, no vertex crosses the other sheet again,
/// substep after substep (the engine's inversion test is checked by the dense-sampled
/// oracle of `cloth_oracle`; this counts what it reports once the layers rest).
#[test]
fn settled_layers_do_not_cross_each_other_again() {
    use collidoscope::families::FamilyFrameData;
    use collidoscope::trace::NoProbe;
    use collidoscope::world::{World, builtin_scene};
    for (name, settled) in [
        ("cloth-stacked-sheets", 120),
        ("cloth-two-sheets-on-ball", 90),
    ] {
        let mut world = World::new(builtin_scene(name).expect("a scene")).expect("it builds");
        let mut late = Vec::new();
        let mut landing = 0;
        for frame in 0..200 {
            let f = world.step(&mut NoProbe);
            let crossings = f
                .families
                .iter()
                .find_map(|d| match d {
                    FamilyFrameData::Cloth(c) => Some(c.inversions.len()),
                    _ => None,
                })
                .expect("a cloth");
            if frame < settled {
                landing += crossings;
            } else if crossings > 0 {
                late.push((frame, crossings));
            }
        }
        eprintln!("{name}: {landing} crossings while landing, after frame {settled}: {late:?}");
        assert!(
            late.is_empty(),
            "{name}: settled layers crossed again: {late:?}"
        );
    }
}

/// §3.5.2 / Figs. 4.13–4.16: the self gate's four measures on the same motion, each against
/// complete casts of every step. The sheet's positions come from one run of the scene; each
/// measure then detects on them with its own memory. Reported: the share of self rays walked
/// and the vertices whose verdict differs from the complete cast's.
#[test]
fn the_self_gate_measures_compared() {
    use collidoscope::cloth::GateMeasure;
    for name in ["cloth-flag-in-wind", "cloth-two-sheets-on-ball"] {
        let (data, mesh, sequence) = recorded_sheet(name, 240);
        let complete = ClothParams {
            iterative_cast: false,
            ..*data.params
        };
        let mut errors = Vec::new();
        for measure in [
            GateMeasure::Absolute,
            GateMeasure::Mean,
            GateMeasure::MeanStd,
            GateMeasure::Max,
        ] {
            let params = ClothParams {
                gate_measure: measure,
                ..*data.params
            };
            let mut memory = CastMemory::default();
            let (mut walked, mut rays, mut wrong, mut compared) = (0usize, 0usize, 0usize, 0usize);
            for pair in sequence.windows(2) {
                let input = |params| DetectInput {
                    cloth: 0,
                    mesh: &mesh,
                    previous: &pair[0],
                    current: &pair[1],
                    obstacles: &[],
                    params,
                    count_tests: false,
                };
                let got = detect(&input(&params), &mut memory);
                let truth = detect(&input(&complete), &mut CastMemory::default());
                walked += got.rays.iter().filter(|r| r.iterative()).count();
                rays += got.rays.len();
                let n = pair[1].len();
                for (w, t) in verdicts(&got.rays, n)
                    .into_iter()
                    .zip(verdicts(&truth.rays, n))
                {
                    compared += (w.is_some() || t.is_some()) as usize;
                    let differs = match (w, t) {
                        (Some((a, ta)), Some((b, tb))) => a != b || (ta - tb).abs() > 1e-3,
                        (None, None) => false,
                        _ => true,
                    };
                    wrong += differs as usize;
                }
            }
            let walked_pct = 100.0 * walked as Real / rays.max(1) as Real;
            let wrong_pct = 100.0 * wrong as Real / compared.max(1) as Real;
            eprintln!(
                "{name} {measure:?}: {walked_pct:.1} % of self rays walked, {wrong} of {compared} \
                 verdicts ({wrong_pct:.2} %) differ from the complete cast"
            );
            errors.push((measure, wrong_pct, walked_pct));
        }
        // The thesis' finding, as far as it holds on both scenes: no measure does better than
        // the recommended one on both counts (fewer errors and as many rays walked). On the
        // two sheets the maximum errs less (0.02 % against 0.03 %) by walking fewer rays.
        let mean_std = *errors
            .iter()
            .find(|e| e.0 == GateMeasure::MeanStd)
            .expect("measured");
        for e in &errors {
            let dominates = e.1 < mean_std.1 && e.2 >= mean_std.2;
            assert!(!dominates, "{name}: {e:?} does better than {mean_std:?}");
        }
    }
}

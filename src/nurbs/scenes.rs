//! The thesis' test scenes (§6 of the digest), y up.

use super::query::HitMode;
use super::scene_data::{Motion, NurbsBody, NurbsScene};
use super::shapes::{grid_surface, plane, random_bicubic, revolve, sphere, torus};
use super::spring::NurbsSpring;
use super::surface::NurbsSurface;
use crate::families::FamilySceneData;
use crate::family::BuiltinScene;
use crate::geom::{Point3, Pose, Quat, Vec3};
use crate::world::scene_kit::{Lcg, scene};
use crate::world::{BroadPhaseKind, Scene};

pub fn scenes() -> Vec<BuiltinScene> {
    vec![
        BuiltinScene {
            name: "nurbs-spheres-on-plane",
            description: "exact NURBS spheres (eight rational octants) fall on a bicubic plane: \
                          contacts at a pole, on a seam and inside a patch",
            build: spheres_on_plane,
        },
        BuiltinScene {
            name: "nurbs-torus-vase-sheet",
            description: "a torus and a vase of revolution fall, turning, on a sheet hung by \
                          four springs, one at each corner (Annex I's simulator: masses, \
                          inertia, contact time by bisection, impulses)",
            build: torus_vase_sheet,
        },
        BuiltinScene {
            name: "nurbs-annex-springs",
            description: "Annex I's Table I.8: four pairs of unit cubes joined by a damped \
                          spring (one system per row, rows stacked along z), no gravity; row 4 \
                          attaches off-centre and the cubes turn",
            build: annex_springs,
        },
        BuiltinScene {
            name: "nurbs-deforming-sheet",
            description: "a sphere falls on a sheet whose control points wave: boxes rebuilt \
                          every query, nothing precomputed",
            build: deforming_sheet,
        },
        BuiltinScene {
            name: "nurbs-random-bicubics",
            description: "four free-form bicubic patches (5×5 to 8×8 nets) sway through each \
                          other: random placements at about a 50 % collision rate, the \
                          thesis' timing set-up",
            build: random_bicubics,
        },
        BuiltinScene {
            name: "nurbs-teapots",
            description: "two Utah teapots (32 bicubic Bézier patches each, from \
                          assets/surfaces/teapot.json) thrown at each other",
            build: teapots,
        },
        BuiltinScene {
            name: "nurbs-intersection-curve",
            description: "a sheet sways through a fixed bicubic dome in curve mode: leaf pieces \
                          flat enough are cut as corner triangles, and their segments trace the \
                          intersection curve (a closed loop) in 3D and on both (u, v) panels",
            build: intersection_curve,
        },
    ]
}

/// Turns a z-up shape into the scenes' y-up frame.
fn y_up(s: &NurbsSurface) -> NurbsSurface {
    let turn = Quat::from_axis_angle(&Vec3::x_axis(), -std::f64::consts::FRAC_PI_2);
    s.transformed(&Pose::from_parts(Vec3::zeros().into(), turn))
}

fn body(name: &str, surfaces: Vec<NurbsSurface>, start: [f64; 3], motion: Motion) -> NurbsBody {
    NurbsBody::at_rest(name, surfaces.iter().map(y_up).collect(), start, motion)
}

/// Table I.8's systems float: no gravity.
fn annex_springs() -> Scene {
    let mut s = nurbs_scene(
        "nurbs-annex-springs",
        "Table I.8 mass-spring systems",
        super::annex_table::table_data(),
    );
    s.gravity = [0.0; 3];
    s
}

pub(crate) fn nurbs_scene(name: &str, description: &str, data: NurbsScene) -> Scene {
    let mut s = scene(name, description, Vec::new(), BroadPhaseKind::BruteForce);
    s.families.push(FamilySceneData::Nurbs(data));
    s
}

/// A sphere of eight octants (poles on its z axis, octant seams on the equator and on the
/// planes x = 0 and y = 0) turned so that its point in the direction `down` of its own frame
/// points down: that point is the one that lands. Shapes are built z up (`body` turns them).
fn sphere_landing_on(radius: f64, down: Vec3) -> Vec<NurbsSurface> {
    let turn = Quat::rotation_between(&down, &-Vec3::z()).unwrap_or_else(Quat::identity);
    let pose = Pose::from_parts(Vec3::zeros().into(), turn);
    sphere([0.0; 3], radius)
        .iter()
        .map(|s| s.transformed(&pose))
        .collect()
}

/// The three spheres land on what their names say: the south pole (where an octant's row of
/// control points collapses), the middle of an equator seam between two octants, and the
/// middle of the (-x, -y, -z) octant.
pub fn spheres_on_plane_landings() -> [(&'static str, f64, Vec3); 3] {
    [
        ("sphere (pole)", 0.7, -Vec3::z()),
        ("sphere (seam)", 0.6, Vec3::new(-1.0, -1.0, 0.0)),
        ("sphere (inside)", 0.5, Vec3::new(-1.0, -1.0, -1.0)),
    ]
}

fn spheres_on_plane() -> Scene {
    let starts = [[-2.0, 1.2, 0.0], [0.0, 1.8, 1.5], [2.0, 2.4, -1.0]];
    let mut bodies = vec![body(
        "plane",
        vec![plane(8.0, 0.0)],
        [0.0; 3],
        Motion::Fixed,
    )];
    for ((name, radius, down), start) in spheres_on_plane_landings().into_iter().zip(starts) {
        let surfaces = sphere_landing_on(radius, down);
        bodies.push(body(name, surfaces, start, Motion::Falling));
    }
    nurbs_scene(
        "nurbs-spheres-on-plane",
        "spheres on a plane",
        NurbsScene::new(bodies, 0.02, HitMode::First, 0.5),
    )
}

/// A vase profile (radius, height) turned around the axis.
fn vase() -> NurbsSurface {
    revolve(&[
        [0.05, 0.0],
        [0.45, 0.05],
        [0.6, 0.4],
        [0.3, 0.9],
        [0.25, 1.2],
        [0.4, 1.4],
    ])
}

/// The sheet's half side, mass, and its four springs' stiffness, damping and rest length.
pub const SHEET_HALF: f64 = 3.0;
pub const SHEET_MASS: f64 = 2.0;
pub const SHEET_SPRING: (f64, f64, f64) = (40.0, 3.0, 1.5);

/// The four corner springs of a sheet of half side `half` hanging from world anchors
/// `above` its corners (one per corner, as in the thesis' demo).
pub fn corner_springs(
    body: usize,
    half: f64,
    above: f64,
    (k, d, rest): (f64, f64, f64),
) -> Vec<NurbsSpring> {
    let mut out = Vec::with_capacity(4);
    for (sx, sz) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
        let corner = Point3::new(sx * half, 0.0, sz * half);
        out.push(NurbsSpring {
            a: body,
            b: None,
            attach_a: corner,
            attach_b: corner + Vec3::new(0.0, above, 0.0),
            rest,
            stiffness: k,
            damping: d,
        });
    }
    out
}

fn torus_vase_sheet() -> Scene {
    let mut sheet = body(
        "sheet",
        vec![plane(2.0 * SHEET_HALF, 0.0)],
        [0.0; 3],
        Motion::Falling,
    );
    sheet.mass = SHEET_MASS;
    let mut torus = body(
        "torus",
        vec![torus([0.0; 3], 0.6, 0.2)],
        [-1.0, 1.5, 0.0],
        Motion::Falling,
    );
    // A little spin, so that the torus lands on its rim and tips over.
    torus.spin = Vec3::new(0.0, 0.0, 1.5);
    let vase = body("vase", vec![vase()], [1.2, 2.2, 0.5], Motion::Falling);
    let (k, _, rest) = SHEET_SPRING;
    let gravity = 9.81;
    // Anchors where the sheet hangs at rest at its start: each spring holds a quarter of it.
    let above = rest + SHEET_MASS * gravity / (4.0 * k);
    let mut data = NurbsScene::new(vec![sheet, torus, vase], 0.02, HitMode::First, 0.4);
    data.springs = corner_springs(0, SHEET_HALF, above, SHEET_SPRING);
    data.linear_damping = 0.02;
    data.angular_damping = 0.02;
    let mut s = nurbs_scene(
        "nurbs-torus-vase-sheet",
        "torus and vase on a sheet hung by four springs",
        data,
    );
    s.gravity = [0.0, -gravity, 0.0];
    s
}

/// Bumpy patches swaying through each other; the sways are sized so that about half of the
/// surface pairs touch in a frame (tested over a recording).
pub fn random_bicubics() -> Scene {
    let mut rng = Lcg(2002);
    let nets = [6, 8, 5, 7];
    let bodies = nets
        .iter()
        .enumerate()
        .map(|(k, &n)| {
            let s = random_bicubic(n, 2.0, 0.4, &mut rng);
            let start = [
                rng.range(-0.8, 0.8),
                rng.range(-0.5, 0.5),
                rng.range(-0.8, 0.8),
            ];
            let amplitude = Vec3::new(
                rng.range(0.3, 1.0),
                rng.range(0.2, 0.6),
                rng.range(0.3, 1.0),
            );
            let mut b = body(
                &format!("bicubic {n}x{n}"),
                vec![s],
                start,
                Motion::Sway {
                    amplitude,
                    period_s: 2.0 + k as f64,
                },
            );
            b.start = Point3::new(start[0], start[1], start[2]);
            b
        })
        .collect();
    nurbs_scene(
        "nurbs-random-bicubics",
        "random bicubic placements",
        NurbsScene::new(bodies, 0.02, HitMode::First, 0.5),
    )
}

fn deforming_sheet() -> Scene {
    let sheet = grid_surface(8, 3, 5.0, |_, _| 0.0);
    let bodies = vec![
        body(
            "waving sheet",
            vec![sheet],
            [0.0; 3],
            Motion::Waving {
                amplitude: 0.25,
                period_s: 1.5,
            },
        ),
        body(
            "sphere",
            sphere([0.0; 3], 0.6),
            [0.3, 1.6, 0.2],
            Motion::Falling,
        ),
    ];
    nurbs_scene(
        "nurbs-deforming-sheet",
        "a deforming sheet",
        NurbsScene::new(bodies, 0.02, HitMode::First, 0.3),
    )
}

/// Two teapots: 32 × 32 patch pairs per frame, most of them separated by the first boxes.
pub fn teapots() -> Scene {
    let pot: Vec<NurbsSurface> = super::surface_file::teapot()
        .into_iter()
        .map(|n| n.surface)
        .collect();
    let mut left = body("teapot A", pot.clone(), [-4.6, 0.0, 0.0], Motion::Falling);
    left.velocity = Vec3::new(4.0, 2.0, 0.0);
    let mut right = body("teapot B", pot, [4.6, 0.3, 0.4], Motion::Falling);
    right.velocity = Vec3::new(-4.0, 2.0, 0.0);
    nurbs_scene(
        "nurbs-teapots",
        "two teapots",
        NurbsScene::new(vec![left, right], 0.03, HitMode::First, 0.6),
    )
}

/// A dome (a bicubic net on a paraboloid's heights) cut by a swaying flat sheet: the
/// intersection is a closed loop, traced by the flat-patch segments of curve mode.
pub fn intersection_curve() -> Scene {
    let n = 7;
    let dome = grid_surface(n, 3, 2.4, |i, j| {
        let x = i as f64 / (n - 1) as f64 - 0.5;
        let y = j as f64 / (n - 1) as f64 - 0.5;
        0.9 - 2.4 * (x * x + y * y)
    });
    let sheet = plane(3.0, 0.0);
    // The swaying body first: the family queries a pair with a still body when the first
    // one sways.
    let bodies = vec![
        body(
            "cutting sheet",
            vec![sheet],
            [0.0, 0.3, 0.0],
            Motion::Sway {
                amplitude: Vec3::new(0.0, 0.15, 0.0),
                period_s: 3.0,
            },
        ),
        body("dome", vec![dome], [0.0; 3], Motion::Fixed),
    ];
    nurbs_scene(
        "nurbs-intersection-curve",
        "a sheet cuts a dome",
        NurbsScene::new(bodies, 0.02, HitMode::Curve, 0.5),
    )
}

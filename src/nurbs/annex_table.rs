//! Annex I's Table I.8: two unit cubes (mass 1, identity inertia) at (−1, 0, 0) and (1, 0, 0)
//! joined by one damped spring, four systems. The OCR drops decimal points ("00" is 0.0), so
//! the printed "50" is read as 5.0 here (see `docs/nurbs-annex-i.md`; the tests run 50 too).
//! Row 3's second attach point is unreadable and taken as row 1's, (−0.5, 0, 0).

use super::rigid::{MassProps, RigidState, euler_step};
use super::scene_data::{Motion, NurbsBody, NurbsScene};
use super::shapes::grid_surface;
use super::spring::{NurbsSpring, spring_pull};
use super::surface::NurbsSurface;
use crate::geom::{Mat3, Point3, Pose, Quat, Vec3};

/// One row of Table I.8.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableRow {
    pub system: u8,
    pub stiffness: f64,
    pub damping: f64,
    pub rest: f64,
    pub attach_1: Point3,
    pub attach_2: Point3,
}

/// The stiffness printed "50": 5.0 in this reading.
pub const K_READ: f64 = 5.0;

/// The four rows, with the printed "50" read as `k50`.
pub fn rows(k50: f64) -> [TableRow; 4] {
    let p = Point3::new;
    [
        TableRow {
            system: 1,
            stiffness: k50,
            damping: 0.0,
            rest: 1.2,
            attach_1: p(0.5, 0.0, 0.0),
            attach_2: p(-0.5, 0.0, 0.0),
        },
        TableRow {
            system: 2,
            stiffness: 0.5,
            damping: 0.0,
            rest: 0.8,
            attach_1: p(0.5, 0.0, 0.0),
            attach_2: p(-0.5, 0.0, 0.0),
        },
        TableRow {
            system: 3,
            stiffness: k50,
            damping: 0.5,
            rest: 0.8,
            attach_1: p(0.5, 0.0, 0.0),
            attach_2: p(-0.5, 0.0, 0.0),
        },
        TableRow {
            system: 4,
            stiffness: k50,
            damping: 0.0,
            rest: 0.8,
            attach_1: p(0.5, 0.1, 0.0),
            attach_2: p(-0.5, 0.3, 0.0),
        },
    ]
}

/// The two cubes' starting states (at rest, unturned).
pub fn start() -> [RigidState; 2] {
    [
        RigidState::at_rest(Point3::new(-1.0, 0.0, 0.0)),
        RigidState::at_rest(Point3::new(1.0, 0.0, 0.0)),
    ]
}

pub fn cube_mass() -> MassProps {
    MassProps::new(1.0, Mat3::identity()).unwrap_or(MassProps::STATIC)
}

/// One Euler step of a row's system: the spring's force and torques, then the engine's
/// integrator (the same one the NURBS family's bodies use).
pub fn step(row: &TableRow, s: &mut [RigidState; 2], h: f64) {
    let pull = spring_pull(
        &s[0],
        &row.attach_1,
        Some((&s[1], &row.attach_2)),
        &Point3::origin(),
        row.rest,
        row.stiffness,
        row.damping,
    );
    let m = cube_mass();
    euler_step(&mut s[0], &m, pull.force, pull.torque_a, h);
    euler_step(&mut s[1], &m, -pull.force, pull.torque_b, h);
}

/// A unit cube as six bilinear patches around its centre.
pub fn cube() -> Vec<NurbsSurface> {
    let face = grid_surface(2, 1, 1.0, |_, _| 0.0);
    let half = std::f64::consts::FRAC_PI_2;
    let turns = [
        Quat::identity(),
        Quat::from_axis_angle(&Vec3::x_axis(), 2.0 * half),
        Quat::from_axis_angle(&Vec3::x_axis(), half),
        Quat::from_axis_angle(&Vec3::x_axis(), -half),
        Quat::from_axis_angle(&Vec3::y_axis(), half),
        Quat::from_axis_angle(&Vec3::y_axis(), -half),
    ];
    turns
        .iter()
        .map(|q| {
            let out = q * Vec3::new(0.0, 0.0, 0.5);
            face.transformed(&Pose::from_parts(out.into(), *q))
        })
        .collect()
}

/// Row spacing along z in the built-in scene.
pub const ROW_SPACING: f64 = 3.0;

/// The four systems side by side (row `r` at z = 3 (r − 1)), no gravity.
/// The four systems side by side, as one NURBS family (no gravity: `scenes` sets it).
pub fn table_data() -> NurbsScene {
    let mut bodies = Vec::new();
    let mut springs = Vec::new();
    for row in rows(K_READ) {
        let z = ROW_SPACING * f64::from(row.system - 1);
        let first = bodies.len();
        for (k, s) in start().iter().enumerate() {
            bodies.push(NurbsBody {
                name: format!("system {} cube {}", row.system, k + 1),
                surfaces: cube(),
                start: s.x + Vec3::new(0.0, 0.0, z),
                velocity: Vec3::zeros(),
                motion: Motion::Falling,
                mass: 1.0,
                inertia: Some([1.0; 3]),
                spin: Vec3::zeros(),
            });
        }
        springs.push(NurbsSpring {
            a: first,
            b: Some(first + 1),
            attach_a: row.attach_1,
            attach_b: row.attach_2,
            rest: row.rest,
            stiffness: row.stiffness,
            damping: row.damping,
        });
    }
    let mut data = NurbsScene::new(bodies, 0.02, super::query::HitMode::First, 0.5);
    data.springs = springs;
    data
}

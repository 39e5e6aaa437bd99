//! The bodies of the NURBS family as Annex I's rigid bodies: their constants from the scene,
//! and Algorithm I.1's force pass and Euler integration over one interval.

use super::rigid::{MassProps, RigidState, euler_step};
use super::scene_data::{Motion, NurbsScene};
use super::shell_mass::shell_mass;
use super::spring::{SpringPull, spring_pull};
use crate::geom::{Mat3, Point3, Pose, Vec3};

/// A body's constants in the simulation.
#[derive(Clone, Debug)]
pub struct BodyConstants {
    pub mass: MassProps,
    /// The centre of mass in the body's frame (where its control points are given).
    pub centre: Vec3,
    /// Whether the body is integrated as a rigid body (Falling).
    pub rigid: bool,
}

pub fn constants(scene: &NurbsScene) -> Result<Vec<BodyConstants>, String> {
    scene
        .bodies
        .iter()
        .enumerate()
        .map(|(b, body)| {
            let rigid = matches!(body.motion, Motion::Falling);
            let translating = matches!(body.motion, Motion::Sprung { .. });
            if !(rigid || translating) {
                return Ok(BodyConstants {
                    mass: MassProps::STATIC,
                    centre: Vec3::zeros(),
                    rigid: false,
                });
            }
            let shell = shell_mass(&body.surfaces, body.mass);
            let centre = if rigid {
                shell.map_or(Vec3::zeros(), |(c, _)| c.coords)
            } else {
                Vec3::zeros()
            };
            let inertia = match body.inertia {
                Some(d) => Mat3::from_diagonal(&Vec3::new(d[0], d[1], d[2])),
                None => shell.map_or_else(|| Mat3::identity() * body.mass, |(_, i)| i),
            };
            let mut mass = MassProps::new(body.mass, inertia).ok_or_else(|| {
                format!(
                    "bodies[{b}] ({}): its inertia cannot be inverted",
                    body.name
                )
            })?;
            if translating {
                // The single-spring sheet of earlier scene files never turns.
                mass.inv_inertia = Mat3::zeros();
            }
            Ok(BodyConstants {
                mass,
                centre,
                rigid,
            })
        })
        .collect()
}

/// The pose of a body's frame from its centre of mass state.
pub fn frame_pose(s: &RigidState, k: &BodyConstants) -> Pose {
    let origin = s.x - s.q * k.centre;
    Pose::from_parts(origin.into(), s.q)
}

/// The state whose frame is at `origin` turned by `q`.
pub fn state_from_frame(origin: Point3, q: crate::geom::Quat, k: &BodyConstants) -> RigidState {
    RigidState {
        x: origin + q * k.centre,
        q,
        v: Vec3::zeros(),
        w: Vec3::zeros(),
    }
}

/// Every spring's pull with the bodies in `states`.
pub fn spring_pulls(
    scene: &NurbsScene,
    consts: &[BodyConstants],
    states: &[RigidState],
) -> Vec<SpringPull> {
    scene
        .springs
        .iter()
        .map(|s| {
            let local_a = Point3::from(s.attach_a.coords - consts[s.a].centre);
            let b =
                s.b.map(|b| (b, Point3::from(s.attach_b.coords - consts[b].centre)));
            spring_pull(
                &states[s.a],
                &local_a,
                b.as_ref().map(|(b, p)| (&states[*b], p)),
                &s.attach_b,
                s.rest,
                s.stiffness,
                s.damping,
            )
        })
        .collect()
}

/// One explicit Euler step of length `h` for every body (Algorithm I.1's force pass and
/// integration); scripted bodies (Sway) are put where their script says at `time_s`.
pub fn advance(
    scene: &NurbsScene,
    consts: &[BodyConstants],
    states: &mut [RigidState],
    gravity: Vec3,
    h: f64,
    time_s: f64,
) {
    let n = states.len();
    let mut force = vec![Vec3::zeros(); n];
    let mut torque = vec![Vec3::zeros(); n];
    for (s, pull) in scene
        .springs
        .iter()
        .zip(spring_pulls(scene, consts, states))
    {
        force[s.a] += pull.force;
        torque[s.a] += pull.torque_a;
        if let Some(b) = s.b {
            force[b] -= pull.force;
            torque[b] += pull.torque_b;
        }
    }
    for (b, body) in scene.bodies.iter().enumerate() {
        let k = &consts[b];
        let st = &mut states[b];
        match &body.motion {
            Motion::Fixed | Motion::Waving { .. } => {}
            Motion::Falling => {
                let f = force[b] + gravity * body.mass - st.v * scene.linear_damping;
                let t = torque[b] - st.w * scene.angular_damping;
                euler_step(st, &k.mass, f, t, h);
            }
            Motion::Sprung { stiffness, damping } => {
                let stretch = st.x - body.start;
                let accel = gravity - stretch * *stiffness - st.v * *damping;
                st.v += accel * h;
                st.x += st.v * h;
            }
            Motion::Sway {
                amplitude,
                period_s,
            } => {
                let phase = std::f64::consts::TAU * time_s / period_s.max(1e-6) + b as f64;
                st.x = body.start + amplitude * phase.sin();
            }
        }
    }
}

use super::RigidBody;
use crate::geom::{Quat, Real, Vec3};
use crate::trace::{EventKind, Probe, Stage, TraceEvent, Verdict};

/// Semi-implicit Euler: velocities first (gravity), then positions with the new velocities;
/// the orientation follows q' = q + ½ dt ω q, renormalised.
pub fn integrate<P: Probe>(bodies: &mut [RigidBody], gravity: &Vec3, dt: Real, probe: &mut P) {
    for body in bodies.iter_mut().filter(|b| !b.fixed) {
        let from = body.position();
        body.linear_velocity += gravity * dt;
        body.pose.translation.vector += body.linear_velocity * dt;
        let w = body.angular_velocity;
        let q = body.pose.rotation.into_inner();
        let dq = nalgebra::Quaternion::new(0.0, w.x, w.y, w.z) * q * (0.5 * dt);
        body.pose.rotation = Quat::new_normalize(q + dq);
        let to = body.position();
        let id = body.id;
        crate::trace_event!(
            probe,
            TraceEvent::new(Stage::Integrate, Verdict::Info, EventKind::Integrated { body: id, from, to })
        );
    }
}

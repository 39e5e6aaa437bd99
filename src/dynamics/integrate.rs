use super::RigidBody;
use crate::geom::{Quat, Real, Vec3};
use crate::trace::{Probe, TraceEvent, Verdict};

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
            TraceEvent::new(
                Verdict::Info,
                crate::frame::PipelineEvent::Integrated { body: id, from, to }
            )
        );
    }
}

/// Velocities of every body, to measure what the contact response changed.
pub fn velocities(bodies: &[RigidBody]) -> Vec<(Vec3, Vec3)> {
    bodies
        .iter()
        .map(|b| (b.linear_velocity, b.angular_velocity))
        .collect()
}

/// Moves each body by what the response changed in its velocity over the step. Positions
/// were integrated before contacts were known; this makes the step equal to integrating with
/// the corrected velocities, so resting bodies do not sink by g·dt² every step.
pub fn apply_velocity_change(bodies: &mut [RigidBody], before: &[(Vec3, Vec3)], dt: Real) {
    for (body, (v0, w0)) in bodies.iter_mut().zip(before).filter(|(b, _)| !b.fixed) {
        let dv = body.linear_velocity - v0;
        let dw = body.angular_velocity - w0;
        body.pose.translation.vector += dv * dt;
        let q = body.pose.rotation.into_inner();
        let dq = nalgebra::Quaternion::new(0.0, dw.x, dw.y, dw.z) * q * (0.5 * dt);
        body.pose.rotation = Quat::new_normalize(q + dq);
    }
}

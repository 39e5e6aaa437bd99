//! Speculative contacts for mesh pairs. Convex pairs get theirs from a distance within a
//! margin; a pair of meshes only knows where its triangles cross. So the pair is tried one
//! step ahead, at the poses its velocities lead to: each contact found there becomes a
//! contact now whose gap is the approach left before it, which lets the solver stop the mesh
//! at the surface instead of a step inside it.

use crate::dynamics::RigidBody;
use crate::geom::{Pose, Quat, Real, Vec3};
use crate::narrow::ContactPoint;

/// Where the body will be after `dt` at its current velocities.
fn ahead(body: &RigidBody, dt: Real) -> Pose {
    if body.fixed {
        return body.pose;
    }
    Pose::from_parts(
        (body.pose.translation.vector + body.linear_velocity * dt).into(),
        Quat::from_scaled_axis(body.angular_velocity * dt) * body.pose.rotation,
    )
}

/// The velocity of the body's material point at `p` (world).
fn point_velocity(body: &RigidBody, p: &Vec3) -> Vec3 {
    if body.fixed {
        return Vec3::zeros();
    }
    body.linear_velocity
        + body
            .angular_velocity
            .cross(&(p - body.pose.translation.vector))
}

/// The contacts of the pair one step ahead, as speculative contacts now (depth ≤ 0: minus
/// the gap). `contacts_at` gives the pair's contacts at given poses of `a` and `b`.
pub fn speculative_contacts(
    a: &RigidBody,
    b: &RigidBody,
    dt: Real,
    contacts_at: impl FnOnce(&Pose, &Pose) -> Vec<ContactPoint>,
) -> Vec<ContactPoint> {
    let (pa, pb) = (ahead(a, dt), ahead(b, dt));
    contacts_at(&pa, &pb)
        .into_iter()
        .filter_map(|c| {
            let va = point_velocity(a, &c.point.coords);
            let vb = point_velocity(b, &c.point.coords);
            // The normal points from A to B: B closing on A moves along -normal.
            let approach = -(vb - va).dot(&c.normal) * dt;
            if approach <= 0.0 {
                return None;
            }
            // Depth ahead = approach − gap now. A depth beyond the approach means the linear
            // guess undershot: call it touching rather than invent a depth now.
            let depth = (c.depth - approach).min(0.0);
            let back = (va + vb) * (0.5 * dt);
            Some(ContactPoint {
                point: c.point - back,
                normal: c.normal,
                depth,
            })
        })
        .collect()
}

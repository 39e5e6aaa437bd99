//! "Tunnelled": a body's centre crossed a solid between two frames and no contact between
//! the two was recorded. Checked in every mode (so `Off` shows its misses), by the engine at
//! each step and by `validate` on recorded frames, with the ray between positions.

use super::extent::inner_radius;
use super::motion::{Motion, centre};
use super::ray::segment_vs_local_shape;
use crate::bvh::AnyBvh;
use crate::ccd::CcdEvent;
use crate::dynamics::RigidBody;
use crate::geom::Shape;
use crate::geom::{Aabb, Pose, Real};
use crate::trace::{BodyId, Probe, Verdict};
use std::collections::BTreeSet;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunnel {
    pub body: BodyId,
    /// The solid it passed through.
    pub other: BodyId,
    /// Where along the step its centre entered the solid.
    pub t: Real,
}

/// Every body that passed through another between `from` and `to` (poses by body index)
/// without a contact of the pair in `touching` (pairs as (smaller id, larger id)).
pub fn find_tunnels<'a, P: Probe>(
    bodies: &[RigidBody],
    from: &[Pose],
    to: &[Pose],
    tree: impl Fn(usize) -> Option<&'a AnyBvh>,
    touching: &BTreeSet<(BodyId, BodyId)>,
    probe: &mut P,
) -> Vec<Tunnel> {
    let n = bodies.len().min(from.len()).min(to.len());
    // A centre that moves less than the inner radius stays inside the body's own start pose:
    // anything it crossed, the body was already touching. Most steps nothing moves that far,
    // and then no box is needed.
    let movers: Vec<usize> = (0..n)
        .filter(|&i| {
            !bodies[i].fixed
                && inner_radius(&bodies[i].shape).is_some_and(|inner| {
                    let moved = Motion::new(from[i], to[i]).displacement().norm();
                    // A motion gone NaN is looked at, not waved through.
                    moved > inner || moved.is_nan() || inner.is_nan()
                })
        })
        .collect();
    if movers.is_empty() {
        return Vec::new();
    }
    let boxes: Vec<Aabb> = (0..n)
        .map(|j| {
            bodies[j]
                .shape
                .aabb(&from[j])
                .merged(&bodies[j].shape.aabb(&to[j]))
        })
        .collect();
    let mut found = Vec::new();
    for i in movers {
        let (p0, p1) = (centre(&from[i]), centre(&to[i]));
        let path = Aabb::from_points(&[p0, p1]);
        for j in (0..n).filter(|&j| j != i && boxes[j].intersects(&path)) {
            let pair = (
                bodies[i].id.min(bodies[j].id),
                bodies[i].id.max(bodies[j].id),
            );
            if touching.contains(&pair) {
                continue;
            }
            // The centre's path seen from the other body, which may move too.
            let o = from[j].inverse_transform_point(&p0);
            let e = to[j].inverse_transform_point(&p1);
            let shape = &bodies[j].shape;
            let enter = segment_vs_local_shape(&o, &(e - o), 0.0, shape, tree(j));
            let crossed = match (shape, enter) {
                (_, None) => None,
                // A surface: crossing it at all is passing through.
                (Shape::Mesh(_), Some(t)) => (t > 0.0 && t < 1.0).then_some(t),
                // A solid: in from outside, and out again by the end.
                (_, Some(t)) if t > 0.0 => {
                    let back = segment_vs_local_shape(&e, &(o - e), 0.0, shape, tree(j));
                    back.is_some_and(|s| s > 0.0).then_some(t)
                }
                _ => None,
            };
            super::event::report(
                probe,
                if crossed.is_some() {
                    Verdict::Warning
                } else {
                    Verdict::Info
                },
                CcdEvent::Ray {
                    body: bodies[i].id,
                    other: bodies[j].id,
                    radius: 0.0,
                    t: crossed,
                },
            );
            if let Some(t) = crossed {
                let tunnel = Tunnel {
                    body: bodies[i].id,
                    other: bodies[j].id,
                    t,
                };
                super::event::report(
                    probe,
                    Verdict::Warning,
                    CcdEvent::Tunnelled {
                        body: tunnel.body,
                        other: tunnel.other,
                        t,
                    },
                );
                found.push(tunnel);
            }
        }
    }
    found
}

//! The narrow phase's pairs and contacts as `pair` and `contact` lines.
//!
//! Rapier does not expose its broad phase's pairs. The pairs sent are derived: every edge of
//! the narrow phase's contact graph (a pair of colliders whose bounding boxes, enlarged by the
//! prediction distance, overlap), `touching` when the pair has an active solver contact, and
//! every edge of its intersection graph (pairs with a sensor), `touching` when they intersect.
//!
//! The contacts are the solver's: one `contact` per solver contact of every manifold the
//! constraint solver saw this step (the contact clusters when rapier clustered them). Rapier
//! finds them on the poses the step starts from, before it integrates (the header says
//! `contacts_at: step_start`), and they are sent as found: the position is the point on
//! collider `a` in world space at the step's start, the normal the manifold's (world, from
//! `a` towards `b`), the distance rapier's own (`SolverContact::dist`, negative:
//! penetration), the impulses those the solver applied, and the features those of the
//! manifold point the solver contact came from. (Carried to the end of the step, a rolling
//! ball's contact point turns with the ball and would no longer be where the ball touches.)

use super::Sink;
use super::shapes::v3;
use crate::capture::{CaptureError, ContactItem, EngineId, Item, PairItem};
use rapier3d::dynamics::{RigidBodyHandle, RigidBodySet};
use rapier3d::geometry::{ColliderHandle, ContactManifold, ContactPair, NarrowPhase};
use rapier3d::math::Pose;
use rapier3d::parry::shape::{FeatureId, PackedFeatureId};

/// A collider's id in the stream: its handle's index.
pub fn collider_id(handle: ColliderHandle) -> EngineId {
    EngineId::Int(handle.into_raw_parts().0.into())
}

/// The pairs of the step. `live` says whether a collider is
/// declared (a collider removed after the step may still be in the graphs).
pub fn send_pairs(
    sink: &mut Sink,
    narrow_phase: &NarrowPhase,
    live: &dyn Fn(ColliderHandle) -> bool,
) -> Result<(), CaptureError> {
    for pair in narrow_phase.contact_pairs() {
        if live(pair.collider1) && live(pair.collider2) {
            sink.send(Item::Pair(PairItem {
                a: collider_id(pair.collider1),
                b: collider_id(pair.collider2),
                touching: Some(pair.has_any_active_contact()),
            }))?;
        }
    }
    for (a, b, intersecting) in narrow_phase.intersection_pairs() {
        if live(a) && live(b) {
            sink.send(Item::Pair(PairItem {
                a: collider_id(a),
                b: collider_id(b),
                touching: Some(intersecting),
            }))?;
        }
    }
    Ok(())
}

pub fn send_contacts(
    sink: &mut Sink,
    narrow_phase: &NarrowPhase,
    bodies: &RigidBodySet,
    live: &dyn Fn(ColliderHandle) -> bool,
    start: &dyn Fn(RigidBodyHandle) -> Option<Pose>,
) -> Result<(), CaptureError> {
    let at_start = |point: rapier3d::math::Vector, body: Option<RigidBodyHandle>| {
        let Some((h, rb)) = body.and_then(|h| bodies.get(h).map(|rb| (h, rb))) else {
            return point;
        };
        match start(h) {
            Some(from) => from * (rb.position().inverse() * point),
            None => point,
        }
    };
    for pair in narrow_phase.contact_pairs() {
        if !(live(pair.collider1) && live(pair.collider2)) {
            continue;
        }
        for (index, manifold) in pair.solver_manifolds().iter().enumerate() {
            send_manifold(sink, pair, index as u32, manifold, bodies, &at_start)?;
        }
    }
    Ok(())
}

fn send_manifold(
    sink: &mut Sink,
    pair: &ContactPair,
    index: u32,
    manifold: &ContactManifold,
    bodies: &RigidBodySet,
    at_start: &dyn Fn(rapier3d::math::Vector, Option<RigidBodyHandle>) -> rapier3d::math::Vector,
) -> Result<(), CaptureError> {
    let normal = v3(manifold.data.normal);
    for contact in &manifold.data.solver_contacts {
        let (on_a, _) = manifold.data.solver_contact_world_points(contact, bodies);
        // A side attached to the world by dominance has its anchor in world space already.
        let on_a = if manifold.data.relative_dominance == 0 {
            at_start(on_a, manifold.data.rigid_body1)
        } else {
            on_a
        };
        let on_a = v3(on_a);
        let distance = f64::from(contact.dist);
        let [id] = contact.contact_indices();
        let point = manifold.points.get(id as usize);
        sink.send(Item::Contact(ContactItem {
            a: collider_id(pair.collider1),
            b: collider_id(pair.collider2),
            manifold: index,
            point: id,
            position: on_a,
            normal,
            distance,
            normal_impulse: point.map(|p| f64::from(p.data.impulse)),
            tangent_impulse: point.map(|p| {
                [
                    f64::from(p.data.tangent_impulse.x),
                    f64::from(p.data.tangent_impulse.y),
                ]
            }),
            feature_a: point.and_then(|p| feature(p.fid1)),
            feature_b: point.and_then(|p| feature(p.fid2)),
        }))?;
    }
    Ok(())
}

/// "face 3", "edge 0", "vertex 7"; nothing for a feature rapier does not know.
fn feature(id: PackedFeatureId) -> Option<String> {
    match id.unpack() {
        FeatureId::Vertex(i) => Some(format!("vertex {i}")),
        FeatureId::Edge(i) => Some(format!("edge {i}")),
        FeatureId::Face(i) => Some(format!("face {i}")),
        FeatureId::Unknown => None,
    }
}

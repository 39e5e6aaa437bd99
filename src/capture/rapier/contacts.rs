//! The narrow phase's pairs and contacts as `pair` and `contact` lines.
//!
//! Rapier does not expose its broad phase's pairs. The pairs sent are derived: every edge of
//! the narrow phase's contact graph (a pair of colliders whose bounding boxes, enlarged by the
//! prediction distance, overlap), `touching` when the pair has an active solver contact, and
//! every edge of its intersection graph (pairs with a sensor), `touching` when they intersect.
//!
//! The contacts are the solver's: one `contact` per solver contact of every manifold the
//! constraint solver saw this step (the contact clusters when rapier clustered them). The
//! position is the point on collider `a` in world space at the end of the step, the normal
//! the manifold's (world, from `a` towards `b`), the distance the separation of the two
//! points along it at the end of the step (negative: penetration), the impulses those the
//! solver applied, and the features those of the manifold point the solver contact came from.

use super::Sink;
use super::shapes::v3;
use crate::capture::{CaptureError, ContactItem, EngineId, Item, PairItem};
use rapier3d::dynamics::RigidBodySet;
use rapier3d::geometry::{ColliderHandle, ContactManifold, ContactPair, NarrowPhase};
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
) -> Result<(), CaptureError> {
    for pair in narrow_phase.contact_pairs() {
        if !(live(pair.collider1) && live(pair.collider2)) {
            continue;
        }
        for (index, manifold) in pair.solver_manifolds().iter().enumerate() {
            send_manifold(sink, pair, index as u32, manifold, bodies)?;
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
) -> Result<(), CaptureError> {
    let normal = v3(manifold.data.normal);
    for contact in &manifold.data.solver_contacts {
        let (on_a, on_b) = manifold.data.solver_contact_world_points(contact, bodies);
        let (on_a, on_b) = (v3(on_a), v3(on_b));
        let distance = (0..3).map(|k| (on_b[k] - on_a[k]) * normal[k]).sum();
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

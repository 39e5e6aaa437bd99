//! What the capture has declared so far, by rapier handle index, so that each step declares
//! only what is new and removes what is gone.
//!
//! Handles are (index, generation): rapier reuses the index of a removed body or collider
//! with a new generation, so a slot is live only while its whole handle is. A collider whose
//! body, shape or pose on its body changed since it was declared is removed and declared
//! again, since the stream declares those once.

use super::shapes::Declared;
use crate::capture::{EngineId, PoseItem};
use rapier3d::dynamics::RigidBodyHandle;
use rapier3d::geometry::{Collider, ColliderHandle};
use rapier3d::parry::shape::Shape;
use std::collections::HashMap;
use std::sync::{Arc, Weak};

/// A declared collider, and what its declaration depended on.
pub struct KnownCollider {
    pub handle: ColliderHandle,
    pub parent: Option<RigidBodyHandle>,
    /// The shape's allocation: compared by address, and held (weakly) so that the address
    /// cannot be reused by another shape while it is compared.
    shape: Weak<dyn Shape>,
    /// The collider's pose on its body, bit for bit (a NaN compares equal to itself).
    pose_bits: [u32; 7],
}

/// A shape declared once, shared by every collider holding the same `SharedShape`.
struct KnownShape {
    shape: Weak<dyn Shape>,
    id: EngineId,
    offset: PoseItem,
}

#[derive(Default)]
pub struct Known {
    pub bodies: Vec<Option<RigidBodyHandle>>,
    pub colliders: Vec<Option<KnownCollider>>,
    shapes: HashMap<usize, KnownShape>,
    next_shape: u64,
}

/// The data address of a shape: what identifies a `SharedShape` (its vtable part does not).
fn address<T: ?Sized>(p: *const T) -> usize {
    p.cast::<()>() as usize
}

fn pose_bits(collider: &Collider) -> [u32; 7] {
    let p = collider
        .position_wrt_parent()
        .copied()
        .unwrap_or(rapier3d::math::Pose::IDENTITY);
    let [x, y, z] = p.translation.to_array();
    let [qx, qy, qz, qw] = p.rotation.to_array();
    [x, y, z, qx, qy, qz, qw].map(f32::to_bits)
}

fn slot<T>(v: &mut Vec<Option<T>>, index: u32) -> &mut Option<T> {
    let i = index as usize;
    if v.len() <= i {
        v.resize_with(i + 1, || None);
    }
    &mut v[i]
}

impl Known {
    pub fn body_is(&self, handle: RigidBodyHandle) -> bool {
        let (index, _) = handle.into_raw_parts();
        self.bodies.get(index as usize).copied().flatten() == Some(handle)
    }

    pub fn set_body(&mut self, handle: RigidBodyHandle) {
        *slot(&mut self.bodies, handle.into_raw_parts().0) = Some(handle);
    }

    pub fn collider_is(&self, handle: ColliderHandle) -> bool {
        let (index, _) = handle.into_raw_parts();
        matches!(self.colliders.get(index as usize), Some(Some(k)) if k.handle == handle)
    }

    /// True when the collider is the one declared, unchanged.
    pub fn collider_unchanged(&self, k: &KnownCollider, collider: &Collider) -> bool {
        k.parent == collider.parent()
            && address(k.shape.as_ptr()) == address(Arc::as_ptr(&collider.shared_shape().0))
            && k.pose_bits == pose_bits(collider)
    }

    pub fn set_collider(&mut self, handle: ColliderHandle, collider: &Collider) {
        let known = KnownCollider {
            handle,
            parent: collider.parent(),
            shape: Arc::downgrade(&collider.shared_shape().0),
            pose_bits: pose_bits(collider),
        };
        *slot(&mut self.colliders, handle.into_raw_parts().0) = Some(known);
    }

    /// The shape's id and offset if it was declared, or its declaration (with a new id) if
    /// not; `None` then `Some` on the first call for a shape.
    pub fn shape_of(
        &mut self,
        collider: &Collider,
        declare: impl FnOnce(EngineId, &dyn Shape) -> Declared,
    ) -> (EngineId, PoseItem, Option<Declared>) {
        let arc = &collider.shared_shape().0;
        let key = address(Arc::as_ptr(arc));
        if let Some(k) = self.shapes.get(&key)
            && k.shape.strong_count() > 0
        {
            return (k.id.clone(), k.offset, None);
        }
        let id = EngineId::Int(self.next_shape);
        self.next_shape += 1;
        let declared = declare(id.clone(), arc.as_ref());
        self.shapes.insert(
            key,
            KnownShape {
                shape: Arc::downgrade(arc),
                id: id.clone(),
                offset: declared.offset,
            },
        );
        (id, declared.offset, Some(declared))
    }

    /// Forgets the shapes no collider holds any more (their ids are never reused).
    pub fn prune_shapes(&mut self) {
        self.shapes.retain(|_, k| k.shape.strong_count() > 0);
    }
}

//! The acceptance rules of the elementary tests with a cloth (spec 002 §4.3), applied to the
//! re-projected ray length `L = |r·n|` (§3.2: re-project before classifying, or contacts flicker).

use crate::geom::{Real, Vec3};
use crate::raycast::WalkStop;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    Rigid(u32),
    Cloth(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RaySide {
    /// Along the vertex normal's opposite.
    Inner,
    /// Along the vertex normal.
    Outer,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RayKind {
    Collision,
    Prediction,
    Rejected,
    /// No ray was cast: the vertex lies outside the target's bounds grown by the prediction
    /// distance (Hermann's culling, §3.1 and §3.3), so neither ray can find anything near.
    Culled,
    /// The walk from last step's triangle failed (§3.4.5, "ray loss"); `RayRecord::walk`
    /// says where it started and why it stopped.
    Lost,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RejectReason {
    /// Both rays left the volume from inside; the other one is shorter (§4.3 b).
    LongerWayOut,
    /// Beyond the prediction distance.
    TooFar,
    /// No triangle on the ray.
    NoHit,
}

/// One cast ray, compact: the origin and direction are the recorded vertex and its normal.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RayRecord {
    pub cloth: u32,
    pub vertex: u32,
    pub side: RaySide,
    pub target: Target,
    pub triangle: Option<u32>,
    /// Parameter of the hit along the unit ray (the raw length before re-projection).
    pub t: Real,
    pub kind: RayKind,
    pub reason: Option<RejectReason>,
    /// The walk that found the ray (or lost it): walked rays only.
    pub walk: Option<WalkRecord>,
}

/// A walk of the iterative cast: where it started, how many triangles it tested, and, when
/// it found none, why it stopped. From its start the viewer retraces its path (the walk is
/// deterministic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WalkRecord {
    pub from: u32,
    pub steps: u32,
    pub stop: Option<WalkStop>,
}

impl RayRecord {
    /// The ray came from the iterative cast (found or lost by a walk), not a complete one.
    pub fn iterative(&self) -> bool {
        self.walk.is_some()
    }

    /// A lost inner ray of `vertex` on `target`.
    pub fn lost(cloth: u32, vertex: u32, target: Target, walk: WalkRecord) -> Self {
        Self {
            cloth,
            vertex,
            side: RaySide::Inner,
            target,
            triangle: None,
            t: Real::INFINITY,
            kind: RayKind::Lost,
            reason: None,
            walk: Some(walk),
        }
    }

    /// The one record of a culled vertex on `target`: no ray was cast.
    pub fn culled(cloth: u32, vertex: u32, target: Target) -> Self {
        Self {
            cloth,
            vertex,
            side: RaySide::Inner,
            target,
            triangle: None,
            t: Real::INFINITY,
            kind: RayKind::Culled,
            reason: None,
            walk: None,
        }
    }
}

/// A ray's hit as the classification needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHitInfo {
    pub triangle: u32,
    pub t: Real,
    /// The hit triangle's unit normal (counter-clockwise front).
    pub normal: Vec3,
    /// Unit ray direction.
    pub dir: Vec3,
}

impl RayHitInfo {
    /// Eq. 3.3: the ray vector projected on the hit normal.
    pub fn reprojected_length(&self) -> Real {
        (self.dir * self.t).dot(&self.normal).abs()
    }

    /// The length the classification compares: re-projected, or the raw ray's when the
    /// re-projection is switched off.
    pub fn length(&self, reproject: bool) -> Real {
        if reproject {
            self.reprojected_length()
        } else {
            self.t
        }
    }

    /// The direction a contact pushes the vertex to reach side `wanted` of the hit triangle:
    /// the triangle's normal (Eq. 3.3), or without re-projection along the ray's line, turned
    /// to that side (the raw ray, whose tangential part is the error Tables 3.3 and 3.4 measure).
    pub fn separation(&self, wanted: Real, reproject: bool) -> Vec3 {
        let normal = self.normal * wanted;
        let along = self.dir.dot(&normal);
        if reproject || along.abs() < 1e-9 {
            normal
        } else {
            self.dir * along.signum()
        }
    }

    /// The ray meets the triangle's back: its origin is inside a closed volume.
    pub fn hits_back(&self) -> bool {
        self.dir.dot(&self.normal) > 0.0
    }
}

/// cloth → volume for one vertex (§4.3 b): both rays inside keep only the shorter as the
/// collision; a front hit is a collision within `e`, a prediction within `d_pred`.
pub fn cloth_to_volume(
    inner: Option<&RayHitInfo>,
    outer: Option<&RayHitInfo>,
    e: Real,
    d_pred: Real,
    reproject: bool,
) -> [(RayKind, Option<RejectReason>); 2] {
    let front = |hit: Option<&RayHitInfo>| match hit {
        None => (RayKind::Rejected, Some(RejectReason::NoHit)),
        Some(h) if h.hits_back() => (RayKind::Collision, None),
        Some(h) => thick_rule(h.length(reproject), e, d_pred),
    };
    match (inner, outer) {
        (Some(i), Some(o)) if i.hits_back() && o.hits_back() => {
            let longer = (RayKind::Rejected, Some(RejectReason::LongerWayOut));
            if i.length(reproject) <= o.length(reproject) {
                [(RayKind::Collision, None), longer]
            } else {
                [longer, (RayKind::Collision, None)]
            }
        }
        _ => [front(inner), front(outer)],
    }
}

/// cloth → cloth (§4.3 c), also the thick rule of a front hit: collision under the summed
/// half thicknesses, prediction within `d_pred`.
pub fn thick_rule(length: Real, thickness: Real, d_pred: Real) -> (RayKind, Option<RejectReason>) {
    if length < thickness {
        (RayKind::Collision, None)
    } else if length <= d_pred {
        (RayKind::Prediction, None)
    } else {
        (RayKind::Rejected, Some(RejectReason::TooFar))
    }
}

/// volume → cloth (§4.3 a): the inner ray collides only when the cloth is nearer than half the
/// way through the source volume; the outer ray follows the thick rule.
pub fn volume_to_cloth_inner(length: Real, exit_distance: Real) -> (RayKind, Option<RejectReason>) {
    if length <= exit_distance / 2.0 {
        (RayKind::Collision, None)
    } else {
        (RayKind::Rejected, Some(RejectReason::TooFar))
    }
}

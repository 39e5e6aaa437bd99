//! Hermann's acceptance rules for a volume → volume ray (spec 002 §3.1) and the prediction
//! rule of the outer ray (§3.3), on lengths re-projected first when asked (§3.2: classify
//! the length the response will use).

use super::record::{RigidRayClass, RigidRayReject};
use crate::geom::{Real, Vec3};

/// What the inner ray met: the closest target triangle along it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InnerHit {
    pub t: Real,
    /// The hit triangle's unit outward normal.
    pub normal: Vec3,
    /// The unit ray direction.
    pub dir: Vec3,
}

/// What the outer ray met.
pub type OuterHit = InnerHit;

impl InnerHit {
    /// The length handed to the response: Eq. 3.3's `r·n` (the distance to the hit
    /// triangle's plane) or the raw ray length.
    pub fn length(&self, reproject: bool) -> Real {
        if reproject {
            (self.dir * self.t).dot(&self.normal).abs()
        } else {
            self.t
        }
    }
}

pub type Verdict = (RigidRayClass, Option<RigidRayReject>);

/// The inner ray collides when it meets the inside of a target face (condition 2) before
/// leaving its own body at `exit_m` (condition 1).
pub fn classify_inner(hit: Option<&InnerHit>, exit_m: Real) -> Verdict {
    match hit {
        None => (RigidRayClass::Rejected, Some(RigidRayReject::NoHit)),
        Some(h) if h.dir.dot(&h.normal) <= 0.0 => {
            (RigidRayClass::Rejected, Some(RigidRayReject::FrontFace))
        }
        Some(h) if h.t >= exit_m => (RigidRayClass::Rejected, Some(RigidRayReject::LeftSource)),
        Some(_) => (RigidRayClass::Collision, None),
    }
}

/// The outer ray predicts when it meets the outer side of a target face within `d_pred`.
pub fn classify_outer(hit: Option<&OuterHit>, d_pred: Real, reproject: bool) -> Verdict {
    match hit {
        None => (RigidRayClass::Rejected, Some(RigidRayReject::NoHit)),
        Some(h) if h.dir.dot(&h.normal) >= 0.0 => {
            (RigidRayClass::Rejected, Some(RigidRayReject::BackFace))
        }
        Some(h) if h.length(reproject) > d_pred => {
            (RigidRayClass::Rejected, Some(RigidRayReject::TooFar))
        }
        Some(_) => (RigidRayClass::Prediction, None),
    }
}

//! Our poses and hulls as parry3d sees them, for the oracle tests and benches that compare
//! against it (parry uses glam types: the conversion is ours to write, once).

// Each test or bench includes this module and uses part of it.
#![allow(dead_code)]

use collidoscope::geom::{Point3, Pose};
use parry3d_f64::math::{Pose as PPose, Rotation, Vector as PVec};
use parry3d_f64::shape::ConvexPolyhedron as PHull;

pub fn to_parry(p: &Pose) -> PPose {
    let q = p.rotation.quaternion();
    let t = p.translation.vector;
    PPose::from_parts(
        PVec::new(t.x, t.y, t.z),
        Rotation::from_xyzw(q.i, q.j, q.k, q.w),
    )
}

pub fn point(p: &Point3) -> PVec {
    PVec::new(p.x, p.y, p.z)
}

/// Parry's hull of the given vertices (ours, so that both compare the same shape).
pub fn parry_hull(vertices: &[Point3]) -> Option<PHull> {
    let pts: Vec<PVec> = vertices.iter().map(point).collect();
    PHull::from_convex_hull(&pts)
}

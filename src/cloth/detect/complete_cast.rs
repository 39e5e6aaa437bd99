//! A complete cast through a hierarchy (as against a walk from last step's triangle), counting
//! its ray–triangle tests when the bench asks for them.

use super::result::CastWork;
use crate::bvh::{Bvh, BvhEvent};
use crate::geom::{Aabb, Ray, RayHit, Real, TriMesh};
use crate::trace::{NoProbe, Probe, TraceEvent};

/// Counts ray–triangle tests of a complete cast through the hierarchy.
struct TriangleTestCounter(u64);

impl Probe for TriangleTestCounter {
    fn enabled(&self) -> bool {
        true
    }
    fn record(&mut self, make: impl FnOnce() -> TraceEvent) {
        if let crate::families::EventKind::Bvh(BvhEvent::RayStep {
            triangle: Some(_), ..
        }) = make().kind
        {
            self.0 += 1;
        }
    }
}

/// The closest hit of `ray` on `mesh` within `max_t`; with `count_tests` (slower: the bench's
/// second figure) its ray–triangle tests are added to `work`.
pub(super) fn complete_cast(
    bvh: &Bvh<Aabb>,
    mesh: &TriMesh,
    ray: &Ray,
    max_t: Real,
    body: u32,
    count_tests: bool,
    work: &mut CastWork,
) -> Option<RayHit> {
    if count_tests {
        let mut counter = TriangleTestCounter(0);
        let hit = bvh.cast_ray(mesh, ray, max_t, body, &mut counter);
        work.ray_triangle_tests += counter.0;
        hit
    } else {
        bvh.cast_ray(mesh, ray, max_t, body, &mut NoProbe)
    }
}

//! GJK (Gilbert, Johnson & Keerthi 1988, with van den Bergen's termination): the distance
//! between two convex support maps as the distance from the origin to their Minkowski
//! difference, walked one support point at a time.

use super::event::{GjkProbe, GjkStatus, GjkStep, IdPair, report};
use super::minkowski::minkowski_support;
use super::simplex::Simplex;
use crate::convex::support::SupportMap;
use crate::geom::{Point3, Real, Vec3};
use crate::trace::{BodyId, NoProbe, Verdict};

/// Relative duality gap at which the distance counts as converged: the reported distance
/// exceeds the true one by at most this fraction.
pub const RELATIVE_TOLERANCE: Real = 1e-12;

/// GJK on polytopes ends in a handful of steps; this cap only guards against a bug or a
/// pathological support map, and is reported when reached.
pub const MAX_ITERATIONS: u32 = 128;

/// A squared distance this small relative to the squared size of the support points is
/// rounding noise on a touching or overlapping pair (distance below 1e-12 of the size): it
/// counts as zero, and EPA takes over.
const ZERO_DISTANCE2: Real = 1e-24;

/// What GJK found.
#[derive(Clone, Copy, Debug)]
pub struct GjkResult {
    /// Zero when the shapes touch or overlap (then `penetrating` is set).
    pub distance: Real,
    /// The closest points on A and on B, in world space (equal when penetrating: a point of
    /// the overlap's boundary simplex, not a witness of depth; EPA gives those).
    pub point_a: Point3,
    pub point_b: Point3,
    /// The final simplex: its vertices carry the support ids on both shapes.
    pub simplex: Simplex,
    pub iterations: u32,
    pub penetrating: bool,
    pub status: GjkStatus,
}

impl GjkResult {
    /// The support-vertex id pairs of the final simplex, for a warm start or for display.
    pub fn simplex_ids(&self) -> Vec<IdPair> {
        self.simplex.vertices().iter().map(|v| v.ids).collect()
    }

    /// The unit direction from A to B along the closest points (None when penetrating).
    pub fn separating_axis(&self) -> Option<Vec3> {
        (self.point_b - self.point_a).try_normalize(0.0)
    }
}

/// Where the previous query left off: its search direction, so a coherent query starts next
/// to its answer (van den Bergen's frame coherence without keeping the vertices).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GjkWarmStart {
    pub direction: Option<Vec3>,
}

impl GjkWarmStart {
    pub fn from_result(r: &GjkResult) -> Self {
        let v = r.simplex.point();
        Self {
            direction: (v.norm_squared() > 0.0 && v.iter().all(|c| c.is_finite())).then_some(v),
        }
    }
}

/// The distance between two convex shapes given in world space (wrap each in `Posed`).
pub fn gjk_distance<A, B, G>(a: &A, b: &B, probe: &mut G) -> GjkResult
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    G: GjkProbe + ?Sized,
{
    gjk_distance_warm(a, b, GjkWarmStart::default(), [0, 1], probe)
}

/// The same, starting from `warm` and naming `bodies` in the events.
pub fn gjk_distance_warm<A, B, G>(
    a: &A,
    b: &B,
    warm: GjkWarmStart,
    bodies: [BodyId; 2],
    probe: &mut G,
) -> GjkResult
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    G: GjkProbe + ?Sized,
{
    run(a, b, warm, bodies, probe, None)
}

/// The unit axis from A to B when the shapes are further apart than `limit`, else none: the
/// verdict of `gjk_distance_warm`'s distance, reached as soon as GJK's bounds settle it.
/// Each support point bounds the distance from below and each simplex from above, so most
/// pairs are decided well before the distance converges.
pub fn gjk_apart_beyond<A, B>(a: &A, b: &B, warm: GjkWarmStart, limit: Real) -> Option<Vec3>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let r = run(
        a,
        b,
        warm,
        [0, 1],
        &mut NoProbe,
        Some(Limit::either_side(limit)),
    );
    if r.penetrating || r.distance <= limit {
        return None;
    }
    r.separating_axis()
}

/// `gjk_distance_warm`'s answer when the distance is at most `cap`, or none as soon as a
/// support point shows it is further: a caller that clamps the distance to `cap` gets the same
/// value from far fewer steps on a distant pair.
pub fn gjk_distance_within<A, B>(a: &A, b: &B, warm: GjkWarmStart, cap: Real) -> Option<GjkResult>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let r = run(a, b, warm, [0, 1], &mut NoProbe, Some(Limit::above(cap)));
    (r.status != GjkStatus::Decided).then_some(r)
}

/// Where GJK may stop short of converging: once the distance is known to be above `value`,
/// and (with `settle_below`) once it is known to be at most `value`.
#[derive(Clone, Copy)]
struct Limit {
    value: Real,
    settle_below: bool,
}

impl Limit {
    fn above(value: Real) -> Self {
        Self {
            value,
            settle_below: false,
        }
    }

    fn either_side(value: Real) -> Self {
        Self {
            value,
            settle_below: true,
        }
    }
}

/// GJK's loop; with a `limit`, it stops once the distance is known to lie on its side of it.
fn run<A, B, G>(
    a: &A,
    b: &B,
    warm: GjkWarmStart,
    bodies: [BodyId; 2],
    probe: &mut G,
    limit: Option<Limit>,
) -> GjkResult
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    G: GjkProbe + ?Sized,
{
    let start = warm.direction.unwrap_or_else(|| Vec3::new(1.0, 0.0, 0.0));
    // The first vertex is the support against the start direction's opposite, so the search
    // begins on the side of A − B facing the origin when the warm direction is right.
    let first = minkowski_support(a, b, &-start);
    let mut simplex = Simplex::new(first);
    let mut v = first.w;
    let mut dist2 = v.norm_squared();
    let mut iterations = 0u32;
    let mut scale2 = dist2;
    let status = loop {
        if dist2 == 0.0 {
            break GjkStatus::Penetrating;
        }
        if iterations >= MAX_ITERATIONS {
            break GjkStatus::IterationCap;
        }
        // The simplex's point lies in A − B, so the distance is at most its length...
        if limit.is_some_and(|l| l.settle_below && dist2.sqrt() <= l.value) {
            break GjkStatus::Decided;
        }
        iterations += 1;
        // Along −v: the direction that lowers the distance.
        let w = minkowski_support(a, b, &-v);
        // ...and at least the reach of A − B toward the origin along v.
        if limit.is_some_and(|l| v.dot(&w.w) > l.value * dist2.sqrt()) {
            break GjkStatus::Decided;
        }
        // v·v − v·w bounds how far |v| is above the true distance (times |v|).
        let gap = dist2 - v.dot(&w.w);
        if gap <= RELATIVE_TOLERANCE * dist2 {
            break GjkStatus::Converged;
        }
        if simplex.contains(&w) {
            break GjkStatus::NoProgress;
        }
        let before = simplex;
        simplex.push(w);
        simplex.reduce();
        let next = simplex.point();
        let next2 = next.norm_squared();
        report(probe, bodies, Verdict::Info, || {
            simplex_step(&simplex, iterations, next)
        });
        if simplex.len == 4 {
            break GjkStatus::Penetrating;
        }
        if !next2.is_finite() || next2 >= dist2 {
            // Rounding left the new simplex no nearer: the previous one is the answer.
            simplex = before;
            break GjkStatus::NoProgress;
        }
        scale2 = scale2.max(w.w.norm_squared());
        if next2 <= ZERO_DISTANCE2 * scale2 {
            v = next;
            dist2 = 0.0;
            continue;
        }
        v = next;
        dist2 = next2;
    };
    // Stalled this close, the origin is on the boundary or inside: rounding, not a gap.
    let status = if dist2 <= ZERO_DISTANCE2 * scale2 {
        GjkStatus::Penetrating
    } else {
        status
    };
    let penetrating = status == GjkStatus::Penetrating;
    let (point_a, point_b) = simplex.witnesses();
    let distance = if penetrating { 0.0 } else { dist2.sqrt() };
    GjkResult {
        distance,
        point_a,
        point_b,
        simplex,
        iterations,
        penetrating,
        status,
    }
}

fn simplex_step(s: &Simplex, iteration: u32, v: Vec3) -> GjkStep {
    let mut ids = [[u32::MAX; 2]; 4];
    for (slot, vert) in ids.iter_mut().zip(s.vertices()) {
        *slot = vert.ids;
    }
    GjkStep::Simplex {
        iteration: iteration.min(u16::MAX as u32) as u16,
        len: s.len as u8,
        ids,
        distance: v.norm() as f32,
        direction: [-v.x as f32, -v.y as f32, -v.z as f32],
    }
}

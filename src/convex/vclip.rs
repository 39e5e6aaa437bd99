//! V-Clip (Mirtich 1998): the closest features of two convex polyhedra, found by walking
//! feature pairs until each closest point lies in the Voronoi region of the other feature.
//!
//! States are pairs of feature kinds: V-V, V-E, E-E and V-F can end the walk; E-F never does
//! (it either moves on or finds the edge through the face: penetration). Edges are clipped
//! against regions; where clipping alone does not decide, the sign of the distance's
//! derivative at the clip points does. A vertex below a face inside its prism is a local
//! minimum, escaped by a scan of every face of the other polyhedron. Each move either lowers
//! the distance or keeps it and lowers the feature dimension, so the walk ends; an iteration
//! cap stands guard against rounding anyway, and is reported when hit.

use super::clip::{Exclusion, clip_edge};
use super::closest::{feature_distance, feature_points};
use super::event::{ConvexEvent, Outcome, Reason};
use super::{Feature, Placed, RegionPlane, region_planes};
use crate::geom::closest::{point_segment, segment_segment};
use crate::geom::{Point3, Real, Segment, Vec3, farthest_along};
use crate::trace::{BodyId, Probe, TraceEvent, Verdict};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VClipResult {
    /// The closest features (on `a`, on `b`); when penetrating, the features that proved it.
    pub features: [Feature; 2],
    pub outcome: Outcome,
    /// The distance; zero when touching or penetrating.
    pub distance: Real,
    /// The closest points in the world (on `a`, on `b`).
    pub closest: [Point3; 2],
    pub iterations: u32,
}

impl VClipResult {
    pub fn penetrating(&self) -> bool {
        self.outcome == Outcome::Penetrating
    }
}

/// What one state decided.
enum Step {
    Move([Feature; 2], Reason, Option<(Real, Real)>),
    Done(Outcome),
}

impl Step {
    /// The same decision seen with the two polyhedra swapped back.
    fn swapped(self) -> Step {
        match self {
            Step::Move([x, y], r, c) => Step::Move([y, x], r, c),
            done => done,
        }
    }
}

/// The closest features of `a` and `b`, starting from `start` (last frame's answer, for
/// coherent motion) or from their first vertices. Every move is reported to `probe`.
pub fn vclip<P: Probe + ?Sized>(
    a: &Placed,
    b: &Placed,
    start: Option<[Feature; 2]>,
    bodies: [BodyId; 2],
    probe: &mut P,
) -> VClipResult {
    let warm = start.is_some_and(|[fa, fb]| a.shape.contains(fa) && b.shape.contains(fb));
    let mut pair = match start {
        Some(p) if warm => p,
        _ => cold_start(a, b),
    };
    let mut walk = Walk {
        a,
        b,
        tol: a.tolerance().max(b.tolerance()),
        planes: Vec::with_capacity(8),
    };
    let cap = 4 * (a.shape.feature_count() + b.shape.feature_count()) as u32 + 64;
    let mut iterations = 0;
    let outcome = loop {
        if iterations == cap {
            break Outcome::IterationCap;
        }
        iterations += 1;
        match walk.step(pair) {
            Step::Done(outcome) => break outcome,
            Step::Move(next, reason, clip) => {
                if probe.enabled() {
                    let distance = feature_distance(a, next[0], b, next[1]) as f32;
                    let event = ConvexEvent::Step {
                        bodies,
                        from: pair,
                        to: next,
                        reason,
                        clip: clip.map(|(lo, hi)| [lo as f32, hi as f32]),
                        distance,
                    };
                    crate::trace_event!(probe, TraceEvent::new(Verdict::Info, event));
                }
                pair = next;
            }
        }
    };
    let closest = feature_points(a, pair[0], b, pair[1]);
    let distance = match outcome {
        Outcome::Separated | Outcome::IterationCap => (closest.0 - closest.1).norm(),
        Outcome::Touching | Outcome::Penetrating => 0.0,
    };
    let result = VClipResult {
        features: pair,
        outcome,
        distance,
        closest: [closest.0, closest.1],
        iterations,
    };
    crate::trace_event!(
        probe,
        TraceEvent::new(
            match outcome {
                Outcome::Separated => Verdict::Miss,
                Outcome::Touching | Outcome::Penetrating => Verdict::Hit,
                Outcome::IterationCap => Verdict::Warning,
            },
            ConvexEvent::End {
                bodies,
                features: pair,
                outcome,
                distance,
                iterations,
                warm,
            },
        )
    );
    result
}

/// Without a last answer, the vertices of each shape farthest toward the other's origin: one
/// pass over the vertices saves most of the walk across the shapes.
fn cold_start(a: &Placed, b: &Placed) -> [Feature; 2] {
    let toward = b.pose.translation.vector - a.pose.translation.vector;
    let farthest = |p: &Placed, dir: Vec3| {
        let local = p.pose.rotation.inverse_transform_vector(&dir);
        Feature::Vertex(farthest_along(&p.shape.vertices, &local) as u32)
    };
    [farthest(a, toward), farthest(b, -toward)]
}

struct Walk<'a, 'p> {
    a: &'a Placed<'p>,
    b: &'a Placed<'p>,
    tol: Real,
    planes: Vec<RegionPlane>,
}

impl Walk<'_, '_> {
    fn step(&mut self, [fa, fb]: [Feature; 2]) -> Step {
        use Feature::*;
        let (a, b) = (self.a, self.b);
        match (fa, fb) {
            (Vertex(i), Vertex(j)) => self.vv(a, i, b, j),
            (Vertex(i), Edge(j)) => self.ve(a, i, b, j),
            (Edge(i), Vertex(j)) => self.ve(b, j, a, i).swapped(),
            (Edge(i), Edge(j)) => self.ee(a, i, b, j),
            (Vertex(i), Face(j)) => self.vf(a, i, b, j),
            (Face(i), Vertex(j)) => self.vf(b, j, a, i).swapped(),
            (Edge(i), Face(j)) => self.ef(a, i, b, j),
            (Face(i), Edge(j)) => self.ef(b, j, a, i).swapped(),
            (Face(i), Face(_)) => {
                let v = a.shape.faces[i as usize][0];
                Step::Move([Vertex(v), fb], Reason::FaceFaceStart, None)
            }
        }
    }

    /// The plane of `x`'s region that `q` violates most, beyond the tolerance.
    fn most_violated(&mut self, p: &Placed, x: Feature, q: &Point3) -> Option<Feature> {
        region_planes(p, x, &mut self.planes);
        let mut worst = (-self.tol, None);
        for plane in &self.planes {
            let s = plane.signed(q);
            if s < worst.0 {
                worst = (s, Some(plane.neighbour));
            }
        }
        worst.1
    }

    /// The first plane of `x`'s region that `q` violates, in the region's plane order.
    fn first_violated(&mut self, p: &Placed, x: Feature, q: &Point3) -> Option<Feature> {
        region_planes(p, x, &mut self.planes);
        self.planes
            .iter()
            .find(|plane| plane.signed(q) < -self.tol)
            .map(|plane| plane.neighbour)
    }

    /// Clips edge `seg` (a feature of the other polyhedron) against the region of `x` on `p`
    /// and decides, by exclusion or by the derivative checks, whether `x` must move.
    fn clip_decides(
        &mut self,
        p: &Placed,
        x: Feature,
        seg: &Segment,
    ) -> Option<(Feature, Reason, (Real, Real))> {
        region_planes(p, x, &mut self.planes);
        let c = clip_edge(&seg.a, &seg.b, &self.planes);
        let interval = (c.lo, c.hi);
        if let Exclusion::Simple(n) = c.exclusion {
            return Some((n, Reason::EdgeExcluded, interval));
        }
        if let Some(n) = c.n_lo
            && self.derivative(p, x, seg, c.lo) > 0.0
        {
            return Some((n, Reason::DerivativeLow, interval));
        }
        if let Some(n) = c.n_hi
            && self.derivative(p, x, seg, c.hi) < 0.0
        {
            return Some((n, Reason::DerivativeHigh, interval));
        }
        if c.exclusion == Exclusion::Compound {
            // Mirtich shows a derivative check succeeds on compound exclusion; rounding can
            // make both fail, and then either neighbour is a safe move.
            let n = c.n_lo.or(c.n_hi)?;
            return Some((n, Reason::EdgeCompoundExcluded, interval));
        }
        None
    }

    /// The sign of d/dλ of the distance from `seg(λ)` to feature `x`, zeroed within rounding.
    fn derivative(&self, p: &Placed, x: Feature, seg: &Segment, l: Real) -> Real {
        let u = seg.b - seg.a;
        let q = seg.at(l);
        let d = match x {
            Feature::Vertex(v) => u.dot(&(q - p.vertex(v))),
            Feature::Edge(e) => u.dot(&(q - point_segment(&q, &p.edge(e)).0)),
            Feature::Face(f) => {
                let (n, off) = p.face_plane(f);
                u.dot(&n) * (n.dot(&q.coords) - off)
            }
        };
        if d.abs() <= self.tol * u.norm() {
            0.0
        } else {
            d
        }
    }

    fn vv(&mut self, a: &Placed, i: u32, b: &Placed, j: u32) -> Step {
        let (va, vb) = (Feature::Vertex(i), Feature::Vertex(j));
        if let Some(n) = self.most_violated(b, vb, &a.vertex(i)) {
            return Step::Move([va, n], Reason::OutsideRegion, None);
        }
        if let Some(n) = self.most_violated(a, va, &b.vertex(j)) {
            return Step::Move([n, vb], Reason::OutsideRegion, None);
        }
        Step::Done(Outcome::Separated)
    }

    /// Vertex `i` of `a` against edge `j` of `b`.
    fn ve(&mut self, a: &Placed, i: u32, b: &Placed, j: u32) -> Step {
        let (v, e) = (Feature::Vertex(i), Feature::Edge(j));
        if let Some(n) = self.first_violated(b, e, &a.vertex(i)) {
            return Step::Move([v, n], Reason::OutsideRegion, None);
        }
        match self.clip_decides(a, v, &b.edge(j)) {
            Some((n, reason, clip)) => Step::Move([n, e], reason, Some(clip)),
            None => Step::Done(Outcome::Separated),
        }
    }

    fn ee(&mut self, a: &Placed, i: u32, b: &Placed, j: u32) -> Step {
        let (ea, eb) = (Feature::Edge(i), Feature::Edge(j));
        if let Some((n, reason, clip)) = self.clip_decides(a, ea, &b.edge(j)) {
            return Step::Move([n, eb], reason, Some(clip));
        }
        if let Some((n, reason, clip)) = self.clip_decides(b, eb, &a.edge(i)) {
            return Step::Move([ea, n], reason, Some(clip));
        }
        Step::Done(Outcome::Separated)
    }

    /// Vertex `i` of `a` against face `j` of `b`.
    fn vf(&mut self, a: &Placed, i: u32, b: &Placed, j: u32) -> Step {
        let (v, f) = (Feature::Vertex(i), Feature::Face(j));
        let x = a.vertex(i);
        if let Some(n) = self.most_violated(b, f, &x) {
            return Step::Move([v, n], Reason::OutsideRegion, None);
        }
        let (n, d) = b.face_plane(j);
        let dv = n.dot(&x.coords) - d;
        // An edge of the vertex leading toward the face's plane (from above or from below).
        for &e in &a.shape.vertex_edges[i as usize] {
            let dw = n.dot(&a.vertex(a.shape.other_end(e, i)).coords) - d;
            let closer = if dv > 0.0 {
                dw < dv - self.tol
            } else {
                dw > dv + self.tol
            };
            if closer {
                return Step::Move([Feature::Edge(e), f], Reason::EdgeTowardFace, None);
            }
        }
        if dv > self.tol {
            return Step::Done(Outcome::Separated);
        }
        if dv >= -self.tol {
            return Step::Done(Outcome::Touching);
        }
        // Below the face inside its prism: a local minimum, or the vertex is inside `b`.
        let mut best = (Real::NEG_INFINITY, j);
        for g in 0..b.shape.faces.len() as u32 {
            let (ng, dg) = b.face_plane(g);
            let s = ng.dot(&x.coords) - dg;
            if s > best.0 {
                best = (s, g);
            }
        }
        if best.0 <= self.tol {
            Step::Done(Outcome::Penetrating)
        } else {
            Step::Move([v, Feature::Face(best.1)], Reason::LocalMinimum, None)
        }
    }

    /// Edge `i` of `a` against face `j` of `b`.
    fn ef(&mut self, a: &Placed, i: u32, b: &Placed, j: u32) -> Step {
        let (e, f) = (Feature::Edge(i), Feature::Face(j));
        let seg = a.edge(i);
        region_planes(b, f, &mut self.planes);
        let c = clip_edge(&seg.a, &seg.b, &self.planes);
        let interval = Some((c.lo, c.hi));
        match c.exclusion {
            Exclusion::Simple(n) => return Step::Move([e, n], Reason::EdgeExcluded, interval),
            Exclusion::Compound => {
                // The nearest point of the face's boundary: on an edge, or at a corner, which
                // wins over its two edges (at a corner the edges tie, and choosing one can
                // send the walk back here).
                let nearest = b.shape.face_edges[j as usize]
                    .iter()
                    .map(|&g| {
                        let side = b.edge(g);
                        let (_, on) = segment_segment(&seg, &side);
                        let tail = b.shape.edges[g as usize][0];
                        let corner = if on.t <= 1e-9 {
                            Some(tail)
                        } else if on.t >= 1.0 - 1e-9 {
                            Some(b.shape.other_end(g, tail))
                        } else {
                            None
                        };
                        (feature_distance(a, e, b, Feature::Edge(g)), g, corner)
                    })
                    .min_by(|x, y| x.0.total_cmp(&y.0));
                if let Some((_, g, corner)) = nearest {
                    let to = corner.map_or(Feature::Edge(g), Feature::Vertex);
                    return Step::Move([e, to], Reason::EdgeCompoundExcluded, interval);
                }
            }
            Exclusion::None => {}
        }
        let (n, d) = b.face_plane(j);
        let dl = n.dot(&seg.at(c.lo).coords) - d;
        let dh = n.dot(&seg.at(c.hi).coords) - d;
        let (lo, hi) = (dl.min(dh), dl.max(dh));
        if lo < -self.tol && hi >= -self.tol {
            // The clipped edge crosses (or starts on and dives below) the face itself.
            return Step::Done(Outcome::Penetrating);
        }
        if lo.abs() <= self.tol || hi.abs() <= self.tol {
            return Step::Done(Outcome::Touching);
        }
        // The edge stays on one side: its distance to the plane is monotone along it.
        let u = seg.b - seg.a;
        let slope = u.dot(&n) * dl.signum();
        let [tail, head] = a.shape.edges[i as usize];
        if slope >= 0.0 {
            match c.n_lo {
                Some(nl) => Step::Move([e, nl], Reason::DerivativeLow, interval),
                None => Step::Move([Feature::Vertex(tail), f], Reason::TowardEdgeEnd, interval),
            }
        } else {
            match c.n_hi {
                Some(nh) => Step::Move([e, nh], Reason::DerivativeHigh, interval),
                None => Step::Move([Feature::Vertex(head), f], Reason::TowardEdgeEnd, interval),
            }
        }
    }
}

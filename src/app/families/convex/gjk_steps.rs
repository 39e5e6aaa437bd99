//! One GJK (and EPA) query as the GJK step view reads it. The events name support vertices by
//! their ids on A and on B; here each is rebuilt into its two world points and its point of
//! the Minkowski difference A − B, at the poses shown. Positions count the steps: the GJK
//! iterations the engine reported, then EPA's expansions, then the end.
//!
//! The recorded events are used when the frame has them (the convex scenes cross-check with
//! GJK every frame); otherwise, and under a live drag, the engine's own `gjk_query` runs again
//! here at the poses shown, with a probe that keeps its events.

use super::shapes::PosedShape;
use crate::convex::ConvexEvent;
use crate::convex::gjk::simplex::{Simplex, SimplexVertex};
use crate::convex::gjk::{
    GjkEvent, GjkQuery, GjkStatus, GjkStep, GjkWarmStart, IdPair, gjk_query, minkowski_support,
};
use crate::convex::support::Posed;
use crate::geom::{Point3, Real, Vec3};
use crate::trace::{EventKind, NoProbe, TraceEvent};

/// The start direction of a cold query: the first support point is A's farthest along −x
/// minus B's farthest along +x (what `gjk_distance` does without a warm start). The view needs
/// it to tell the first point from the one iteration 1 added; a unit test keeps it honest.
const COLD_START: Vec3 = Vec3::new(1.0, 0.0, 0.0);

/// One GJK iteration: the simplex it started from, the direction it searched, the support
/// point it found, and the simplex left after keeping the smallest face nearest the origin.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// Index of the event in its trace (`None` for a re-run's).
    pub event: Option<usize>,
    pub number: u16,
    pub before: Vec<SimplexVertex>,
    /// The search direction: toward the origin from the nearest point so far (−v).
    pub direction: Vec3,
    pub added: Option<SimplexVertex>,
    pub after: Vec<SimplexVertex>,
    /// The point of the new simplex nearest the origin (v), and its witnesses on A and B.
    pub nearest: Vec3,
    pub witnesses: (Point3, Point3),
    /// |v| as the engine reported it: the distance so far, an upper bound.
    pub distance: f64,
}

/// One EPA expansion: the polytope face nearest the origin, and the support point added
/// beyond it along its normal.
#[derive(Clone, Debug, PartialEq)]
pub struct Expansion {
    pub event: Option<usize>,
    pub number: u16,
    pub face: [SimplexVertex; 3],
    pub depth: f64,
    pub normal: Vec3,
    pub added: SimplexVertex,
    /// Every support point of the polytope so far (GJK's last simplex, the faces seen and the
    /// points added before this one): its hull is the polytope drawn.
    pub polytope: Vec<SimplexVertex>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct End {
    pub event: Option<usize>,
    pub status: GjkStatus,
    pub distance: f64,
    pub depth: f64,
    pub iterations: u32,
    pub epa_iterations: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The frame's recorded events.
    Recorded,
    /// The engine's query run again in the viewer at the poses shown.
    Rerun,
}

/// The query's steps and its answer (EPA's normal and witnesses are no event's fields: the
/// answer always comes from the engine run at the poses shown).
#[derive(Clone, Debug)]
pub struct GjkSteps {
    pub source: Source,
    /// The support point the query started from.
    pub first: Option<SimplexVertex>,
    pub iterations: Vec<Iteration>,
    pub expansions: Vec<Expansion>,
    pub end: Option<End>,
    pub answer: GjkQuery,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Step<'a> {
    Iteration(&'a Iteration),
    Expansion(&'a Expansion),
    End,
}

/// A support vertex of A − B from its ids, at the poses shown (`None` for an id the shape
/// does not have).
fn vertex(a: &PosedShape, b: &PosedShape, ids: IdPair) -> Option<SimplexVertex> {
    let (ia, ib) = (ids[0] as usize, ids[1] as usize);
    if ia >= a.shape.vertices.len() || ib >= b.shape.vertices.len() {
        return None;
    }
    Some(SimplexVertex::new(
        a.pose * a.shape.vertices[ia],
        b.pose * b.shape.vertices[ib],
        ids,
    ))
}

fn posed(s: &PosedShape) -> Posed<'_, crate::convex::Polyhedron> {
    Posed {
        shape: &s.shape,
        pose: &s.pose,
    }
}

/// The point of a simplex nearest the origin and its witnesses, by the engine's own
/// sub-algorithm (reducing an already reduced simplex keeps it and sets its weights).
fn nearest(verts: &[SimplexVertex]) -> Option<(Vec3, (Point3, Point3))> {
    let (first, rest) = verts.split_first()?;
    let mut s = Simplex::new(*first);
    for v in rest.iter().take(3) {
        s.push(*v);
    }
    s.reduce();
    Some((s.point(), s.witnesses()))
}

/// The frame's GJK events between the pair's bodies (the last query, should there be several).
pub fn recorded(trace: &[TraceEvent], bodies: [u32; 2]) -> Vec<(usize, GjkEvent)> {
    let mut out: Vec<(usize, GjkEvent)> = Vec::new();
    let mut ended = false;
    for (i, e) in trace.iter().enumerate() {
        if let EventKind::Convex(ConvexEvent::Gjk(g)) = &e.kind
            && g.bodies == bodies
        {
            if ended {
                out.clear();
            }
            ended = matches!(g.step, GjkStep::End { .. });
            out.push((i, g.clone()));
        }
    }
    out
}

/// The steps of one query, gathered event by event.
struct Reader<'a> {
    a: &'a PosedShape,
    b: &'a PosedShape,
    first: SimplexVertex,
    iterations: Vec<Iteration>,
    expansions: Vec<Expansion>,
    end: Option<End>,
    /// Every support point of EPA's polytope so far, each once.
    polytope: Vec<SimplexVertex>,
}

impl Reader<'_> {
    fn read(&mut self, event: Option<usize>, step: &GjkStep) {
        match step {
            GjkStep::Simplex {
                iteration,
                len,
                ids,
                distance,
                direction: _,
            } => self.iteration(event, *iteration, &ids[..(*len as usize).min(4)], *distance),
            GjkStep::Expand {
                iteration,
                face,
                depth,
                normal,
                added,
            } => {
                let normal = Vec3::new(normal[0] as Real, normal[1] as Real, normal[2] as Real);
                self.expansion(event, *iteration, face, *depth as f64, normal, *added);
            }
            GjkStep::End {
                status,
                distance,
                depth,
                iterations,
                epa_iterations,
                ..
            } => {
                self.end = Some(End {
                    event,
                    status: *status,
                    distance: *distance,
                    depth: *depth,
                    iterations: *iterations,
                    epa_iterations: *epa_iterations,
                });
            }
        }
    }

    /// A GJK iteration from the simplex it left (skipped when an id names no vertex).
    fn iteration(&mut self, event: Option<usize>, number: u16, ids: &[IdPair], distance: f32) {
        let Some(after) = ids
            .iter()
            .map(|&p| vertex(self.a, self.b, p))
            .collect::<Option<Vec<_>>>()
        else {
            return;
        };
        let (before, direction) = match self.iterations.last() {
            Some(prev) => (prev.after.clone(), -prev.nearest),
            None => (vec![self.first], -self.first.w),
        };
        // The support point found: the one vertex of the new simplex that the old one lacked
        // (GJK always keeps it).
        let added = after
            .iter()
            .find(|v| !before.iter().any(|u| u.ids == v.ids))
            .copied();
        let Some((nearest, witnesses)) = nearest(&after) else {
            return;
        };
        self.iterations.push(Iteration {
            event,
            number,
            before,
            direction,
            added,
            after,
            nearest,
            witnesses,
            distance: distance as f64,
        });
    }

    /// An EPA expansion; the polytope starts from GJK's last simplex.
    fn expansion(
        &mut self,
        event: Option<usize>,
        number: u16,
        face: &[IdPair; 3],
        depth: f64,
        normal: Vec3,
        added: IdPair,
    ) {
        if self.polytope.is_empty()
            && let Some(last) = self.iterations.last()
        {
            for v in last.after.clone() {
                self.keep(v);
            }
        }
        let face = face.map(|p| vertex(self.a, self.b, p));
        let (Some(f0), Some(f1), Some(f2), Some(w)) =
            (face[0], face[1], face[2], vertex(self.a, self.b, added))
        else {
            return;
        };
        for v in [f0, f1, f2] {
            self.keep(v);
        }
        self.expansions.push(Expansion {
            event,
            number,
            face: [f0, f1, f2],
            depth,
            normal,
            added: w,
            polytope: self.polytope.clone(),
        });
        self.keep(w);
    }

    fn keep(&mut self, v: SimplexVertex) {
        if !self.polytope.iter().any(|p| p.ids == v.ids) {
            self.polytope.push(v);
        }
    }
}

impl GjkSteps {
    /// The steps of the recorded events when there are any, else of a re-run here.
    pub fn of_pair(a: &PosedShape, b: &PosedShape, trace: Option<&[TraceEvent]>) -> GjkSteps {
        let events = trace.map_or_else(Vec::new, |t| recorded(t, [a.body, b.body]));
        if events.is_empty() {
            return Self::rerun(a, b);
        }
        let answer = gjk_query(
            &posed(a),
            &posed(b),
            GjkWarmStart::default(),
            [a.body, b.body],
            &mut NoProbe,
        );
        let events: Vec<(Option<usize>, GjkEvent)> =
            events.into_iter().map(|(i, e)| (Some(i), e)).collect();
        Self::build(a, b, &events, answer, Source::Recorded)
    }

    /// The engine's query at the poses shown, its events kept.
    pub fn rerun(a: &PosedShape, b: &PosedShape) -> GjkSteps {
        let mut events: Vec<GjkEvent> = Vec::new();
        let answer = gjk_query(
            &posed(a),
            &posed(b),
            GjkWarmStart::default(),
            [a.body, b.body],
            &mut events,
        );
        let events: Vec<(Option<usize>, GjkEvent)> =
            events.into_iter().map(|e| (None, e)).collect();
        Self::build(a, b, &events, answer, Source::Rerun)
    }

    fn build(
        a: &PosedShape,
        b: &PosedShape,
        events: &[(Option<usize>, GjkEvent)],
        answer: GjkQuery,
        source: Source,
    ) -> GjkSteps {
        let first = minkowski_support(&posed(a), &posed(b), &-COLD_START);
        let mut reader = Reader {
            a,
            b,
            first,
            iterations: Vec::new(),
            expansions: Vec::new(),
            end: None,
            polytope: Vec::new(),
        };
        for (event, e) in events {
            reader.read(*event, &e.step);
        }
        GjkSteps {
            source,
            first: Some(first),
            iterations: reader.iterations,
            expansions: reader.expansions,
            end: reader.end,
            answer,
        }
    }

    /// The last position: the end.
    pub fn last(&self) -> usize {
        self.iterations.len() + self.expansions.len()
    }

    pub fn step(&self, position: usize) -> Step<'_> {
        let n = self.iterations.len();
        if let Some(it) = self.iterations.get(position) {
            Step::Iteration(it)
        } else if let Some(ex) = position.checked_sub(n).and_then(|k| self.expansions.get(k)) {
            Step::Expansion(ex)
        } else {
            Step::End
        }
    }

    /// The trace event a position stands for.
    pub fn event_of(&self, position: usize) -> Option<usize> {
        match self.step(position) {
            Step::Iteration(it) => it.event,
            Step::Expansion(ex) => ex.event,
            Step::End => self.end.and_then(|e| e.event),
        }
    }

    /// The position of a trace event of this query.
    pub fn position_of(&self, event: usize) -> Option<usize> {
        (0..=self.last()).find(|&p| self.event_of(p) == Some(event))
    }

    /// The simplex the query ended with (GJK's last one).
    pub fn final_simplex(&self) -> Vec<SimplexVertex> {
        self.iterations
            .last()
            .map(|it| it.after.clone())
            .or_else(|| self.first.map(|f| vec![f]))
            .unwrap_or_default()
    }

    /// The support point that showed the last simplex cannot be improved on: the one found
    /// along −v when the duality gap v·v − v·w closed (no event reports it).
    pub fn closing_support(&self, a: &PosedShape, b: &PosedShape) -> Option<(SimplexVertex, f64)> {
        let v = self
            .iterations
            .last()
            .map(|it| it.nearest)
            .or(self.first.map(|f| f.w))?;
        if self.answer.gjk.penetrating || v.norm_squared() == 0.0 {
            return None;
        }
        let w = minkowski_support(&posed(a), &posed(b), &-v);
        Some((w, v.norm_squared() - v.dot(&w.w)))
    }

    /// GJK's distance, or minus EPA's depth.
    pub fn signed_distance(&self) -> f64 {
        self.answer.signed_distance()
    }

    pub fn penetrating(&self) -> bool {
        self.answer.gjk.penetrating
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{ConvexPolyhedron, Pose};
    use crate::trace::Verdict;
    use std::sync::Arc;

    fn body(body: u32, half: f64, at: [f64; 3], turn: [f64; 3]) -> PosedShape {
        PosedShape {
            body,
            shape: Arc::new(ConvexPolyhedron::cuboid(Vec3::repeat(half))),
            pose: Pose::new(Vec3::from(at), Vec3::from(turn)),
        }
    }

    #[test]
    fn each_iteration_adds_the_support_point_farthest_along_its_direction() {
        let a = body(0, 0.5, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]);
        let b = body(1, 0.35, [1.6, 0.4, -0.3], [0.3, 0.7, 0.2]);
        let steps = GjkSteps::rerun(&a, &b);
        assert!(!steps.iterations.is_empty());
        // The first iteration starts from the cold start's point: the view's start agrees
        // with the engine's (else no vertex of the first simplex would be new).
        let first = &steps.iterations[0];
        assert_eq!(first.before.len(), 1);
        for it in &steps.iterations {
            let w = it.added.expect("every iteration keeps its new point");
            // Nothing of A − B lies farther along the direction than the support point.
            let best = minkowski_support(&posed(&a), &posed(&b), &it.direction);
            assert!(
                (it.direction.dot(&w.w) - it.direction.dot(&best.w)).abs() < 1e-9,
                "iteration {}",
                it.number
            );
            assert!((it.nearest.norm() - it.distance).abs() < 1e-5 * (1.0 + it.distance));
            // The witnesses are the nearest point split between A and B.
            assert!(((it.witnesses.0 - it.witnesses.1) - it.nearest).norm() < 1e-9);
        }
        // The distances fall, and the last is the answer.
        for w in steps.iterations.windows(2) {
            assert!(w[1].distance <= w[0].distance + 1e-6);
        }
        let last = steps.iterations.last().expect("an iteration");
        assert!((last.distance - steps.signed_distance()).abs() < 1e-5);
        assert!(matches!(steps.step(steps.last()), Step::End));
        let (_, gap) = steps.closing_support(&a, &b).expect("apart");
        assert!(gap <= 1e-9 * (1.0 + last.distance * last.distance));
    }

    #[test]
    fn overlapping_bodies_end_in_a_tetrahedron_then_epa_grows_a_polytope() {
        let a = body(0, 0.5, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]);
        let b = body(1, 0.5, [0.7, 0.2, 0.1], [0.2, 0.3, 0.1]);
        let steps = GjkSteps::rerun(&a, &b);
        assert!(steps.penetrating());
        assert!(!steps.expansions.is_empty());
        for (k, ex) in steps.expansions.iter().enumerate() {
            // The polytope only grows: at least the tetrahedron, one more point per expansion.
            assert!(ex.polytope.len() >= 3 + k, "{k}: {}", ex.polytope.len());
            assert!((ex.normal.norm() - 1.0).abs() < 1e-5);
        }
        let depth = steps.answer.epa.expect("EPA ran").depth;
        assert!(depth > 0.0 && depth < 1.0);
        assert!(steps.closing_support(&a, &b).is_none());
    }

    #[test]
    fn recorded_events_are_read_with_their_trace_indices() {
        let a = body(3, 0.5, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]);
        let b = body(5, 0.35, [1.6, 0.4, -0.3], [0.3, 0.7, 0.2]);
        let mut events: Vec<GjkEvent> = Vec::new();
        gjk_query(
            &posed(&a),
            &posed(&b),
            GjkWarmStart::default(),
            [3, 5],
            &mut events,
        );
        let mut trace: Vec<TraceEvent> = vec![TraceEvent::new(
            Verdict::Info,
            ConvexEvent::Gjk(GjkEvent {
                bodies: [5, 3],
                step: events[0].step.clone(),
            }),
        )];
        trace.extend(
            events.iter().map(|e| {
                TraceEvent::new(Verdict::Info, ConvexEvent::Gjk(e.clone()))
            }),
        );
        let steps = GjkSteps::of_pair(&a, &b, Some(&trace));
        assert_eq!(steps.source, Source::Recorded);
        let rerun = GjkSteps::rerun(&a, &b);
        assert_eq!(steps.iterations.len(), rerun.iterations.len());
        assert_eq!(steps.event_of(0), Some(1));
        assert_eq!(steps.position_of(trace.len() - 1), Some(steps.last()));
        assert_eq!(steps.position_of(0), None);
        // No events of the pair: the viewer runs the query itself.
        assert_eq!(
            GjkSteps::of_pair(&a, &b, Some(&trace[..1])).source,
            Source::Rerun
        );
    }
}

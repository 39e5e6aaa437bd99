//! What one step of GJK or EPA draws in the inset, as points of A − B.

use crate::app::families::convex::current::Current;
use crate::app::families::convex::gjk_steps::{GjkSteps, Step};
use crate::convex::gjk::simplex::SimplexVertex;
use crate::geom::{ConvexPolyhedron, Real, Vec3};

pub struct StepShapes {
    /// The simplex the step started from (drawn faint) and the one it made (filled).
    pub before: Vec<SimplexVertex>,
    pub after: Vec<SimplexVertex>,
    /// The support point the step added, GJK's or EPA's.
    pub added: Option<SimplexVertex>,
    /// The search direction −v.
    pub direction: Option<Vec3>,
    /// v, the simplex's point nearest the origin.
    pub nearest: Option<Vec3>,
    /// EPA's polytope so far.
    pub polytope: Vec<Vec3>,
    /// EPA's face nearest the origin (its corners when the step has them), its normal and
    /// depth.
    pub epa_face: Option<(Option<[Vec3; 3]>, Vec3, Real)>,
    /// Whether the bodies overlap (then v says nothing).
    pub penetrating: bool,
}

impl StepShapes {
    pub fn of(current: &Current) -> Self {
        let steps = &current.gjk;
        let step = steps.step(current.gjk_position);
        let (before, after, added, direction, nearest) = match &step {
            Step::Iteration(it) => (
                it.before.clone(),
                it.after.clone(),
                it.added,
                Some(it.direction),
                Some(it.nearest),
            ),
            Step::Expansion(ex) => (
                Vec::new(),
                steps.final_simplex(),
                Some(ex.added),
                None,
                None,
            ),
            Step::End => {
                let last = steps.final_simplex();
                let v = steps.iterations.last().map(|it| it.nearest);
                (Vec::new(), last, None, None, v)
            }
        };
        let epa_face = match &step {
            Step::Expansion(ex) => Some((Some(ex.face.map(|v| v.w)), ex.normal, ex.depth)),
            Step::End => steps.answer.epa.map(|e| (None, e.normal, e.depth)),
            _ => None,
        };
        Self {
            before,
            after,
            added,
            direction,
            nearest,
            polytope: polytope(steps, &step),
            epa_face,
            penetrating: steps.penetrating(),
        }
    }

    /// What the inset frames: the origin, A − B (or, when its hull was not built, the
    /// simplices) and EPA's polytope.
    pub fn framed(&self, difference: Option<&ConvexPolyhedron>) -> Vec<Vec3> {
        let mut pts: Vec<Vec3> = vec![Vec3::zeros()];
        match difference {
            Some(h) => pts.extend(h.vertices.iter().map(|p| p.coords)),
            None => pts.extend(self.before.iter().chain(&self.after).map(|v| v.w)),
        }
        pts.extend(self.polytope.iter().copied());
        pts
    }
}

/// EPA's polytope at an expansion (with the point it adds), or at the end the last one with
/// every point added.
fn polytope(steps: &GjkSteps, step: &Step) -> Vec<Vec3> {
    match step {
        Step::Expansion(ex) => ex
            .polytope
            .iter()
            .map(|v| v.w)
            .chain(std::iter::once(ex.added.w))
            .collect(),
        Step::End if !steps.expansions.is_empty() => {
            let mut all: Vec<Vec3> = steps
                .expansions
                .last()
                .map(|ex| ex.polytope.iter().map(|v| v.w).collect())
                .unwrap_or_default();
            all.extend(steps.expansions.iter().map(|ex| ex.added.w));
            all
        }
        _ => Vec::new(),
    }
}

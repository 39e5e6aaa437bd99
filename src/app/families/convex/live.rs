//! The live walk: a body of the pair moved away from its recorded pose (by a drag in the 3D
//! view or the panel's nudges), and the engine's own `vclip` re-run there with a trace
//! recorder, warm-started from the pair this frame recorded. The view only draws what that
//! run reports.

use super::shapes::PosedShape;
use super::walk::Walk;
use crate::convex::{Feature, VClipResult, vclip};
use crate::geom::{Pose, Vec3};
use crate::trace::TraceRecorder;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Live {
    /// Which body of the pair moves (0 = A, 1 = B), and by how much (world axes).
    pub side: usize,
    pub offset: [f64; 3],
    /// Position in the live walk (`None`: its end).
    pub position: Option<usize>,
}

impl Live {
    pub fn active(&self) -> bool {
        self.offset.iter().any(|c| *c != 0.0)
    }

    pub fn reset(&mut self) {
        self.offset = [0.0; 3];
        self.position = None;
    }

    pub fn nudge(&mut self, by: Vec3) {
        for (k, c) in self.offset.iter_mut().enumerate() {
            let moved = *c + by[k];
            if moved.is_finite() {
                *c = moved;
            }
        }
        self.position = None;
    }

    /// The pose the moved body has now.
    pub fn pose(&self, recorded: &Pose) -> Pose {
        let mut p = *recorded;
        p.translation.vector += Vec3::from(self.offset);
        p
    }
}

/// Runs the walk from `start` between `a` and `b` and returns its events as a walk.
pub fn run(a: &PosedShape, b: &PosedShape, start: Option<[Feature; 2]>) -> (Walk, VClipResult) {
    let mut recorder = TraceRecorder::new(100_000);
    let bodies = [a.body, b.body];
    let result = vclip(&a.placed(), &b.placed(), start, bodies, &mut recorder);
    (Walk::of_pair(&recorder.events, bodies), result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convex::{Outcome, Polyhedron};
    use crate::geom::ConvexPolyhedron;
    use std::sync::Arc;

    fn cube(body: u32, at: [f64; 3]) -> PosedShape {
        PosedShape {
            body,
            shape: Arc::new(
                Polyhedron::from_convex(&ConvexPolyhedron::cuboid(Vec3::new(0.5, 0.5, 0.5)))
                    .expect("cube"),
            ),
            pose: Pose::new(Vec3::from(at), Vec3::zeros()),
        }
    }

    #[test]
    fn a_moved_body_gets_its_own_walk_ending_at_the_true_distance() {
        let a = cube(0, [0.0, 0.0, 0.0]);
        let mut b = cube(1, [3.0, 0.0, 0.0]);
        let (_, before) = run(&a, &b, None);
        assert!((before.distance - 2.0).abs() < 1e-9);
        let mut live = Live::default();
        live.nudge(Vec3::new(-1.0, 0.0, 0.0));
        assert!(live.active());
        b.pose = live.pose(&b.pose);
        let (walk, after) = run(&a, &b, Some(before.features));
        assert_eq!(after.outcome, Outcome::Separated);
        assert!((after.distance - 1.0).abs() < 1e-9);
        let end = walk.end.expect("the walk reports its end");
        assert_eq!(end.features, after.features);
        assert!(end.warm);
        live.nudge(Vec3::new(f64::NAN, 0.0, 0.0));
        assert_eq!(live.offset, [-1.0, 0.0, 0.0]);
        live.reset();
        assert!(!live.active());
    }
}

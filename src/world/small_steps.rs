//! The pipeline of the small-steps solver (`method: Tgs(n)`): broad phase → narrow phase at
//! the start poses → `n` substeps of response and motion (`dynamics::TgsStep`). Contacts are
//! sought once a frame, so the margin of `ccd: Speculative` is what holds fast bodies.

use super::World;
use super::margins::RESTITUTION_THRESHOLD_MPS;
use super::margins::turning_swing;
use super::substep::SubstepOutput;
use crate::dynamics::{TgsParams, TgsStep};
use crate::frame::PipelineEvent;
use crate::geom::{Point3, Vec3};
use crate::trace::{Probe, Stage, TraceEvent, Verdict};
use std::time::Instant;

/// How far a pair's corners may swing unseen before its contacts are sought again between
/// substeps. On `convex-pile` (penetration tolerance 0.1 m), its deepest contact after the
/// first frames was 0.077 m with 3 cm and 0.050 m with 5 cm, which costs 6 % less.
const TURNING_PAIR_M: f64 = 0.05;

impl World {
    pub(super) fn substep_tgs<P: Probe>(
        &mut self,
        substeps: u32,
        dt: f64,
        gravity: &Vec3,
        out: &mut SubstepOutput,
        probe: &mut P,
    ) {
        let t0 = Instant::now();
        probe.set_stage(Stage::BroadPhase);
        let pairs = self.broad_pairs(dt, probe);
        let t1 = Instant::now();
        probe.set_stage(Stage::NarrowPhase);
        let constraints = self.collide(&pairs, &[], dt, out, probe);
        let t2 = Instant::now();
        probe.set_stage(Stage::Response);
        let starts: Vec<Point3> = self.bodies.iter().map(|b| b.position()).collect();
        let params = TgsParams {
            substeps,
            slop_m: self.scene.solver.slop_m,
            restitution_threshold_mps: RESTITUTION_THRESHOLD_MPS,
            dt_s: dt,
            gravity: *gravity,
        };
        let mut step = TgsStep::new(&self.bodies, constraints, &params);
        let mut unseen = vec![0.0; pairs.len()];
        for k in 0..substeps {
            if k > 0 {
                let fresh = self.turning_pairs(&pairs, &mut unseen, dt / f64::from(substeps));
                if !fresh.is_empty() {
                    let fresh = fresh
                        .into_iter()
                        .map(|(a, b)| ((a as usize, b as usize), self.pair_constraints(a, b, dt)))
                        .collect();
                    step.refresh(&self.bodies, fresh);
                }
            }
            step.substep(&mut self.bodies);
        }
        let (constraints, impulses) = step.finish(&mut self.bodies, probe);
        let (bodies, sleep) = (&self.bodies, &self.sleep);
        self.warm_start.remember(&constraints, &impulses, |a, b| {
            sleep.holds_pair(bodies, a, b)
        });
        self.report_motion(&starts, probe);
        // Positions move inside the response: no integrate stage of its own.
        out.add_pass(pairs.len(), [t0, t0, t1, t2, Instant::now()]);
    }

    /// The pairs whose contacts can no longer stand for them: a body turning fast brings
    /// corners into contact that were not the touching features when the contacts were
    /// sought. `unseen` holds how far each pair's corners have swung since then; a pair's
    /// contacts are sought again before the next substep of length `h` would take that past
    /// `TURNING_PAIR_M`.
    fn turning_pairs(&self, pairs: &[(u32, u32)], unseen: &mut [f64], h: f64) -> Vec<(u32, u32)> {
        let body = |i: u32| {
            let i = i as usize;
            (&self.bodies[i].angular_velocity, self.rim_radius[i])
        };
        let mut fresh = Vec::new();
        for (&(a, b), swung) in pairs.iter().zip(unseen) {
            if due_again(swung, turning_swing(body(a), body(b)) * h) {
                fresh.push((a, b));
            }
        }
        fresh
    }

    /// Where each moving body went: the events `integrate` gives the other solver.
    fn report_motion<P: Probe>(&self, starts: &[Point3], probe: &mut P) {
        if !probe.enabled() {
            return;
        }
        probe.set_stage(Stage::Integrate);
        for (b, from) in self.bodies.iter().zip(starts).filter(|(b, _)| !b.fixed) {
            crate::trace_event!(
                probe,
                TraceEvent::new(
                    Verdict::Info,
                    PipelineEvent::Integrated {
                        body: b.id,
                        from: *from,
                        to: b.position(),
                    }
                )
            );
        }
    }
}

/// Adds the last substep's swing (taken at the rate of the next, `next`) to what a pair's
/// corners swung since its contacts were sought; whether they must be sought again before the
/// next substep takes that past `TURNING_PAIR_M` (which starts the count again).
fn due_again(unseen: &mut f64, next: f64) -> bool {
    *unseen += next;
    let due = *unseen + next > TURNING_PAIR_M;
    if due {
        *unseen = 0.0;
    }
    due
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seeks in a frame of four substeps at a steady swing per substep.
    fn seeks(per_substep: f64) -> usize {
        let mut unseen = 0.0;
        (1..4)
            .filter(|_| due_again(&mut unseen, per_substep))
            .count()
    }

    #[test]
    fn a_pair_is_sought_again_as_often_as_its_swing_asks() {
        // Under TURNING_PAIR_M a frame: never; up to twice that: once; beyond: every substep.
        let t = TURNING_PAIR_M;
        assert_eq!(seeks(0.233 * t), 0);
        assert_eq!(seeks(0.247 * t), 0);
        assert_eq!(seeks(0.3 * t), 1);
        assert_eq!(seeks(0.467 * t), 1);
        assert_eq!(seeks(0.533 * t), 3);
        assert_eq!(seeks(1.667 * t), 3);
    }

    #[test]
    fn at_a_steady_turn_corners_never_swing_unseen_past_the_bound() {
        for step in 1..=30 {
            let w = f64::from(step) * TURNING_PAIR_M / 50.0;
            let (mut unseen, mut since) = (0.0, w);
            for _ in 1..12 {
                if due_again(&mut unseen, w) {
                    since = 0.0;
                }
                since += w;
                assert!(since <= TURNING_PAIR_M + 1e-12, "{w}: {since}");
            }
        }
    }
}

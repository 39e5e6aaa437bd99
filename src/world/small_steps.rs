//! The pipeline of the small-steps solver (`method: Tgs(n)`): broad phase → narrow phase at
//! the start poses → `n` substeps of response and motion (`dynamics::TgsStep`). Contacts are
//! sought once a frame, so the margin of `ccd: Speculative` is what holds fast bodies.

use super::World;
use super::margins::RESTITUTION_THRESHOLD_MPS;
use super::margins::turning_reach;
use super::substep::SubstepOutput;
use crate::dynamics::{TgsParams, TgsStep};
use crate::frame::PipelineEvent;
use crate::geom::{Point3, Vec3};
use crate::trace::{Probe, Stage, TraceEvent, Verdict};
use std::time::Instant;

/// How far a pair's corners may swing in a frame before its contacts are sought again
/// between substeps.
const TURNING_PAIR_M: f64 = 0.03;

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
        for k in 0..substeps {
            if k > 0 {
                let fresh = self.turning_pairs(&pairs, dt);
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

    /// The pairs whose contacts the frame's start can no longer stand for: a body turning
    /// fast brings corners into contact that were not the touching features when the
    /// contacts were sought. Their contacts are sought again between substeps.
    fn turning_pairs(&self, pairs: &[(u32, u32)], dt: f64) -> Vec<(u32, u32)> {
        let turn = |i: u32| turning_reach(&self.bodies[i as usize], self.rim_radius[i as usize]);
        pairs
            .iter()
            .copied()
            .filter(|&(a, b)| (turn(a) + turn(b)) * dt > TURNING_PAIR_M)
            .collect()
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

//! The response of a substep: the sequential-impulse solver over the narrow phase's
//! constraints, warm-started from the last step, then (in `Toi` mode) the time-of-impact pass
//! over the motion the solver gave.

use super::World;
use super::margins::{RESTING_MARGIN_M, RESTITUTION_THRESHOLD_MPS};
use crate::dynamics::{
    ContactConstraint, SolverParams, apply_velocity_change, solve_contacts, velocities,
};
use crate::geom::Pose;
use crate::scene::CcdMode;
use crate::trace::{Probe, Stage};

impl World {
    pub(super) fn solve<P: Probe>(
        &mut self,
        constraints: &[ContactConstraint],
        starts: &[Pose],
        dt: f64,
        probe: &mut P,
    ) {
        let settings = &self.scene.solver;
        let (mode, tolerance) = (settings.ccd, settings.penetration_tolerance_m);
        let params = SolverParams {
            iterations: settings.iterations,
            baumgarte: settings.baumgarte,
            slop_m: settings.slop_m,
            restitution_threshold_mps: RESTITUTION_THRESHOLD_MPS,
            dt_s: dt,
        };
        let before = velocities(&self.bodies);
        let impulses = solve_contacts(&mut self.bodies, constraints, &params, probe);
        let (bodies, sleep) = (&self.bodies, &self.sleep);
        self.warm_start.remember(constraints, &impulses, |a, b| {
            sleep.holds_pair(bodies, a, b)
        });
        apply_velocity_change(&mut self.bodies, &before, dt);
        if mode == CcdMode::Toi {
            // The solver may send a body where no contact was looked for (a pile passing an
            // impulse down to a body resting above the floor, or sliding a turning box along
            // its contact into its partner): its final motion gets the same first-impact
            // treatment, for any body that moves more than half the tolerance, and a pair
            // already touching stops before it sinks deeper than half the tolerance.
            let half = 0.5 * tolerance;
            self.advance_to_impacts(starts, dt, (half, half), probe);
        }
    }

    /// Time-of-impact pass: bodies whose motion since `starts` reaches further than
    /// `fast_reach_m` stop at their first impact (or where a pair touching at the start sinks
    /// deeper than `sink_limit_m`) and move on for the rest of the step.
    pub(super) fn advance_to_impacts<P: Probe>(
        &mut self,
        starts: &[Pose],
        dt: f64,
        (fast_reach_m, sink_limit_m): (f64, f64),
        probe: &mut P,
    ) {
        // Impacts are contacts found late: the trace shows them with the narrow phase's.
        probe.set_stage(Stage::NarrowPhase);
        let trees = &self.trees;
        crate::ccd::impacts::advance_to_impacts(
            &mut self.bodies,
            (starts, &self.rim_radius),
            |i| trees.get(i).and_then(|t| t.as_deref()),
            &crate::ccd::impacts::ImpactSettings {
                dt_s: dt,
                target_m: RESTING_MARGIN_M,
                restitution_threshold_mps: RESTITUTION_THRESHOLD_MPS,
                fast_reach_m,
                sink_limit_m,
            },
            probe,
        );
    }
}

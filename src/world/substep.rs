//! One pass of the pipeline over a substep's `dt`: integrate → (time of impact) → broad
//! phase → narrow phase → response. Contacts, markers and timings add up over the passes.

use super::World;
use super::margins::{RESTING_MARGIN_M, reach};
use crate::dynamics::integrate;
use crate::frame::{Contact, Marker, StageTimings};
use crate::geom::{Aabb, Pose, Vec3};
use crate::scene::{CcdMode, SolverMethod};
use crate::trace::{Probe, Stage};
use std::time::Instant;

/// What the substeps of one frame add up to.
#[derive(Default)]
pub(super) struct SubstepOutput {
    pub contacts: Vec<Contact>,
    /// Pairs with a contact, touching or speculative: the links of the islands.
    pub linked: Vec<(u32, u32)>,
    pub markers: Vec<Marker>,
    pub pairs: u32,
    pub timings: StageTimings,
}

impl SubstepOutput {
    /// One pass's pairs and the times its stages began (integrate, broad phase, narrow phase,
    /// response) and it ended.
    pub(super) fn add_pass(&mut self, pairs: usize, t: [Instant; 5]) {
        let secs = |a: Instant, b: Instant| (b - a).as_secs_f64();
        self.pairs += pairs as u32;
        self.timings.integrate_s += secs(t[0], t[1]);
        self.timings.broad_s += secs(t[1], t[2]);
        self.timings.narrow_s += secs(t[2], t[3]);
        self.timings.response_s += secs(t[3], t[4]);
    }
}

impl World {
    pub(super) fn substep<P: Probe>(
        &mut self,
        dt: f64,
        gravity: &Vec3,
        out: &mut SubstepOutput,
        probe: &mut P,
    ) {
        if let SolverMethod::Tgs(n) = self.scene.solver.method {
            return self.substep_tgs(n, dt, gravity, out, probe);
        }
        let mode = self.scene.solver.ccd;
        let t0 = Instant::now();
        let starts: Vec<Pose> = self.bodies.iter().map(|b| b.pose).collect();
        probe.set_stage(Stage::Integrate);
        integrate(&mut self.bodies, gravity, dt, probe);
        let handled_by_toi = self.bullets(&starts);
        if mode == CcdMode::Toi {
            let half = 0.5 * self.scene.solver.penetration_tolerance_m;
            self.advance_to_impacts(&starts, dt, (f64::INFINITY, half), probe);
        }
        let t1 = Instant::now();
        probe.set_stage(Stage::BroadPhase);
        let pairs = self.broad_pairs(dt, probe);
        let t2 = Instant::now();
        probe.set_stage(Stage::NarrowPhase);
        let constraints = self.collide(&pairs, &handled_by_toi, dt, out, probe);
        let t3 = Instant::now();
        probe.set_stage(Stage::Response);
        self.solve(&constraints, &starts, dt, probe);
        out.add_pass(pairs.len(), [t0, t1, t2, t3, Instant::now()]);
    }

    /// In `Toi` mode, the bodies that crossed more than twice their inner radius in the
    /// substep: bullets, which only the time of impact treats without loss. Slower ones (a
    /// pile settling, a hull spinning on the floor) keep speculative contacts.
    fn bullets(&self, starts: &[Pose]) -> Vec<bool> {
        if self.scene.solver.ccd != CcdMode::Toi {
            return Vec::new();
        }
        self.bodies
            .iter()
            .zip(starts)
            .zip(&self.rim_radius)
            .map(|((b, s), &rim)| {
                let reach = crate::ccd::Motion::new(*s, b.pose).reach(rim);
                !b.fixed && crate::ccd::inner_radius(&b.shape).is_some_and(|r| reach > 2.0 * r)
            })
            .collect()
    }

    /// The pairs the broad phase hands over, fixed against fixed left out. Each box grows by
    /// the body's share of the contact margin, so the broad phase hands over every pair the
    /// narrow phase would give a (speculative) contact: a spinning hull whose box is a few
    /// centimetres off the floor must still get its contact.
    pub(super) fn broad_pairs<P: Probe>(&mut self, dt: f64, probe: &mut P) -> Vec<(u32, u32)> {
        let boxes = self.broad_boxes(dt);
        self.broad
            .update(&boxes, probe)
            .into_iter()
            .filter(|&(a, b)| !(self.bodies[a as usize].fixed && self.bodies[b as usize].fixed))
            .collect()
    }

    /// Each body's box, grown by its share of the contact margin.
    fn broad_boxes(&self, dt: f64) -> Vec<Aabb> {
        let speculative = self.scene.solver.ccd.speculative();
        self.bodies
            .iter()
            .zip(&self.rim_radius)
            .map(|(b, &rim)| {
                let share = if speculative {
                    0.5 * RESTING_MARGIN_M + reach(b, rim) * dt
                } else {
                    0.5 * RESTING_MARGIN_M
                };
                b.shape.aabb(&b.pose).loosened(share)
            })
            .collect()
    }
}

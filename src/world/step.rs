//! One step of the world, split the way rapier's pipeline is: `step` runs the substeps
//! (`substep.rs`: integrate → broad phase → narrow phase (`collide.rs`) → response
//! (`solve.rs`)), looks for tunnels, steps the families and assembles the frame.

use super::World;
use super::substep::SubstepOutput;
use crate::family::StageClock;
use crate::frame::{Counters, FamilyStageTimes, Frame, Marker, MarkerKind};
use crate::geom::{Pose, Vec3};
use crate::narrow;
use crate::trace::{Probe, Stage};
use std::collections::BTreeSet;
use std::time::Instant;

impl World {
    /// How the narrow phase tests polyhedron pairs (the bench compares the two).
    pub fn set_narrow_method(&mut self, method: narrow::NarrowMethod) {
        self.narrow.set_method(method);
    }

    /// Advances one step and returns its frame, without a trace (the probe has it).
    pub fn step<P: Probe>(&mut self, probe: &mut P) -> Frame {
        let dt = self.scene.solver.dt_s;
        let gravity = Vec3::from(self.scene.gravity);
        let starts: Vec<Pose> = self.bodies.iter().map(|b| b.pose).collect();

        // Supersampling (spec 004 §8) runs the whole pipeline `n` times with `dt / n`.
        let n = self.scene.solver.ccd.substeps();
        let mut out = SubstepOutput::default();
        self.wake_touched(dt, &mut out.markers);
        for k in 1..=n {
            let before: Vec<Pose> = self.bodies.iter().map(|b| b.pose).collect();
            self.substep(dt / n as f64, &gravity, &mut out, probe);
            probe.set_stage(Stage::NarrowPhase);
            if n > 1 {
                self.report_substep(&before, k, n, probe);
            }
        }
        self.mark_tunnels(&starts, &mut out, probe);
        self.fall_asleep(dt, &mut out);

        self.frame_index += 1;
        self.time_s = self.frame_index as f64 * dt;
        self.step_families(gravity, dt, &mut out, probe);
        self.frame_of(out)
    }

    /// Every mode checks what it missed: a centre that crossed a solid with no contact.
    fn mark_tunnels<P: Probe>(&self, starts: &[Pose], out: &mut SubstepOutput, probe: &mut P) {
        let t_tunnel = Instant::now();
        let ends: Vec<Pose> = self.bodies.iter().map(|b| b.pose).collect();
        let touching: BTreeSet<(u32, u32)> = out
            .contacts
            .iter()
            .map(|c| (c.a.min(c.b), c.a.max(c.b)))
            .collect();
        let trees = &self.trees;
        let tunnels = crate::ccd::tunnel::find_tunnels(
            &self.bodies,
            starts,
            &ends,
            |i| trees.get(i).and_then(|t| t.as_deref()),
            &touching,
            probe,
        );
        let mode = self.scene.solver.ccd;
        for t in &tunnels {
            let (a, b) = (
                &self.bodies[t.body as usize],
                &self.bodies[t.other as usize],
            );
            out.markers.push(Marker {
                kind: MarkerKind::Other(crate::ccd::TUNNELLED.into()),
                text: format!(
                    "{} passed through {} between frames with no contact (ccd: {})",
                    a.name,
                    b.name,
                    mode.label()
                ),
                bodies: vec![t.body, t.other],
            });
        }
        out.timings.narrow_s += t_tunnel.elapsed().as_secs_f64();
    }

    /// Families step after the rigid pipeline, on the bodies' new poses, each timed in its
    /// own stages.
    fn step_families<P: Probe>(
        &mut self,
        gravity: Vec3,
        dt: f64,
        out: &mut SubstepOutput,
        probe: &mut P,
    ) {
        probe.set_stage(Stage::FamilyStep);
        let mut ctx = crate::family::StepContext {
            bodies: &mut self.bodies,
            gravity,
            dt_s: dt,
            frame_index: self.frame_index,
            time_s: self.time_s,
            markers: &mut out.markers,
            stages: StageClock::start(0),
        };
        for (sim, &family) in self.sims.iter_mut().zip(&self.sim_families) {
            let stages = crate::families::family_stages(family);
            ctx.stages = StageClock::start(stages.len());
            sim.step(&mut ctx, probe);
            let times = std::mem::replace(&mut ctx.stages, StageClock::start(0)).stop();
            if !times.is_empty() {
                out.timings.families.push(FamilyStageTimes {
                    family: family.to_string(),
                    stages_s: times,
                });
            }
        }
    }

    /// The frame of the step just taken.
    fn frame_of(&self, out: SubstepOutput) -> Frame {
        let families = self.sims.iter().map(|s| s.frame_data()).collect();
        let max_penetration_m = out.contacts.iter().map(|c| c.depth).fold(0.0, f64::max);
        Frame {
            index: self.frame_index,
            time_s: self.time_s,
            bodies: self.bodies.iter().map(|b| b.state()).collect(),
            counters: Counters {
                bodies: self.bodies.len() as u32,
                broad_pairs: out.pairs,
                narrow_tests: out.pairs,
                contacts: out.contacts.len() as u32,
                max_penetration_m,
                // An empty float sum is -0.0, which printed as "-0.0000"; + 0.0 makes it +0.
                kinetic_energy_j: self
                    .bodies
                    .iter()
                    .map(|b| b.kinetic_energy())
                    .sum::<crate::geom::Real>()
                    + 0.0,
                trace_events: 0,
                trace_dropped: 0,
            },
            contacts: out.contacts,
            timings: out.timings,
            trace: Vec::new(),
            markers: out.markers,
            families,
        }
    }

    /// Where each fast body's centre is after substep `k` of `n`: positions between two
    /// frames are not in the recording, so the trace keeps them for the viewer.
    fn report_substep<P: Probe>(&self, before: &[Pose], k: u32, n: u32, probe: &mut P) {
        if !probe.enabled() {
            return;
        }
        for ((b, from), &rim) in self.bodies.iter().zip(before).zip(&self.rim_radius) {
            let reach = crate::ccd::Motion::new(*from, b.pose).reach(rim);
            if crate::ccd::impacts::is_fast(b, reach, f64::INFINITY) {
                crate::ccd::report_substep(probe, b.id, k, n, crate::ccd::centre(&b.pose));
            }
        }
    }

    /// Advances one step recording its trace (up to `trace_limit` events) in the frame.
    pub fn step_traced(&mut self, trace_limit: usize) -> Frame {
        let mut recorder = crate::trace::TraceRecorder::new(trace_limit);
        let mut frame = self.step(&mut recorder);
        let (events, dropped) = recorder.take();
        frame.counters.trace_events = events.len() as u32;
        frame.counters.trace_dropped = dropped;
        frame.trace = events;
        frame
    }
}

//! One step of the world: integrate → broad phase → narrow phase → response.

use super::World;
use crate::bvh::{AnyBvh, AnyPosed, TraverseOptions, traverse_any};
use crate::ccd::CcdMode;
use crate::dynamics::Shape;
use crate::dynamics::{
    ContactConstraint, SolverParams, apply_velocity_change, integrate, solve_contacts, velocities,
};
use crate::geom::{Aabb, Vec3};
use crate::geom::{Pose, TriMesh};
use crate::narrow;
use crate::frame::{Contact, Counters, Frame, Marker, MarkerKind, StageTimings};
use crate::trace::{Probe, Stage, TraceEvent, Verdict};
use crate::world::{ContactPoint, PipelineEvent};
use std::collections::BTreeSet;
use std::time::Instant;

impl World {
    /// How the narrow phase tests polyhedron pairs (the bench compares the two).
    pub fn set_narrow_method(&mut self, method: narrow::NarrowMethod) {
        self.narrow.set_method(method);
    }

    /// Advances one step and returns its frame, without a trace (the probe has it).
    pub fn step<P: Probe>(&mut self, probe: &mut P) -> Frame {
        let settings = self.scene.solver.clone();
        let mode = settings.ccd;
        let dt = settings.dt_s;
        let gravity = Vec3::from(self.scene.gravity);
        let starts: Vec<Pose> = self.bodies.iter().map(|b| b.pose).collect();

        // Supersampling (spec 004 §8) runs the whole pipeline `n` times with `dt / n`.
        let n = mode.substeps();
        let mut out = SubstepOutput::default();
        for k in 1..=n {
            let before: Vec<Pose> = self.bodies.iter().map(|b| b.pose).collect();
            self.substep(dt / n as f64, &gravity, &mut out, probe);
            if n > 1 {
                self.report_substep(&before, k, n, probe);
            }
        }

        // Every mode checks what it missed: a centre that crossed a solid with no contact.
        let t_tunnel = Instant::now();
        let ends: Vec<Pose> = self.bodies.iter().map(|b| b.pose).collect();
        let touching: BTreeSet<(u32, u32)> = out
            .contacts
            .iter()
            .map(|c| (c.a.min(c.b), c.a.max(c.b)))
            .collect();
        let trees = &self.trees;
        let tunnels = crate::ccd::find_tunnels(
            &self.bodies,
            &starts,
            &ends,
            |i| trees.get(i).and_then(|t| t.as_deref()),
            &touching,
            probe,
        );
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

        self.frame_index += 1;
        self.time_s = self.frame_index as f64 * dt;
        // Families step after the rigid pipeline, on the bodies' new poses.
        let mut markers = out.markers;
        let mut ctx = crate::family::StepContext {
            bodies: &mut self.bodies,
            gravity,
            dt_s: dt,
            frame_index: self.frame_index,
            time_s: self.time_s,
            markers: &mut markers,
        };
        for sim in &mut self.sims {
            sim.step(&mut ctx, probe);
        }
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
                kinetic_energy_j: self.bodies.iter().map(|b| b.kinetic_energy()).sum(),
                trace_events: 0,
                trace_dropped: 0,
            },
            contacts: out.contacts,
            timings: out.timings,
            trace: Vec::new(),
            markers,
            families,
        }
    }

    /// Where each fast body's centre is after substep `k` of `n`: positions between two
    /// frames are not in the recording, so the trace keeps them for the viewer.
    fn report_substep<P: Probe>(&self, before: &[Pose], k: u32, n: u32, probe: &mut P) {
        if !probe.enabled() {
            return;
        }
        for (b, from) in self.bodies.iter().zip(before) {
            let motion = crate::ccd::Motion::new(*from, b.pose);
            if crate::ccd::is_fast(b, &motion, f64::INFINITY) {
                crate::ccd::report_substep(probe, b.id, k, n, crate::ccd::centre(&b.pose));
            }
        }
    }

    /// One pass of the pipeline over `dt`: integrate → (time of impact) → broad phase →
    /// narrow phase → response. Contacts, markers and timings add up in `out`.
    fn substep<P: Probe>(
        &mut self,
        dt: f64,
        gravity: &Vec3,
        out: &mut SubstepOutput,
        probe: &mut P,
    ) {
        let settings = self.scene.solver.clone();
        let mode = settings.ccd;
        let t0 = Instant::now();
        let starts: Vec<Pose> = self.bodies.iter().map(|b| b.pose).collect();
        integrate(&mut self.bodies, gravity, dt, probe);
        let handled_by_toi: Vec<bool> = if mode == CcdMode::Toi {
            self.bodies
                .iter()
                .zip(&starts)
                .zip(&self.rim_radius)
                .map(|((b, s), &rim)| {
                    // Bodies that cross more than twice their inner radius in a step: bullets,
                    // which only the time of impact treats without loss. Slower ones (a pile
                    // settling, a hull spinning on the floor) keep speculative contacts.
                    let reach = crate::ccd::Motion::new(*s, b.pose).reach(rim);
                    !b.fixed && crate::ccd::inner_radius(&b.shape).is_some_and(|r| reach > 2.0 * r)
                })
                .collect()
        } else {
            Vec::new()
        };
        if mode == CcdMode::Toi {
            self.advance_to_impacts(&starts, dt, f64::INFINITY, probe);
        }
        let t1 = Instant::now();

        // Each box grows by the body's share of the contact margin, so the broad phase hands
        // over every pair the narrow phase would give a (speculative) contact: a spinning
        // hull whose box is a few centimetres off the floor must still get its contact.
        let boxes: Vec<Aabb> = self
            .bodies
            .iter()
            .zip(&self.rim_radius)
            .map(|(b, &rim)| {
                let share = if mode.speculative() {
                    0.5 * RESTING_MARGIN_M + reach(b, rim) * dt
                } else {
                    0.5 * RESTING_MARGIN_M
                };
                b.shape.aabb(&b.pose).loosened(share)
            })
            .collect();
        let pairs: Vec<(u32, u32)> = self
            .broad
            .update(&boxes, probe)
            .into_iter()
            .filter(|&(a, b)| !(self.bodies[a as usize].fixed && self.bodies[b as usize].fixed))
            .collect();
        let t2 = Instant::now();

        let mut constraints = Vec::new();
        let contacts = &mut out.contacts;
        let markers = &mut out.markers;
        for &(ia, ib) in &pairs {
            let (a, b) = (&self.bodies[ia as usize], &self.bodies[ib as usize]);
            // In Toi mode the fast bodies' impacts are the time of impact's: a speculative
            // contact would stop them short of the wall and bounce them a step later at the
            // lower speed, losing the energy the scene's materials keep.
            let by_toi = handled_by_toi.get(ia as usize).copied().unwrap_or(false)
                || handled_by_toi.get(ib as usize).copied().unwrap_or(false);
            let margin = if mode.speculative() && !by_toi {
                speculative_margin(
                    (a, self.rim_radius[ia as usize]),
                    (b, self.rim_radius[ib as usize]),
                    dt,
                )
            } else {
                RESTING_MARGIN_M
            };
            let points = match (&a.shape, &b.shape, self.tree(ia), self.tree(ib)) {
                (Shape::Mesh(ma), Shape::Mesh(mb), Some(ta), Some(tb)) => {
                    let now = mesh_mesh_contacts(ia, ma, &a.pose, ta, ib, mb, &b.pose, tb, probe);
                    if now.is_empty() && mode != CcdMode::Off {
                        super::mesh_lookahead::speculative_contacts(a, b, dt, |pa, pb| {
                            let mut quiet = crate::trace::NoProbe;
                            mesh_mesh_contacts(ia, ma, pa, ta, ib, mb, pb, tb, &mut quiet)
                        })
                    } else {
                        now
                    }
                }
                _ => self
                    .narrow
                    .collide(ia, &a.shape, &a.pose, ib, &b.shape, &b.pose, margin),
            };
            let touching = points.iter().filter(|p| p.depth >= 0.0).count() as u32;
            let max_depth = narrow::max_depth(&points).max(0.0);
            crate::trace_event!(
                probe,
                TraceEvent::new(
                    Stage::NarrowPhase,
                    if touching == 0 {
                        Verdict::Miss
                    } else {
                        Verdict::Hit
                    },
                    PipelineEvent::ShapeTest {
                        a: ia,
                        b: ib,
                        test: narrow::test_name(&a.shape, &b.shape),
                        contacts: touching,
                        max_depth,
                    }
                )
            );
            if touching > 0 && self.touched.insert((ia, ib)) {
                markers.push(Marker {
                    kind: MarkerKind::FirstContact,
                    text: format!("{} – {}", a.name, b.name),
                    bodies: vec![ia, ib],
                });
            }
            if max_depth > settings.penetration_tolerance_m {
                markers.push(Marker {
                    kind: MarkerKind::DeepPenetration,
                    text: format!(
                        "{} – {} penetrate {:.3} m (tolerance {:.3} m)",
                        a.name, b.name, max_depth, settings.penetration_tolerance_m
                    ),
                    bodies: vec![ia, ib],
                });
            }
            let restitution = 0.5 * (a.material.restitution + b.material.restitution);
            let friction = (a.material.friction * b.material.friction).sqrt();
            for p in points {
                let verdict = if p.depth > settings.penetration_tolerance_m {
                    Verdict::Warning
                } else if p.depth >= 0.0 {
                    Verdict::Hit
                } else {
                    Verdict::Info
                };
                // A touching contact is recorded once, in the frame's contacts; the event
                // names it there.
                let point = if p.depth >= 0.0 {
                    contacts.push(Contact {
                        a: ia,
                        b: ib,
                        point: p.point,
                        normal: p.normal,
                        depth: p.depth,
                    });
                    ContactPoint::InFrame(contacts.len() as u32 - 1)
                } else {
                    ContactPoint::Inline {
                        point: p.point,
                        normal: p.normal,
                        depth: p.depth,
                    }
                };
                crate::trace_event!(
                    probe,
                    TraceEvent::new(
                        Stage::NarrowPhase,
                        verdict,
                        PipelineEvent::Contact {
                            a: ia,
                            b: ib,
                            point,
                        }
                    )
                );
                constraints.push(ContactConstraint {
                    a: ia as usize,
                    b: ib as usize,
                    point: p.point,
                    normal: p.normal,
                    depth: p.depth,
                    restitution,
                    friction,
                    warm_start: self.warm_start.find(ia, ib, &p.point),
                });
            }
        }
        self.narrow.end_pass();
        let t3 = Instant::now();

        let params = SolverParams {
            iterations: settings.iterations,
            baumgarte: settings.baumgarte,
            slop_m: settings.slop_m,
            restitution_threshold_mps: RESTITUTION_THRESHOLD_MPS,
            dt_s: dt,
        };
        let before = velocities(&self.bodies);
        let impulses = solve_contacts(&mut self.bodies, &constraints, &params, probe);
        self.warm_start.remember(&constraints, &impulses);
        apply_velocity_change(&mut self.bodies, &before, dt);
        if mode == CcdMode::Toi {
            // The solver may send a body where no contact was looked for (a pile passing an
            // impulse down to a body resting above the floor): its final motion gets the same
            // first-impact treatment, for any body that moves more than half the tolerance.
            self.advance_to_impacts(&starts, dt, 0.5 * settings.penetration_tolerance_m, probe);
        }
        let t4 = Instant::now();
        let secs = |a: Instant, b: Instant| (b - a).as_secs_f64();
        out.pairs += pairs.len() as u32;
        out.timings.integrate_s += secs(t0, t1);
        out.timings.broad_s += secs(t1, t2);
        out.timings.narrow_s += secs(t2, t3);
        out.timings.response_s += secs(t3, t4);
    }

    /// Time-of-impact pass: bodies whose motion since `starts` reaches further than
    /// `fast_reach_m` stop at their first impact and move on for the rest of the step.
    fn advance_to_impacts<P: Probe>(
        &mut self,
        starts: &[Pose],
        dt: f64,
        fast_reach_m: f64,
        probe: &mut P,
    ) {
        let trees = &self.trees;
        crate::ccd::advance_to_impacts(
            &mut self.bodies,
            starts,
            |i| trees.get(i).and_then(|t| t.as_deref()),
            &crate::ccd::ImpactSettings {
                dt_s: dt,
                target_m: RESTING_MARGIN_M,
                restitution_threshold_mps: RESTITUTION_THRESHOLD_MPS,
                fast_reach_m,
            },
            probe,
        );
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

/// What the substeps of one frame add up to.
#[derive(Default)]
struct SubstepOutput {
    contacts: Vec<Contact>,
    markers: Vec<Marker>,
    pairs: u32,
    timings: StageTimings,
}

/// The contact margin of resting bodies in every mode: the distance at which touching
/// shapes keep their contact, and where a time of impact stops short of touching.
const RESTING_MARGIN_M: f64 = 0.01;

/// Closing speeds below this bounce with no restitution, so resting bodies settle.
const RESTITUTION_THRESHOLD_MPS: f64 = 1.0;

/// How far ahead to look for contacts: the distance the pair can close in one step (linear
/// speed plus the rim speed of spinning bodies), with a small floor for resting contacts.
fn speculative_margin(
    a: (&crate::dynamics::RigidBody, f64),
    b: (&crate::dynamics::RigidBody, f64),
    dt: f64,
) -> f64 {
    RESTING_MARGIN_M + (reach(a.0, a.1) + reach(b.0, b.1)) * dt
}

/// How fast any point of a body moves: its linear speed plus the rim speed of its spin.
fn reach(body: &crate::dynamics::RigidBody, rim: f64) -> f64 {
    body.linear_velocity.norm() + body.angular_velocity.norm() * rim
}

/// Mesh against mesh: the two hierarchies are traversed (every node and triangle pair goes to
/// the probe) and the intersection segments become contacts.
#[allow(clippy::too_many_arguments)]
fn mesh_mesh_contacts<P: Probe>(
    ia: u32,
    ma: &TriMesh,
    pa: &Pose,
    ta: &AnyBvh,
    ib: u32,
    mb: &TriMesh,
    pb: &Pose,
    tb: &AnyBvh,
    probe: &mut P,
) -> Vec<narrow::ContactPoint> {
    let side = |mesh, tree, pose, body| AnyPosed {
        mesh,
        tree,
        pose,
        body,
    };
    traverse_any(
        &side(ma, ta, pa, ia),
        &side(mb, tb, pb, ib),
        TraverseOptions::default(),
        probe,
    )
    .map(|r| narrow::mesh_mesh::contacts_from_traversal(&r, ma, pa, mb, pb))
    .unwrap_or_default()
}

//! The family's simulation, the thesis' Annex I simulator: rigid bodies (mass, inertia,
//! quaternion) under gravity, damping and damped springs, integrated by explicit Euler in
//! Algorithm I.1's sub-steps. After each sub-step every pair of bodies is tested with the
//! thesis' query (its box tests, splits and hits go to the probe); a pair found touching
//! starts a binary search of the contact time inside the sub-step, and the bodies bounce
//! with the impulse of their masses and inertia at the hit point found there.

use super::box_budget::BoxBudget;
use super::event::NurbsEvent;
use super::input_limits::MAX_STEP_BOX_TESTS;
use super::query::{QueryOptions, intersect_traced};
use super::rigid::{RigidState, apply_impulse};
use super::scene_data::{Motion, NurbsBisection, NurbsFrame, NurbsImpulse, NurbsScene};
use super::sim_bodies::{BodyConstants, advance, constants, frame_pose, state_from_frame};
use crate::families::FamilyFrameData;
use crate::family::{DynProbe, FamilySim, StepContext};
use crate::frame::{Marker, MarkerKind};
use crate::geom::{Point3, Pose, Vec3};
use crate::trace::{TraceEvent, Verdict};
use std::sync::Arc;

#[derive(Clone)]
pub struct NurbsSim {
    pub scene: Arc<NurbsScene>,
    consts: Arc<Vec<BodyConstants>>,
    pub states: Vec<RigidState>,
    pub contacts: u32,
    bisections: Vec<NurbsBisection>,
    impulses: Vec<NurbsImpulse>,
}

/// A body pair found touching: where, and the normal toward the first body.
#[derive(Clone, Debug)]
struct Touch {
    a: usize,
    b: usize,
    point: Point3,
    normal: Vec3,
}

/// Algorithm I.1's sub-steps of a frame: `⌈Δt / MaxTimeStep⌉` equal steps.
pub fn substeps(dt: f64, max_step: Option<f64>) -> (u32, f64) {
    match max_step {
        Some(m) if dt > m && m > 0.0 => {
            let n = (dt / m).ceil().min(1e6) as u32;
            (n, dt / f64::from(n))
        }
        _ => (1, dt),
    }
}

impl NurbsSim {
    pub fn new(scene: &NurbsScene) -> Result<Self, String> {
        scene.validate()?;
        let consts = constants(scene)?;
        let states = scene
            .bodies
            .iter()
            .zip(&consts)
            .map(|(body, k)| {
                let mut s = state_from_frame(body.start, crate::geom::Quat::identity(), k);
                s.v = body.velocity;
                if k.rigid {
                    s.w = body.spin;
                }
                s
            })
            .collect();
        Ok(Self {
            scene: Arc::new(scene.clone()),
            consts: Arc::new(consts),
            states,
            contacts: 0,
            bisections: Vec::new(),
            impulses: Vec::new(),
        })
    }

    /// Each body's frame pose.
    pub fn poses(&self) -> Vec<Pose> {
        self.states
            .iter()
            .zip(self.consts.iter())
            .map(|(s, k)| frame_pose(s, k))
            .collect()
    }

    /// The frame poses of a recorded frame's bodies (`None` when it does not fit the scene).
    pub fn recorded_poses(scene: &NurbsScene, frame: &NurbsFrame) -> Option<Vec<Pose>> {
        let mut sim = Self::new(scene).ok()?;
        sim.restore_frame(frame).then(|| sim.poses())
    }

    /// Where the bodies stood when a frame's traced queries ran: the frame before, integrated
    /// over one free sub-step. `None` when the frame data does not fit the scene, or when
    /// the scene cuts a frame into several sub-steps (each traced at its own poses).
    pub fn queried_poses(
        scene: &NurbsScene,
        previous: &NurbsFrame,
        gravity: Vec3,
        dt_s: f64,
        time_s: f64,
    ) -> Option<Vec<Pose>> {
        let mut sim = Self::new(scene).ok()?;
        if substeps(dt_s, scene.max_time_step).0 != 1 {
            return None;
        }
        sim.restore_frame(previous).then_some(())?;
        advance(
            &sim.scene,
            &sim.consts,
            &mut sim.states,
            gravity,
            dt_s,
            time_s,
        );
        Some(sim.poses())
    }

    fn movable(&self, b: usize) -> bool {
        matches!(
            self.scene.bodies[b].motion,
            Motion::Falling | Motion::Sprung { .. }
        )
    }

    fn responds(&self, b: usize) -> bool {
        !matches!(self.scene.bodies[b].motion, Motion::Sway { .. })
    }

    /// The body pairs worth testing: two still bodies never meet, unless the first sways.
    fn candidate_pairs(&self) -> Vec<(usize, usize)> {
        let n = self.scene.bodies.len();
        let mut out = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let sways = matches!(self.scene.bodies[a].motion, Motion::Sway { .. });
                if self.movable(a) || self.movable(b) || sways {
                    out.push((a, b));
                }
            }
        }
        out
    }

    /// The query options of the scene.
    fn query_options(&self) -> QueryOptions {
        let scene = &self.scene;
        QueryOptions::precision(scene.precision, scene.mode).with_rules(scene.rules)
    }

    /// Tests the pairs with the bodies at `states`, each surface pair's query within what is
    /// left of the step's `budget`; `on_event` sees the queries' events. Returns the touching
    /// pairs and how many surface pairs touched.
    fn test_pairs(
        &self,
        (states, time_s): (&[RigidState], f64),
        pairs: &[(usize, usize)],
        (options, budget): (QueryOptions, &mut BoxBudget),
        on_event: &mut dyn FnMut(NurbsEvent),
    ) -> (Vec<Touch>, u32) {
        let scene = &self.scene;
        let poses: Vec<Pose> = states
            .iter()
            .zip(self.consts.iter())
            .map(|(s, k)| frame_pose(s, k))
            .collect();
        let mut touches = Vec::new();
        let mut surface_pairs = 0;
        for &(a, b) in pairs {
            let mut normal = Vec3::zeros();
            let mut point = Vec3::zeros();
            let mut found = 0u32;
            for sa in 0..scene.bodies[a].surfaces.len() {
                let wa = scene.world_surface_posed(a, sa, &poses[a], time_s);
                for sb in 0..scene.bodies[b].surfaces.len() {
                    let Some(options) = budget.options(options) else {
                        continue;
                    };
                    let wb = scene.world_surface_posed(b, sb, &poses[b], time_s);
                    let ids = (scene.surface_id(a, sa), scene.surface_id(b, sb));
                    let (hits, stats) = intersect_traced(&wa, &wb, ids, options, &mut *on_event);
                    budget.spend(&stats);
                    let Some(h) = hits.first() else { continue };
                    found += 1;
                    point += h.point.coords;
                    // Orient b's normal away from b, toward a.
                    if let Some(n) = h.normal_b.or(h.normal_a) {
                        let towards = states[a].x - states[b].x;
                        normal += if n.dot(&towards) < 0.0 { -n } else { n };
                    }
                }
            }
            if found == 0 {
                continue;
            }
            surface_pairs += found;
            let normal = normal
                .try_normalize(1e-12)
                .or_else(|| (states[a].x - states[b].x).try_normalize(1e-12))
                .unwrap_or_else(Vec3::y);
            touches.push(Touch {
                a,
                b,
                point: Point3::from(point / f64::from(found)),
                normal,
            });
        }
        (touches, surface_pairs)
    }

    /// The free integration of `from` over `fraction` of a sub-step starting at `t0`.
    fn advanced(
        &self,
        from: &[RigidState],
        gravity: Vec3,
        h: f64,
        t0: f64,
        fraction: f64,
    ) -> Vec<RigidState> {
        let mut s = from.to_vec();
        if fraction > 0.0 {
            advance(
                &self.scene,
                &self.consts,
                &mut s,
                gravity,
                h * fraction,
                t0 + h * fraction,
            );
        }
        s
    }

    /// The binary search of the contact time in a sub-step that ended touching, then the
    /// impulses at the contacts found; the bodies end at the last time found clear, or
    /// after the rest of the sub-step if that keeps them clear.
    fn resolve(
        &mut self,
        substep: u32,
        start: Vec<RigidState>,
        touches: Vec<Touch>,
        gravity: Vec3,
        (h, t0): (f64, f64),
        budget: &mut BoxBudget,
    ) {
        let pairs: Vec<(usize, usize)> = touches.iter().map(|t| (t.a, t.b)).collect();
        let (mut lo, mut hi) = (0.0, 1.0);
        let mut found = touches;
        let mut touching_bits = 0u64;
        let iterations = self.scene.bisections.min(63);
        // Untraced, and only each surface pair's first hit is kept: the same first hit as the
        // whole query's.
        let options = self.query_options().until_first_hit();
        for k in 0..iterations {
            let mid = 0.5 * (lo + hi);
            let trial = self.advanced(&start, gravity, h, t0, mid);
            let at = (trial.as_slice(), t0 + h * mid);
            let (t, _) = self.test_pairs(at, &pairs, (options, &mut *budget), &mut |_| {});
            if t.is_empty() {
                lo = mid;
            } else {
                touching_bits |= 1 << k;
                hi = mid;
                found = t;
            }
        }
        self.bisections.push(NurbsBisection {
            substep,
            pairs: pairs.iter().map(|&(a, b)| [a as u32, b as u32]).collect(),
            iterations,
            touching: touching_bits,
        });
        let mut states = self.advanced(&start, gravity, h, t0, lo);
        for t in &found {
            if !(self.responds(t.a) && self.responds(t.b)) {
                continue;
            }
            let (ka, kb) = (self.consts[t.a].mass, self.consts[t.b].mass);
            let (sa, sb) = pair_mut(&mut states, t.a, t.b);
            let imp = apply_impulse(
                (sa, &ka),
                (sb, &kb),
                &t.point,
                &t.normal,
                self.scene.restitution,
            );
            if imp.j != 0.0 {
                self.impulses.push(NurbsImpulse {
                    body_a: t.a as u32,
                    body_b: t.b as u32,
                    point: t.point,
                    normal: t.normal,
                    j: imp.j,
                });
            }
        }
        // The rest of the sub-step with the new velocities, kept only if it stays clear
        // (bodies at rest on each other would otherwise sink a little every step).
        let t_lo = t0 + h * lo;
        let rest = self.advanced(&states, gravity, h * (1.0 - lo), t_lo, 1.0);
        let at = (rest.as_slice(), t0 + h);
        let (again, _) = self.test_pairs(at, &pairs, (options, budget), &mut |_| {});
        self.states = if again.is_empty() { rest } else { states };
    }

    /// Puts the bodies where a recorded frame has them; false when it does not fit.
    fn restore_frame(&mut self, f: &NurbsFrame) -> bool {
        let n = self.states.len();
        let fits = [
            f.positions.len(),
            f.velocities.len(),
            f.orientations.len(),
            f.spins.len(),
        ]
        .iter()
        .all(|&len| len == n);
        if !fits {
            return false;
        }
        for b in 0..n {
            self.states[b] = RigidState {
                x: f.positions[b],
                q: f.orientations[b],
                v: f.velocities[b],
                w: f.spins[b],
            };
        }
        self.contacts = f.contacts;
        self.bisections = f.bisections.clone();
        self.impulses = f.impulses.clone();
        true
    }
}

fn pair_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    debug_assert!(a < b);
    let (lo, hi) = v.split_at_mut(b);
    (&mut lo[a], &mut hi[0])
}

fn verdict_of(e: &NurbsEvent) -> Verdict {
    match e {
        NurbsEvent::BoxPair { axis: Some(_), .. } => Verdict::Miss,
        NurbsEvent::BoxPair { axis: None, .. } | NurbsEvent::Hit { .. } => Verdict::Hit,
        NurbsEvent::Split { .. } | NurbsEvent::Segment { .. } => Verdict::Info,
    }
}

impl FamilySim for NurbsSim {
    fn step(&mut self, ctx: &mut StepContext<'_>, probe: &mut dyn DynProbe) {
        let (gravity, dt_s) = (ctx.gravity, ctx.dt_s);
        let (iterations, h) = substeps(dt_s, self.scene.max_time_step);
        let pairs = self.candidate_pairs();
        self.contacts = 0;
        self.bisections.clear();
        self.impulses.clear();
        let mut budget = BoxBudget::new(MAX_STEP_BOX_TESTS);
        let traced = self.query_options();
        for i in 0..iterations {
            let t0 = ctx.time_s - dt_s + f64::from(i) * h;
            let start = self.states.clone();
            let states = ctx
                .stages
                .time(0, || self.advanced(&start, gravity, h, t0, 1.0));
            self.states = states;
            let (touches, surface_pairs) = ctx.stages.time(1, || {
                let at = (self.states.as_slice(), t0 + h);
                self.test_pairs(at, &pairs, (traced, &mut budget), &mut |e| {
                    let verdict = verdict_of(&e);
                    crate::trace_event!(&mut *probe, TraceEvent::new(verdict, e));
                })
            });
            self.contacts += surface_pairs;
            if touches.is_empty() {
                continue;
            }
            for t in &touches {
                let names = (&self.scene.bodies[t.a].name, &self.scene.bodies[t.b].name);
                ctx.markers.push(Marker {
                    kind: MarkerKind::Other("surface contact".into()),
                    text: format!("{} touches {}", names.0, names.1),
                    bodies: Vec::new(),
                });
            }
            ctx.stages.time(2, || {
                self.resolve(i, start, touches, gravity, (h, t0), &mut budget);
            });
        }
        if let Some(text) = budget.report(MAX_STEP_BOX_TESTS) {
            ctx.markers.push(Marker {
                kind: MarkerKind::Other("box budget".into()),
                text,
                bodies: Vec::new(),
            });
        }
    }

    fn frame_data(&self) -> FamilyFrameData {
        FamilyFrameData::Nurbs(NurbsFrame {
            positions: self.states.iter().map(|s| s.x).collect(),
            velocities: self.states.iter().map(|s| s.v).collect(),
            contacts: self.contacts,
            orientations: self.states.iter().map(|s| s.q).collect(),
            spins: self.states.iter().map(|s| s.w).collect(),
            bisections: self.bisections.clone(),
            impulses: self.impulses.clone(),
        })
    }

    fn restore(&mut self, data: &FamilyFrameData) {
        if let FamilyFrameData::Nurbs(f) = data {
            self.restore_frame(f);
        }
    }

    fn clone_box(&self) -> Box<dyn FamilySim> {
        Box::new(self.clone())
    }
}

//! The family's simulation: bodies move, every surface pair of two bodies is queried with the
//! thesis' algorithm (its box tests, splits and hits go to the probe), and bodies that hit
//! bounce. Deforming surfaces are queried as they are this frame, with nothing precomputed.

use super::event::NurbsEvent;
use super::query::{QueryOptions, intersect_traced};
use super::scene_data::{Motion, NurbsFrame, NurbsScene};
use crate::families::FamilyFrameData;
use crate::family::{DynProbe, FamilySim, StepContext};
use crate::frame::{Marker, MarkerKind};
use crate::geom::{Point3, Vec3};
use crate::trace::{TraceEvent, Verdict};
use std::sync::Arc;

#[derive(Clone)]
pub struct NurbsSim {
    pub scene: Arc<NurbsScene>,
    pub positions: Vec<Point3>,
    pub velocities: Vec<Vec3>,
    pub contacts: u32,
}

impl NurbsSim {
    pub fn new(scene: &NurbsScene) -> Result<Self, String> {
        scene.validate()?;
        Ok(Self {
            positions: scene.bodies.iter().map(|b| b.start).collect(),
            velocities: scene.bodies.iter().map(|b| b.velocity).collect(),
            scene: Arc::new(scene.clone()),
            contacts: 0,
        })
    }

    /// Where the bodies stood when a frame's queries ran, from the frame before it and the
    /// frame's time. A body that bounced is recorded back where it started the step, not where
    /// it was queried, so a viewer that rebuilds the recorded boxes needs these positions.
    /// `None` when the frame data does not fit the scene.
    pub fn queried_positions(
        scene: &NurbsScene,
        previous: &NurbsFrame,
        gravity: Vec3,
        dt_s: f64,
        time_s: f64,
    ) -> Option<Vec<Point3>> {
        let mut sim = Self::new(scene).ok()?;
        let n = sim.positions.len();
        if previous.positions.len() != n || previous.velocities.len() != n {
            return None;
        }
        sim.positions = previous.positions.clone();
        sim.velocities = previous.velocities.clone();
        sim.integrate(gravity, dt_s, time_s);
        Some(sim.positions)
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

    fn integrate(&mut self, gravity: Vec3, dt: f64, time_s: f64) {
        for (b, body) in self.scene.bodies.iter().enumerate() {
            match &body.motion {
                Motion::Fixed | Motion::Waving { .. } => {}
                Motion::Falling => {
                    self.velocities[b] += gravity * dt;
                    self.positions[b] += self.velocities[b] * dt;
                }
                Motion::Sprung { stiffness, damping } => {
                    let stretch = self.positions[b] - body.start;
                    let accel = gravity - stretch * *stiffness - self.velocities[b] * *damping;
                    self.velocities[b] += accel * dt;
                    self.positions[b] += self.velocities[b] * dt;
                }
                Motion::Sway {
                    amplitude,
                    period_s,
                } => {
                    let phase = std::f64::consts::TAU * time_s / period_s.max(1e-6) + b as f64;
                    self.positions[b] = body.start + amplitude * phase.sin();
                }
            }
        }
    }

    /// One bounce between two bodies along `normal` (pointing from `b` to `a`), equal masses;
    /// a body that cannot move has infinite mass.
    fn bounce(&mut self, a: usize, b: usize, normal: Vec3) {
        let (ma, mb) = (self.movable(a), self.movable(b));
        let approach = (self.velocities[a] - self.velocities[b]).dot(&normal);
        if approach >= 0.0 || !(ma || mb) {
            return;
        }
        let change = -(1.0 + self.scene.restitution) * approach;
        let (share_a, share_b) = match (ma, mb) {
            (true, true) => (0.5, 0.5),
            (true, false) => (1.0, 0.0),
            _ => (0.0, 1.0),
        };
        self.velocities[a] += normal * (change * share_a);
        self.velocities[b] -= normal * (change * share_b);
    }
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
        let before = self.positions.clone();
        let (gravity, dt_s, time_s) = (ctx.gravity, ctx.dt_s, ctx.time_s);
        ctx.stages.time(0, || self.integrate(gravity, dt_s, time_s));
        let scene = Arc::clone(&self.scene);
        // A scene file is untrusted: one pair's query stops at the box budget.
        let options = QueryOptions::precision(scene.precision, scene.mode)
            .with_max_calls(super::input_limits::MAX_BOX_TESTS);
        let bodies = scene.bodies.len();
        self.contacts = 0;
        let mut bounced = vec![false; bodies];
        for a in 0..bodies {
            for b in a + 1..bodies {
                // Two still bodies never meet, unless the first sways into the second.
                let moving = self.movable(a)
                    || self.movable(b)
                    || matches!(scene.bodies[a].motion, Motion::Sway { .. });
                if !moving {
                    continue;
                }
                let mut normal = Vec3::zeros();
                let mut touching = false;
                for sa in 0..scene.bodies[a].surfaces.len() {
                    let wa = scene.world_surface(a, sa, &self.positions[a], ctx.time_s);
                    for sb in 0..scene.bodies[b].surfaces.len() {
                        let wb = scene.world_surface(b, sb, &self.positions[b], ctx.time_s);
                        let ids = (scene.surface_id(a, sa), scene.surface_id(b, sb));
                        let (hits, _) = ctx.stages.time(1, || {
                            intersect_traced(&wa, &wb, ids, options, |e| {
                                let verdict = verdict_of(&e);
                                crate::trace_event!(&mut *probe, TraceEvent::new(verdict, e));
                            })
                        });
                        if let Some(h) = hits.first() {
                            touching = true;
                            self.contacts += 1;
                            // Orient b's normal away from b, toward a.
                            if let Some(n) = h.normal_b.or(h.normal_a) {
                                let towards = self.positions[a] - self.positions[b];
                                normal += if n.dot(&towards) < 0.0 { -n } else { n };
                            }
                        }
                    }
                }
                if touching && self.responds(a) && self.responds(b) {
                    let n = normal
                        .try_normalize(1e-12)
                        .unwrap_or_else(|| (self.positions[a] - self.positions[b]).normalize());
                    if n.iter().all(|c| c.is_finite()) {
                        self.bounce(a, b, n);
                    }
                    bounced[a] = true;
                    bounced[b] = true;
                    ctx.markers.push(Marker {
                        kind: MarkerKind::Other("surface contact".into()),
                        text: format!("{} touches {}", scene.bodies[a].name, scene.bodies[b].name),
                        bodies: Vec::new(),
                    });
                }
            }
        }
        // A bounced body goes back to where it was: surfaces never sink into each other.
        for (b, back) in bounced.into_iter().enumerate() {
            if back && self.movable(b) {
                self.positions[b] = before[b];
            }
        }
    }

    fn frame_data(&self) -> FamilyFrameData {
        FamilyFrameData::Nurbs(NurbsFrame {
            positions: self.positions.clone(),
            velocities: self.velocities.clone(),
            contacts: self.contacts,
        })
    }

    fn restore(&mut self, data: &FamilyFrameData) {
        if let FamilyFrameData::Nurbs(f) = data
            && f.positions.len() == self.positions.len()
            && f.velocities.len() == self.velocities.len()
        {
            self.positions = f.positions.clone();
            self.velocities = f.velocities.clone();
            self.contacts = f.contacts;
        }
    }

    fn clone_box(&self) -> Box<dyn FamilySim> {
        Box::new(self.clone())
    }
}

//! The cloth inside a world: every frame it moves the scripted rigid bodies, rebuilds the
//! obstacles from the rigid bodies' meshes, steps the cloth (one sheet or several), and
//! reports each ray and each inversion to the probe.

use super::classify::{RayKind, RayRecord, WalkRecord};
use super::detect::CastWork;
use super::event::ClothEvent;
use super::inversion::InversionRecord;
use super::scene_data::{ClothFrame, ClothScene, ScriptedBody};
use super::sim::{Cloth, Obstacle};
use super::volume::VolumeRayRecord;
use crate::families::FamilyFrameData;
use crate::family::{DynProbe, FamilySim, StepContext};
use crate::frame::{Frame, Marker, MarkerKind};
use crate::geom::{Pose, Real, TriMesh, Vec3};
use crate::trace::{TraceEvent, Verdict};
use std::sync::Arc;

#[derive(Clone)]
pub struct ClothSim {
    pub cloth: Cloth,
    pub substeps: u32,
    pub scripted: Arc<Vec<ScriptedBody>>,
    /// Each rigid body's mesh in its own frame, tessellated once.
    pub local_meshes: Arc<Vec<TriMesh>>,
    pub last: ClothFrame,
}

pub fn build(data: &ClothScene, bodies: &[crate::dynamics::RigidBody]) -> Result<ClothSim, String> {
    data.validate()?;
    let (mesh, positions) = data.mesh()?;
    let mut cloth = Cloth::new(0, mesh, positions, *data.params)?;
    for v in &mut cloth.velocities {
        *v = data.initial_velocity;
    }
    for p in data.pinned_vertices() {
        cloth.pin(p)?;
        cloth.velocities[p as usize] = Vec3::zeros();
    }
    for (i, s) in data.scripted.iter().enumerate() {
        if s.body as usize >= bodies.len() {
            return Err(format!("scripted[{i}]: no body {}", s.body));
        }
    }
    let local_meshes = bodies
        .iter()
        .map(|b| crate::world::display_mesh(&b.shape))
        .collect();
    let last = ClothFrame {
        positions: cloth.positions.clone(),
        velocities: cloth.velocities.clone(),
        memory: cloth.memory.clone(),
        inversions: Vec::new(),
        first_inversion: None,
        ray_triangle_tests: 0,
        iterative_casts: 0,
        full_casts: 0,
    };
    Ok(ClothSim {
        cloth,
        substeps: data.substeps,
        scripted: Arc::new(data.scripted.clone()),
        local_meshes: Arc::new(local_meshes),
        last,
    })
}

/// Moves a pose by constant velocities over `dt_s` (rotation about the body's centre).
fn advance(pose: &Pose, linear: &Vec3, angular: &Vec3, dt_s: Real) -> Pose {
    let mut next = *pose;
    next.translation.vector += linear * dt_s;
    let turn = nalgebra::UnitQuaternion::from_scaled_axis(angular * dt_s);
    next.rotation = turn * next.rotation;
    next
}

fn largest_move(before: &TriMesh, after: &TriMesh) -> Real {
    before
        .vertices
        .iter()
        .zip(&after.vertices)
        .map(|(a, b)| (b - a).norm())
        .fold(0.0, Real::max)
}

impl ClothSim {
    /// The obstacles of one substep of `dt`: the scripted bodies moved, every body's mesh
    /// placed at its pose, with how far it moved.
    fn place_obstacles(&self, ctx: &mut StepContext<'_>, dt: Real) -> Vec<Obstacle> {
        let mut obstacles = Vec::with_capacity(ctx.bodies.len());
        for (i, body) in ctx.bodies.iter_mut().enumerate() {
            let Some(local) = self.local_meshes.get(i) else {
                continue;
            };
            let before = body.pose;
            if let Some(s) = self
                .scripted
                .iter()
                .find(|s| s.body as usize == i && ctx.frame_index <= s.frames)
            {
                body.pose = advance(&body.pose, &s.linear_mps, &s.angular_rps, dt);
            }
            let now = local.transformed(&body.pose);
            let mut obstacle = Obstacle::new(body.id, now);
            if body.pose != before {
                obstacle.moved_m = largest_move(&local.transformed(&before), &obstacle.mesh);
            }
            obstacles.push(obstacle);
        }
        obstacles
    }
}

/// Reports the rays and the inversions to the probe.
fn trace_outcome(probe: &mut dyn DynProbe, rays: &[RayRecord], inversions: &[InversionRecord]) {
    for r in rays {
        crate::trace_event!(probe, ray_event(r));
    }
    for i in inversions {
        let verdict = if i.corrected {
            Verdict::Info
        } else {
            Verdict::Warning
        };
        crate::trace_event!(
            probe,
            TraceEvent::new(
                verdict,
                ClothEvent::Inversion {
                    vertex: i.vertex,
                    target: i.target,
                    triangle: i.triangle,
                    promoted: i.promoted,
                    corrected: i.corrected,
                },
            )
        );
    }
}

fn ray_event(r: &RayRecord) -> TraceEvent {
    let verdict = match r.kind {
        RayKind::Collision => Verdict::Hit,
        RayKind::Prediction => Verdict::Info,
        RayKind::Rejected | RayKind::Culled => Verdict::Miss,
        RayKind::Lost => Verdict::Warning,
    };
    let event = match r.walk {
        Some(WalkRecord {
            from,
            steps,
            stop: Some(stop),
        }) => ClothEvent::LostRay {
            vertex: r.vertex,
            target: r.target,
            from,
            steps,
            stop,
        },
        Some(WalkRecord { from, steps, .. }) => ClothEvent::WalkedRay {
            vertex: r.vertex,
            side: r.side,
            target: r.target,
            triangle: r.triangle,
            t: r.t as f32,
            kind: r.kind,
            reason: r.reason,
            from,
            steps,
        },
        _ => ClothEvent::Ray {
            vertex: r.vertex,
            side: r.side,
            target: r.target,
            triangle: r.triangle,
            t: r.t as f32,
            kind: r.kind,
            reason: r.reason,
            iterative: r.iterative(),
        },
    };
    TraceEvent::new(verdict, event)
}

/// Reports the volume → cloth rays (a body's vertices against the sheet) to the probe.
fn trace_volume_rays(probe: &mut dyn DynProbe, rays: &[VolumeRayRecord]) {
    for r in rays {
        let verdict = match r.kind {
            RayKind::Collision => Verdict::Hit,
            RayKind::Prediction => Verdict::Info,
            _ => Verdict::Miss,
        };
        crate::trace_event!(
            probe,
            TraceEvent::new(
                verdict,
                ClothEvent::VolumeRay {
                    body: r.body,
                    vertex: r.vertex,
                    side: r.side,
                    triangle: r.triangle,
                    t: r.t as f32,
                    kind: r.kind,
                    reason: r.reason,
                },
            )
        );
    }
}

/// The timeline's markers of the frame's inversions: the first frame any vertex crossed, and
/// every frame that leaves one on the wrong side. Returns the first inversion's frame.
fn mark_inversions(
    ctx: &mut StepContext<'_>,
    inversions: &[InversionRecord],
    first_inversion: Option<u64>,
) -> Option<u64> {
    let mut first_inversion = first_inversion;
    if !inversions.is_empty() && first_inversion.is_none() {
        first_inversion = Some(ctx.frame_index);
        ctx.markers.push(Marker {
            kind: MarkerKind::Other("first inverted vertex".into()),
            text: format!("{} vertices crossed a surface", inversions.len()),
            bodies: Vec::new(),
        });
    }
    let uncorrected = inversions.iter().filter(|i| !i.corrected).count();
    if uncorrected > 0 {
        ctx.markers.push(Marker {
            kind: MarkerKind::Other("uncorrected inversion".into()),
            text: format!("{uncorrected} inverted vertices left on the wrong side"),
            bodies: Vec::new(),
        });
    }
    first_inversion
}

impl FamilySim for ClothSim {
    fn step(&mut self, ctx: &mut StepContext<'_>, probe: &mut dyn DynProbe) {
        let dt = ctx.dt_s / self.substeps as Real;
        let mut rays = Vec::new();
        let mut volume_rays = Vec::new();
        let mut inversions = Vec::new();
        let mut work = CastWork::default();
        for _ in 0..self.substeps {
            let obstacles = self.place_obstacles(ctx, dt);
            let outcome = self.cloth.step(dt, &obstacles, false);
            rays = outcome.rays;
            volume_rays = outcome.volume_rays;
            inversions.extend(outcome.inversions);
            work.ray_triangle_tests += outcome.work.ray_triangle_tests;
            work.iterative_casts += outcome.work.iterative_casts;
            work.full_casts += outcome.work.full_casts;
            for (stage, seconds) in outcome.stage_s.into_iter().enumerate() {
                ctx.stages.add(stage, seconds);
            }
        }
        // Rays of the last substep: those are the ones that put the sheet where it is drawn.
        trace_outcome(probe, &rays, &inversions);
        trace_volume_rays(probe, &volume_rays);
        let first_inversion = mark_inversions(ctx, &inversions, self.last.first_inversion);
        self.last = ClothFrame {
            positions: self.cloth.positions.clone(),
            velocities: self.cloth.velocities.clone(),
            memory: self.cloth.memory.clone(),
            inversions,
            first_inversion,
            ray_triangle_tests: work.ray_triangle_tests,
            iterative_casts: work.iterative_casts,
            full_casts: work.full_casts,
        };
    }

    fn frame_data(&self) -> FamilyFrameData {
        FamilyFrameData::Cloth(self.last.clone())
    }

    fn restore(&mut self, data: &FamilyFrameData) {
        if let FamilyFrameData::Cloth(f) = data
            && f.positions.len() == self.cloth.positions.len()
            && f.velocities.len() == self.cloth.velocities.len()
        {
            self.cloth.positions = f.positions.clone();
            self.cloth.velocities = f.velocities.clone();
            self.cloth.memory = f.memory.clone();
            self.last = f.clone();
        }
    }

    fn clone_box(&self) -> Box<dyn FamilySim> {
        Box::new(self.clone())
    }

    fn violations(&self, frame: &Frame) -> Vec<String> {
        let mut out = Vec::new();
        for data in &frame.families {
            if let FamilyFrameData::Cloth(f) = data {
                for i in f.inversions.iter().filter(|i| !i.corrected) {
                    out.push(format!(
                        "inverted vertex {} left uncorrected (triangle {} of {:?})",
                        i.vertex, i.triangle, i.target
                    ));
                }
                if f.positions.iter().any(|p| !p.iter().all(|c| c.is_finite())) {
                    out.push("a cloth vertex is not finite".into());
                }
            }
        }
        out
    }
}

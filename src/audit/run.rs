//! The audit, step after step: the state checks, the contact checks and the tunnelling
//! check on each frame of a captured run.

use super::checks::{Colliders, ContactStep, contact_checks};
use super::finding::{Check, Finding};
use super::options::AuditOptions;
use super::report::AuditReport;
use super::states::{StateChecks, StateStep};
use crate::capture::{CaptureFrame, CaptureScene, Motion};
use crate::families::{FamilyFrameData, FamilySceneData};
use crate::frame::Frame;
use crate::geom::{Pose, Vec3};
use crate::record::{RecordError, RecordingReader};
use crate::scene::{Scene, SceneError};
use crate::trace::NoProbe;
use crate::world::World;
use std::collections::{BTreeSet, HashSet};
use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error("{0} is not a captured run of another engine: `validate` re-simulates it instead")]
    NotCaptured(String),
    #[error("the recording's scene: {0}")]
    Scene(Box<SceneError>),
    #[error(transparent)]
    Record(#[from] RecordError),
}

/// Audits a captured run frame by frame, keeping what spans steps (the frame before, the
/// bodies already reported).
pub struct Auditor {
    world: World,
    capture: CaptureScene,
    options: AuditOptions,
    names: Vec<String>,
    states: StateChecks,
    previous: Option<Frame>,
}

impl Auditor {
    /// An auditor for the captured run `scene` (a scene with the capture family's data).
    pub fn new(scene: Scene, file: &Path, options: AuditOptions) -> Result<Self, AuditError> {
        let capture = scene
            .families
            .iter()
            .find_map(|f| match f {
                FamilySceneData::Capture(c) => Some(c.clone()),
                _ => None,
            })
            .ok_or_else(|| AuditError::NotCaptured(file.display().to_string()))?;
        let world = World::with_origin(scene, file).map_err(|e| AuditError::Scene(Box::new(e)))?;
        let names = (0..capture.colliders.len())
            .map(|i| engine_name(&capture, i))
            .collect();
        Ok(Self {
            world,
            capture,
            options,
            names,
            states: StateChecks::default(),
            previous: None,
        })
    }

    /// A live run declared more colliders: the next steps are audited with them, and what
    /// spans steps (the frame before, the bodies already reported) carries over.
    pub fn rescene(&mut self, scene: Scene, file: &Path) -> Result<(), AuditError> {
        let next = Self::new(scene, file, self.options.clone())?;
        *self = Self {
            states: std::mem::take(&mut self.states),
            previous: self.previous.take(),
            ..next
        };
        Ok(())
    }

    pub fn prediction_m(&self) -> f64 {
        self.options
            .prediction_distance_m
            .or(self.capture.prediction_distance_m)
            .unwrap_or(0.0)
    }

    pub fn engine(&self) -> &str {
        &self.capture.engine
    }

    pub fn options(&self) -> &AuditOptions {
        &self.options
    }

    fn motion(&self, collider: u32) -> Motion {
        self.capture
            .body_of(collider)
            .map_or(Motion::Fixed, |b| b.motion)
    }

    fn exempt(&self, i: u32, j: u32) -> bool {
        let (Some(a), Some(b)) = (self.capture.collider(i), self.capture.collider(j)) else {
            return true;
        };
        a.body == b.body
            || a.sensor
            || b.sensor
            || (self.motion(i) != Motion::Dynamic && self.motion(j) != Motion::Dynamic)
    }

    fn approximate(&self, i: u32) -> bool {
        self.capture
            .collider(i)
            .and_then(|c| self.capture.shapes.get(c.shape as usize))
            .is_none_or(|s| s.note.is_some())
    }

    /// The findings of one frame (the frame after the one given before, for the checks that
    /// span two steps), and the pairs checked.
    pub fn step(&mut self, frame: &Frame, report: &mut AuditReport) {
        let data = capture_frame(frame);
        let engine_frame = data.map_or(frame.index, |d| d.engine_frame);
        let in_contact = |f: &Frame| -> BTreeSet<(u32, u32)> {
            f.contacts
                .iter()
                .map(|c| (c.a.min(c.b), c.a.max(c.b)))
                .collect()
        };
        let touching: BTreeSet<(u32, u32)> = match &self.previous {
            Some(p) => in_contact(p).union(&in_contact(frame)).copied().collect(),
            None => in_contact(frame),
        };
        let mut findings = Vec::new();
        self.check_states(frame, engine_frame, &touching, &mut findings);
        // The poses the engine found the step's contacts on: its end, or its start (the
        // frame before; the first frame's start was not captured).
        let at_start = self
            .options
            .contacts_at_start
            .unwrap_or(self.capture.contacts_at_start);
        let poses = if at_start {
            self.previous
                .as_ref()
                .filter(|p| p.index + 1 == frame.index)
                .map(|p| self.poses(p))
        } else {
            Some(self.poses(frame))
        };
        let pairs: Option<HashSet<(u32, u32)>> = data
            .filter(|d| d.captured.has(crate::capture::Captured::PAIRS))
            .map(|d| {
                d.pairs
                    .iter()
                    .map(|p| (p.a.min(p.b), p.a.max(p.b)))
                    .collect()
            });
        let names = &self.names;
        let name = |i: u32| name_in(names, i);
        let counted = match &poses {
            Some(poses) => contact_checks(
                &ContactStep {
                    frame: frame.index,
                    engine_frame,
                    poses,
                    contacts: &frame.contacts,
                    pairs: pairs.as_ref(),
                },
                &Colliders {
                    world: &self.world,
                    exempt: &|i, j| self.exempt(i, j),
                    approximate: &|i| self.approximate(i),
                    name: &name,
                    prediction_m: self.prediction_m(),
                    penetration_m: self.world.scene().solver.penetration_tolerance_m,
                },
                &self.options,
                &mut findings,
            ),
            None => Default::default(),
        };
        if self.options.runs(Check::Tunnelling)
            && let Some(previous) = self
                .previous
                .as_ref()
                .filter(|p| p.index + 1 == frame.index)
        {
            self.check_tunnels(previous, frame, engine_frame, &touching, &mut findings);
        }
        report.add_step(counted, findings);
        self.previous = Some(frame.clone());
    }

    fn check_states(
        &mut self,
        frame: &Frame,
        engine_frame: u64,
        touching: &BTreeSet<(u32, u32)>,
        out: &mut Vec<Finding>,
    ) {
        if !self.options.runs(Check::NonFinite) && !self.options.runs(Check::Exploding) {
            return;
        }
        let mut pushed: HashSet<u32> = touching.iter().flat_map(|&(a, b)| [a, b]).collect();
        pushed.extend(
            (0..self.capture.colliders.len() as u32).filter(|&i| self.motion(i) != Motion::Dynamic),
        );
        let g = self.world.scene().gravity;
        let names = &self.names;
        let name = |i: u32| name_in(names, i);
        let mut found = Vec::new();
        self.states.check(
            &StateStep {
                frame: frame.index,
                engine_frame,
                dt_s: self.world.scene().solver.dt_s,
                gravity: Vec3::new(g[0], g[1], g[2]),
                previous: self.previous.as_ref().map(|p| p.bodies.as_slice()),
                bodies: &frame.bodies,
                pushed: &pushed,
            },
            self.options.speed_gain_mps,
            &name,
            &mut found,
        );
        out.extend(found.into_iter().filter(|f| self.options.runs(f.check)));
    }

    /// Each collider's pose in `frame`, `None` once its state has been broken.
    fn poses(&self, frame: &Frame) -> Vec<Option<Pose>> {
        let mut poses: Vec<Option<Pose>> = self.world.bodies.iter().map(|b| Some(b.pose)).collect();
        for s in &frame.bodies {
            if let Some(p) = poses.get_mut(s.id as usize) {
                *p = (!self.states.broken(s.id))
                    .then(|| Pose::from_parts(s.position.coords.into(), s.rotation));
            }
        }
        poses
    }

    fn check_tunnels(
        &self,
        previous: &Frame,
        frame: &Frame,
        engine_frame: u64,
        touching: &BTreeSet<(u32, u32)>,
        out: &mut Vec<Finding>,
    ) {
        let (from, to) = (self.poses(previous), self.poses(frame));
        // A body declared since the frame before (a live run's new scene) starts where it is
        // now: it crossed nothing before it existed.
        let before: HashSet<u32> = previous.bodies.iter().map(|s| s.id).collect();
        let from: Vec<Option<Pose>> = from
            .iter()
            .zip(&to)
            .enumerate()
            .map(|(i, (f, t))| if before.contains(&(i as u32)) { *f } else { *t })
            .collect();
        // A broken body stays where it was: it crosses nothing.
        let from: Vec<Pose> = from.iter().map(|p| p.unwrap_or_default()).collect();
        let to: Vec<Pose> = to.iter().zip(&from).map(|(p, f)| p.unwrap_or(*f)).collect();
        let tunnels = crate::ccd::tunnel::find_tunnels(
            &self.world.bodies,
            &from,
            &to,
            |i| self.world.tree(i as u32),
            touching,
            &mut NoProbe,
        );
        for t in tunnels {
            if self.exempt(t.body, t.other) || self.approximate(t.other) {
                continue;
            }
            let (a, b) = (&self.names[t.body as usize], &self.names[t.other as usize]);
            out.push(Finding {
                check: Check::Tunnelling,
                frame: frame.index,
                engine_frame,
                bodies: vec![t.body, t.other],
                engine_ids: vec![a.clone(), b.clone()],
                ours: Some(t.t),
                theirs: None,
                tolerance: 0.0,
                our_contact: None,
                their_contact: None,
                sentence: format!(
                    "{a} passed through {b} between steps {} and {engine_frame} (its centre \
                     entered it {:.0} % of the way) and the engine reported no contact of the \
                     pair",
                    engine_frame.saturating_sub(1),
                    t.t * 100.0
                ),
                our_trace: Vec::new(),
            });
        }
    }
}

/// How findings name collider `i`.
fn name_in(names: &[String], i: u32) -> String {
    names
        .get(i as usize)
        .cloned()
        .unwrap_or_else(|| format!("#{i}"))
}

/// "ball (body 3) · collider 7": the engine's body, named, and the collider's own id.
fn engine_name(capture: &CaptureScene, i: usize) -> String {
    let Some(c) = capture.colliders.get(i) else {
        return format!("#{i}");
    };
    match capture.bodies.get(c.body as usize) {
        Some(b) => format!("{} · collider {}", crate::capture::body_label(b), c.id),
        None => format!("collider {}", c.id),
    }
}

fn capture_frame(frame: &Frame) -> Option<&CaptureFrame> {
    frame.families.iter().find_map(|f| match f {
        FamilyFrameData::Capture(c) => Some(c),
        _ => None,
    })
}

/// Audits every frame of a captured recording.
pub fn audit(reader: &RecordingReader, options: AuditOptions) -> Result<AuditReport, AuditError> {
    let scene = Scene::from_ron(&reader.header().scene_ron, reader.path())
        .map_err(|e| AuditError::Scene(Box::new(e)))?;
    let mut auditor = Auditor::new(scene, reader.path(), options)?;
    let mut report = AuditReport::new(auditor.engine(), auditor.prediction_m(), auditor.options());
    for pos in 0..reader.len() {
        let frame = reader.frame(pos)?;
        auditor.step(&frame, &mut report);
    }
    Ok(report)
}

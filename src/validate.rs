//! Re-simulating a recording and checking it: the same scene must give the same states, bit
//! for bit, and every frame must keep the invariants (finite states, bounded penetration).

use crate::geom::Pose;
use crate::record::{Frame, RecordError, RecordingReader};
use crate::trace::NoProbe;
use crate::world::{Scene, SceneError, World};
use std::collections::BTreeSet;

#[derive(Debug, thiserror::Error)]
pub enum ValidateError {
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("the scene embedded in {file} cannot be re-simulated: {cause}")]
    Scene {
        file: String,
        cause: Box<SceneError>,
    },
}

/// The first frame whose re-simulated state differs from the recorded one.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    pub frame: u64,
    pub recorded_hash: u64,
    pub simulated_hash: u64,
    /// The first body whose state differs, with the largest position difference.
    pub body: Option<(u32, f64)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    pub frame: u64,
    pub what: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValidationReport {
    pub frames_checked: usize,
    /// True for a captured run of another engine: its frames are checked, not re-simulated.
    pub replay_only: bool,
    pub first_divergence: Option<Divergence>,
    pub first_violation: Option<Violation>,
}

impl ValidationReport {
    pub fn passed(&self) -> bool {
        self.first_divergence.is_none() && self.first_violation.is_none()
    }
}

/// A body as reports name it: its name from the recording (a captured run's names carry the
/// engine's ids) and its index.
fn body_label(id: u32, names: &[String]) -> String {
    match names.get(id as usize) {
        Some(name) => format!("body {id} “{name}”"),
        None => format!("body {id}"),
    }
}

/// The first broken invariant of one frame, if any; `names` are the recording's body names.
pub fn check_invariants(frame: &Frame, tolerance_m: f64, names: &[String]) -> Option<String> {
    for b in &frame.bodies {
        let finite = b.position.iter().all(|x| x.is_finite())
            && b.linear_velocity.iter().all(|x| x.is_finite())
            && b.angular_velocity.iter().all(|x| x.is_finite())
            && b.rotation.coords.iter().all(|x| x.is_finite());
        if !finite {
            return Some(format!(
                "{} has a non-finite state",
                body_label(b.id, names)
            ));
        }
    }
    frame
        .contacts
        .iter()
        .find(|c| c.depth > tolerance_m || !c.depth.is_finite())
        .map(|c| {
            format!(
                "{} and {} penetrate {:.4} m, beyond the tolerance of {:.4} m",
                body_label(c.a, names),
                body_label(c.b, names),
                c.depth,
                tolerance_m
            )
        })
}

/// The first body that passed through another between two recorded frames with no contact
/// of the pair (the ray between its positions crossed a solid), named with the mode.
pub fn check_tunnelling(world: &World, previous: &Frame, frame: &Frame) -> Option<String> {
    let poses = |f: &Frame| -> Vec<Pose> {
        let mut out: Vec<Pose> = world.bodies.iter().map(|b| b.pose).collect();
        for s in &f.bodies {
            if let Some(p) = out.get_mut(s.id as usize) {
                *p = Pose::from_parts(s.position.coords.into(), s.rotation);
            }
        }
        out
    };
    let touching: BTreeSet<(u32, u32)> = frame
        .contacts
        .iter()
        .map(|c| (c.a.min(c.b), c.a.max(c.b)))
        .collect();
    let tunnels = crate::ccd::tunnel::find_tunnels(
        &world.bodies,
        &poses(previous),
        &poses(frame),
        |i| world.tree(i as u32),
        &touching,
        &mut NoProbe,
    );
    let t = tunnels.first()?;
    let name = |id: u32| {
        world
            .bodies
            .get(id as usize)
            .map_or("?", |b| b.name.as_str())
    };
    Some(format!(
        "body {} ({}) passed through body {} ({}) between frames {} and {} with no contact \
         (tunnelled; ccd: {})",
        t.body,
        name(t.body),
        t.other,
        name(t.other),
        previous.index,
        frame.index,
        world.scene().solver.ccd.label()
    ))
}

fn first_different_body(recorded: &Frame, simulated: &Frame) -> Option<(u32, f64)> {
    recorded
        .bodies
        .iter()
        .zip(&simulated.bodies)
        .find(|(a, b)| a != b)
        .map(|(a, b)| (a.id, (a.position - b.position).norm()))
}

/// Re-simulates the recording's scene from its first frame and compares every frame.
/// `tolerance_m` overrides the scene's penetration tolerance.
pub fn validate(
    reader: &RecordingReader,
    tolerance_m: Option<f64>,
) -> Result<ValidationReport, ValidateError> {
    let file = reader.path().display().to_string();
    let scene = Scene::from_ron(&reader.header().scene_ron, reader.path()).map_err(|cause| {
        ValidateError::Scene {
            file: file.clone(),
            cause: Box::new(cause),
        }
    })?;
    let tolerance = tolerance_m.unwrap_or(scene.solver.penetration_tolerance_m);
    let replay_only = scene.replay_only();
    let mut world =
        World::with_origin(scene, reader.path()).map_err(|cause| ValidateError::Scene {
            file,
            cause: Box::new(cause),
        })?;
    let mut report = ValidationReport {
        replay_only,
        ..ValidationReport::default()
    };
    if reader.is_empty() {
        return Ok(report);
    }
    let first = reader.frame(0)?;
    // A recording may start after frame 0 (a fork): start from its first recorded state.
    world.restore(&first);
    let mut previous: Option<std::sync::Arc<Frame>> = None;
    for pos in 0..reader.len() {
        let recorded = reader.frame(pos)?;
        // A recovered file may miss frames (a damaged chunk and the deltas on it): the world
        // steps across the gap, and only the frames recorded are compared.
        let steps = previous
            .as_ref()
            .map_or(0, |p| recorded.index.saturating_sub(p.index));
        let adjacent = steps == 1;
        let simulated = if pos == 0 {
            (*first).clone()
        } else if steps == 0 || replay_only {
            // Not after the frame before (a file glued from two runs): start again from it.
            world.restore(&recorded);
            (*recorded).clone()
        } else {
            for _ in 1..steps {
                world.step(&mut NoProbe);
            }
            world.step(&mut NoProbe)
        };
        report.frames_checked += 1;
        if report.first_divergence.is_none() && recorded.state_hash() != simulated.state_hash() {
            report.first_divergence = Some(Divergence {
                frame: recorded.index,
                recorded_hash: recorded.state_hash(),
                simulated_hash: simulated.state_hash(),
                body: first_different_body(&recorded, &simulated),
            });
            // Keep comparing against the recording rather than our diverged state, so later
            // invariant checks still speak of what was recorded.
            world.restore(&recorded);
        }
        if report.first_violation.is_none() {
            let what = check_invariants(&recorded, tolerance, &reader.header().body_names)
                .or_else(|| {
                    previous
                        .as_ref()
                        .filter(|_| adjacent)
                        .and_then(|p| check_tunnelling(&world, p, &recorded))
                })
                .or_else(|| world.family_violations(&recorded).into_iter().next());
            if let Some(what) = what {
                report.first_violation = Some(Violation {
                    frame: recorded.index,
                    what,
                });
            }
        }
        previous = Some(recorded);
        if report.first_divergence.is_some() && report.first_violation.is_some() {
            break;
        }
    }
    Ok(report)
}

//! Re-simulating a recording and checking it: the same scene must give the same states, bit
//! for bit, and every frame must keep the invariants (finite states, bounded penetration).

use crate::record::{Frame, RecordError, RecordingReader};
use crate::trace::NoProbe;
use crate::world::{Scene, SceneError, World};

#[derive(Debug, thiserror::Error)]
pub enum ValidateError {
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("the scene embedded in {file} cannot be re-simulated: {cause}")]
    Scene { file: String, cause: SceneError },
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
    pub first_divergence: Option<Divergence>,
    pub first_violation: Option<Violation>,
}

impl ValidationReport {
    pub fn passed(&self) -> bool {
        self.first_divergence.is_none() && self.first_violation.is_none()
    }
}

/// The first broken invariant of one frame, if any.
pub fn check_invariants(frame: &Frame, tolerance_m: f64) -> Option<String> {
    for b in &frame.bodies {
        let finite = b.position.iter().all(|x| x.is_finite())
            && b.linear_velocity.iter().all(|x| x.is_finite())
            && b.angular_velocity.iter().all(|x| x.is_finite())
            && b.rotation.coords.iter().all(|x| x.is_finite());
        if !finite {
            return Some(format!("body {} has a non-finite state", b.id));
        }
    }
    frame
        .contacts
        .iter()
        .find(|c| c.depth > tolerance_m || !c.depth.is_finite())
        .map(|c| {
            format!(
                "bodies {} and {} penetrate {:.4} m, beyond the tolerance of {:.4} m",
                c.a, c.b, c.depth, tolerance_m
            )
        })
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
            cause,
        }
    })?;
    let tolerance = tolerance_m.unwrap_or(scene.solver.penetration_tolerance_m);
    let mut world = World::with_origin(scene, reader.path())
        .map_err(|cause| ValidateError::Scene { file, cause })?;
    let mut report = ValidationReport::default();
    if reader.is_empty() {
        return Ok(report);
    }
    let first = reader.frame(0)?;
    // A recording may start after frame 0 (a fork): start from its first recorded state.
    world.restore(&first);
    for pos in 0..reader.len() {
        let recorded = reader.frame(pos)?;
        let simulated = if pos == 0 {
            (*first).clone()
        } else {
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
        if report.first_violation.is_none()
            && let Some(what) = check_invariants(&recorded, tolerance)
        {
            report.first_violation = Some(Violation {
                frame: recorded.index,
                what,
            });
        }
        if report.first_divergence.is_some() && report.first_violation.is_some() {
            break;
        }
    }
    Ok(report)
}

//! The pairs a scene starts with, counted before the first step allocates their contacts:
//! one body line repeated 10,000 times is a valid scene whose first step would build 50
//! million pairs and run the machine out of memory.

use crate::dynamics::RigidBody;
use crate::scene::{Scene, SceneError};
use std::path::Path;

/// A pair in contact with its manifold, solver rows and trace events: 1,000 coincident
/// spheres (499,500 pairs) peak at 866 MB recording, 1,000 spheres apart at 167 MB, about
/// 1.4 kB a pair.
pub(super) const BYTES_PER_START_PAIR: u64 = 2_048;

/// Refuses a scene whose overlapping pairs at the start would take the memory budget left
/// once the bodies are built; fixed bodies are never paired with each other.
pub(super) fn check_start_pairs(
    scene: &Scene,
    bodies: &[RigidBody],
    file: &Path,
    budget: u64,
) -> Result<(), SceneError> {
    let left = budget.saturating_sub(scene.estimated_bytes().total);
    let cap = usize::try_from(left / BYTES_PER_START_PAIR).unwrap_or(usize::MAX);
    let boxes: Vec<_> = bodies.iter().map(|b| b.shape.aabb(&b.pose)).collect();
    let pairs = crate::broad::overlapping_pairs_up_to(
        &boxes,
        |i, j| !(bodies[i].fixed && bodies[j].fixed),
        cap,
    );
    if pairs <= cap {
        return Ok(());
    }
    Err(SceneError::Invalid {
        file: file.to_path_buf(),
        cause: format!(
            "the bodies start overlapping in more than {cap} pairs (about {} KiB each for \
             their contacts and trace): past the memory budget of {} MiB, of which the bodies \
             leave {} MiB (raise it with --memory-budget, or move the bodies apart)",
            BYTES_PER_START_PAIR >> 10,
            budget >> 20,
            left >> 20
        ),
    })
}

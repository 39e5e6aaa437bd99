//! What a scene will take in memory, estimated from its description before anything is
//! allocated, and the budget it must fit: a 4096 × 4096-segment torus or a 2000 × 2000
//! cloth is refused with the estimate instead of aborting the process when an allocation
//! of gigabytes fails.

use super::{ProceduralMesh, Scene, SceneError, ShapeDesc};
use std::path::Path;

/// Measured on tori of 512² and 1024² segments (a release build's peak resident memory
/// less that of a one-sphere scene): about 185 bytes a triangle for the mesh, its
/// hierarchy and the narrow phase's caches.
const BYTES_PER_TRIANGLE: u64 = 200;
/// A body of a primitive shape with its pose, velocities, broad-phase entry and caches.
const BYTES_PER_BODY: u64 = 2_048;
/// An OBJ file's text is about 30 bytes a triangle.
const OBJ_BYTES_PER_TRIANGLE: u64 = 30;

/// The largest part of an estimate, to name it in the refusal.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryEstimate {
    pub total: u64,
    pub largest: String,
    pub largest_bytes: u64,
}

impl Scene {
    /// About how many bytes a world built from this scene takes.
    pub fn estimated_bytes(&self) -> MemoryEstimate {
        let mut estimate = MemoryEstimate {
            total: 0,
            largest: String::new(),
            largest_bytes: 0,
        };
        let mut add = |what: &dyn Fn() -> String, bytes: u64| {
            estimate.total = estimate.total.saturating_add(bytes);
            if bytes > estimate.largest_bytes {
                estimate.largest = what();
                estimate.largest_bytes = bytes;
            }
        };
        for (i, body) in self.bodies.iter().enumerate() {
            let bytes = BYTES_PER_BODY.saturating_add(shape_bytes(&body.shape));
            add(&|| format!("body {i} (\"{}\")", body.name), bytes);
        }
        for (i, data) in self.families.iter().enumerate() {
            add(
                &|| format!("families[{i}] ({})", data.family()),
                data.estimated_bytes(),
            );
        }
        estimate
    }

    /// Refuses a scene whose estimate is over `budget` bytes, naming both and the flag.
    pub fn check_memory(&self, file: &Path, budget: u64) -> Result<(), SceneError> {
        let e = self.estimated_bytes();
        if e.total <= budget {
            return Ok(());
        }
        Err(SceneError::Invalid {
            file: file.to_path_buf(),
            cause: format!(
                "the scene needs about {} MiB ({} alone about {} MiB), past the memory budget \
                 of {} MiB (raise it with --memory-budget)",
                e.total >> 20,
                e.largest,
                e.largest_bytes >> 20,
                budget >> 20
            ),
        })
    }
}

fn shape_bytes(shape: &ShapeDesc) -> u64 {
    let triangles = match shape {
        ShapeDesc::Sphere { .. } | ShapeDesc::Box { .. } | ShapeDesc::Capsule { .. } => 0,
        // A hull of n points has at most 2n - 4 faces.
        ShapeDesc::ConvexHull { points } => 2 * points.len() as u64,
        ShapeDesc::TriMesh { triangles, .. } => triangles.len() as u64,
        ShapeDesc::Obj { path, .. } => std::fs::metadata(path)
            .map(|m| m.len() / OBJ_BYTES_PER_TRIANGLE)
            .unwrap_or(0),
        ShapeDesc::Procedural(p) => procedural_triangles(p),
    };
    triangles.saturating_mul(BYTES_PER_TRIANGLE)
}

fn procedural_triangles(p: &ProceduralMesh) -> u64 {
    match p {
        ProceduralMesh::Torus {
            major_segments,
            minor_segments,
            ..
        } => 2 * *major_segments as u64 * *minor_segments as u64,
        ProceduralMesh::Terrain { cells, .. } => 2 * *cells as u64 * *cells as u64,
        ProceduralMesh::IcoSphere { level, .. } => {
            20u64.saturating_mul(4u64.saturating_pow(*level))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{builtin_scene, builtin_scenes};

    #[test]
    fn every_builtin_scene_fits_the_default_budget() {
        for (name, _) in builtin_scenes() {
            let e = builtin_scene(name).unwrap().estimated_bytes();
            assert!(
                e.total < crate::input::DEFAULT_MEMORY_BUDGET_BYTES / 8,
                "{name}: {} MiB",
                e.total >> 20
            );
        }
    }

    #[test]
    fn a_huge_torus_is_refused_with_its_estimate_and_the_flag() {
        let text = "(name: \"t\", bodies: [(name: \"ring\", shape: Procedural(Torus(major_radius: 2, \
                    minor_radius: 0.5, major_segments: 4096, minor_segments: 4096)))])";
        let scene = Scene::from_ron(text, Path::new("t.ron")).unwrap();
        let e = scene.estimated_bytes();
        assert_eq!(e.largest, "body 0 (\"ring\")");
        assert!(e.total > 6 << 30, "{} MiB", e.total >> 20);
        let err = scene
            .check_memory(Path::new("t.ron"), 2 << 30)
            .unwrap_err()
            .to_string();
        assert!(err.contains("past the memory budget of 2048 MiB"), "{err}");
        assert!(err.contains("--memory-budget"), "{err}");
        scene.check_memory(Path::new("t.ron"), u64::MAX).unwrap();
    }
}

//! How close each cluster is to its next complete cast (spec 002 §3.5): the recorded cast
//! memory holds, per target and per cluster, the relative displacement accumulated since the
//! cluster's last complete cast. Shown as a fill of the gate's threshold `D_thr`: 0 where the
//! cluster was cast completely this step, 1 where the next step will be.

use crate::cloth::{ClothMesh, ClothParams};
use crate::geom::Real;

/// Per vertex, its cluster's largest fill over the memory's targets (bodies, then the cloth
/// itself), in `0..=1`; empty when the memory does not match the mesh.
pub fn fills(mesh: &ClothMesh, params: &ClothParams, accumulated: &[Vec<Real>]) -> Vec<f64> {
    let clusters = mesh.cluster_count(params.cluster_side);
    if accumulated.iter().any(|list| list.len() != clusters) {
        return Vec::new();
    }
    let threshold = params.gate.threshold_m;
    let per_cluster: Vec<f64> = (0..clusters)
        .map(|c| {
            accumulated
                .iter()
                .map(|list| fill(list[c], threshold))
                .fold(0.0, f64::max)
        })
        .collect();
    mesh.cluster_map(params.cluster_side)
        .into_iter()
        .map(|c| per_cluster.get(c as usize).copied().unwrap_or(0.0))
        .collect()
}

/// `accumulated / threshold`, clamped; a cluster never cast (infinite) is full.
fn fill(accumulated: Real, threshold: Real) -> f64 {
    if !(threshold > 0.0) || accumulated.is_nan() {
        return 1.0;
    }
    (accumulated / threshold).clamp(0.0, 1.0)
}

/// What the panel says of the gates: clusters in all, and those cast completely this step
/// (their accumulator restarted at exactly zero) for some target.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GateCounts {
    pub clusters: usize,
    pub cast_completely: usize,
}

pub fn counts(accumulated: &[Vec<Real>]) -> GateCounts {
    let clusters = accumulated.iter().map(Vec::len).max().unwrap_or(0);
    let cast_completely = (0..clusters)
        .filter(|&c| accumulated.iter().any(|list| list.get(c) == Some(&0.0)))
        .count();
    GateCounts {
        clusters,
        cast_completely,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Point3, Vec3};

    /// An 8 × 8 grid with clusters of 4 × 4: four clusters. Each vertex shows its cluster's
    /// largest fill over the lists, checked against the engine's own cluster of each vertex.
    #[test]
    fn each_vertex_shows_its_clusters_largest_fill() {
        let (mesh, _) = ClothMesh::grid(
            8,
            8,
            Point3::origin(),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 0.0, 1.0),
        )
        .expect("grid");
        let params = ClothParams {
            cluster_side: 4,
            ..ClothParams::default()
        };
        let d = params.gate.threshold_m;
        assert_eq!(mesh.cluster_count(4), 4);
        let bodies = vec![0.0, 0.5 * d, 2.0 * d, Real::INFINITY];
        let itself = vec![0.25 * d, 0.0, 0.0, 0.0];
        let memory = vec![bodies, itself];
        let fills = fills(&mesh, &params, &memory);
        let expected = [0.25, 0.5, 1.0, 1.0];
        for (v, f) in fills.iter().enumerate() {
            let c = mesh.cluster_of(v as u32, 4) as usize;
            assert_eq!(*f, expected[c], "vertex {v} of cluster {c}");
        }
        assert_eq!(
            counts(&memory),
            GateCounts {
                clusters: 4,
                cast_completely: 4
            }
        );
        assert_eq!(counts(&[vec![0.1, 0.2]]).cast_completely, 0);
        // A memory of another mesh shows nothing rather than wrong clusters.
        assert!(super::fills(&mesh, &params, &[vec![0.0; 3]]).is_empty());
    }
}

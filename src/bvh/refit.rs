//! Refitting a hierarchy to a deformed mesh (same triangles, moved vertices): the topology and
//! node ids stay, the volumes are recomputed bottom-up in one backward sweep (van den Bergen
//! 1997; about ten times cheaper than a rebuild, spec 002 §1). The tree gets looser as the
//! mesh departs from the shape it was built for; `compare_refit_rebuild` measures how much.

use super::BvhEvent;
use super::build_options::BuildOptions;
use super::metrics::TreeSummary;
use super::tree::Bvh;
use super::volumes::BoundingVolume;
use crate::geom::{Pose, TriMesh};
use crate::trace::{BodyId, Probe, TraceEvent, Verdict};
use std::time::Instant;

impl<V: BoundingVolume> Bvh<V> {
    /// Refits every node to the mesh's current vertices, children before parents, reporting
    /// each refitted node (its volume carried by `pose` for drawing).
    pub fn refit<P: Probe>(&mut self, mesh: &TriMesh, pose: &Pose, body: BodyId, probe: &mut P) {
        assert!(
            self.fits_mesh(mesh),
            "refit with a mesh of another triangle count"
        );
        self.ray_nodes = std::sync::OnceLock::new();
        for id in (0..self.nodes.len()).rev() {
            let node = &self.nodes[id];
            let volume = if node.is_leaf() {
                let start = node.index as usize;
                node.volume
                    .refit_leaf(mesh, &self.primitives[start..start + node.count as usize])
            } else {
                let (l, r) = (
                    &self.nodes[id + 1].volume,
                    &self.nodes[node.index as usize].volume,
                );
                node.volume.refit_internal(l, r)
            };
            self.nodes[id].volume = volume;
            crate::trace_event!(
                probe,
                TraceEvent::new(
                    Verdict::Info,
                    BvhEvent::Refit {
                        body,
                        node: id as u32,
                        volume: self.nodes[id].volume.to_world_volume(pose),
                    }
                )
            );
        }
    }
}

/// Refit against rebuild on a deformed mesh: their costs and the quality of what they give.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RefitComparison {
    pub refit_s: f64,
    pub rebuild_s: f64,
    pub refit: TreeSummary,
    pub rebuild: TreeSummary,
}

/// Refits a copy of `tree` to `deformed` and rebuilds one from scratch with the tree's own
/// options. The times are wall-clock, for display only.
pub fn compare_refit_rebuild<V: BoundingVolume>(
    tree: &Bvh<V>,
    deformed: &TriMesh,
) -> RefitComparison {
    let mut refitted = tree.clone();
    let t0 = Instant::now();
    refitted.refit(deformed, &Pose::identity(), 0, &mut crate::trace::NoProbe);
    let refit_s = t0.elapsed().as_secs_f64();
    let options: BuildOptions = *tree.options();
    let t1 = Instant::now();
    let rebuilt = Bvh::<V>::build(deformed, &options);
    let rebuild_s = t1.elapsed().as_secs_f64();
    RefitComparison {
        refit_s,
        rebuild_s,
        refit: refitted.summary(),
        rebuild: rebuilt.summary(),
    }
}

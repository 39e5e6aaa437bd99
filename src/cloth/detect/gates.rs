//! The displacement gates of the iterative cast (spec 002 §3.5): a cluster of vertices may
//! walk from last step's triangles only while it has moved less than the threshold since its
//! last complete cast.

use super::DetectInput;
use crate::cloth::obstacle::ObstacleGeometry;
use crate::cloth::params::ClothParams;
use crate::cloth::self_gate;
use crate::geom::two_threads;
use crate::geom::{Point3, Real};

/// The largest displacement of each cluster's ray origins since the last detection (the
/// positions the rays left from then, kept in the memory): a sheet resting on a body sags
/// under gravity and is pushed back every step, but its rays leave from the same places.
pub(super) fn cluster_motion(
    cluster_of: &[u32],
    clusters: usize,
    current: &[Point3],
    origins: &[[f32; 3]],
) -> Vec<Real> {
    let half = |range: std::ops::Range<usize>| {
        let mut moved = vec![0.0 as Real; clusters];
        for v in range {
            let p = current[v];
            let d = match origins.get(v) {
                // f32 storage rounds by up to half an ulp of the coordinate.
                Some(o) => (p - self_gate::widen(o)).norm() + 1e-7 * p.coords.amax(),
                None => Real::INFINITY,
            };
            if let Some(m) = cluster_of.get(v).and_then(|&c| moved.get_mut(c as usize)) {
                *m = m.max(d);
            }
        }
        moved
    };
    let n = current.len();
    let mid = two_threads::middle(n);
    if mid == n {
        return half(0..n);
    }
    let (high, mut low) = two_threads::join(|| half(mid..n), || half(0..mid));
    for (l, h) in low.iter_mut().zip(high) {
        *l = l.max(h);
    }
    low
}

/// Which clusters may walk on each obstacle this step. A cluster's relative displacement
/// since its last complete cast is its own motion plus the obstacle's (a bound: both may move
/// apart); over the threshold, the cluster is cast completely and its measure starts again.
/// `accumulated` holds the obstacles' lists of the memory, `step_moved` each cluster's motion.
pub(super) fn open_rigid_gates(
    accumulated: &mut [Vec<Real>],
    obstacles: &[ObstacleGeometry],
    step_moved: &[Real],
    params: &ClothParams,
) -> Vec<Vec<bool>> {
    accumulated
        .iter_mut()
        .zip(obstacles)
        .map(|(accumulated, obstacle)| {
            accumulated
                .iter_mut()
                .zip(step_moved)
                .map(|(acc, moved)| {
                    *acc += moved + obstacle.moved_m;
                    let within = params.gate.allows(*acc) || !params.switches.rigid_gate;
                    let open = params.iterative_cast && within;
                    if !open {
                        *acc = 0.0;
                    }
                    open
                })
                .collect()
        })
        .collect()
}

/// Which clusters may walk on the cloth this step (spec 002 §3.5.2, [`self_gate`]), from the
/// ray origins of the last detection; `accumulated` is the cloth's own list of the memory.
pub(super) fn open_self_gates(
    input: &DetectInput,
    cluster_of: &[u32],
    origins: &[[f32; 3]],
    accumulated: &mut [Real],
) -> Vec<bool> {
    let DetectInput {
        mesh,
        current,
        params,
        ..
    } = *input;
    let clusters = mesh.cluster_count(params.cluster_side);
    let steps = self_gate::cluster_steps(cluster_of, clusters, current, origins);
    // Clusters that may meet the thick rule (a hit within the prediction distance), plus
    // the threshold (§3.5.2 inflates by D_thr / 2 each). A pair farther apart cannot hold a
    // collision or a prediction, and the step it comes nearer is a new pair: a complete cast.
    // Self rays reach further (SELF_RAY_REACH) only to keep the walk's place; counting those
    // pairs too made the gate cost more than the walk saved (2 ms of a 27,000-vertex step).
    let reach = params.prediction_distance_m + params.gate.threshold_m;
    let near = self_gate::near_pairs(&self_gate::cluster_boxes(
        cluster_of, clusters, current, reach,
    ));
    let before: Vec<Point3> = origins.iter().map(self_gate::widen).collect();
    let before = self_gate::cluster_boxes(cluster_of, clusters, &before, reach);
    let open = self_gate::open_gates(
        &steps,
        &near,
        &before,
        accumulated,
        params.gate_measure,
        |d| params.gate.allows(d),
    );
    match (params.iterative_cast, params.switches.self_gate) {
        (false, _) => vec![false; clusters],
        (true, true) => open,
        // Without the gate every cluster walks: the measures above still run, so a user who
        // turns the gate back on sees it where it would have been.
        (true, false) => vec![true; clusters],
    }
}

//! The gate of the iterative cast for the cloth against itself (spec 002 §3.5.2): a deformable
//! has no rigid transform to bound, so its vertices are grouped in clusters, each cluster's
//! displacement over the step is measured as a mean and a spread (the thesis' recommended
//! "mean + std" measure), and two clusters' relative displacement accumulates while their
//! boxes stay near each other.
//!
//! The thesis keeps one accumulator per near cluster pair. A recording carries the cast
//! memory in every frame, so this keeps one per cluster instead: the largest step increment
//! over the cluster's near pairs, summed. That sum bounds every pair's accumulated relative
//! displacement, so the gate closes no later than the per-pair one would. A pair that was not
//! near at the last step (the thesis starts it at zero) forces a complete cast of both
//! clusters: a surface that just came near is looked for, not only walked to. The last
//! step's near pairs are those of the ray origins the memory keeps, so nothing more is stored.

use crate::geom::{Aabb, Point3, Real, Vec3};

/// One cluster's displacement over the step: the mean of its vertices' displacements and
/// their root-mean-square distance to it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClusterStep {
    pub mean: Vec3,
    pub spread: Real,
}

/// Each cluster's [`ClusterStep`], from the ray origins of the last detection (`origins`, one
/// per vertex) to `current`. A vertex without an origin (the first step) moved infinitely.
pub fn cluster_steps(
    cluster_of: &[u32],
    clusters: usize,
    current: &[Point3],
    origins: &[[f32; 3]],
) -> Vec<ClusterStep> {
    let displacement = |v: usize| match origins.get(v) {
        Some(o) => current[v] - Point3::new(o[0] as Real, o[1] as Real, o[2] as Real),
        None => Vec3::repeat(Real::INFINITY),
    };
    let mut sum = vec![(Vec3::zeros(), 0usize); clusters];
    for (v, &c) in cluster_of.iter().enumerate().take(current.len()) {
        if let Some((s, n)) = sum.get_mut(c as usize) {
            *s += displacement(v);
            *n += 1;
        }
    }
    let mean: Vec<Vec3> = sum.iter().map(|(s, n)| s / (*n).max(1) as Real).collect();
    let mut squares = vec![0.0 as Real; clusters];
    for (v, &c) in cluster_of.iter().enumerate().take(current.len()) {
        if let Some(q) = squares.get_mut(c as usize) {
            *q += (displacement(v) - mean[c as usize]).norm_squared();
        }
    }
    mean.into_iter()
        .zip(squares.iter().zip(&sum))
        .map(|(mean, (q, (_, n)))| {
            // f32 origins round by up to half an ulp of the coordinate: a cluster at rest
            // still measures that much.
            let rounding = 1e-7 * mean.amax().max(1.0);
            ClusterStep {
                mean,
                spread: (q / (*n).max(1) as Real).sqrt() + rounding,
            }
        })
        .collect()
}

/// For each cluster, the clusters whose boxes (of `current`) come within `reach` of its own,
/// itself included, in increasing order.
pub fn near_clusters(
    cluster_of: &[u32],
    clusters: usize,
    current: &[Point3],
    reach: Real,
) -> Vec<Vec<u32>> {
    let mut boxes = vec![Aabb::empty(); clusters];
    for (v, &c) in cluster_of.iter().enumerate().take(current.len()) {
        if let Some(b) = boxes.get_mut(c as usize) {
            b.grow(&current[v]);
        }
    }
    let boxes: Vec<(u32, Aabb)> = boxes
        .into_iter()
        .enumerate()
        .filter(|(_, b)| !b.is_empty())
        .map(|(c, b)| (c as u32, b.loosened(0.5 * reach)))
        .collect();
    // Sweep along x: boxes sorted by their lower x, each compared with those starting
    // before it ends.
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by(|&a, &b| boxes[a].1.min.x.total_cmp(&boxes[b].1.min.x));
    let mut near = vec![Vec::new(); clusters];
    for (k, &i) in order.iter().enumerate() {
        let (ci, bi) = boxes[i];
        near[ci as usize].push(ci);
        for &j in &order[k + 1..] {
            let (cj, bj) = boxes[j];
            if bj.min.x > bi.max.x {
                break;
            }
            if bi.intersects(&bj) {
                near[ci as usize].push(cj);
                near[cj as usize].push(ci);
            }
        }
    }
    for list in &mut near {
        list.sort_unstable();
    }
    near
}

/// The relative displacement of two clusters over one step (Table 4.2, mean + std):
/// `‖mean₁ − mean₂‖ + std₁ + std₂`.
pub fn relative_step(a: &ClusterStep, b: &ClusterStep) -> Real {
    (a.mean - b.mean).norm() + a.spread + b.spread
}

/// Advances each cluster's accumulated relative displacement (`accumulated`) and says, per
/// cluster, whether its vertices may walk: not if a cluster is near now that was not near
/// at the last step (`was_near`, sorted lists), nor past the threshold (`allows`). A closed
/// gate starts the accumulation again (the cluster is cast completely this step).
pub fn open_gates(
    steps: &[ClusterStep],
    near: &[Vec<u32>],
    was_near: &[Vec<u32>],
    accumulated: &mut [Real],
    allows: impl Fn(Real) -> bool,
) -> Vec<bool> {
    (0..steps.len())
        .map(|c| {
            let increment = near[c]
                .iter()
                .filter_map(|&d| steps.get(d as usize))
                .map(|d| relative_step(&steps[c], d))
                .fold(0.0, Real::max);
            let before = was_near.get(c).map_or(&[][..], |l| &l[..]);
            let new_pair = near[c].iter().any(|d| before.binary_search(d).is_err());
            accumulated[c] += increment;
            let open = allows(accumulated[c]) && !new_pair;
            if !open {
                accumulated[c] = 0.0;
            }
            open
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: every pair of cluster boxes, loosened by half the reach, compared.
    fn near_by_pairs(
        cluster_of: &[u32],
        clusters: usize,
        p: &[Point3],
        reach: Real,
    ) -> Vec<Vec<u32>> {
        let boxes: Vec<Aabb> = (0..clusters as u32)
            .map(|c| {
                let points: Vec<Point3> = (0..p.len())
                    .filter(|&v| cluster_of[v] == c)
                    .map(|v| p[v])
                    .collect();
                Aabb::from_points(&points).loosened(0.5 * reach)
            })
            .collect();
        (0..clusters)
            .map(|a| {
                (0..clusters as u32)
                    .filter(|&b| boxes[a].intersects(&boxes[b as usize]))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn near_clusters_match_every_pair_compared() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as Real / (1u64 << 53) as Real
        };
        for (n, clusters, reach) in [(60, 9, 0.05), (200, 25, 0.2), (40, 40, 0.0), (5, 1, 1.0)] {
            let p: Vec<Point3> = (0..n)
                .map(|_| Point3::new(next(), next(), next()))
                .collect();
            let cluster_of: Vec<u32> = (0..n).map(|v| (v % clusters) as u32).collect();
            assert_eq!(
                near_clusters(&cluster_of, clusters, &p, reach),
                near_by_pairs(&cluster_of, clusters, &p, reach),
                "{n} points, {clusters} clusters, reach {reach}"
            );
        }
    }

    /// A translated cluster has its translation as mean and no spread; a stretched one
    /// spreads; relative steps of two clusters moving together are only their spreads.
    #[test]
    fn cluster_steps_measure_mean_and_spread() {
        let origins: Vec<[f32; 3]> = (0..8).map(|v| [v as f32, 0.0, 0.0]).collect();
        let cluster_of = [0, 0, 0, 0, 1, 1, 1, 1];
        let mut current: Vec<Point3> = (0..8).map(|v| Point3::new(v as Real, 0.0, 0.0)).collect();
        for p in &mut current[..4] {
            p.y += 0.5;
        }
        current[4].x -= 0.1;
        current[7].x += 0.1;
        let steps = cluster_steps(&cluster_of, 2, &current, &origins);
        assert!((steps[0].mean - Vec3::new(0.0, 0.5, 0.0)).norm() < 1e-12);
        assert!(steps[0].spread < 1e-5, "{}", steps[0].spread);
        assert!(steps[1].mean.norm() < 1e-12);
        let rms = (2.0 * 0.01 / 4.0 as Real).sqrt();
        assert!((steps[1].spread - rms).abs() < 1e-5, "{}", steps[1].spread);
        assert!((relative_step(&steps[0], &steps[1]) - (0.5 + rms)).abs() < 1e-4);
        // No origins yet: the gate cannot open.
        let first = cluster_steps(&cluster_of, 2, &current, &[]);
        assert!(!first[0].spread.is_finite() || !first[0].mean.norm().is_finite());
    }

    /// The gate opens while the accumulated increments stay under the threshold and the near
    /// set is unchanged; it closes (and starts again) on a new neighbour or past the threshold.
    #[test]
    fn gates_close_past_the_threshold_and_on_a_new_neighbour() {
        let still = ClusterStep {
            mean: Vec3::zeros(),
            spread: 0.01,
        };
        let steps = [still, still];
        let apart = vec![vec![0], vec![1]];
        let mut accumulated = vec![0.0; 2];
        let allows = |d: Real| d <= 0.05;
        // 0.02 a step (two spreads of 0.01): open at 0.02 and 0.04, closed at 0.06.
        for expected in [true, true, false, true] {
            let open = open_gates(&steps, &apart, &apart, &mut accumulated, allows);
            assert_eq!(open, vec![expected; 2], "{accumulated:?}");
        }
        let together = vec![vec![0, 1], vec![0, 1]];
        let open = open_gates(&steps, &together, &apart, &mut accumulated, allows);
        assert_eq!(
            open,
            vec![false; 2],
            "a new neighbour forces a complete cast"
        );
        let open = open_gates(&steps, &together, &together, &mut accumulated, allows);
        assert_eq!(open, vec![true; 2]);
        // A neighbour leaving is no new pair.
        let open = open_gates(&steps, &apart, &together, &mut accumulated, allows);
        assert_eq!(open, vec![true; 2]);
    }
}

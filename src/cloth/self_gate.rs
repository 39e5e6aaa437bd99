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

use crate::geom::cell_hasher::CellHash;
use crate::geom::{Aabb, Point3, Real, Vec3};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A ray origin as the cast memory keeps it (f32), back in the engine's precision.
pub fn widen(origin: &[f32; 3]) -> Point3 {
    Point3::new(origin[0] as Real, origin[1] as Real, origin[2] as Real)
}

/// One cluster's displacement over the step: the mean of its vertices' displacements, their
/// root-mean-square distance to it, and the largest of them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClusterStep {
    pub mean: Vec3,
    pub spread: Real,
    pub max: Vec3,
}

/// How a cluster pair's relative displacement is measured (Table 4.2, and the per-vertex
/// baseline of §5.6). The thesis recommends mean + std; the others are there to compare.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GateMeasure {
    /// A cluster's own largest vertex displacement, whatever its neighbours do (the thesis'
    /// per-vertex "absolute" baseline, per cluster).
    Absolute,
    /// `‖mean₁ − mean₂‖`: blind to a cluster turning about its centre.
    Mean,
    /// `‖mean₁ − mean₂‖ + std₁ + std₂`.
    #[default]
    MeanStd,
    /// `‖max₁ − max₂‖`, the displacements of each cluster's fastest vertex.
    Max,
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
        Some(o) => current[v] - widen(o),
        None => Vec3::repeat(Real::INFINITY),
    };
    let mut sum = vec![(Vec3::zeros(), 0usize); clusters];
    let mut max = vec![Vec3::zeros(); clusters];
    for (v, &c) in cluster_of.iter().enumerate().take(current.len()) {
        if let Some((s, n)) = sum.get_mut(c as usize) {
            let d = displacement(v);
            *s += d;
            *n += 1;
            // Not `norm() >`: a first step's infinite displacement has an infinite norm.
            if !(d.norm_squared() <= max[c as usize].norm_squared()) {
                max[c as usize] = d;
            }
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
        .zip(max)
        .map(|((mean, (q, (_, n))), max)| {
            // f32 origins round by up to half an ulp of the coordinate: a cluster at rest
            // still measures that much.
            let rounding = 1e-7 * mean.amax().max(1.0);
            ClusterStep {
                mean,
                spread: (q / (*n).max(1) as Real).sqrt() + rounding,
                max,
            }
        })
        .collect()
}

/// Each cluster's box of `points`, loosened by half the `reach` so that two boxes overlap when
/// the clusters come within `reach`; empty for a cluster without a point.
pub fn cluster_boxes(
    cluster_of: &[u32],
    clusters: usize,
    points: &[Point3],
    reach: Real,
) -> Vec<Aabb> {
    let mut boxes = vec![Aabb::empty(); clusters];
    for (v, &c) in cluster_of.iter().enumerate().take(points.len()) {
        if let Some(b) = boxes.get_mut(c as usize) {
            b.grow(&points[v]);
        }
    }
    for b in &mut boxes {
        if !b.is_empty() {
            *b = b.loosened(0.5 * reach);
        }
    }
    boxes
}

/// Every pair `(a, b)`, `a < b`, of overlapping boxes. Boxes go to a grid by their lower
/// corner, in cells as wide as the widest box: two overlapping boxes then have corners at
/// most one cell apart on every axis. (A sweep on one axis compared a whole sheet's column
/// of clusters with each.)
pub fn near_pairs(boxes: &[Aabb]) -> Vec<(u32, u32)> {
    let cell = boxes
        .iter()
        .filter(|b| !b.is_empty())
        .map(|b| (b.max - b.min).amax())
        .fold(0.0, Real::max)
        .max(1e-9);
    let key = |b: &Aabb| (b.min.coords / cell).map(|x| x.floor() as i64);
    let mut grid: HashMap<[i64; 3], Vec<u32>, CellHash> = HashMap::default();
    for (c, b) in boxes.iter().enumerate().filter(|(_, b)| !b.is_empty()) {
        let k = key(b);
        grid.entry([k.x, k.y, k.z]).or_default().push(c as u32);
    }
    let mut pairs = Vec::new();
    for (a, box_a) in boxes.iter().enumerate().filter(|(_, b)| !b.is_empty()) {
        let k = key(box_a);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let cell_key = [
                        k.x.saturating_add(dx),
                        k.y.saturating_add(dy),
                        k.z.saturating_add(dz),
                    ];
                    let Some(members) = grid.get(&cell_key) else {
                        continue;
                    };
                    for &b in members {
                        if (a as u32) < b && box_a.intersects(&boxes[b as usize]) {
                            pairs.push((a as u32, b));
                        }
                    }
                }
            }
        }
    }
    pairs
}

/// The relative displacement of two clusters over one step, as `measure` takes it
/// (Table 4.2). For `Absolute`, `a`'s own.
pub fn relative_step(a: &ClusterStep, b: &ClusterStep, measure: GateMeasure) -> Real {
    match measure {
        GateMeasure::Absolute => a.max.norm(),
        GateMeasure::Mean => (a.mean - b.mean).norm(),
        GateMeasure::MeanStd => (a.mean - b.mean).norm() + a.spread + b.spread,
        GateMeasure::Max => (a.max - b.max).norm(),
    }
}

/// Advances each cluster's accumulated relative displacement (`accumulated`) and says, per
/// cluster, whether its vertices may walk: not if a pair is near now (`near`, from
/// [`near_pairs`]) whose boxes did not overlap at the last step (`before`, from
/// [`cluster_boxes`]), nor past the threshold (`allows`). A closed gate starts the
/// accumulation again (the cluster is cast completely this step).
pub fn open_gates(
    steps: &[ClusterStep],
    near: &[(u32, u32)],
    before: &[Aabb],
    accumulated: &mut [Real],
    measure: GateMeasure,
    allows: impl Fn(Real) -> bool,
) -> Vec<bool> {
    // A cluster is its own neighbour: its spread alone moves it against itself.
    let mut increment: Vec<Real> = steps.iter().map(|s| relative_step(s, s, measure)).collect();
    let mut new_pair = vec![false; steps.len()];
    for &(a, b) in near {
        let (a, b) = (a as usize, b as usize);
        let (Some(sa), Some(sb)) = (steps.get(a), steps.get(b)) else {
            continue;
        };
        let d = relative_step(sa, sb, measure);
        // Only the absolute measure is one-sided; the others are computed once, in one
        // order, so that both clusters add the same bits.
        let back = match measure {
            GateMeasure::Absolute => relative_step(sb, sa, measure),
            _ => d,
        };
        increment[a] = increment[a].max(d);
        increment[b] = increment[b].max(back);
        let was_near = match (before.get(a), before.get(b)) {
            (Some(x), Some(y)) => !x.is_empty() && !y.is_empty() && x.intersects(y),
            _ => false,
        };
        if !was_near {
            new_pair[a] = true;
            new_pair[b] = true;
        }
    }
    accumulated
        .iter_mut()
        .zip(increment.iter().zip(&new_pair))
        .map(|(acc, (&increment, &new_pair))| {
            *acc += increment;
            let open = allows(*acc) && !new_pair;
            if !open {
                *acc = 0.0;
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
    ) -> Vec<(u32, u32)> {
        let boxes: Vec<Aabb> = (0..clusters as u32)
            .map(|c| {
                let points: Vec<Point3> = (0..p.len())
                    .filter(|&v| cluster_of[v] == c)
                    .map(|v| p[v])
                    .collect();
                Aabb::from_points(&points).loosened(0.5 * reach)
            })
            .collect();
        let mut pairs = Vec::new();
        for a in 0..clusters {
            for b in a + 1..clusters {
                if boxes[a].intersects(&boxes[b]) {
                    pairs.push((a as u32, b as u32));
                }
            }
        }
        pairs
    }

    #[test]
    fn near_pairs_match_every_pair_compared() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as Real / (1u64 << 53) as Real
        };
        // Random clouds, coincident points, and a flat sheet (a plane of clusters).
        for (n, clusters, reach, flat) in [
            (60, 9, 0.05, false),
            (200, 25, 0.2, false),
            (40, 40, 0.0, false),
            (5, 1, 1.0, false),
            (400, 100, 0.03, true),
            (30, 30, 0.1, true),
        ] {
            let mut p: Vec<Point3> = (0..n)
                .map(|_| Point3::new(next(), next(), next()))
                .collect();
            if flat {
                for q in &mut p {
                    q.y = 1.0;
                }
            }
            let cluster_of: Vec<u32> = (0..n).map(|v| (v % clusters) as u32).collect();
            let mut found = near_pairs(&cluster_boxes(&cluster_of, clusters, &p, reach));
            found.sort_unstable();
            assert_eq!(
                found,
                near_by_pairs(&cluster_of, clusters, &p, reach),
                "{n} points, {clusters} clusters, reach {reach}"
            );
        }
        let same = vec![Point3::new(0.5, 0.5, 0.5); 6];
        let cluster_of = [0, 1, 2, 0, 1, 2];
        let found = near_pairs(&cluster_boxes(&cluster_of, 3, &same, 0.0));
        assert_eq!(found.len(), 3, "coincident clusters touch: {found:?}");
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
        assert!(
            (relative_step(&steps[0], &steps[1], GateMeasure::MeanStd) - (0.5 + rms)).abs() < 1e-4
        );
        // The fastest vertex of the stretched cluster moved 0.1 along x.
        assert!(
            (steps[1].max.norm() - 0.1).abs() < 1e-6,
            "{:?}",
            steps[1].max
        );
        // No origins yet: the gate cannot open.
        let first = cluster_steps(&cluster_of, 2, &current, &[]);
        assert!(!first[0].spread.is_finite() || !first[0].mean.norm().is_finite());
    }

    /// Table 4.2's measures on a cluster turning a quarter turn about its centre beside one at
    /// rest: the mean sees nothing (the thesis' reason to reject it), mean + std and max see
    /// the turn, and the absolute measure sees only the cluster's own motion.
    #[test]
    fn the_mean_alone_is_blind_to_a_turn() {
        let square = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)];
        let origins: Vec<[f32; 3]> = square
            .iter()
            .map(|&(x, z)| [x as f32, 0.0, z as f32])
            .chain(square.iter().map(|&(x, z)| [x as f32 + 5.0, 0.0, z as f32]))
            .collect();
        // The first cluster turned by 90° about the vertical: each corner to the next.
        let current: Vec<Point3> = (0..4)
            .map(|k| {
                let (x, z) = square[(k + 1) % 4];
                Point3::new(x, 0.0, z)
            })
            .chain(square.iter().map(|&(x, z)| Point3::new(x + 5.0, 0.0, z)))
            .collect();
        let steps = cluster_steps(&[0, 0, 0, 0, 1, 1, 1, 1], 2, &current, &origins);
        let (turned, still) = (&steps[0], &steps[1]);
        assert!(relative_step(turned, still, GateMeasure::Mean) < 1e-6);
        let root2 = (2.0 as Real).sqrt();
        for m in [GateMeasure::MeanStd, GateMeasure::Max] {
            let d = relative_step(turned, still, m);
            assert!((d - root2).abs() < 1e-5, "{m:?}: {d}");
        }
        assert!((relative_step(turned, still, GateMeasure::Absolute) - root2).abs() < 1e-5);
        assert!(relative_step(still, turned, GateMeasure::Absolute) < 1e-6);
    }

    /// The gate opens while the accumulated increments stay under the threshold and the near
    /// set is unchanged; it closes (and starts again) on a new neighbour or past the threshold.
    #[test]
    fn gates_close_past_the_threshold_and_on_a_new_neighbour() {
        let still = ClusterStep {
            max: Vec3::zeros(),
            mean: Vec3::zeros(),
            spread: 0.01,
        };
        let steps = [still, still];
        let unit = |x: Real| Aabb::from_points(&[Point3::new(x, 0.0, 0.0)]).loosened(0.5);
        let apart = [unit(0.0), unit(5.0)];
        let together = [unit(0.0), unit(0.5)];
        let mut accumulated = vec![0.0; 2];
        let allows = |d: Real| d <= 0.05;
        // 0.02 a step (two spreads of 0.01): open at 0.02 and 0.04, closed at 0.06.
        for expected in [true, true, false, true] {
            let open = open_gates(
                &steps,
                &[],
                &apart,
                &mut accumulated,
                GateMeasure::MeanStd,
                allows,
            );
            assert_eq!(open, vec![expected; 2], "{accumulated:?}");
        }
        let pair = [(0, 1)];
        let open = open_gates(
            &steps,
            &pair,
            &apart,
            &mut accumulated,
            GateMeasure::MeanStd,
            allows,
        );
        assert_eq!(
            open,
            vec![false; 2],
            "a new neighbour forces a complete cast"
        );
        let open = open_gates(
            &steps,
            &pair,
            &together,
            &mut accumulated,
            GateMeasure::MeanStd,
            allows,
        );
        assert_eq!(open, vec![true; 2]);
        // A neighbour leaving is no new pair.
        let open = open_gates(
            &steps,
            &[],
            &together,
            &mut accumulated,
            GateMeasure::MeanStd,
            allows,
        );
        assert_eq!(open, vec![true; 2]);
        // The first step has no boxes before it: every pair is new.
        let empty = [Aabb::empty(), Aabb::empty()];
        let open = open_gates(
            &steps,
            &pair,
            &empty,
            &mut accumulated,
            GateMeasure::MeanStd,
            allows,
        );
        assert_eq!(open, vec![false; 2]);
        // A neighbour moving away accumulates the relative step, not only the spreads.
        let moving = ClusterStep {
            max: Vec3::zeros(),
            mean: Vec3::new(0.03, 0.0, 0.0),
            spread: 0.01,
        };
        let mut accumulated = vec![0.0; 2];
        let open = open_gates(
            &[still, moving],
            &pair,
            &together,
            &mut accumulated,
            GateMeasure::MeanStd,
            allows,
        );
        assert_eq!(open, vec![true; 2]);
        assert!((accumulated[0] - 0.05).abs() < 1e-12, "{accumulated:?}");
        assert!((accumulated[1] - 0.05).abs() < 1e-12, "{accumulated:?}");
    }
}

//! The spring constraints of the position-based step, scheduled so two threads can share
//! them: the sheet's rows split in two halves, each half's own springs solved by one thread,
//! then the few springs across the split. Within each list the springs are ordered by a
//! greedy colouring (no two springs of one colour share a vertex), so consecutive updates do
//! not wait on each other's square roots. The order is fixed, so one thread or two give the
//! same positions bit for bit.
//!
//! Each spring carries what its update needs in one flat record (rest length and the share
//! of the correction each end takes, stiffness and inverse masses folded in), so a pass is
//! one square root and one division per spring; springs between two pinned vertices are left
//! out. A pass reports the largest correction one spring applied to a vertex, the
//! convergence measure the step uses to stop early.

use super::mesh::{ClothMesh, SpringKind};
use crate::geom::two_threads;
use crate::geom::{Point3, Real};

/// A pass whose springs each moved their vertices less than this has converged: the passes
/// left would only move vertices by amounts of the same order (a vertex has at most a dozen
/// springs),
/// far below any length the detection or the viewer resolves. A sheet resting flat on a
/// body, whose springs gravity translates without straining, stops after one pass; a sheet
/// held under strain (hanging, draped) keeps its full iteration count.
pub const CONVERGED_M: Real = 1e-12;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Packed {
    a: u32,
    b: u32,
    rest_m: Real,
    /// `stiffness * w_a / (w_a + w_b)`: the share of the correction `a` takes.
    share_a: Real,
    share_b: Real,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpringSchedule {
    /// Vertices `< split` belong to the first half (rows are contiguous in each sheet, and
    /// the sheets follow each other).
    split: usize,
    first: Vec<Packed>,
    /// Indices relative to `split`.
    second: Vec<Packed>,
    across: Vec<Packed>,
    /// What the shares were computed from: a change (a pin, a new stiffness) rebuilds.
    inverse_mass: Vec<Real>,
    stiffness: [Real; 3],
}

fn kind_index(kind: SpringKind) -> usize {
    match kind {
        SpringKind::Stretch => 0,
        SpringKind::Shear => 1,
        SpringKind::Bend => 2,
    }
}

/// Stable greedy colouring: each spring takes the least colour free at both its vertices.
fn colour_order(springs: Vec<Packed>, vertices: usize) -> Vec<Packed> {
    let mut used = vec![0u64; vertices];
    let mut coloured: Vec<(u32, Packed)> = springs
        .into_iter()
        .map(|s| {
            let (a, b) = (s.a as usize, s.b as usize);
            let free = !(used[a] | used[b]);
            let colour = free.trailing_zeros().min(63);
            used[a] |= 1 << colour;
            used[b] |= 1 << colour;
            (colour, s)
        })
        .collect();
    coloured.sort_by_key(|(c, _)| *c);
    coloured.into_iter().map(|(_, s)| s).collect()
}

impl SpringSchedule {
    /// `stiffness` by kind (stretch, shear, bend); springs whose ends are both pinned, or
    /// that name a vertex the masses do not cover, are left out.
    pub fn new(mesh: &ClothMesh, inverse_mass: &[Real], stiffness: [Real; 3]) -> Self {
        let vertices = inverse_mass.len();
        let split = mesh.half_split().min(vertices);
        let (mut first, mut second, mut across) = (Vec::new(), Vec::new(), Vec::new());
        for s in &mesh.springs {
            let (Some(&wa), Some(&wb)) = (
                inverse_mass.get(s.a as usize),
                inverse_mass.get(s.b as usize),
            ) else {
                continue;
            };
            let total = wa + wb;
            if !(total > 0.0) {
                continue;
            }
            let k = stiffness[kind_index(s.kind)];
            let packed = Packed {
                a: s.a,
                b: s.b,
                rest_m: s.rest_m,
                share_a: k * wa / total,
                share_b: k * wb / total,
            };
            match ((s.a as usize) < split, (s.b as usize) < split) {
                (true, true) => first.push(packed),
                (false, false) => second.push(Packed {
                    a: s.a - split as u32,
                    b: s.b - split as u32,
                    ..packed
                }),
                _ => across.push(packed),
            }
        }
        Self {
            split,
            first: colour_order(first, vertices),
            second: colour_order(second, vertices),
            across: colour_order(across, vertices),
            inverse_mass: inverse_mass.to_vec(),
            stiffness,
        }
    }

    /// Built from these masses and stiffnesses (else rebuild it).
    pub fn fits(&self, inverse_mass: &[Real], stiffness: [Real; 3]) -> bool {
        self.stiffness == stiffness && self.inverse_mass == inverse_mass
    }

    /// One pass over every spring; returns the largest correction a spring applied.
    /// Positions must cover the masses the schedule was built from.
    pub fn solve(&self, positions: &mut [Point3]) -> Real {
        if positions.len() < self.inverse_mass.len() {
            return 0.0;
        }
        let parallel = positions.len() >= two_threads::PARALLEL_MIN;
        let (low, high) = positions.split_at_mut(self.split);
        let halves = if parallel {
            let (high_moved, low_moved) =
                two_threads::join(|| relax(&self.second, high), || relax(&self.first, low));
            low_moved.max(high_moved)
        } else {
            relax(&self.first, low).max(relax(&self.second, high))
        };
        halves.max(relax(&self.across, positions))
    }
}

/// Gauss–Seidel over `springs` (indices checked at build against the masses, which the
/// positions cover); the largest correction a spring applied.
fn relax(springs: &[Packed], positions: &mut [Point3]) -> Real {
    let mut largest: Real = 0.0;
    for s in springs {
        let (a, b) = (s.a as usize, s.b as usize);
        let delta = positions[b] - positions[a];
        let length = delta.norm();
        if length <= 1e-12 {
            continue;
        }
        let stretch = 1.0 - s.rest_m / length;
        positions[a] += delta * (stretch * s.share_a);
        positions[b] -= delta * (stretch * s.share_b);
        largest = largest.max((length - s.rest_m).abs() * s.share_a.max(s.share_b));
    }
    largest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Vec3;

    fn sheet(side: u32) -> (ClothMesh, Vec<Point3>) {
        ClothMesh::grid(
            side,
            side,
            Point3::new(0.0, 1.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 0.0, 1.0),
        )
        .expect("valid grid")
    }

    /// Reference: the springs in the mesh's own order, one division by the summed masses.
    fn naive_pass(mesh: &ClothMesh, positions: &mut [Point3], w: &[Real], k: [Real; 3]) {
        for s in &mesh.springs {
            let (a, b) = (s.a as usize, s.b as usize);
            if w[a] + w[b] == 0.0 {
                continue;
            }
            let delta = positions[b] - positions[a];
            let length = delta.norm();
            let c = delta * (k[kind_index(s.kind)] * (1.0 - s.rest_m / length) / (w[a] + w[b]));
            positions[a] += c * w[a];
            positions[b] -= c * w[b];
        }
    }

    fn strain(mesh: &ClothMesh, positions: &[Point3]) -> Real {
        mesh.springs
            .iter()
            .map(|s| ((positions[s.b as usize] - positions[s.a as usize]).norm() - s.rest_m).abs())
            .fold(0.0, Real::max)
    }

    /// A sheet pinned along one edge and pulled: passes drive the strain down as the plain
    /// per-spring iteration does, and the schedule keeps pinned vertices in place.
    #[test]
    fn passes_relax_a_strained_sheet_like_the_plain_iteration() {
        for side in [8u32, 50] {
            let (mesh, rest) = sheet(side);
            let mut w = vec![1.0; rest.len()];
            for pinned in w.iter_mut().take(side as usize) {
                *pinned = 0.0;
            }
            let k = [1.0, 0.8, 0.2];
            let pulled: Vec<Point3> = rest
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let j = (i / side as usize) as Real;
                    p + Vec3::new(0.01 * j * (i % 3) as Real, -0.02 * j, 0.03 * j)
                })
                .collect();
            let schedule = SpringSchedule::new(&mesh, &w, k);
            let (mut ours, mut plain) = (pulled.clone(), pulled.clone());
            let before = strain(&mesh, &pulled);
            for _ in 0..40 {
                schedule.solve(&mut ours);
                naive_pass(&mesh, &mut plain, &w, k);
            }
            let (after, reference) = (strain(&mesh, &ours), strain(&mesh, &plain));
            assert!(after < 0.2 * before, "strain {before} -> {after}");
            assert!(after < 2.0 * reference + 1e-9, "{after} vs {reference}");
            for i in 0..side as usize {
                assert_eq!(ours[i], pulled[i], "pinned vertex {i} moved");
            }
        }
    }

    /// The convergence measure: zero moves on a sheet at rest length (translated as gravity
    /// translates it), a positive one on a strained sheet, and one or two threads agree.
    #[test]
    fn pass_reports_its_largest_move() {
        let (mesh, rest) = sheet(60);
        let w = vec![1.0; rest.len()];
        let schedule = SpringSchedule::new(&mesh, &w, [1.0, 0.8, 0.2]);
        let mut moved: Vec<Point3> = rest.iter().map(|p| p - Vec3::y() * 0.0027).collect();
        assert!(schedule.solve(&mut moved) < CONVERGED_M);
        let mut strained = rest.clone();
        strained[1805].y += 0.01;
        let before = strained.clone();
        let largest = schedule.solve(&mut strained);
        let actual = strained
            .iter()
            .zip(&before)
            .map(|(p, q)| (p - q).norm())
            .fold(0.0, Real::max);
        assert!(largest > 1e-4, "{largest}");
        // A vertex takes the corrections of its (at most twelve) springs.
        assert!(
            actual <= 12.0 * largest,
            "moved {actual}, reported {largest}"
        );
        // Two threads (≥ 2048 vertices) against one: the halves in the same order.
        let mut serial = before.clone();
        relax(&schedule.first, &mut serial[..schedule.split]);
        relax(&schedule.second, &mut serial[schedule.split..]);
        relax(&schedule.across, &mut serial);
        assert_eq!(serial, strained);
    }

    #[test]
    fn schedule_is_rebuilt_when_a_pin_or_a_stiffness_changes() {
        let (mesh, rest) = sheet(4);
        let mut w = vec![1.0; rest.len()];
        let k = [1.0, 0.8, 0.2];
        let schedule = SpringSchedule::new(&mesh, &w, k);
        assert!(schedule.fits(&w, k));
        assert!(!schedule.fits(&w, [1.0, 0.8, 0.3]));
        w[0] = 0.0;
        assert!(!schedule.fits(&w, k));
        // Masses that do not cover the positions: no pass, no panic.
        let short = SpringSchedule::new(&mesh, &w[..3], k);
        let mut p = rest.clone();
        short.solve(&mut p);
        let mut few = rest[..2].to_vec();
        assert_eq!(schedule.solve(&mut few), 0.0);
    }
}

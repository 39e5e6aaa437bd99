//! The spring constraints of the position-based step, scheduled so two threads can share
//! them: the sheet's rows split in two halves, each half's own springs solved by one thread,
//! then the few springs across the split. Within each list the springs are ordered by a
//! greedy colouring (no two springs of one colour share a vertex), so consecutive updates do
//! not wait on each other's square roots. The order is fixed, so one thread or two give the
//! same positions bit for bit.

use super::mesh::{ClothMesh, SpringKind};
use crate::geom::{Point3, Real};

/// Below this many vertices a second thread costs more than it saves.
const PARALLEL_MIN_VERTICES: usize = 2048;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Packed {
    a: u32,
    b: u32,
    rest_m: Real,
    kind: u8,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpringSchedule {
    /// Vertices `< split` belong to the first half (rows are contiguous in the grid).
    split: usize,
    first: Vec<Packed>,
    /// Indices relative to `split`.
    second: Vec<Packed>,
    across: Vec<Packed>,
}

fn kind_index(kind: SpringKind) -> u8 {
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
    pub fn new(mesh: &ClothMesh) -> Self {
        let vertices = mesh.vertex_count();
        let split = (mesh.rows / 2 * mesh.columns) as usize;
        let (mut first, mut second, mut across) = (Vec::new(), Vec::new(), Vec::new());
        for s in &mesh.springs {
            let packed = Packed {
                a: s.a,
                b: s.b,
                rest_m: s.rest_m,
                kind: kind_index(s.kind),
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
        }
    }

    /// Built for a mesh with this many vertices (a schedule from another sheet is rebuilt).
    pub fn fits(&self, vertices: usize) -> bool {
        self.split <= vertices
            && self
                .first
                .iter()
                .chain(&self.across)
                .all(|s| (s.a.max(s.b) as usize) < vertices)
    }

    /// One pass over every spring; `stiffness` by kind (stretch, shear, bend).
    pub fn solve(&self, positions: &mut [Point3], inverse_mass: &[Real], stiffness: [Real; 3]) {
        let parallel = positions.len() >= PARALLEL_MIN_VERTICES;
        let (low, high) = positions.split_at_mut(self.split.min(positions.len()));
        let (w_low, w_high) = inverse_mass.split_at(self.split.min(inverse_mass.len()));
        if parallel {
            std::thread::scope(|scope| {
                scope.spawn(|| relax(&self.second, high, w_high, stiffness));
                relax(&self.first, low, w_low, stiffness);
            });
        } else {
            relax(&self.first, low, w_low, stiffness);
            relax(&self.second, high, w_high, stiffness);
        }
        relax(&self.across, positions, inverse_mass, stiffness);
    }
}

fn relax(springs: &[Packed], positions: &mut [Point3], inverse_mass: &[Real], k: [Real; 3]) {
    for s in springs {
        let (a, b) = (s.a as usize, s.b as usize);
        let (Some(&wa), Some(&wb)) = (inverse_mass.get(a), inverse_mass.get(b)) else {
            continue;
        };
        if wa + wb == 0.0 || a >= positions.len() || b >= positions.len() {
            continue;
        }
        let delta = positions[b] - positions[a];
        let length = delta.norm();
        if length <= 1e-12 {
            continue;
        }
        let stiffness = k[s.kind as usize];
        let correction = delta * (stiffness * (1.0 - s.rest_m / length) / (wa + wb));
        positions[a] += correction * wa;
        positions[b] -= correction * wb;
    }
}

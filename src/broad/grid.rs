//! Uniform grid (spec 003 §2.5, spec 004 §3): space cut into equal cubes; a box is listed in
//! every cell it overlaps, and only boxes sharing a cell are tested.
//!
//! A pair sharing several cells is reported once, by the cell holding the lowest corner of
//! the two boxes' intersection (both boxes cover that cell, since floor is monotonic), so no
//! pair set is needed. A box spanning more than [`UniformGrid::MAX_CELLS_PER_BOX`] cells
//! would flood the grid; it is tested against every box instead.

use super::BroadEvent;
use super::{BroadStats, finish, is_regular, ordered, stray_pairs, test_pair};
use crate::geom::{Aabb, Point3, Real, Vec3};
use crate::trace::{Probe, TraceEvent, Verdict};
use std::collections::HashMap;

#[derive(Clone, Debug, Default)]
pub struct UniformGrid {
    /// Cell edge length; `None` picks the mean of the boxes' largest extents each update.
    pub cell_size: Option<Real>,
    cells: HashMap<[i64; 3], Vec<u32>>,
    pub stats: BroadStats,
}

impl UniformGrid {
    pub const MAX_CELLS_PER_BOX: i64 = 64;

    pub fn with_cell_size(size: Real) -> Self {
        Self {
            cell_size: Some(size),
            ..Self::default()
        }
    }

    fn automatic_size(boxes: &[Aabb]) -> Real {
        let (sum, n) = boxes
            .iter()
            .filter(|b| is_regular(b))
            .fold((0.0, 0usize), |(s, n), b| (s + b.extents().max(), n + 1));
        let mean = if n > 0 { sum / n as Real } else { 0.0 };
        if mean > 0.0 && mean.is_finite() {
            mean
        } else {
            1.0
        }
    }

    pub fn update<P: Probe>(&mut self, boxes: &[Aabb], probe: &mut P) -> Vec<(u32, u32)> {
        self.stats = BroadStats::default();
        let size = match self.cell_size {
            Some(s) if s > 0.0 && s.is_finite() => s,
            _ => Self::automatic_size(boxes),
        };
        let cell_of = |x: Real| (x / size).floor() as i64;
        for list in self.cells.values_mut() {
            list.clear();
        }
        let mut large: Vec<u32> = Vec::new();
        for (i, b) in boxes.iter().enumerate() {
            if !is_regular(b) {
                continue;
            }
            let lo = [cell_of(b.min.x), cell_of(b.min.y), cell_of(b.min.z)];
            let hi = [cell_of(b.max.x), cell_of(b.max.y), cell_of(b.max.z)];
            let span = |k: usize| hi[k].saturating_sub(lo[k]).saturating_add(1);
            let count = span(0).saturating_mul(span(1)).saturating_mul(span(2));
            if count > Self::MAX_CELLS_PER_BOX {
                large.push(i as u32);
                continue;
            }
            for x in lo[0]..=hi[0] {
                for y in lo[1]..=hi[1] {
                    for z in lo[2]..=hi[2] {
                        self.cells.entry([x, y, z]).or_default().push(i as u32);
                    }
                }
            }
        }
        self.cells.retain(|_, list| !list.is_empty());
        self.stats.cells = self.cells.len() as u64;

        let mut out = Vec::new();
        let mut keys: Vec<&[i64; 3]> = self.cells.keys().collect();
        // Cells in a fixed order: the trace must not depend on hashing.
        keys.sort_unstable();
        for key in keys {
            let list = &self.cells[key];
            crate::trace_event!(probe, {
                let min = Point3::new(key[0] as Real, key[1] as Real, key[2] as Real) * size;
                TraceEvent::new(
                    Verdict::Info,
                    BroadEvent::SpatialCell {
                        bounds: Aabb::new(min, min + Vec3::repeat(size)),
                        depth: 0,
                        bodies: list.clone(),
                    },
                )
            });
            for (k, &a) in list.iter().enumerate() {
                for &b in &list[k + 1..] {
                    let (ba, bb) = (&boxes[a as usize], &boxes[b as usize]);
                    let corner = ba.min.sup(&bb.min);
                    if [cell_of(corner.x), cell_of(corner.y), cell_of(corner.z)] != *key {
                        continue;
                    }
                    if test_pair(boxes, a, b, &mut self.stats, probe) {
                        out.push(ordered(a, b));
                    }
                }
            }
        }
        // Large boxes against every regular box (and each other once).
        for (k, &a) in large.iter().enumerate() {
            for b in 0..boxes.len() as u32 {
                if b == a || !is_regular(&boxes[b as usize]) || large[..=k].contains(&b) {
                    continue;
                }
                if test_pair(boxes, a, b, &mut self.stats, probe) {
                    out.push(ordered(a, b));
                }
            }
        }
        stray_pairs(boxes, &mut self.stats, probe, &mut out);
        finish(out)
    }
}

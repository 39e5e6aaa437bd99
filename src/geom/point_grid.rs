//! Stored points found by position: every one that may lie within a fixed radius of a query,
//! from a hash grid of cells twice the radius wide. Contact merging and warm starting look
//! up each of tens of thousands of points this way when a dense mesh sinks into a body.

use super::cell_hasher::CellHash;
use super::{Point3, Real};
use std::collections::HashMap;

/// Which coordinates are keyed exactly (bit i), and the key.
type Cell = (u8, [i64; 3]);

const END: usize = usize::MAX;

#[derive(Clone, Debug)]
pub struct PointGrid {
    radius: Real,
    cell_size: Real,
    /// Each cell's last inserted point; the others follow through `next`, so that a grid of
    /// one point a cell costs no allocation a cell.
    heads: HashMap<Cell, usize, CellHash>,
    next: Vec<usize>,
}

impl PointGrid {
    /// A grid for queries of `radius` > 0.
    pub fn new(radius: Real) -> Self {
        Self {
            radius,
            cell_size: 2.0 * radius,
            heads: HashMap::default(),
            next: Vec::new(),
        }
    }

    /// Stores point `index` at `p`; a non-finite point, within no distance of anything, is
    /// not stored. An index is stored at most once at a time.
    pub fn insert(&mut self, index: usize, p: &Point3) {
        let Some(cell) = self.cell(p) else {
            return;
        };
        if self.next.len() <= index {
            self.next.resize(index + 1, END);
        }
        let head = self.heads.entry(cell).or_insert(END);
        self.next[index] = *head;
        *head = index;
    }

    /// Forgets point `index`, stored at `p`.
    pub fn remove(&mut self, index: usize, p: &Point3) {
        let Some(cell) = self.cell(p) else {
            return;
        };
        let Some(&head) = self.heads.get(&cell) else {
            return;
        };
        let after = self.next.get(index).copied().unwrap_or(END);
        if head == index {
            if after == END {
                self.heads.remove(&cell);
            } else {
                self.heads.insert(cell, after);
            }
            return;
        }
        let mut at = head;
        while at != END {
            if self.next[at] == index {
                self.next[at] = after;
                return;
            }
            at = self.next[at];
        }
    }

    /// Moves point `index` from `from` to `to`.
    pub fn moved(&mut self, index: usize, from: &Point3, to: &Point3) {
        if self.cell(from) != self.cell(to) {
            self.remove(index, from);
            self.insert(index, to);
        }
    }

    /// Calls `visit` once with each stored point that may be within the radius of `p`. Every
    /// point `q` with `(q - p).norm() < radius`, as computed, is among them: each of its
    /// coordinates is then within the radius (the norm is at least each rounded difference),
    /// so `q.x ∈ [fl(p.x − r), fl(p.x + r)]`, and division and `floor` keep that order.
    pub fn for_each_near(&self, p: &Point3, mut visit: impl FnMut(usize)) {
        let Some((exact, key)) = self.cell(p) else {
            return;
        };
        let range = |i: usize| {
            if exact & (1 << i) != 0 {
                (key[i], key[i])
            } else {
                let index = |c: Real| (c / self.cell_size).floor() as i64;
                (index(p[i] - self.radius), index(p[i] + self.radius))
            }
        };
        let ([x0, y0, z0], [x1, y1, z1]) = {
            let (a, b, c) = (range(0), range(1), range(2));
            ([a.0, b.0, c.0], [a.1, b.1, c.1])
        };
        for x in x0..=x1 {
            for y in y0..=y1 {
                for z in z0..=z1 {
                    let mut at = self.heads.get(&(exact, [x, y, z])).copied().unwrap_or(END);
                    while at != END {
                        visit(at);
                        at = self.next[at];
                    }
                }
            }
        }
    }

    /// A point's cell; `None` for a non-finite point. A coordinate so large that its
    /// neighbouring doubles are further apart than the radius (two distinct doubles near c
    /// are at least |c|·2⁻⁵⁴ apart) is keyed by its exact value: only an equal one can be
    /// within the radius, and a point below that size cannot be within the radius of one
    /// above it. As a cell index it would saturate, and every such point would share a cell.
    fn cell(&self, p: &Point3) -> Option<Cell> {
        if !p.iter().all(|c| c.is_finite()) {
            return None;
        }
        let far = self.radius * 2f64.powi(54);
        let mut exact = 0u8;
        let mut key = [0i64; 3];
        for (i, &c) in p.iter().enumerate() {
            if c.abs() >= far {
                exact |= 1 << i;
                // + 0.0 makes −0.0 and 0.0 one key.
                key[i] = (c + 0.0).to_bits() as i64;
            } else {
                key[i] = (c / self.cell_size).floor() as i64;
            }
        }
        Some((exact, key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    /// On a lattice a quarter of the radius wide, so that distances tie with the radius, with
    /// the odd huge, tiny or non-finite coordinate.
    fn coordinate() -> impl Strategy<Value = Real> {
        prop_oneof![
            8 => (-40_i32..40).prop_map(|i| Real::from(i) * 0.25e-6),
            1 => any::<Real>(),
            1 => prop_oneof![Just(1e300), Just(-1e300), Just(5e-324), Just(-0.0)],
        ]
    }

    fn point() -> impl Strategy<Value = Point3> {
        (coordinate(), coordinate(), coordinate()).prop_map(|(x, y, z)| Point3::new(x, y, z))
    }

    fn near(grid: &PointGrid, p: &Point3) -> Vec<usize> {
        let mut seen = Vec::new();
        grid.for_each_near(p, |i| seen.push(i));
        seen
    }

    proptest! {
        #[test]
        fn every_point_within_the_radius_is_visited_once(
            points in prop::collection::vec(point(), 0..300),
            removed in prop::collection::vec(any::<prop::sample::Index>(), 0..40),
            queries in prop::collection::vec(point(), 1..40),
            radius in prop_oneof![Just(1e-6), Just(0.5e-6), 1e-9..1e-5_f64],
        ) {
            let mut grid = PointGrid::new(radius);
            for (i, p) in points.iter().enumerate() {
                grid.insert(i, p);
            }
            let mut gone = BTreeSet::new();
            for r in removed.iter().filter(|_| !points.is_empty()) {
                let i = r.index(points.len());
                if gone.insert(i) {
                    grid.remove(i, &points[i]);
                }
            }
            for q in &queries {
                let seen = near(&grid, q);
                let unique: BTreeSet<usize> = seen.iter().copied().collect();
                prop_assert_eq!(unique.len(), seen.len(), "a point visited twice");
                prop_assert!(unique.is_disjoint(&gone), "a removed point visited");
                for (i, p) in points.iter().enumerate() {
                    if (p - q).norm() < radius && !gone.contains(&i) {
                        prop_assert!(unique.contains(&i), "{} at {:?} missed from {:?}", i, p, q);
                    }
                }
            }
        }
    }

    #[test]
    fn a_moved_point_is_found_where_it_went() {
        let mut grid = PointGrid::new(0.01);
        let (from, to) = (Point3::new(0.0, 0.0, 0.0), Point3::new(5.0, 0.0, 0.0));
        for i in 0..3 {
            grid.insert(i, &from);
        }
        grid.moved(1, &from, &to);
        assert_eq!(near(&grid, &to), vec![1]);
        let mut left = near(&grid, &from);
        left.sort_unstable();
        assert_eq!(left, vec![0, 2]);
    }
}

use crate::geom::{Point3, Real, Vec3};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint {
    pub point: Point3,
    /// Unit normal from the first shape to the second.
    pub normal: Vec3,
    /// Penetration depth, positive when overlapping.
    pub depth: Real,
}

impl ContactPoint {
    pub fn flipped(self) -> Self {
        Self {
            normal: -self.normal,
            ..self
        }
    }
}

/// Below this many candidates the plain scan is faster than hashing them.
const SCAN_LIMIT: usize = 32;

/// Drops points closer than `tolerance` to one already kept (keeping the deeper one), so
/// that shared mesh edges or coincident candidates do not count twice.
///
/// A point merges into the *first* kept point within `tolerance`, in the order kept. A mesh
/// deep inside a sphere gives one candidate per triangle, so past a few dozen the kept
/// points are found through a grid of `tolerance`-sized cells, with the same result.
pub fn dedup(points: Vec<ContactPoint>, tolerance: Real) -> Vec<ContactPoint> {
    if points.len() <= SCAN_LIMIT || !(tolerance > 0.0) {
        return dedup_by_scan(points, tolerance);
    }
    let mut grid = KeptGrid::new(tolerance);
    let mut kept: Vec<ContactPoint> = Vec::with_capacity(points.len());
    for p in points {
        match grid.first_within(&kept, &p.point) {
            Some(k) if p.depth > kept[k].depth => {
                grid.moved(k, &kept[k].point, &p.point);
                kept[k] = p;
            }
            Some(_) => {}
            None => {
                grid.insert(kept.len(), &p.point);
                kept.push(p);
            }
        }
    }
    kept
}

fn dedup_by_scan(points: Vec<ContactPoint>, tolerance: Real) -> Vec<ContactPoint> {
    let mut kept: Vec<ContactPoint> = Vec::with_capacity(points.len());
    for p in points {
        match kept
            .iter_mut()
            .find(|k| (k.point - p.point).norm() < tolerance)
        {
            Some(k) if p.depth > k.depth => *k = p,
            Some(_) => {}
            None => kept.push(p),
        }
    }
    kept
}

/// Which coordinates are keyed exactly (bit i), and the key.
type Cell = (u8, [i64; 3]);

/// The indices of kept points by cell. Cells are twice `tolerance` wide so that two points
/// within `tolerance` land in the same or adjacent cells despite the rounding of the
/// division; far-off coordinates saturate into the edge cells, which only makes those
/// cells fuller (the distance test stays exact).
struct KeptGrid {
    tolerance: Real,
    cell_size: Real,
    cells: HashMap<Cell, Vec<usize>>,
}

impl KeptGrid {
    fn new(tolerance: Real) -> Self {
        Self {
            tolerance,
            cell_size: 2.0 * tolerance,
            cells: HashMap::new(),
        }
    }

    /// A point's cell; `None` for a non-finite point, within no distance of anything. A
    /// coordinate so large that its neighbouring doubles are further apart than the tolerance
    /// (two distinct doubles near c are at least |c|·2⁻⁵⁴ apart) is keyed by its exact value:
    /// only an equal one can be within the tolerance. As a cell index it would saturate, and
    /// every such point would share one cell, making each merge a scan of them all.
    fn cell(&self, p: &Point3) -> Option<Cell> {
        if !p.iter().all(|c| c.is_finite()) {
            return None;
        }
        let far = self.tolerance * 2f64.powi(54);
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

    fn first_within(&self, kept: &[ContactPoint], p: &Point3) -> Option<usize> {
        let (exact, [x, y, z]) = self.cell(p)?;
        let offsets = |i: u8| if exact & (1 << i) != 0 { 0..=0 } else { -1..=1 };
        let mut first: Option<usize> = None;
        for dx in offsets(0) {
            for dy in offsets(1) {
                for dz in offsets(2) {
                    let cell = (exact, [x + dx, y + dy, z + dz]);
                    for &k in self.cells.get(&cell).into_iter().flatten() {
                        let near = (kept[k].point - p).norm() < self.tolerance;
                        if near && first.is_none_or(|f| k < f) {
                            first = Some(k);
                        }
                    }
                }
            }
        }
        first
    }

    fn insert(&mut self, k: usize, p: &Point3) {
        if let Some(cell) = self.cell(p) {
            self.cells.entry(cell).or_default().push(k);
        }
    }

    fn moved(&mut self, k: usize, from: &Point3, to: &Point3) {
        let (old, new) = (self.cell(from), self.cell(to));
        if old == new {
            return;
        }
        if let Some(list) = old.and_then(|c| self.cells.get_mut(&c)) {
            list.retain(|&i| i != k);
        }
        self.insert(k, to);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn point(x: Real, y: Real, z: Real, depth: Real) -> ContactPoint {
        ContactPoint {
            point: Point3::new(x, y, z),
            normal: Vec3::z(),
            depth,
        }
    }

    /// Coordinates on a coarse lattice, so that many candidates fall within the tolerance
    /// of one another, exactly on it, or coincide; with the odd huge or NaN coordinate.
    fn coordinate() -> impl Strategy<Value = Real> {
        prop_oneof![
            8 => (-40_i32..40).prop_map(|i| Real::from(i) * 0.25e-6),
            1 => any::<Real>(),
            1 => Just(1e300),
        ]
    }

    fn candidates() -> impl Strategy<Value = Vec<ContactPoint>> {
        prop::collection::vec(
            (coordinate(), coordinate(), coordinate(), -1.0..1.0_f64)
                .prop_map(|(x, y, z, d)| point(x, y, z, d)),
            0..400,
        )
    }

    proptest! {
        #[test]
        fn the_grid_keeps_what_the_scan_keeps(points in candidates(), tolerance in prop_oneof![Just(1e-6), Just(0.5e-6), 1e-9..1e-5_f64]) {
            let by_scan = dedup_by_scan(points.clone(), tolerance);
            let by_grid = dedup(points, tolerance);
            prop_assert_eq!(by_grid.len(), by_scan.len());
            for (g, s) in by_grid.iter().zip(&by_scan) {
                prop_assert_eq!(g.point.coords.map(Real::to_bits), s.point.coords.map(Real::to_bits));
                prop_assert_eq!(g.depth.to_bits(), s.depth.to_bits());
            }
        }
    }

    /// Found by the scene generator (a case ran for over 10 minutes): candidates with a huge
    /// or non-finite coordinate all fell into one saturated cell, and each merge scanned them
    /// all. Distinct ones are all kept, equal ones merge, and it takes one pass.
    #[test]
    fn huge_and_non_finite_candidates_do_not_share_one_cell() {
        let mut points = Vec::new();
        for k in 0..30_000 {
            let huge = 1e300 * (1.0 + f64::from(k) * 1e-12);
            points.push(point(huge, 0.0, -1e-7, 0.0));
            points.push(point(f64::NAN, f64::from(k), 0.0, 0.0));
        }
        points.push(point(1e300, -0.0, -1e-7, 1.0));
        let kept = dedup(points.clone(), 0.05);
        // The last point is the first one again (−0.0 is 0.0), deeper: it replaces it.
        assert_eq!(kept.len(), 60_000);
        assert_eq!(kept[0].depth, 1.0);
        assert_eq!(
            kept.len(),
            dedup_by_scan(points[..2_000].to_vec(), 0.05).len() + 58_000
        );
    }

    #[test]
    fn a_point_merges_into_the_first_kept_not_the_nearest() {
        // Far more than the scan limit, all on one line 0.6 µm apart: each is within 1 µm of
        // its two neighbours, so the order of merging decides what is kept.
        let points: Vec<_> = (0..200)
            .map(|i| point(Real::from(i) * 0.6e-6, 0.0, 0.0, Real::from(i % 7)))
            .collect();
        let by_grid = dedup(points.clone(), 1e-6);
        assert_eq!(by_grid, dedup_by_scan(points, 1e-6));
        assert!(by_grid.len() < 100, "{}", by_grid.len());
    }
}

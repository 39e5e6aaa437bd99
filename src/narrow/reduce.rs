//! A bound on one pair's contacts. A dense mesh deep inside a body brings a contact per
//! triangle: a 300,000-triangle torus inside a capsule gave 300,000 rows to the solver, the
//! warm start and every recorded frame, for seconds a step. Past the bound, the pair keeps
//! the deepest contact of each cell of a grid over its contacts, which holds the region's
//! extent and its deepest points. No built-in scene comes near it (200 at most).

use super::ContactPoint;
use crate::geom::{Aabb, Real};

/// Cells along each axis of the grid: at most this cubed contacts are kept.
const CELLS_PER_AXIS: usize = 10;

/// The most contacts one pair keeps.
pub const MAX_PAIR_CONTACTS: usize = CELLS_PER_AXIS * CELLS_PER_AXIS * CELLS_PER_AXIS;

/// `points` unchanged up to `MAX_PAIR_CONTACTS`; past it, the deepest point of each grid
/// cell (the first of equally deep ones), in the order they came. Non-finite points, which
/// no solver row can use, share the first cell.
pub fn reduce(points: Vec<ContactPoint>) -> Vec<ContactPoint> {
    if points.len() <= MAX_PAIR_CONTACTS {
        return points;
    }
    let finite = |c: &ContactPoint| c.point.iter().all(|x| x.is_finite());
    let bounds = Aabb::from_points(points.iter().filter(|c| finite(c)).map(|c| &c.point));
    let cell = |c: &ContactPoint| {
        if !finite(c) {
            return 0;
        }
        let mut index = 0;
        for axis in 0..3 {
            let (low, high) = (bounds.min[axis], bounds.max[axis]);
            // Divided in two steps: the span of a box reaching ±1e308 overflows.
            let at = (c.point[axis] / 2.0 - low / 2.0) / (high / 2.0 - low / 2.0);
            let slot = (at * CELLS_PER_AXIS as Real).floor();
            let slot = if slot.is_finite() {
                slot.max(0.0) as usize
            } else {
                0
            };
            index = index * CELLS_PER_AXIS + slot.min(CELLS_PER_AXIS - 1);
        }
        index
    };
    let mut deepest: Vec<Option<usize>> = vec![None; MAX_PAIR_CONTACTS];
    for (i, c) in points.iter().enumerate() {
        let slot = &mut deepest[cell(c)];
        if slot.is_none_or(|k| c.depth > points[k].depth) {
            *slot = Some(i);
        }
    }
    let mut kept: Vec<usize> = deepest.into_iter().flatten().collect();
    kept.sort_unstable();
    kept.into_iter().map(|i| points[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Point3, Vec3};
    use proptest::prelude::*;

    fn contact(x: Real, y: Real, z: Real, depth: Real) -> ContactPoint {
        ContactPoint {
            point: Point3::new(x, y, z),
            normal: Vec3::y(),
            depth,
        }
    }

    fn coordinate() -> impl Strategy<Value = Real> {
        prop_oneof![
            8 => -3.0..3.0_f64,
            1 => any::<Real>(),
            1 => prop_oneof![Just(1e308), Just(-1e308), Just(0.0)],
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn a_reduced_pair_keeps_its_deepest_points_in_order(
            points in prop::collection::vec(
                (coordinate(), coordinate(), coordinate(), -1.0..1.0_f64)
                    .prop_map(|(x, y, z, d)| contact(x, y, z, d)),
                0..3_000,
            ),
        ) {
            let kept = reduce(points.clone());
            prop_assert!(kept.len() <= MAX_PAIR_CONTACTS);
            if points.len() <= MAX_PAIR_CONTACTS {
                prop_assert_eq!(&kept, &points);
                return Ok(());
            }
            // A subsequence of the input, in its order.
            let mut rest = points.iter();
            for k in &kept {
                prop_assert!(rest.any(|p| p == k), "{:?} not in order", k);
            }
            // The deepest point overall survives.
            let deepest = points.iter().map(|p| p.depth).fold(Real::NEG_INFINITY, Real::max);
            prop_assert!(kept.iter().any(|p| p.depth == deepest));
        }
    }

    /// A dense sheet of contacts reduced to one per cell: every input point lies within a
    /// cell's diagonal of a kept one, and no kept one is shallower than a point of its cell.
    #[test]
    fn a_dense_sheet_keeps_one_deepest_point_a_cell() {
        let points: Vec<_> = (0..200)
            .flat_map(|i| (0..200).map(move |j| (i, j)))
            .map(|(i, j)| {
                let depth = Real::from((i * 7 + j * 13) % 17) * 1e-3;
                contact(Real::from(i) * 0.01, 0.0, Real::from(j) * 0.01, depth)
            })
            .collect();
        let kept = reduce(points.clone());
        assert_eq!(kept.len(), CELLS_PER_AXIS * CELLS_PER_AXIS);
        let diagonal = 0.2 * 2f64.sqrt() + 1e-9;
        for p in &points {
            let near = kept.iter().any(|k| (k.point - p.point).norm() <= diagonal);
            assert!(near, "{:?} far from every kept point", p.point);
        }
        assert!(
            kept.iter().all(|k| k.depth == 0.016),
            "not the deepest of its cell"
        );
    }
}

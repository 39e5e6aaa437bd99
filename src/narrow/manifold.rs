use crate::geom::point_grid::PointGrid;
use crate::geom::{Point3, Pose, Real, Vec3};

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

    /// The contact found in a body's frame, moved by that body's pose.
    pub fn moved_by(self, pose: &Pose) -> Self {
        Self {
            point: pose * self.point,
            normal: pose.rotation * self.normal,
            ..self
        }
    }
}

/// Contacts found in a body's frame, moved by that body's pose, in place.
pub(super) fn all_moved_by(mut contacts: Vec<ContactPoint>, pose: &Pose) -> Vec<ContactPoint> {
    for c in &mut contacts {
        *c = c.moved_by(pose);
    }
    contacts
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
    let mut grid = PointGrid::new(tolerance);
    let mut kept: Vec<ContactPoint> = Vec::with_capacity(points.len());
    for p in points {
        let mut first: Option<usize> = None;
        grid.for_each_near(&p.point, |k| {
            if (kept[k].point - p.point).norm() < tolerance && first.is_none_or(|f| k < f) {
                first = Some(k);
            }
        });
        match first {
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

/// In place: the points kept so far are the front of the list.
fn dedup_by_scan(mut points: Vec<ContactPoint>, tolerance: Real) -> Vec<ContactPoint> {
    let mut kept = 0;
    for i in 0..points.len() {
        let p = points[i];
        match points[..kept]
            .iter_mut()
            .find(|k| (k.point - p.point).norm() < tolerance)
        {
            Some(k) if p.depth > k.depth => *k = p,
            Some(_) => {}
            None => {
                points[kept] = p;
                kept += 1;
            }
        }
    }
    points.truncate(kept);
    points
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

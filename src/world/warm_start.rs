//! Impulses carried from one step to the next, matched by body pair and contact position.

use crate::dynamics::{ContactConstraint, ContactImpulse};
use crate::geom::cell_hasher::CellHash;
use crate::geom::point_grid::PointGrid;
use crate::geom::{Point3, Real, Vec3};
use std::collections::HashMap;

/// Contacts closer than this to last step's count as the same contact.
const MATCH_DISTANCE_M: Real = 0.05;

/// A squared distance this large or larger is beyond the match distance after its square
/// root too (the margin is far above the roundings of both); NaN is beyond it as well.
const SCREEN_SQUARED: Real = MATCH_DISTANCE_M * MATCH_DISTANCE_M * (1.0 + 1e-9);

/// Past this many contacts a pair's lookups go through a grid: a mesh deep in a sphere
/// brings a contact per triangle, and a scan for each of them is quadratic.
const SCAN_LIMIT: usize = 16;

/// Last step's contacts of one pair, in the order they came in.
#[derive(Clone, Debug, Default)]
pub struct PairContacts {
    contacts: Vec<(Point3, ContactImpulse)>,
    grid: Option<PointGrid>,
}

impl PairContacts {
    /// The impulse of last step's nearest contact within the match distance; of equally near
    /// ones, the first recorded.
    pub fn find(&self, point: &Point3) -> Option<(Real, Vec3)> {
        let mut best: Option<(Real, usize)> = None;
        let consider = |order: usize| {
            let offset = self.contacts[order].0 - point;
            // Far ones are passed over on the squared distance, without its square root.
            if !(offset.norm_squared() < SCREEN_SQUARED) {
                return;
            }
            let distance = offset.norm();
            let nearer =
                best.is_none_or(|(d, o)| distance.total_cmp(&d).then(order.cmp(&o)).is_lt());
            if distance < MATCH_DISTANCE_M && nearer {
                best = Some((distance, order));
            }
        };
        match &self.grid {
            Some(grid) => grid.for_each_near(point, consider),
            None => (0..self.contacts.len()).for_each(consider),
        }
        best.map(|(_, order)| {
            let imp = &self.contacts[order].1;
            (imp.normal, imp.friction)
        })
    }
}

#[derive(Clone, Debug, Default)]
pub struct WarmStart {
    last: HashMap<(u32, u32), PairContacts, CellHash>,
    /// How many contacts the last step had: this step's lists start with that much room,
    /// instead of growing (and copying) a dozen times on the way.
    last_count: usize,
}

impl WarmStart {
    /// Last step's contacts of bodies `a` and `b`, looked up once for all of the pair's points.
    pub fn pair(&self, a: u32, b: u32) -> Option<&PairContacts> {
        self.last.get(&(a, b))
    }

    /// How many contacts the last step remembered.
    pub fn last_count(&self) -> usize {
        self.last_count
    }

    /// This step's contacts and impulses, for the next step. The pairs `held` (both bodies
    /// asleep or fixed, so no longer tested) keep what held them when they fell asleep: the
    /// island that wakes starts from the impulses it rested on, not from nothing.
    pub fn remember(
        &mut self,
        contacts: &[ContactConstraint],
        impulses: &[ContactImpulse],
        held: impl Fn(u32, u32) -> bool,
    ) {
        self.last_count = contacts.len();
        // Pairs keep their lists' memory from step to step; those with no contact now go.
        for (&(a, b), pair) in &mut self.last {
            if !held(a, b) {
                pair.contacts.clear();
            }
        }
        // A pair's contacts come together: its entry is looked up once for the run.
        let mut impulses = impulses.iter();
        for run in contacts.chunk_by(|x, y| (x.a, x.b) == (y.a, y.b)) {
            let list = &mut self
                .last
                .entry((run[0].a as u32, run[0].b as u32))
                .or_default()
                .contacts;
            list.extend(
                run.iter()
                    .zip(&mut impulses)
                    .map(|(c, imp)| (c.point, *imp)),
            );
        }
        self.last.retain(|_, pair| {
            pair.grid = (pair.contacts.len() > SCAN_LIMIT).then(|| {
                let mut grid = PointGrid::new(MATCH_DISTANCE_M);
                for (order, (p, _)) in pair.contacts.iter().enumerate() {
                    grid.insert(order, p);
                }
                grid
            });
            !pair.contacts.is_empty()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn contact(a: usize, point: Point3) -> ContactConstraint {
        ContactConstraint {
            a,
            b: a + 1,
            point,
            normal: Vec3::z(),
            depth: 0.0,
            restitution: 0.0,
            friction: 0.0,
            warm_start: None,
        }
    }

    /// Coordinates 1 cm apart, so that points within the match distance tie often.
    fn lattice_point() -> impl Strategy<Value = Point3> {
        let c = prop_oneof![
            9 => (-12_i32..12).prop_map(|i| Real::from(i) * 0.01),
            1 => any::<Real>(),
        ];
        (c.clone(), c.clone(), c).prop_map(|(x, y, z)| Point3::new(x, y, z))
    }

    #[test]
    fn pairs_held_asleep_keep_their_contacts_and_the_others_go() {
        let contacts = [contact(0, Point3::origin()), contact(2, Point3::origin())];
        let impulses = [0.5, 0.7].map(|normal| ContactImpulse {
            normal,
            friction: Vec3::zeros(),
        });
        let mut warm = WarmStart::default();
        warm.remember(&contacts, &impulses, |_, _| false);
        // A step with no contact: pair (0, 1) sleeps, pair (2, 3) has parted.
        warm.remember(&[], &[], |a, b| (a, b) == (0, 1));
        let found = |w: &WarmStart, a| w.pair(a, a + 1).and_then(|p| p.find(&Point3::origin()));
        assert_eq!(found(&warm, 0), Some((0.5, Vec3::zeros())));
        assert_eq!(found(&warm, 2), None);
        // Awake again and touching elsewhere: today's contacts replace the kept ones.
        let moved = contact(0, Point3::new(1.0, 0.0, 0.0));
        warm.remember(std::slice::from_ref(&moved), &impulses[1..], |_, _| false);
        assert_eq!(found(&warm, 0), None);
    }

    proptest! {
        #[test]
        fn the_slab_finds_what_a_scan_of_the_pair_finds(
            last in prop::collection::vec((0_usize..2, lattice_point()), 0..200),
            queries in prop::collection::vec((0_u32..3, lattice_point()), 1..50),
        ) {
            let contacts: Vec<_> = last.iter().map(|&(a, p)| contact(a, p)).collect();
            let impulses: Vec<_> = (0..contacts.len())
                .map(|i| ContactImpulse { normal: i as Real, friction: Vec3::zeros() })
                .collect();
            let mut warm = WarmStart::default();
            warm.remember(&contacts, &impulses, |_, _| false);
            for (a, q) in queries {
                let scanned = contacts
                    .iter()
                    .zip(&impulses)
                    .filter(|(c, _)| c.a as u32 == a && c.b as u32 == a + 1)
                    .map(|(c, imp)| ((c.point - q).norm(), imp))
                    .filter(|(d, _)| *d < MATCH_DISTANCE_M)
                    .min_by(|x, y| x.0.total_cmp(&y.0))
                    .map(|(_, imp)| (imp.normal, imp.friction));
                prop_assert_eq!(warm.pair(a, a + 1).and_then(|p| p.find(&q)), scanned);
            }
        }
    }
}

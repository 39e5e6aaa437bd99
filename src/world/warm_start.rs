//! Impulses carried from one step to the next, matched by body pair and contact position.

use crate::dynamics::{ContactConstraint, ContactImpulse};
use crate::geom::{Point3, Real, Vec3};
use std::collections::BTreeMap;

/// Contacts closer than this to last step's count as the same contact.
const MATCH_DISTANCE_M: Real = 0.05;

#[derive(Clone, Debug, Default)]
pub struct WarmStart {
    last: BTreeMap<(u32, u32), Vec<(Point3, ContactImpulse)>>,
}

impl WarmStart {
    pub fn find(&self, a: u32, b: u32, point: &Point3) -> Option<(Real, Vec3)> {
        self.last
            .get(&(a, b))?
            .iter()
            .map(|(p, imp)| ((p - point).norm(), imp))
            .filter(|(d, _)| *d < MATCH_DISTANCE_M)
            .min_by(|x, y| x.0.total_cmp(&y.0))
            .map(|(_, imp)| (imp.normal, imp.friction))
    }

    pub fn remember(&mut self, contacts: &[ContactConstraint], impulses: &[ContactImpulse]) {
        self.last.clear();
        for (c, imp) in contacts.iter().zip(impulses) {
            self.last
                .entry((c.a as u32, c.b as u32))
                .or_default()
                .push((c.point, *imp));
        }
    }
}

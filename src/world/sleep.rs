//! Islands and sleeping: bodies that touch form an island, and an island whose every body has
//! barely moved for a while falls asleep. A sleeping body is held as if fixed: it is not
//! integrated, the solver does not move it, and its pairs with other sleeping or fixed
//! bodies are not even handed to the narrow phase. A settled stack then costs almost nothing.
//!
//! An island wakes as a whole when an awake body comes within reach of one of its bodies
//! (the broad phase's own boxes, grown by the speculative margin, overlap), or when a user
//! drags one of them. Falling asleep and waking are marked on the timeline, with the bodies.

use super::World;
use super::margins::{RESTING_MARGIN_M, reach};
use super::substep::SubstepOutput;
use crate::dynamics::RigidBody;
use crate::frame::{Marker, MarkerKind};
use crate::geom::{Aabb, Real, Vec3};

/// The timeline's marker kinds.
pub const FELL_ASLEEP: &str = "fell asleep";
pub const WOKE: &str = "woke";

/// Below these speeds a body counts as still (Box2D's order of magnitude: a resting stack
/// jitters by millimetres a second).
const STILL_LINEAR_MPS: Real = 0.05;
const STILL_ANGULAR_RADPS: Real = 0.05;
/// How long every body of an island must have been still before it sleeps.
const STILL_FOR_S: Real = 0.5;

/// What the world remembers for sleeping.
#[derive(Clone, Debug, Default)]
pub(super) struct Sleep {
    /// How long each body has been still.
    still_s: Vec<Real>,
    /// Each sleeping body's island (its smallest body index); `None` while awake.
    island: Vec<Option<u32>>,
}

impl Sleep {
    pub(super) fn is_asleep(&self, body: usize) -> bool {
        self.island.get(body).is_some_and(|i| i.is_some())
    }

    /// Whether the pair of bodies `a` and `b` is held out of the narrow phase by sleep: both
    /// asleep or fixed, at least one asleep.
    pub(super) fn holds_pair(&self, bodies: &[RigidBody], a: u32, b: u32) -> bool {
        let (a, b) = (a as usize, b as usize);
        let held = |i: usize| bodies.get(i).is_some_and(|body| body.fixed);
        held(a) && held(b) && (self.is_asleep(a) || self.is_asleep(b))
    }

    pub(super) fn asleep_count(&self) -> usize {
        self.island.iter().filter(|i| i.is_some()).count()
    }
}

impl World {
    /// Whether body `index` is asleep.
    pub fn is_asleep(&self, index: usize) -> bool {
        self.sleep.is_asleep(index)
    }

    /// Wakes the island of body `index` (a user's push, a script's), with the marker that
    /// says so; `None` when it was awake.
    pub fn wake(&mut self, index: usize) -> Option<Marker> {
        let island = self.sleep.island.get(index).copied()??;
        let members: Vec<u32> = (0..self.bodies.len() as u32)
            .filter(|&b| self.sleep.island[b as usize] == Some(island))
            .collect();
        for &b in &members {
            self.sleep.island[b as usize] = None;
            self.sleep.still_s[b as usize] = 0.0;
            self.bodies[b as usize].fixed = false;
        }
        Some(Marker {
            kind: MarkerKind::Other(WOKE.into()),
            text: format!(
                "{} bodies woke (island of {})",
                members.len(),
                self.bodies[island as usize].name
            ),
            bodies: members
                .iter()
                .map(|&b| self.bodies[b as usize].id)
                .collect(),
        })
    }

    /// Every sleeping body awake, with no still time and no marker (a restored frame).
    pub(super) fn wake_all(&mut self) {
        for (b, island) in self.bodies.iter_mut().zip(&self.sleep.island) {
            if island.is_some() {
                b.fixed = false;
            }
        }
        self.sleep = Sleep::default();
    }

    /// At the start of a step: every sleeping island within reach of an awake body wakes.
    pub(super) fn wake_touched(&mut self, dt: Real, markers: &mut Vec<Marker>) {
        if !self.scene.solver.sleep || self.sleep.asleep_count() == 0 {
            return;
        }
        let movers = self.mover_reaches(dt);
        if movers.is_empty() {
            return;
        }
        let touched: Vec<usize> = (0..self.bodies.len())
            .filter(|&i| self.sleep.is_asleep(i) && self.within_reach(i, &movers))
            .collect();
        for i in touched {
            markers.extend(self.wake(i));
        }
    }

    /// How far each body that moved in the last step may reach in the next. Only movers wake
    /// others: a still neighbour merely within reach would wake an island the step after it
    /// fell asleep, every time. A mover reaches twice what its speed and gravity carry it in
    /// a step: the island must be awake before the broad phase, which looks from the
    /// integrated poses, pairs them.
    fn mover_reaches(&self, dt: Real) -> Vec<Aabb> {
        let g = Vec3::from(self.scene.gravity).norm();
        (0..self.bodies.len())
            .filter(|&i| {
                !self.bodies[i].fixed && self.sleep.still_s.get(i).is_none_or(|&s| s == 0.0)
            })
            .map(|i| {
                let b = &self.bodies[i];
                let ahead = 2.0 * (reach(b, self.rim_radius[i]) + g * dt) * dt;
                b.shape.aabb(&b.pose).loosened(RESTING_MARGIN_M + ahead)
            })
            .collect()
    }

    /// Whether body `i` lies within a mover's reach: its own box, not grown, since a sleeper
    /// does not move.
    fn within_reach(&self, i: usize, movers: &[Aabb]) -> bool {
        let b = &self.bodies[i];
        let tight = b.shape.aabb(&b.pose);
        movers.iter().any(|m| m.intersects(&tight))
    }

    /// At the end of a step: the still time of each awake body, then each island of awake
    /// bodies joined by this step's contacts falls asleep when all of it has been still
    /// long enough.
    pub(super) fn fall_asleep(&mut self, dt: Real, out: &mut SubstepOutput) {
        if !self.scene.solver.sleep {
            return;
        }
        let n = self.bodies.len();
        self.sleep.still_s.resize(n, 0.0);
        self.sleep.island.resize(n, None);
        let awake: Vec<bool> = self.bodies.iter().map(|b| !b.fixed).collect();
        for i in (0..n).filter(|&i| awake[i]) {
            let b = &self.bodies[i];
            let still = b.linear_velocity.norm() < STILL_LINEAR_MPS
                && b.angular_velocity.norm() < STILL_ANGULAR_RADPS;
            self.sleep.still_s[i] = if still {
                self.sleep.still_s[i] + dt
            } else {
                0.0
            };
        }
        let mut islands = Islands::new(n);
        for &(a, b) in &out.linked {
            let (a, b) = (a as usize, b as usize);
            if a < n && b < n && awake[a] && awake[b] {
                islands.join(a, b);
            }
        }
        // The least still time of each island, at its root.
        let mut least = vec![Real::INFINITY; n];
        for i in (0..n).filter(|&i| awake[i]) {
            let r = islands.root(i);
            least[r] = least[r].min(self.sleep.still_s[i]);
        }
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); n];
        for i in (0..n).filter(|&i| awake[i]) {
            let r = islands.root(i);
            if least[r] >= STILL_FOR_S {
                members[r].push(i as u32);
            }
        }
        let still: Vec<Vec<u32>> = members.into_iter().filter(|m| !m.is_empty()).collect();
        if still.is_empty() {
            return;
        }
        // An island a mover is about to reach would wake next step, its contacts cold: it
        // stays awake until the mover has gone.
        let movers = self.mover_reaches(dt);
        for island in still {
            if !island
                .iter()
                .any(|&b| self.within_reach(b as usize, &movers))
            {
                self.put_to_sleep(&island, &mut out.markers);
            }
        }
    }

    fn put_to_sleep(&mut self, island: &[u32], markers: &mut Vec<Marker>) {
        let first = island[0];
        for &b in island {
            let body = &mut self.bodies[b as usize];
            body.linear_velocity = crate::geom::Vec3::zeros();
            body.angular_velocity = crate::geom::Vec3::zeros();
            body.fixed = true;
            self.sleep.island[b as usize] = Some(first);
        }
        markers.push(Marker {
            kind: MarkerKind::Other(FELL_ASLEEP.into()),
            text: format!(
                "{} bodies fell asleep (island of {})",
                island.len(),
                self.bodies[first as usize].name
            ),
            bodies: island.iter().map(|&b| self.bodies[b as usize].id).collect(),
        });
    }
}

/// Union–find over body indices; the root of a set is its smallest index, so islands are
/// named the same way whatever order the contacts come in.
struct Islands {
    parent: Vec<usize>,
}

impl Islands {
    fn new(n: usize) -> Islands {
        Islands {
            parent: (0..n).collect(),
        }
    }

    fn root(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        self.parent[hi] = lo;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Brute force: the connected components by repeated relaxation of the smallest label.
    fn components(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
        let mut label: Vec<usize> = (0..n).collect();
        loop {
            let mut changed = false;
            for &(a, b) in edges {
                let m = label[a].min(label[b]);
                for x in [a, b] {
                    if label[x] != m {
                        label[x] = m;
                        changed = true;
                    }
                }
            }
            if !changed {
                return label;
            }
        }
    }

    proptest! {
        #[test]
        fn islands_are_the_connected_components(
            (n, edges) in (1usize..30).prop_flat_map(|n| (Just(n), proptest::collection::vec((0..n, 0..n), 0..40)))
        ) {
            let mut islands = Islands::new(n);
            for &(a, b) in &edges {
                islands.join(a, b);
            }
            let expected = components(n, &edges);
            for (i, &label) in expected.iter().enumerate() {
                prop_assert_eq!(islands.root(i), label);
            }
        }
    }
}

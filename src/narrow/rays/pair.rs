//! A body pair through the ray-traced narrow phase: the two directed tests A → B and B → A
//! (both are needed, Fig. 3.19), the pair's gate deciding complete or walked casts, and the
//! contacts handed to the solver.

use super::counts::RayCounts;
use super::directed::{Cast, DirectedOut, RayContact, Side, directed_test};
use super::manifold::reduce_to_four;
use super::memory::RayMemory;
use super::ray_mesh::RayMesh;
use super::record::RigidRay;
use super::settings::RaySettings;
use crate::geom::{Pose, Real};
use crate::narrow::ContactPoint;

/// One pair's answer.
#[derive(Clone, Debug, Default)]
pub struct PairRays {
    /// Normal from A to B, depth positive when overlapping, negative for a predicted gap
    /// within the margin; at most four.
    pub contacts: Vec<ContactPoint>,
    /// Every cast ray, when asked for.
    pub rays: Vec<RigidRay>,
    pub counts: RayCounts,
}

/// The ray-traced narrow phase of a world: its settings and what it remembers.
#[derive(Clone, Debug, Default)]
pub struct RayNarrow {
    pub settings: RaySettings,
    memory: RayMemory,
    /// Every pair of the last pass added up.
    pub pass_counts: RayCounts,
    counts: RayCounts,
    /// Cast walked vertices completely too and count the differences (`RayCounts`'s
    /// audit fields): the thesis's erroneous rays, at twice the cost.
    pub audit: bool,
}

impl RayNarrow {
    pub fn new(settings: RaySettings) -> Self {
        Self {
            settings,
            ..Self::default()
        }
    }

    /// Contacts of bodies `a` and `b` (their ray meshes at their poses); within `margin` a
    /// predicted gap is a speculative contact. `record`: also return every cast ray.
    pub fn collide_pair(
        &mut self,
        (ia, ma, pa): (u32, &RayMesh, &Pose),
        (ib, mb, pb): (u32, &RayMesh, &Pose),
        margin: Real,
        record: bool,
    ) -> PairRays {
        let settings = self.settings;
        let a = Side {
            body: ia,
            mesh: ma,
            pose: pa,
        };
        let b = Side {
            body: ib,
            mesh: mb,
            pose: pb,
        };
        let r_max = ma.radius_m.max(mb.radius_m);
        let walk = settings.iterative
            && self
                .memory
                .gate_allows((ia, ib), &pa.inv_mul(pb), r_max, &settings.gate);
        let mut out = PairRays::default();
        out.counts.walked_pairs = u32::from(walk);
        let mut found: [Vec<RayContact>; 2] = Default::default();
        let cast = Cast {
            settings: &settings,
            margin,
            walk,
            audit: self.audit,
        };
        for (k, (source, target)) in [(a, b), (b, a)].into_iter().enumerate() {
            directed_test(
                source,
                target,
                cast,
                &mut self.memory,
                DirectedOut {
                    contacts: &mut found[k],
                    rays: record.then_some(&mut out.rays),
                    counts: &mut out.counts,
                },
            );
        }
        // A → B: A must move along `push`, so B along −push; B → A: B along `push`.
        let [from_a, from_b] = found;
        let points: Vec<ContactPoint> = from_a
            .iter()
            .map(|c| (c, -c.push))
            .chain(from_b.iter().map(|c| (c, c.push)))
            .map(|(c, normal)| ContactPoint {
                point: c.point,
                normal,
                depth: c.depth,
            })
            .collect();
        out.contacts = reduce_to_four(points);
        self.counts.add(&out.counts);
        out
    }

    /// Ends a pass over the broad phase's pairs.
    pub fn end_pass(&mut self) {
        self.memory.end_pass();
        self.pass_counts = std::mem::take(&mut self.counts);
    }

    /// Forgets every kept ray and gate (a restored state starts with complete casts).
    pub fn forget(&mut self) {
        self.memory.clear();
        self.counts = RayCounts::default();
    }
}

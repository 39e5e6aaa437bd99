//! The four bounding-volume kinds a hierarchy can use, behind one trait.
//!
//! Every overlap test is **conservative**: it may say "overlap" for volumes a hair apart, never
//! "separated" for volumes that touch. Each test takes a `slack`, an absolute length a few
//! hundred ulps of the scene's scale, added to every separation threshold. It absorbs the
//! rounding of fitting volumes and of carrying tree B into tree A's frame, so that culling
//! never loses a pair of triangles that the exact leaf test (run on the same rounded
//! vertices) would report as touching.

mod aabb;
mod kdop;
mod obb;
mod sphere;

pub use aabb::AabbRelative;
pub use kdop::{Kdop, Kdop14, Kdop18, Kdop26, KdopRelative, kdop_axes};
pub use obb::ObbRelative;
pub use sphere::SphereRelative;

use crate::geom::{Pose, Ray, Real, TriMesh, Vec3};
use crate::trace::Volume;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// Which volume a hierarchy uses; the names are those of the query protocol's `bv` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BvKind {
    Aabb,
    Obb,
    Sphere,
    Kdop14,
    Kdop18,
    Kdop26,
}

impl BvKind {
    pub const ALL: [BvKind; 6] = [
        BvKind::Aabb,
        BvKind::Obb,
        BvKind::Sphere,
        BvKind::Kdop14,
        BvKind::Kdop18,
        BvKind::Kdop26,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BvKind::Aabb => "aabb",
            BvKind::Obb => "obb",
            BvKind::Sphere => "sphere",
            BvKind::Kdop14 => "kdop14",
            BvKind::Kdop18 => "kdop18",
            BvKind::Kdop26 => "kdop26",
        }
    }

    pub fn parse(name: &str) -> Option<BvKind> {
        BvKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl std::fmt::Display for BvKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The outcome of one bounding-volume test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BvTest {
    Overlap,
    /// Separated; `axis` names the separating direction where the kind has a list of them:
    /// AABB: 0–2 (tree A's x, y, z); OBB: 0–14 in RAPID's order (see `sat_obb`); k-DOP: the
    /// index of tree A's slab direction in [`kdop_axes`]; sphere: none.
    Separated {
        axis: Option<u8>,
    },
}

impl BvTest {
    pub fn overlaps(self) -> bool {
        self == BvTest::Overlap
    }
}

/// A bounding volume of triangles, in the mesh's own frame.
pub trait BoundingVolume: Clone + Debug + Send + Sync + 'static {
    const KIND: BvKind;

    /// True when a parent's volume can be merged from its children's without loss of
    /// tightness (AABB, k-DOP): the build then fits leaves only and merges upwards. Otherwise
    /// every node is fitted to all of its own triangles (OBB, sphere).
    const MERGES_EXACTLY: bool;

    /// Tree B's frame as seen from tree A's, prepared once per query.
    type Relative: Sync;

    /// The volume of the given triangles of `mesh`.
    fn fit(mesh: &TriMesh, triangles: &[u32]) -> Self;

    /// A volume enclosing both.
    fn merge(a: &Self, b: &Self) -> Self;

    /// Refit of a leaf after its vertices moved. OBBs keep their axes (a cheap, documented
    /// loss of tightness); the others refit from scratch.
    fn refit_leaf(&self, mesh: &TriMesh, triangles: &[u32]) -> Self {
        Self::fit(mesh, triangles)
    }

    /// Refit of an internal node from its refitted children.
    fn refit_internal(&self, left: &Self, right: &Self) -> Self {
        Self::merge(left, right)
    }

    /// Prepares the test of B's volumes against A's; `b_in_a` maps B's frame into A's.
    fn relative(b_in_a: &Pose, slack: Real) -> Self::Relative;

    /// Tests `self` (in A's frame) against `other` (in B's frame).
    fn test(&self, other: &Self, rel: &Self::Relative) -> BvTest;

    /// A size to decide which node of a pair to descend first: the larger one.
    fn size(&self) -> Real;

    fn surface_area(&self) -> Real;

    fn volume(&self) -> Real;

    /// Volume of the intersection of two volumes of the same tree's frame.
    fn overlap_volume(&self, other: &Self) -> Real;

    /// The largest absolute coordinate the volume reaches: the scale of rounding errors.
    fn reach(&self) -> Real;

    /// Entry parameter of the ray into the volume loosened by `slack`, if it enters before
    /// `max_t`.
    fn ray_entry(&self, ray: &Ray, max_t: Real, slack: Real) -> Option<Real>;

    /// [`Self::ray_entry`] with the ray's [`Ray::inverse_dir`] given, for volumes whose test
    /// divides by the direction: a ray cast takes it once instead of at every node.
    #[inline]
    fn ray_entry_inv(&self, ray: &Ray, _inv: &Vec3, max_t: Real, slack: Real) -> Option<Real> {
        self.ray_entry(ray, max_t, slack)
    }

    /// Directions along which the RAPID-style (mean) build splits the node, longest first:
    /// the box axes for an OBB, the world axes by extent otherwise.
    fn principal_axes(&self) -> [Vec3; 3];

    /// The volume for drawing, in the mesh's frame.
    fn to_volume(&self) -> Volume;

    /// The volume for drawing, carried by `pose` (the mesh's pose in the world).
    fn to_world_volume(&self, pose: &Pose) -> Volume;

    /// True when the point lies in the volume loosened by `slack` (for tests and inspection).
    fn contains_point(&self, p: &crate::geom::Point3, slack: Real) -> bool;

    /// A box holding the whole volume, in the mesh's frame (not necessarily the tightest).
    fn enclosing_aabb(&self) -> crate::geom::Aabb;
}

/// World axes ordered by decreasing extent.
pub(crate) fn axes_by_extent(extent: &Vec3) -> [Vec3; 3] {
    let mut order = [0usize, 1, 2];
    order.sort_by(|&a, &b| extent[b].total_cmp(&extent[a]));
    order.map(|i| Vec3::ith(i, 1.0))
}

/// Slack for a query: rounding of fits and transforms is a few ulps of the coordinates
/// involved; 64 ulps of their sum leaves a wide margin and is still far below any length a
/// user could see.
pub fn slack_for(reach_a: Real, reach_b: Real, translation: &Vec3) -> Real {
    64.0 * Real::EPSILON * (reach_a + reach_b + finite_norm(translation))
}

/// The length of `v`, finite for any finite `v`: the plain norm squares its coordinates,
/// which overflows past 1.3e154 and made the slack infinite, so that every node of two
/// meshes 1e306 apart overlapped every other.
fn finite_norm(v: &Vec3) -> Real {
    let plain = v.norm();
    if plain.is_finite() {
        return plain;
    }
    let largest = v.amax();
    if !largest.is_finite() || largest == 0.0 {
        return plain;
    }
    largest * (v / largest).norm()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slack_of_poses_far_apart_is_finite() {
        let far = Vec3::new(-2.7, 1.8, 1.6e306);
        let slack = slack_for(3.0, 2.0, &far);
        assert!(slack.is_finite() && slack > 1e290, "{slack}");
        let huge = slack_for(0.0, 0.0, &Vec3::new(1e307, -1e307, 1e307));
        assert!(
            huge.is_finite() && huge > 64.0 * Real::EPSILON * 1.7e307,
            "{huge}"
        );
        // Below the overflow, the plain norm as before.
        let near = Vec3::new(3.0, 4.0, 0.0);
        assert_eq!(slack_for(3.0, 2.0, &near), 64.0 * Real::EPSILON * 10.0);
    }
}

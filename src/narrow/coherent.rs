//! The narrow phase with a memory: what each body pair's last test learnt is kept, keyed by
//! the pair's stable ids, and tried first on the next substep, where the bodies have barely
//! moved. A pair leaves the memory when the broad phase stops handing it over.
//!
//! The memory only makes the answer faster, never different in kind: a remembered axis is
//! trusted only after it is checked again on today's poses.

use super::ContactPoint;
use super::convex_cull::apart_limit;
use super::gauss_sat::sat_pruned;
use super::hull_features::{HullFeatures, PlacedHull};
use super::kept_contacts::KeptContacts;
use super::manifold::all_moved_by;
use super::polyhedra::contacts_on_axis;
use super::view::HullView;
use crate::convex::gjk::{GjkWarmStart, gjk_apart_beyond};
use crate::convex::support::Posed;
use crate::geom::Shape;
use crate::geom::cell_hasher::CellHash;
use crate::geom::{ConvexPolyhedron, Pose, Real, Vec3};
use std::collections::HashMap;
use std::sync::Arc;

/// How polyhedron pairs are tested.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NarrowMethod {
    /// Per-pair memory across substeps and frames (the default).
    #[default]
    Coherent,
    /// Every pair from scratch: a GJK cull, then the full separating-axis test on hulls
    /// transformed to the world. Kept as the baseline the bench measures against.
    Reference,
}

impl NarrowMethod {
    pub fn label(self) -> &'static str {
        match self {
            NarrowMethod::Coherent => "coherent",
            NarrowMethod::Reference => "reference",
        }
    }
}

/// What the last test of one pair left for the next.
#[derive(Clone, Debug)]
struct PairMemo {
    /// The pass that last saw the pair.
    seen: u64,
    /// A unit axis, in A's frame, along which B lay beyond the margin; none while the pair
    /// is close (the separating-axis test then runs first).
    apart_along: Option<Vec3>,
    /// The contact points of the last full test, while the pair is close.
    kept: KeptContacts,
}

/// The narrow phase's memory of body pairs (one per world).
#[derive(Clone, Debug, Default)]
pub struct NarrowCache {
    method: NarrowMethod,
    pairs: HashMap<(u32, u32), PairMemo, CellHash>,
    /// Per shape (by the address of its shared hull, which the entry keeps alive): the
    /// pruned test's data, or none when only the reference test applies.
    hulls: HashMap<usize, Option<Arc<HullFeatures>>, CellHash>,
    /// B placed in A's frame, reused from pair to pair.
    placed: PlacedHull,
    pass: u64,
    /// Hull pairs close enough for contacts that were tested in full, not served from
    /// their kept contacts.
    full_tests: u64,
}

impl NarrowCache {
    pub fn method(&self) -> NarrowMethod {
        self.method
    }

    /// Switches method; the memory starts empty.
    pub fn set_method(&mut self, method: NarrowMethod) {
        self.method = method;
        self.pairs.clear();
    }

    /// How many pairs are remembered.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// How many times a close hull pair was tested in full rather than served from the
    /// contacts kept from its last test.
    pub fn full_tests(&self) -> u64 {
        self.full_tests
    }

    /// Contacts between bodies `ia` and `ib`, as [`super::collide`] gives them.
    #[allow(clippy::too_many_arguments)]
    pub fn collide(
        &mut self,
        ia: u32,
        a: &Shape,
        pose_a: &Pose,
        ib: u32,
        b: &Shape,
        pose_b: &Pose,
        margin: Real,
    ) -> Vec<ContactPoint> {
        if self.method == NarrowMethod::Coherent
            && let (Some(ha), Some(hb)) = (hull_of(a), hull_of(b))
            && let (Some(fa), Some(fb)) = (self.features(ha), self.features(hb))
        {
            return self.hull_pair((ia, ib), &fa, pose_a, &fb, pose_b, margin);
        }
        super::collide(a, pose_a, b, pose_b, margin)
    }

    /// Ends one pass over the broad phase's pairs: pairs it did not hand over are forgotten.
    pub fn end_pass(&mut self) {
        let pass = self.pass;
        self.pairs.retain(|_, m| m.seen == pass);
        self.pass += 1;
    }

    fn features(&mut self, hull: &Arc<ConvexPolyhedron>) -> Option<Arc<HullFeatures>> {
        self.hulls
            .entry(Arc::as_ptr(hull) as usize)
            .or_insert_with(|| HullFeatures::new(hull.clone()).map(Arc::new))
            .clone()
    }

    /// Two hulls: the contacts kept from the last test while B has barely moved against A;
    /// else a remembered separating axis first, then GJK, then the pruned separating-axis
    /// test, each only when the one before could not say.
    fn hull_pair(
        &mut self,
        key: (u32, u32),
        fa: &HullFeatures,
        pose_a: &Pose,
        fb: &HullFeatures,
        pose_b: &Pose,
        margin: Real,
    ) -> Vec<ContactPoint> {
        let pass = self.pass;
        let memo = self.pairs.entry(key).or_insert(PairMemo {
            seen: pass,
            apart_along: Some(Vec3::x()),
            kept: KeptContacts::default(),
        });
        memo.seen = pass;
        // Everything below works in A's frame: only B is moved.
        let rel = pose_a.inv_mul(pose_b);
        let radii = (fa.hull.radius, fb.hull.radius);
        let allowed = KeptContacts::drift_allowed(radii);
        if memo.kept.still_hold(&rel, margin, radii, allowed) {
            return all_moved_by(memo.kept.at(&rel, margin), pose_a);
        }
        memo.kept.forget();
        let mut checked_distance = false;
        if let Some(axis) = memo.apart_along {
            if beyond(gap_along(&fa.hull, &fb.hull, &rel, &axis), margin) {
                return Vec::new();
            }
            match apart_by_gjk(fa, fb, &rel, &axis, margin) {
                Some(axis) => {
                    memo.apart_along = Some(axis);
                    return Vec::new();
                }
                None => checked_distance = true,
            }
        }
        self.placed.place(fb, &rel);
        let Some(sat) = sat_pruned(&fa.side(), &self.placed.side(fb), margin) else {
            return Vec::new();
        };
        if sat.depth < -margin {
            memo.apart_along = Some(sat.normal);
            return Vec::new();
        }
        if sat.depth < 0.0 && !checked_distance {
            // Within the margin along the best axis, but the hulls may still be further apart
            // than that (vertex against vertex): the distance decides, as in the reference.
            if let Some(axis) = apart_by_gjk(fa, fb, &rel, &sat.normal, margin) {
                memo.apart_along = Some(axis);
                return Vec::new();
            }
        }
        memo.apart_along = None;
        self.full_tests += 1;
        // Sought a drift further than asked, so the points stand for the pair until then.
        let sought_within = margin + allowed;
        let found = contacts_on_axis(
            HullView::from(&*fa.hull),
            self.placed.side(fb).view,
            &sat,
            sought_within,
        );
        memo.kept.keep(&rel, sought_within, &sat, &found);
        all_moved_by(memo.kept.at(&rel, margin), pose_a)
    }
}

fn hull_of(shape: &Shape) -> Option<&Arc<ConvexPolyhedron>> {
    match shape {
        Shape::Box { polyhedron, .. } | Shape::Convex(polyhedron) => Some(polyhedron),
        _ => None,
    }
}

/// Whether a gap exceeds the margin by more than GJK's own tolerance: the same threshold as
/// the reference path's cull, so both call the same pairs apart.
fn beyond(gap: Real, margin: Real) -> bool {
    gap > apart_limit(margin)
}

/// How far B (placed by `rel` in A's frame) lies beyond A along the unit `axis`.
fn gap_along(a: &ConvexPolyhedron, b: &ConvexPolyhedron, rel: &Pose, axis: &Vec3) -> Real {
    let top_a = a
        .vertices
        .iter()
        .map(|v| axis.dot(&v.coords))
        .fold(Real::NEG_INFINITY, Real::max);
    let in_b = rel.rotation.inverse_transform_vector(axis);
    let low_b = b
        .vertices
        .iter()
        .map(|v| in_b.dot(&v.coords))
        .fold(Real::INFINITY, Real::min);
    low_b + axis.dot(&rel.translation.vector) - top_a
}

/// GJK from a hint of the axis (A toward B): the axis from A's closest point to B's when
/// the hulls are further apart than the margin.
fn apart_by_gjk(
    fa: &HullFeatures,
    fb: &HullFeatures,
    rel: &Pose,
    hint: &Vec3,
    margin: Real,
) -> Option<Vec3> {
    let b = Posed {
        shape: &*fb.hull,
        pose: rel,
    };
    let warm = GjkWarmStart {
        direction: Some(-hint),
    };
    gjk_apart_beyond(&*fa.hull, &b, warm, apart_limit(margin))
}

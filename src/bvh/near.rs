//! The triangles of a mesh a query near it must look at. With the mesh's hierarchy the walk
//! skips every subtree the query rules out by its box, nearest subtrees first, so a body near
//! one corner of a 300,000-triangle mesh looks at a few dozen triangles, not all; a distance
//! query that has found a close triangle rules out every subtree further than it.

use super::any::{AnyBvh, each};
use super::tree::Bvh;
use super::volumes::BoundingVolume;
use crate::geom::inline_stack::InlineStack;
use crate::geom::{Aabb, Pose, Real, TriMesh, Triangle};
use std::ops::ControlFlow;

/// A query over a mesh's triangles, in the mesh's frame.
pub trait TriangleSearch {
    /// How close the query may come to anything inside `b` (a lower bound; nearer subtrees
    /// are searched first), or `None` when nothing inside can matter.
    fn lower_bound(&mut self, b: &Aabb) -> Option<Real>;

    /// Whether a subtree of this lower bound still matters, after what was found since.
    fn still_wanted(&self, lower_bound: Real) -> bool;

    /// A triangle whose own box the query wanted; `Break` ends the search.
    fn triangle(&mut self, index: usize, tri: &Triangle) -> ControlFlow<()>;
}

impl<V: BoundingVolume> Bvh<V> {
    /// Walks the leaves whose volumes' boxes the search wants, nearest first. Volumes are
    /// fitted with rounding, so each box is loosened by a few ulps of its reach.
    fn search_leaves<S: TriangleSearch>(
        &self,
        search: &mut S,
        mut leaf: impl FnMut(&mut S, u32) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let bound = |search: &mut S, id: u32| {
            let b = self.nodes[id as usize].volume.enclosing_aabb();
            search
                .lower_bound(&b.loosened(rounding_slack(&b)))
                .map(|lb| (id, lb))
        };
        let Some(root) = (!self.nodes.is_empty()).then(|| bound(search, 0)).flatten() else {
            return ControlFlow::Continue(());
        };
        let mut stack = InlineStack::<(u32, Real), 64>::new((0, 0.0));
        stack.push(root);
        while let Some((id, lb)) = stack.pop() {
            if !search.still_wanted(lb) {
                continue;
            }
            let node = &self.nodes[id as usize];
            if node.is_leaf() {
                for &t in self.leaf_triangles(id) {
                    leaf(search, t)?;
                }
                continue;
            }
            let (l, r) = (bound(search, id + 1), bound(search, node.index));
            let (near, far) = match (l, r) {
                (Some(a), Some(b)) if b.1 < a.1 => (Some(b), Some(a)),
                pair => pair,
            };
            far.into_iter().chain(near).for_each(|e| stack.push(e));
        }
        ControlFlow::Continue(())
    }
}

/// Runs `search` over the mesh's triangles: through the hierarchy when there is one built
/// for this mesh, otherwise over every triangle's box in turn.
pub fn search_triangles<S: TriangleSearch>(mesh: &TriMesh, tree: Option<&AnyBvh>, search: &mut S) {
    let visit = |search: &mut S, t: u32| {
        let tri = mesh.triangle(t as usize);
        match search.lower_bound(&Aabb::from_points(&tri.vertices())) {
            Some(lb) if search.still_wanted(lb) => search.triangle(t as usize, &tri),
            _ => ControlFlow::Continue(()),
        }
    };
    match tree {
        Some(tree) if each!(tree, t => t.fits_mesh(mesh)) => {
            let _ = each!(tree, t => t.search_leaves(search, visit));
        }
        _ => {
            let _ = (0..mesh.triangles.len() as u32).try_for_each(|t| visit(search, t));
        }
    }
}

/// The triangles (indices, ascending) whose boxes *in the world* may meet `world_box`, the
/// mesh being at `pose`: a superset of those whose world box meets it, for a caller that
/// then tests each triangle's world box as a scan would, and finds the same ones. `None`
/// without a hierarchy built for this mesh, or for a box with a NaN bound (which a scan
/// finds meeting every triangle).
pub fn triangles_near_in_world(
    mesh: &TriMesh,
    tree: Option<&AnyBvh>,
    pose: &Pose,
    world_box: &Aabb,
) -> Option<Vec<u32>> {
    struct InWorld<'a> {
        pose: &'a Pose,
        b: &'a Aabb,
        found: Vec<u32>,
    }
    impl TriangleSearch for InWorld<'_> {
        fn lower_bound(&mut self, local: &Aabb) -> Option<Real> {
            // A triangle's world box lies inside the world box of any local box holding it.
            let world = local.transformed(self.pose);
            world
                .loosened(rounding_slack(&world))
                .intersects(self.b)
                .then_some(0.0)
        }
        fn still_wanted(&self, _: Real) -> bool {
            true
        }
        fn triangle(&mut self, index: usize, _: &Triangle) -> ControlFlow<()> {
            self.found.push(index as u32);
            ControlFlow::Continue(())
        }
    }
    let tree = tree.filter(|t| each!(t, t => t.fits_mesh(mesh)))?;
    if has_nan(world_box) {
        return None;
    }
    let mut search = InWorld {
        pose,
        b: world_box,
        found: Vec::new(),
    };
    search_triangles(mesh, Some(tree), &mut search);
    Some(in_index_order(search.found, mesh.triangles.len()))
}

/// The indices (each below `n`, each once) in increasing order: through a bit per triangle
/// when they are many of the mesh's, as when a body swallows a dense mesh.
fn in_index_order(mut found: Vec<u32>, n: usize) -> Vec<u32> {
    if found.len() < n / 64 {
        found.sort_unstable();
        return found;
    }
    let mut bits = vec![0u64; n.div_ceil(64)];
    for &i in &found {
        bits[i as usize / 64] |= 1 << (i % 64);
    }
    found.clear();
    for (word, &b) in bits.iter().enumerate() {
        let mut b = b;
        while b != 0 {
            found.push(word as u32 * 64 + b.trailing_zeros());
            b &= b - 1;
        }
    }
    found
}

/// A box with a NaN bound: every comparison with it is false, so it would seem to meet
/// everything.
pub fn has_nan(b: &Aabb) -> bool {
    b.min.iter().chain(b.max.iter()).any(|v| v.is_nan())
}

/// A few ulps of the largest coordinate a box reaches: the rounding of the volumes' fits.
pub fn rounding_slack(b: &Aabb) -> Real {
    64.0 * Real::EPSILON * b.min.coords.amax().max(b.max.coords.amax())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bvh::{BuildOptions, BvKind};
    use crate::geom::{Point3, Vec3};
    use proptest::prelude::*;

    /// A wavy sheet of 2·n² triangles over [0, n]².
    pub(crate) fn sheet(n: u32) -> TriMesh {
        let mut vertices = Vec::new();
        for j in 0..=n {
            for i in 0..=n {
                let (x, z) = (Real::from(i), Real::from(j));
                vertices.push(Point3::new(x, (0.7 * x).sin() * (0.3 * z).cos(), z));
            }
        }
        let at = |i: u32, j: u32| j * (n + 1) + i;
        let mut triangles = Vec::new();
        for j in 0..n {
            for i in 0..n {
                triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
                triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
            }
        }
        TriMesh::new(vertices, triangles).expect("a valid sheet")
    }

    /// The triangles whose box meets `b`, found by a search that prunes nothing else.
    fn near(mesh: &TriMesh, tree: Option<&AnyBvh>, b: &Aabb) -> Vec<usize> {
        struct Near<'a> {
            b: &'a Aabb,
            found: Vec<usize>,
        }
        impl TriangleSearch for Near<'_> {
            fn lower_bound(&mut self, b: &Aabb) -> Option<Real> {
                b.intersects(self.b).then_some(0.0)
            }
            fn still_wanted(&self, _: Real) -> bool {
                true
            }
            fn triangle(&mut self, index: usize, _: &Triangle) -> ControlFlow<()> {
                self.found.push(index);
                ControlFlow::Continue(())
            }
        }
        let mut search = Near {
            b,
            found: Vec::new(),
        };
        search_triangles(mesh, tree, &mut search);
        search.found.sort_unstable();
        search.found
    }

    proptest! {
        // Oracle: a plain sort, on sets both sparser and denser than the switch to bits.
        #[test]
        fn index_order_is_the_sorted_order(
            (n, found) in (1usize..3000).prop_flat_map(|n| {
                (Just(n), prop::sample::subsequence((0..n as u32).collect::<Vec<_>>(), 0..=n)
                    .prop_shuffle())
            }),
        ) {
            let mut sorted = found.clone();
            sorted.sort_unstable();
            prop_assert_eq!(in_index_order(found, n), sorted);
        }

        /// Every volume kind finds exactly the triangles a scan of all the boxes finds.
        #[test]
        fn the_hierarchy_finds_what_a_scan_finds(
            kind in 0usize..6,
            centre in prop::array::uniform3(-2.0f64..14.0),
            half in prop::array::uniform3(0.0f64..3.0),
        ) {
            let mesh = sheet(12);
            let kind = [BvKind::Aabb, BvKind::Obb, BvKind::Sphere, BvKind::Kdop14, BvKind::Kdop18, BvKind::Kdop26][kind];
            let tree = AnyBvh::build(&mesh, kind, &BuildOptions::default());
            let b = Aabb::from_center_half_extents(Point3::from(centre), Vec3::from(half));
            prop_assert_eq!(near(&mesh, Some(&tree), &b), near(&mesh, None, &b));
        }
    }

    #[test]
    fn a_box_of_nan_or_a_tree_of_another_mesh_still_answers() {
        let mesh = sheet(4);
        let tree = AnyBvh::build(&sheet(3), BvKind::Obb, &BuildOptions::default());
        let b = Aabb::from_center_half_extents(Point3::new(1.0, 0.0, 1.0), Vec3::repeat(0.6));
        assert_eq!(near(&mesh, Some(&tree), &b), near(&mesh, None, &b));
        assert!(!near(&mesh, None, &b).is_empty());
        let nan =
            Aabb::from_center_half_extents(Point3::new(Real::NAN, 0.0, 0.0), Vec3::repeat(1.0));
        // A NaN box leaves the tree to the caller's scan, which finds it meeting everything.
        let own = AnyBvh::build(&mesh, BvKind::Aabb, &BuildOptions::default());
        let world = triangles_near_in_world(&mesh, Some(&own), &Pose::identity(), &nan);
        assert_eq!(world, None);
        let some = triangles_near_in_world(&mesh, Some(&own), &Pose::identity(), &b);
        assert_eq!(some.map(|s| s.len()), Some(near(&mesh, None, &b).len()));
    }
}

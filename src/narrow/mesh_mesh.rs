//! Triangle mesh against triangle mesh: the hierarchies find the intersecting triangle pairs
//! (bvh module); the contacts are the vertices of those triangles that lie behind the other
//! mesh's surface, each with its distance to that surface as the depth (what a user would
//! measure: how far the corner is inside), and the intersection segments themselves where
//! no vertex is inside (edges crossing edges), touching at depth 0.

use super::ContactPoint;
use super::manifold::dedup;
use super::thinning::{MAX_PAIR_CORNERS, Thinned, thin};
use crate::bvh::near::{TriangleSearch, search_triangles};
use crate::bvh::{AnyBvh, TraversalResult};
use crate::geom::near_tree::NearTree;
use crate::geom::{Aabb, Point3, Pose, Real, TriMesh, Triangle, Vec3, closest};
use std::collections::BTreeSet;
use std::ops::ControlFlow;

/// Where a point is relative to a mesh's surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfacePoint {
    /// The closest point of the surface.
    pub closest: Point3,
    /// Its distance, negative when the point is behind the surface (inside).
    pub signed_distance: Real,
    /// The outward normal there (the face's, or the mean of the faces meeting at the closest
    /// edge or vertex, so a point off a corner gets the corner's side right).
    pub normal: Vec3,
}

/// Meshes up to this size are searched whole for a corner's closest surface point; larger
/// ones only among their triangles that cross the other mesh (the surface near the contact),
/// which is exact for the shallow penetrations a simulation keeps.
pub const WHOLE_SEARCH_TRIANGLES: usize = 2048;

/// Corners searched for in turn over a small mesh before its triangles go into a tree (the
/// same answers either way).
const SCANNED_CORNERS: u32 = 64;

/// Corners searched for over a large mesh's whole surface through its hierarchy before its
/// triangles go into a tree (the same answers either way): the tree's build costs about as
/// much as this many searches through the hierarchy of a mesh of 300,000 triangles.
const HIERARCHY_SEARCHES: u32 = 256;

/// On larger meshes, a corner found deeper than this behind the crossing triangles is
/// checked against the whole surface.
const REFINE_DEPTH_M: Real = 0.01;

/// The surface point of `mesh` (at `pose`) closest to `p`. Behind is decided by the outward
/// normals of the nearest faces, which holds for closed meshes and for open height fields
/// alike (under a terrain is inside it). Triangles whose box is further than the best
/// distance so far are skipped.
pub fn closest_on_mesh(p: &Point3, mesh: &TriMesh, pose: &Pose) -> Option<SurfacePoint> {
    closest_among(p, mesh, pose, &mut (0..mesh.triangles.len() as u32))
}

fn closest_among(
    p: &Point3,
    mesh: &TriMesh,
    pose: &Pose,
    triangles: &mut dyn Iterator<Item = u32>,
) -> Option<SurfacePoint> {
    let mut search = Nearest::new(pose.inverse_transform_point(p));
    for t in triangles {
        search.offer(mesh, t);
    }
    search.finish(pose)
}

/// [`closest_among`] over a set of triangles kept in a [`NearTree`]: the same answer, found
/// among the triangles near the point only.
fn closest_in(p: &Point3, mesh: &TriMesh, pose: &Pose, set: &TriangleSet) -> Option<SurfacePoint> {
    let local = pose.inverse_transform_point(p);
    let mut search = Nearest::new(local);
    set.tree.search(&local, |k| {
        search.offer_face(mesh, set.triangles[k as usize], &set.faces[k as usize]);
        search.best + NEAR_TIE
    });
    search.finish(pose)
}

/// [`closest_on_mesh`] through the mesh's own hierarchy, nearest subtrees first: the same
/// answer as [`closest_in`] over the whole mesh, with no tree of its triangles to build (for
/// a mesh of 300,000 triangles, the build cost more than all the searches).
fn closest_in_hierarchy(
    p: &Point3,
    mesh: &TriMesh,
    pose: &Pose,
    tree: &AnyBvh,
) -> Option<SurfacePoint> {
    struct Search<'m> {
        mesh: &'m TriMesh,
        nearest: Nearest,
    }
    impl TriangleSearch for Search<'_> {
        fn lower_bound(&mut self, b: &Aabb) -> Option<Real> {
            let local = self.nearest.local;
            Some((b.closest_point(&local) - local).norm())
        }
        fn still_wanted(&self, lower_bound: Real) -> bool {
            lower_bound <= self.nearest.best + NEAR_TIE
        }
        fn triangle(&mut self, index: usize, tri: &Triangle) -> ControlFlow<()> {
            self.nearest
                .offer_face(self.mesh, index as u32, &Face::of(tri));
            ControlFlow::Continue(())
        }
    }
    let mut search = Search {
        mesh,
        nearest: Nearest::new(pose.inverse_transform_point(p)),
    };
    search_triangles(mesh, Some(tree), &mut search);
    search.nearest.finish(pose)
}

/// Distances this close count as one: the faces meeting at the closest edge or corner.
const NEAR_TIE: Real = 1e-9;

/// Some of a mesh's triangles in a tree of their boxes (in the mesh's frame).
struct TriangleSet {
    triangles: Vec<u32>,
    /// Each triangle's box, normal and first corner, measured once for all the searches.
    faces: Vec<Face>,
    tree: NearTree,
}

impl TriangleSet {
    fn new(mesh: &TriMesh, triangles: Vec<u32>) -> TriangleSet {
        let faces: Vec<Face> = triangles
            .iter()
            .map(|&t| Face::of(&mesh.triangle(t as usize)))
            .collect();
        let boxes: Vec<Aabb> = faces.iter().map(|f| f.bounds).collect();
        TriangleSet {
            tree: NearTree::new(&boxes),
            triangles,
            faces,
        }
    }
}

/// What the search asks of a triangle before measuring it.
struct Face {
    bounds: Aabb,
    normal: Option<Vec3>,
    corner: Point3,
}

impl Face {
    fn of(tri: &Triangle) -> Face {
        Face {
            bounds: Aabb::from_points(&tri.vertices()),
            normal: tri.normal(),
            corner: tri.a,
        }
    }
}

/// A closest-surface-point search in the mesh's frame: the best distance so far and every
/// triangle at it, each with its normal weighted by its angle at the closest point (the
/// angle-weighted pseudo-normal, whose side is right even off a sharp corner, where a plain
/// mean of the face normals can point the wrong way).
struct Nearest {
    local: Point3,
    best: Real,
    /// Distance, closest point, weighted normal, triangle.
    near: Vec<(Real, Point3, Vec3, u32)>,
}

impl Nearest {
    fn new(local: Point3) -> Nearest {
        Nearest {
            local,
            best: Real::INFINITY,
            near: Vec::new(),
        }
    }

    /// Triangles whose box is further than the best distance so far are skipped.
    fn offer(&mut self, mesh: &TriMesh, t: u32) {
        let tri = mesh.triangle(t as usize);
        self.offer_face(mesh, t, &Face::of(&tri));
    }

    /// [`Nearest::offer`], with the triangle's face measured beforehand.
    fn offer_face(&mut self, mesh: &TriMesh, t: u32, face: &Face) {
        let local = self.local;
        let bounds = face.bounds;
        if (bounds.closest_point(&local) - local).norm() > self.best + NEAR_TIE {
            return;
        }
        let Some(n) = face.normal else {
            return;
        };
        // The plane is never further than the triangle: inside a dense tube, the slivers
        // whose boxes reach the point are tangent to the wall and their planes far off. The
        // slack covers the sums' rounding, so a triangle the plane skips could not have
        // changed the search.
        let slack = 64.0
            * Real::EPSILON
            * local
                .coords
                .amax()
                .max(bounds.max.coords.amax())
                .max(bounds.min.coords.amax());
        if n.dot(&(local - face.corner)).abs() > self.best + NEAR_TIE + slack {
            return;
        }
        let tri = mesh.triangle(t as usize);
        let q = closest::point_triangle(&local, &tri);
        let d = (q - local).norm();
        if d < self.best {
            if d < self.best - NEAR_TIE {
                self.near.retain(|(e, ..)| *e <= d + NEAR_TIE);
            }
            self.best = d;
        }
        if d <= self.best + NEAR_TIE {
            self.near.push((d, q, n * angle_at(&tri, &q), t));
        }
    }

    /// In the triangles' order, whatever order they were offered in, so that a search by the
    /// tree sums the same normals in the same order as one over the triangles in turn.
    fn finish(mut self, pose: &Pose) -> Option<SurfacePoint> {
        // `best` is the least distance offered; the faces within the tie of it are the same
        // set whatever the order (a face pushed early within the tie of an earlier best may
        // be past the tie of the least).
        let best = self.best;
        self.near.retain(|(e, ..)| *e <= best + NEAR_TIE);
        self.near.sort_by_key(|e| e.3);
        let (_, q, first, _) = *self.near.first()?;
        let normal = self
            .near
            .iter()
            .map(|(_, _, n, _)| *n)
            .sum::<Vec3>()
            .try_normalize(1e-12)
            .unwrap_or(first.normalize());
        let behind = (self.local - q).dot(&normal) < 0.0;
        Some(SurfacePoint {
            closest: pose * q,
            signed_distance: if behind { -self.best } else { self.best },
            normal: pose.rotation * normal,
        })
    }
}

/// The triangle's angle at `q` when `q` is one of its corners; π elsewhere (on an edge the
/// two faces weigh the same, inside a face it is alone).
fn angle_at(tri: &Triangle, q: &Point3) -> Real {
    let [a, b, c] = tri.vertices();
    let scale = (b - a).norm().max((c - a).norm()).max(1e-300);
    for (v, x, y) in [(a, b, c), (b, c, a), (c, a, b)] {
        if (q - v).norm() <= 1e-9 * scale {
            return (x - v).angle(&(y - v));
        }
    }
    std::f64::consts::PI
}

/// The corners of `mesh` inside `other`, with where they are relative to its surface: the
/// corners of the crossing triangles, and from them (on meshes small enough to walk) every
/// corner reached through edges while still inside, so a corner sunk below triangles that
/// no longer cross is found too. Without a walk, too many corners are searched as a sample.
fn corners_inside(
    mesh: &TriMesh,
    pose: &Pose,
    crossing: &BTreeSet<u32>,
    (other, other_pose, other_tree): (&TriMesh, &Pose, Option<&AnyBvh>),
    other_crossing: &BTreeSet<u32>,
) -> (Vec<(Point3, SurfacePoint)>, Option<Thinned>) {
    let exact = other.triangles.len() <= WHOLE_SEARCH_TRIANGLES;
    // Large meshes are searched through trees: the crossing triangles' built here, the whole
    // surface's only if a corner needs it. Two dense meshes sunk into each other have tens of
    // thousands of both, and corner against triangle in turn ran for minutes.
    let crossing_set =
        (!exact).then(|| TriangleSet::new(other, other_crossing.iter().copied().collect()));
    // The whole surface is searched through the mesh's hierarchy for the first few corners;
    // past them a tree of its triangles, measured once, pays for its build.
    let whole_set = std::cell::OnceCell::new();
    let through_hierarchy = std::cell::Cell::new(0);
    let whole = |p: &Point3| match other_tree {
        Some(tree) if through_hierarchy.get() < HIERARCHY_SEARCHES => {
            through_hierarchy.set(through_hierarchy.get() + 1);
            closest_in_hierarchy(p, other, other_pose, tree)
        }
        _ => {
            let all = || TriangleSet::new(other, (0..other.triangles.len() as u32).collect());
            closest_in(p, other, other_pose, whole_set.get_or_init(all))
        }
    };
    // A small mesh is searched whole, in turn for the first few corners, then through a
    // tree: a dense mesh sunk into a small one has tens of thousands of corners.
    let scanned = std::cell::Cell::new(0);
    let surface = |p: &Point3| {
        let Some(crossing_set) = &crossing_set else {
            if scanned.get() < SCANNED_CORNERS {
                scanned.set(scanned.get() + 1);
                return closest_on_mesh(p, other, other_pose);
            }
            return whole(p);
        };
        let near = closest_in(p, other, other_pose, crossing_set)?;
        // Deep behind the crossing triangles alone may be shallow behind the rest of the
        // surface (a coarse terrain's corner under a fine mesh): only then search it all.
        if near.signed_distance < -REFINE_DEPTH_M {
            whole(p)
        } else {
            Some(near)
        }
    };
    // Walking on needs an exact inside test: against the crossing triangles alone, a corner
    // far off the contact patch can look inside and lead the walk across the whole mesh.
    let walk = exact && mesh.triangles.len() <= WHOLE_SEARCH_TRIANGLES;
    let mut neighbours: Vec<Vec<u32>> = Vec::new();
    if walk {
        neighbours = vec![Vec::new(); mesh.vertices.len()];
        for t in &mesh.triangles {
            for (i, j) in [(0, 1), (1, 2), (2, 0)] {
                neighbours[t[i] as usize].push(t[j]);
                neighbours[t[j] as usize].push(t[i]);
            }
        }
    }
    let mut seen = BTreeSet::new();
    let mut todo: Vec<u32> = Vec::new();
    for &t in crossing {
        todo.extend(mesh.triangles[t as usize]);
    }
    let mut found = Vec::new();
    if !walk {
        // No walk: the corners are the crossing triangles', each searched once, in the order
        // the walk would take them; a sample of them if they are too many.
        let corners: Vec<u32> = todo
            .iter()
            .rev()
            .filter(|&&v| seen.insert(v))
            .copied()
            .collect();
        let (corners, thinned) = thin(corners, MAX_PAIR_CORNERS, "corners");
        for v in corners {
            let p = pose * mesh.vertices[v as usize];
            if let Some(s) = surface(&p).filter(|s| s.signed_distance < 0.0) {
                found.push((p, s));
            }
        }
        return (found, thinned);
    }
    while let Some(v) = todo.pop() {
        if !seen.insert(v) {
            continue;
        }
        let p = pose * mesh.vertices[v as usize];
        let Some(s) = surface(&p) else {
            continue;
        };
        if s.signed_distance < 0.0 {
            found.push((p, s));
            todo.extend(neighbours[v as usize].iter().filter(|n| !seen.contains(n)));
        }
    }
    (found, None)
}

/// A mesh, its pose, and its hierarchy if it has one (which finds a deep corner's closest
/// surface point without building a tree of the whole mesh).
pub type MeshAt<'a> = (&'a TriMesh, &'a Pose, Option<&'a AnyBvh>);

/// Contacts from the intersecting pairs of a traversal, normal from A to B, and whether the
/// corners searched were a sample or the traversal stopped at its budget.
pub fn contacts_from_traversal(
    result: &TraversalResult,
    (a, pose_a, tree_a): MeshAt,
    (b, pose_b, tree_b): MeshAt,
) -> (Vec<ContactPoint>, Option<Thinned>) {
    let mut out = Vec::new();
    // The intersection segments lie on both surfaces, so a corner is never deeper than its
    // distance to them: a bound that keeps a depth honest where the closest surface point was
    // only searched among the crossing triangles of a large mesh.
    let segment_boxes: Vec<Aabb> = result
        .hits
        .iter()
        .map(|h| Aabb::from_points(&[h.segment.a, h.segment.b]))
        .collect();
    let segments = NearTree::new(&segment_boxes);
    let bound = |p: &Point3, depth: Real| {
        let mut nearest = depth;
        segments.search(p, |k| {
            let h = &result.hits[k as usize];
            nearest = nearest.min((closest::point_segment(p, &h.segment).0 - p).norm());
            nearest
        });
        nearest
    };
    let crossing_a: BTreeSet<u32> = result.pairs.iter().map(|p| p.0).collect();
    let crossing_b: BTreeSet<u32> = result.pairs.iter().map(|p| p.1).collect();
    // A's corners inside B push B along B's inward normal (from A to B: -n_B) ...
    let (inside_b, thinned_a) =
        corners_inside(a, pose_a, &crossing_a, (b, pose_b, tree_b), &crossing_b);
    let (inside_a, thinned_b) =
        corners_inside(b, pose_b, &crossing_b, (a, pose_a, tree_a), &crossing_a);
    for (p, s) in inside_b {
        out.push(ContactPoint {
            point: p + (s.closest - p) * 0.5,
            normal: -s.normal,
            depth: bound(&p, -s.signed_distance),
        });
    }
    // ... and B's corners inside A push it along A's outward normal.
    for (p, s) in inside_a {
        out.push(ContactPoint {
            point: p + (s.closest - p) * 0.5,
            normal: s.normal,
            depth: bound(&p, -s.signed_distance),
        });
    }
    if out.is_empty() {
        // Edges through edges (or faces just touching): no corner is inside, the surfaces
        // meet along the segments; they touch there.
        let world = |m: &TriMesh, pose: &Pose, t: u32| {
            let tri = m.triangle(t as usize);
            Triangle::new(pose * tri.a, pose * tri.b, pose * tri.c)
        };
        for (&(_, tb), hit) in result.pairs.iter().zip(&result.hits) {
            if let Some(nb) = world(b, pose_b, tb).normal() {
                out.push(ContactPoint {
                    point: hit.segment.at(0.5),
                    normal: -nb,
                    depth: 0.0,
                });
            }
        }
    }
    // Dense meshes give many points per contact patch; a few per patch are enough for the
    // solver and keep it fast.
    let stopped = result.truncated.then_some(Thinned {
        what: "triangle pairs",
        candidates: None,
        tested: usize::try_from(result.triangle_tests).unwrap_or(usize::MAX),
    });
    let corners = Thinned::merged(thinned_a, thinned_b);
    (dedup(out, 0.05), Thinned::merged(stopped, corners))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bvh::{BuildOptions, BvKind};
    use proptest::prelude::*;

    fn coordinate() -> impl Strategy<Value = f64> {
        prop_oneof![4 => -2.0..2.0f64, 1 => Just(0.0), 1 => Just(1.0)]
    }

    proptest! {
        /// The search through the tree of a triangle set answers exactly what the search over
        /// the same triangles in turn answers: distance, side, closest point and normal
        /// (repeated and degenerate triangles, and points on the surface, included).
        #[test]
        fn the_tree_search_is_the_search_in_turn(
            vertices in prop::collection::vec((coordinate(), coordinate(), coordinate()), 3..24),
            picks in prop::collection::vec((0..24u32, 0..24u32, 0..24u32), 1..40),
            p in (coordinate(), coordinate(), coordinate()),
            on_vertex in any::<bool>(),
            angle in 0.0..6.3f64,
        ) {
            let n = vertices.len() as u32;
            let vertices: Vec<Point3> =
                vertices.iter().map(|&(x, y, z)| Point3::new(x, y, z)).collect();
            let triangles: Vec<[u32; 3]> =
                picks.iter().map(|&(a, b, c)| [a % n, b % n, c % n]).collect();
            let Ok(mesh) = TriMesh::new(vertices.clone(), triangles) else {
                return Ok(());
            };
            let pose = Pose::from_parts(
                Vec3::new(0.5, -1.0, 2.0).into(),
                crate::geom::Quat::from_axis_angle(&Vec3::z_axis(), angle),
            );
            let p = if on_vertex {
                pose * vertices[0]
            } else {
                Point3::new(p.0, p.1, p.2)
            };
            let all: Vec<u32> = (0..mesh.triangles.len() as u32).collect();
            let in_turn = closest_among(&p, &mesh, &pose, &mut all.iter().copied());
            let by_tree = closest_in(&p, &mesh, &pose, &TriangleSet::new(&mesh, all));
            prop_assert_eq!(in_turn, by_tree);
            // And through each kind of the mesh's own hierarchy, leaves of one to many.
            for (kind, leaf) in [(BvKind::Aabb, 1), (BvKind::Obb, 4), (BvKind::Sphere, 2), (BvKind::Kdop18, 8)] {
                let options = BuildOptions { max_leaf_size: leaf, ..BuildOptions::default() };
                let tree = AnyBvh::build(&mesh, kind, &options);
                prop_assert_eq!(in_turn, closest_in_hierarchy(&p, &mesh, &pose, &tree), "{:?}", kind);
            }
        }
    }
}

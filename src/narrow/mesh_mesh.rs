//! Triangle mesh against triangle mesh: the hierarchies find the intersecting triangle pairs
//! (bvh module); the contacts are the vertices of those triangles that lie behind the other
//! mesh's surface, each with its distance to that surface as the depth (what a user would
//! measure: how far the corner is inside), and the intersection segments themselves where
//! no vertex is inside (edges crossing edges), touching at depth 0.

use super::ContactPoint;
use super::manifold::dedup;
use crate::bvh::TraversalResult;
use crate::geom::{Point3, Pose, Real, TriMesh, Triangle, Vec3, closest};
use std::collections::BTreeSet;

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
    let local = pose.inverse_transform_point(p);
    let mut best = Real::INFINITY;
    // Every triangle at the closest distance, with its normal weighted by its angle at the
    // closest point: the angle-weighted pseudo-normal, whose side is right even off a sharp
    // corner, where a plain mean of the face normals can point the wrong way.
    let mut near: Vec<(Real, Point3, Vec3)> = Vec::new();
    for tri in triangles.map(|t| mesh.triangle(t as usize)) {
        let Some(n) = tri.normal() else {
            continue;
        };
        let bounds = crate::geom::Aabb::from_points(&tri.vertices());
        if (bounds.closest_point(&local) - local).norm() > best + 1e-9 {
            continue;
        }
        let q = closest::point_triangle(&local, &tri);
        let d = (q - local).norm();
        if d < best - 1e-9 {
            best = d;
            near.retain(|(e, _, _)| *e <= best + 1e-9);
        }
        if d <= best + 1e-9 {
            near.push((d, q, n * angle_at(&tri, &q)));
        }
    }
    let (_, q, first) = *near.first()?;
    let normal = near
        .iter()
        .map(|(_, _, n)| *n)
        .sum::<Vec3>()
        .try_normalize(1e-12)
        .unwrap_or(first.normalize());
    let behind = (local - q).dot(&normal) < 0.0;
    Some(SurfacePoint {
        closest: pose * q,
        signed_distance: if behind { -best } else { best },
        normal: pose.rotation * normal,
    })
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
/// no longer cross is found too.
fn corners_inside(
    mesh: &TriMesh,
    pose: &Pose,
    crossing: &BTreeSet<u32>,
    other: &TriMesh,
    other_pose: &Pose,
    other_crossing: &BTreeSet<u32>,
) -> Vec<(Point3, SurfacePoint)> {
    let exact = other.triangles.len() <= WHOLE_SEARCH_TRIANGLES;
    let surface = |p: &Point3| {
        if exact {
            return closest_on_mesh(p, other, other_pose);
        }
        let near = closest_among(p, other, other_pose, &mut other_crossing.iter().copied())?;
        // Deep behind the crossing triangles alone may be shallow behind the rest of the
        // surface (a coarse terrain's corner under a fine mesh): only then search it all.
        if near.signed_distance < -REFINE_DEPTH_M {
            closest_on_mesh(p, other, other_pose)
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
            if walk {
                todo.extend(neighbours[v as usize].iter().filter(|n| !seen.contains(n)));
            }
        }
    }
    found
}

/// Contacts from the intersecting pairs of a traversal; normal from A to B.
pub fn contacts_from_traversal(
    result: &TraversalResult,
    a: &TriMesh,
    pose_a: &Pose,
    b: &TriMesh,
    pose_b: &Pose,
) -> Vec<ContactPoint> {
    let mut out = Vec::new();
    // The intersection segments lie on both surfaces, so a corner is never deeper than its
    // distance to them: a bound that keeps a depth honest where the closest surface point was
    // only searched among the crossing triangles of a large mesh.
    let bound = |p: &Point3, depth: Real| {
        result
            .hits
            .iter()
            .map(|h| (closest::point_segment(p, &h.segment).0 - p).norm())
            .fold(depth, Real::min)
    };
    let crossing_a: BTreeSet<u32> = result.pairs.iter().map(|p| p.0).collect();
    let crossing_b: BTreeSet<u32> = result.pairs.iter().map(|p| p.1).collect();
    // A's corners inside B push B along B's inward normal (from A to B: -n_B) ...
    for (p, s) in corners_inside(a, pose_a, &crossing_a, b, pose_b, &crossing_b) {
        out.push(ContactPoint {
            point: p + (s.closest - p) * 0.5,
            normal: -s.normal,
            depth: bound(&p, -s.signed_distance),
        });
    }
    // ... and B's corners inside A push it along A's outward normal.
    for (p, s) in corners_inside(b, pose_b, &crossing_b, a, pose_a, &crossing_a) {
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
    dedup(out, 0.05)
}

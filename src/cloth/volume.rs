//! volume → cloth, the third elementary test (spec 002 §4.3 a): rays from the vertices of a
//! closed rigid body against the cloth's mid-surface. Cloth vertices alone miss a body whose
//! corner or cap pokes between them; the body's own vertices see the cloth.
//!
//! - inner ray (into the body): rejected when it meets the cloth only after leaving the body
//!   (`t >= exit`: that cloth is outside); a collision when the hit point was nearer this
//!   side than the far one before the step (half the way through the body along the ray),
//!   else rejected: the cloth came from the far side, whose vertices will see it. The thesis
//!   judges the same half-way rule on where the cloth is now (`L <= exit / 2`, still there
//!   as a switch): a sheet that crossed the middle of a thin part of the body within one
//!   step was pushed on through it.
//! - outer ray (out of the body): a collision within the cloth's shell (`L < e`), a
//!   prediction within `d_pred`, else rejected.
//!
//! `L` is the re-projected length on the cloth triangle's normal (§3.2). The response moves
//! the hit triangle (the body is not moved by the cloth): out of the body past the shell for
//! an inner hit, away to the shell's distance for an outer one. The thesis scopes inversion
//! detection to cloth–cloth tests; this test runs none.

use super::barycentric::clamped_weights;
use super::classify::{RayKind, RaySide, RejectReason, thick_rule, volume_to_cloth_inner};
use super::obstacle::ObstacleGeometry;
use super::params::ClothParams;
use crate::bvh::Bvh;
use crate::geom::{Aabb, Point3, Ray, Real, TriMesh, Vec3};
use crate::trace::NoProbe;
use serde::{Deserialize, Serialize};

/// One ray of a body vertex against the cloth.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct VolumeRayRecord {
    pub body: u32,
    /// The body's vertex the ray leaves from.
    pub vertex: u32,
    pub side: RaySide,
    /// The cloth triangle hit.
    pub triangle: Option<u32>,
    /// Raw length along the unit ray.
    pub t: Real,
    /// Where the inner ray leaves the body (infinite for outer rays).
    pub exit_t: Real,
    pub kind: RayKind,
    pub reason: Option<RejectReason>,
}

/// Move the cloth triangle's point `bary` along `normal` until it is `clearance_m` past the
/// body's vertex `point` (`depth_m` at detection time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VolumeContact {
    pub body: u32,
    pub body_vertex: u32,
    pub point: Point3,
    pub triangle: u32,
    pub normal: Vec3,
    pub depth_m: Real,
    pub clearance_m: Real,
    pub bary: [Real; 3],
}

/// The cloth's surface at detection time with its hierarchy, and where its vertices were
/// before the step.
pub struct ClothSurface<'a> {
    pub mesh: &'a TriMesh,
    pub bvh: &'a Bvh<Aabb>,
    pub bounds: Aabb,
    pub previous: &'a [Point3],
}

impl ClothSurface<'_> {
    /// Where the point of `triangle` at barycentric `bary` was before the step.
    fn point_before(&self, triangle: usize, bary: [Real; 3]) -> Option<Point3> {
        let corners = *self.mesh.triangles.get(triangle)?;
        triangle_point(self.previous, corners, bary)
    }
}

/// The point `bary` of a cloth triangle at `positions` (None: a corner past the positions).
pub fn triangle_point(positions: &[Point3], triangle: [u32; 3], bary: [Real; 3]) -> Option<Point3> {
    let mut sum = Vec3::zeros();
    for (&i, b) in triangle.iter().zip(bary) {
        sum += positions.get(i as usize)?.coords * b;
    }
    Some(Point3::from(sum))
}

/// The inner ray's verdict: a collision when the cloth is this side's (nearer this vertex than
/// the far side along the ray), before the step (`before_t`, when known and switched on) or
/// now (`length`, the thesis' rule).
fn inner_verdict(
    length: Real,
    before_t: Option<Real>,
    exit_t: Real,
) -> (RayKind, Option<RejectReason>) {
    let judged = before_t.unwrap_or(length);
    match volume_to_cloth_inner(judged, exit_t) {
        (RayKind::Rejected, _) => (RayKind::Rejected, Some(RejectReason::LongerWayOut)),
        other => other,
    }
}

/// Where the inner ray of `vertex` leaves the body: the first hit on the body's own surface
/// past its one-ring (the ray starts a hair inside, beyond the fan it leaves from). A ray
/// through a vertex or along an edge of the far side can slip between its triangles: then the
/// body's farthest extent along the ray stands in, which is never nearer than the true exit.
/// (Taken as infinite, it made every hit a collision: a sheet 1 m away on the far side of a
/// sphere was pulled through it.)
fn exit_distance(obstacle: &ObstacleGeometry, origin: Point3, dir: Vec3) -> Real {
    let hair = 1e-7 * obstacle.radius_m.max(1e-9);
    let start = origin + dir * hair;
    let hit = obstacle.bvh.cast_ray(
        &obstacle.mesh,
        &Ray::new(start, dir),
        Real::MAX,
        0,
        &mut NoProbe,
    );
    match hit {
        Some(h) => h.t + hair,
        None => obstacle
            .mesh
            .vertices
            .iter()
            .map(|v| (v - origin).dot(&dir))
            .fold(0.0, Real::max),
    }
}

/// The rays of every vertex of a closed body near the cloth, classified, and the contacts of
/// the collisions.
pub fn volume_to_cloth(
    obstacle: &ObstacleGeometry,
    cloth: &ClothSurface,
    params: &ClothParams,
    rays: &mut Vec<VolumeRayRecord>,
    contacts: &mut Vec<VolumeContact>,
) {
    if !obstacle.closed {
        return;
    }
    let e = params.half_thickness_m;
    let d_pred = params.prediction_distance_m;
    // Hermann's culling with the prediction margin (§3.3): no cloth within reach, no ray.
    let reach = cloth.bounds.loosened(d_pred);
    for (v, (origin, normal)) in obstacle
        .mesh
        .vertices
        .iter()
        .zip(&obstacle.vertex_normals)
        .enumerate()
    {
        if !reach.contains_point(origin) {
            continue;
        }
        for (side, dir) in [(RaySide::Inner, -normal), (RaySide::Outer, *normal)] {
            let hit = cloth.bvh.cast_ray(
                cloth.mesh,
                &Ray::new(*origin, dir),
                Real::MAX,
                0,
                &mut NoProbe,
            );
            let exit_t = match side {
                RaySide::Inner => exit_distance(obstacle, *origin, dir),
                RaySide::Outer => Real::INFINITY,
            };
            let Some(h) = hit else {
                rays.push(VolumeRayRecord {
                    body: obstacle.body,
                    vertex: v as u32,
                    side,
                    triangle: None,
                    t: Real::INFINITY,
                    exit_t,
                    kind: RayKind::Rejected,
                    reason: Some(RejectReason::NoHit),
                });
                continue;
            };
            let tri = cloth.mesh.triangle(h.triangle);
            let Some(n_tri) = tri.normal() else { continue };
            let reproject = params.switches.reprojection;
            let length = if reproject {
                (dir * h.t).dot(&n_tri).abs()
            } else {
                h.t
            };
            let bary = clamped_weights(&h.point, tri.vertices());
            let before_t = params
                .switches
                .volume_side_before_step
                .then(|| cloth.point_before(h.triangle, bary))
                .flatten()
                .map(|p| (p - *origin).dot(&dir));
            let (kind, reason) = match side {
                // A hit past the exit is outside the body (Hermann's first condition: the
                // ray left its source first); re-projection may still make it short.
                RaySide::Inner if h.t >= exit_t => (RayKind::Rejected, Some(RejectReason::TooFar)),
                RaySide::Inner => inner_verdict(length, before_t, exit_t),
                RaySide::Outer => thick_rule(length, e, d_pred),
            };
            if kind == RayKind::Collision {
                // The triangle leaves along its normal, oriented along the ray for an outer
                // hit (away from the body) and back toward the vertex for an inner one (out of
                // the body, past the vertex).
                let along = if !reproject {
                    dir
                } else if n_tri.dot(&dir) >= 0.0 {
                    n_tri
                } else {
                    -n_tri
                };
                let (normal, depth_m) = match side {
                    RaySide::Outer => (along, e - length),
                    RaySide::Inner => (-along, length + e),
                };
                contacts.push(VolumeContact {
                    body: obstacle.body,
                    body_vertex: v as u32,
                    point: *origin,
                    triangle: h.triangle as u32,
                    normal,
                    depth_m,
                    clearance_m: e,
                    bary,
                });
            }
            rays.push(VolumeRayRecord {
                body: obstacle.body,
                vertex: v as u32,
                side,
                triangle: Some(h.triangle as u32),
                t: h.t,
                exit_t,
                kind,
                reason,
            });
        }
    }
}

/// Moves each hit triangle by its contact, shared by inverse mass and barycentric weight so
/// that the hit point moves by what is left of the depth (pinned vertices stay). The depth is
/// measured again before each contact: many body vertices may hit one triangle, and adding
/// up their detection-time depths would throw the triangle far past the shell.
pub fn apply_volume_contacts(
    triangles: &[[u32; 3]],
    positions: &mut [Point3],
    inverse_mass: &[Real],
    contacts: &[VolumeContact],
) {
    for c in contacts {
        let Some(tri) = triangles.get(c.triangle as usize) else {
            continue;
        };
        let Some(at) = triangle_point(positions, *tri, c.bary) else {
            continue;
        };
        // Never more than detection asked for: other contacts may have moved the triangle.
        let depth = (c.clearance_m - (at - c.point).dot(&c.normal)).min(c.depth_m);
        if !(depth.is_finite() && depth > 0.0) {
            continue;
        }
        push_point(positions, inverse_mass, *tri, c.bary, c.normal * depth);
    }
}

/// Moves the point `bary` of a cloth triangle by `by`, shared among its corners by inverse
/// mass and barycentric weight (pinned corners stay); false when every corner is pinned.
pub fn push_point(
    positions: &mut [Point3],
    inverse_mass: &[Real],
    triangle: [u32; 3],
    bary: [Real; 3],
    by: Vec3,
) -> bool {
    let w = triangle.map(|i| inverse_mass.get(i as usize).copied().unwrap_or(0.0));
    let denominator: Real = (0..3).map(|k| bary[k] * bary[k] * w[k]).sum();
    if denominator <= 0.0 {
        return false;
    }
    for ((&i, wk), b) in triangle.iter().zip(w).zip(bary) {
        if let Some(p) = positions.get_mut(i as usize) {
            *p += by * (wk * b / denominator);
        }
    }
    true
}

//! cloth → rigid (spec 002 §4.3 b): each cloth vertex's two rays against every obstacle,
//! walked from last step's triangle when the gate allows, else cast through the obstacle's
//! hierarchy; then classified, with the inversions their triangles reveal.

use super::DetectInput;
use super::complete_cast::complete_cast;
use super::crossing::{VertexMotion, crossing_near, note_inversion, push_crossing_contact};
use super::result::{CastWork, ClothContact, Detection};
use crate::cloth::barycentric::barycentric_or_centre;
use crate::cloth::classify::{
    RayHitInfo, RayKind, RayRecord, RaySide, RejectReason, Target, cloth_to_volume, thick_rule,
};
use crate::cloth::depth::collision_depth_m;
use crate::cloth::inversion::side;
use crate::cloth::obstacle::ObstacleGeometry;
use crate::cloth::params::ClothParams;
use crate::geom::{Point3, Ray, Real, Vec3};
use crate::raycast::{IterativeOutcome, iterative_cast};

/// What every vertex of a range needs to cast against the obstacles.
pub(super) struct RigidPass<'a> {
    pub input: &'a DetectInput<'a>,
    pub normals: &'a [Vec3],
    /// Each vertex's cluster.
    pub cluster_of: &'a [u32],
    /// Per obstacle, per cluster: the walk may run.
    pub gate_open: &'a [Vec<bool>],
}

impl RigidPass<'_> {
    /// The rays of vertices `first..first + last[o].len()` against every obstacle, one
    /// detection per obstacle (in the order a single pass would give).
    pub(super) fn run(&self, first: usize, mut last: Vec<&mut [Option<u32>]>) -> Vec<Detection> {
        let DetectInput {
            cloth,
            previous,
            current,
            obstacles,
            params,
            count_tests,
            ..
        } = *self.input;
        let mut parts = Vec::with_capacity(obstacles.len());
        for (o, obstacle) in obstacles.iter().enumerate() {
            let mut out = Detection::default();
            out.rays.reserve(2 * last[o].len());
            let max_iterations = params.gate.max_iterations(obstacle.mean_triangle_m);
            for (k, slot) in last[o].iter_mut().enumerate() {
                let v = first + k;
                let c = self.cluster_of[v] as usize;
                let walk_from = if self.gate_open[o][c] { *slot } else { None };
                let (inner, outer, iterative) = cast_on_obstacle(
                    obstacle,
                    current[v],
                    self.normals[v],
                    walk_from,
                    max_iterations,
                    count_tests,
                    &mut out.work,
                );
                let vertex = VertexMotion {
                    cloth,
                    vertex: v as u32,
                    previous: previous[v],
                    current: current[v],
                };
                // The temporal data is the ray the vertex keeps (§3.7: the collision, else the
                // shortest prediction). Keeping any hit would let the walk restart from the far
                // side of a volume and push the vertex through it.
                *slot = classify_rigid_hits(
                    &vertex,
                    obstacle,
                    [inner, outer],
                    iterative,
                    params,
                    &mut out,
                );
            }
            parts.push(out);
        }
        parts
    }
}

fn hit_info(mesh_normal: Option<Vec3>, triangle: u32, t: Real, dir: Vec3) -> Option<RayHitInfo> {
    mesh_normal.map(|normal| RayHitInfo {
        triangle,
        t,
        normal,
        dir,
    })
}

/// A vertex's hits on one obstacle: (inner, outer), whether they came from the walk.
fn cast_on_obstacle(
    obstacle: &ObstacleGeometry,
    origin: Point3,
    normal: Vec3,
    walk_from: Option<u32>,
    max_iterations: u32,
    count_tests: bool,
    work: &mut CastWork,
) -> (Option<RayHitInfo>, Option<RayHitInfo>, bool) {
    let inner_ray = Ray::new(origin, -normal);
    if let Some(start) = walk_from {
        work.iterative_casts += 1;
        match iterative_cast(
            &obstacle.mesh,
            &obstacle.adjacency,
            &inner_ray,
            start,
            max_iterations,
        ) {
            IterativeOutcome::Collision(h) => {
                work.ray_triangle_tests += h.tested as u64;
                let n = obstacle.unit_normal(h.triangle);
                return (hit_info(n, h.triangle, h.t, -normal), None, true);
            }
            IterativeOutcome::Prediction(h) => {
                work.ray_triangle_tests += h.tested as u64;
                let n = obstacle.unit_normal(h.triangle);
                return (None, hit_info(n, h.triangle, -h.t, normal), true);
            }
            IterativeOutcome::NotFound { iterations, .. } => {
                work.ray_triangle_tests += iterations as u64;
                work.iterative_fallbacks += 1;
            }
        }
    }
    work.full_casts += 2;
    let mut cast = |ray: &Ray| -> Option<RayHitInfo> {
        let (bvh, mesh) = (&obstacle.bvh, &obstacle.mesh);
        let hit = complete_cast(bvh, mesh, ray, Real::MAX, obstacle.body, count_tests, work);
        hit.and_then(|h| {
            let n = obstacle.unit_normal(h.triangle as u32);
            hit_info(n, h.triangle as u32, h.t, ray.dir)
        })
    };
    let inner = cast(&inner_ray);
    let outer = cast(&Ray::new(origin, normal));
    (inner, outer, false)
}

/// cloth → rigid for one vertex's two rays (§4.3 b). A closed obstacle is a volume: a back
/// hit means the vertex is inside. An open one (a plate) has no inside, so both rays follow
/// the thick rule. Either way, a hit whose triangle the vertex crossed during the step is an
/// inversion (the thesis scopes these to cloth pairs; a thin rigid shell is crossed the same
/// way). Obstacles are static within a step: the same triangle at both times.
fn classify_rigid_hits(
    vertex: &VertexMotion,
    obstacle: &ObstacleGeometry,
    [inner, outer]: [Option<RayHitInfo>; 2],
    iterative: bool,
    params: &ClothParams,
    out: &mut Detection,
) -> Option<u32> {
    let e = params.half_thickness_m;
    let d_pred = params.prediction_distance_m;
    let target = Target::Rigid(obstacle.body);
    let mut kept: Option<(RayKind, Real, u32)> = None;
    let classes = if obstacle.closed {
        cloth_to_volume(inner.as_ref(), outer.as_ref(), e, d_pred)
    } else {
        [inner, outer].map(|hit| match hit {
            Some(h) => thick_rule(h.reprojected_length(), e, d_pred),
            None => (RayKind::Rejected, Some(RejectReason::NoHit)),
        })
    };
    let mut inverted = false;
    for ((hit, ray_side), (mut kind, reason)) in [(inner, RaySide::Inner), (outer, RaySide::Outer)]
        .into_iter()
        .zip(classes)
    {
        if iterative && hit.is_none() {
            continue;
        }
        if let Some(h) = hit {
            let may_cross = |t| obstacle.may_cross(t, &vertex.previous, &vertex.current);
            let crossing = crossing_near(vertex, h.triangle, &obstacle.adjacency, may_cross, |t| {
                let tri = obstacle.mesh.triangle(t as usize).vertices();
                (tri, tri)
            })
            // Leaving a closed volume undoes a penetration; only entering one is an inversion
            // (else a vertex that sank a little last step is pushed back in).
            .filter(|c| !obstacle.closed || c.before > 0);
            if let Some(crossing) = crossing {
                let index = note_inversion(vertex, target, &crossing, kind, out);
                kind = RayKind::Collision;
                inverted = true;
                push_crossing_contact(vertex, target, &crossing, e, index, out);
            } else if kind == RayKind::Collision && !inverted {
                let tri = obstacle.mesh.triangle(h.triangle as usize).vertices();
                // Inside: out through the surface and past the shell; a front hit within the
                // shell: out to the shell's surface, on the side the vertex is on.
                let wanted =
                    if (obstacle.closed && h.hits_back()) || side(&vertex.current, tri) >= 0 {
                        1
                    } else {
                        -1
                    };
                let depth_m = collision_depth_m(&h, e, e, obstacle.closed);
                out.contacts.push(ClothContact {
                    vertex: vertex.vertex,
                    target,
                    triangle: h.triangle,
                    normal: h.normal * wanted as Real,
                    depth_m,
                    bary: barycentric_or_centre(&vertex.current, tri),
                    wanted_side: wanted,
                    inversion: None,
                });
            }
        }
        if let Some(h) = hit
            && kind != RayKind::Rejected
        {
            let length = h.reprojected_length();
            let better = match kept {
                None => true,
                Some((k, l, _)) => {
                    (kind == RayKind::Collision && k != RayKind::Collision)
                        || (kind == k && length < l)
                }
            };
            if better {
                kept = Some((kind, length, h.triangle));
            }
        }
        out.rays.push(RayRecord {
            cloth: vertex.cloth,
            vertex: vertex.vertex,
            side: ray_side,
            target,
            triangle: hit.map(|h| h.triangle),
            t: hit.map_or(Real::INFINITY, |h| h.t),
            kind,
            reason: if kind == RayKind::Rejected {
                reason.or(Some(RejectReason::NoHit))
            } else {
                None
            },
            iterative,
        });
    }
    kept.map(|(_, _, triangle)| triangle)
}

//! cloth → rigid (spec 002 §4.3 b): each cloth vertex's two rays against every obstacle,
//! walked from last step's triangle when the gate allows, else cast through the obstacle's
//! hierarchy; then classified, with the inversions their triangles reveal.

use super::DetectInput;
use super::complete_cast::complete_cast;
use super::crossing::{VertexMotion, crossing_near, note_inversion, push_crossing_contact};
use super::result::{CastWork, ClothContact, Detection};
use crate::cloth::barycentric::barycentric_or_centre;
use crate::cloth::classify::{
    RayHitInfo, RayKind, RayRecord, RaySide, RejectReason, Target, WalkRecord, cloth_to_volume,
    thick_rule,
};
use crate::cloth::depth::collision_depth_m;
use crate::cloth::inversion::side;
use crate::cloth::obstacle::ObstacleGeometry;
use crate::cloth::params::ClothParams;
use crate::geom::{Aabb, Point3, Ray, Real, Vec3};
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
        let switches = params.switches;
        let mut parts = Vec::with_capacity(obstacles.len());
        for (o, obstacle) in obstacles.iter().enumerate() {
            let mut out = Detection::default();
            out.rays.reserve(2 * last[o].len());
            let max_iterations = params.gate.max_iterations(obstacle.mean_triangle_m);
            // Hermann's culling, grown by the prediction distance (§3.3): a vertex farther
            // from the obstacle's box than that can meet it with neither ray. The vertex's
            // whole path is tested, not its end: one that went through a thin obstacle within
            // the step ends beyond the box, and only its rays find the crossing.
            let reach = obstacle
                .bvh
                .root()
                .volume
                .loosened(params.prediction_distance_m);
            let target = Target::Rigid(obstacle.body);
            for (k, slot) in last[o].iter_mut().enumerate() {
                let v = first + k;
                if !Aabb::from_points([&previous[v], &current[v]]).intersects(&reach) {
                    *slot = None;
                    out.rays.push(RayRecord::culled(cloth, v as u32, target));
                    continue;
                }
                let c = self.cluster_of[v] as usize;
                let walk_from = if self.gate_open[o][c] { *slot } else { None };
                let cast = cast_on_obstacle(
                    obstacle,
                    current[v],
                    self.normals[v],
                    Walk {
                        from: walk_from,
                        max_iterations,
                        recast_lost: switches.recast_lost_rays,
                    },
                    count_tests,
                    &mut out.work,
                );
                if let Some(walk) = cast.lost {
                    out.rays
                        .push(RayRecord::lost(cloth, v as u32, target, walk));
                }
                let vertex = VertexMotion {
                    cloth,
                    vertex: v as u32,
                    previous: previous[v],
                    current: current[v],
                };
                // The temporal data is the ray the vertex keeps (§3.7: the collision, else the
                // shortest prediction). Keeping any hit would let the walk restart from the far
                // side of a volume and push the vertex through it.
                *slot =
                    classify_rigid_hits(&vertex, obstacle, cast.hits, cast.walk, params, &mut out);
            }
            parts.push(out);
        }
        parts
    }
}

/// Where a vertex's walk starts (None: cast completely), its cap, and what a failed walk does.
struct Walk {
    from: Option<u32>,
    max_iterations: u32,
    recast_lost: bool,
}

/// A vertex's hits on one obstacle (inner, outer), whether they came from the walk, and the
/// walk that failed on the way, if one did.
struct ObstacleCast {
    hits: [Option<RayHitInfo>; 2],
    /// The walk the hits came from (None: a complete cast).
    walk: Option<WalkRecord>,
    lost: Option<WalkRecord>,
}

fn hit_info(mesh_normal: Option<Vec3>, triangle: u32, t: Real, dir: Vec3) -> Option<RayHitInfo> {
    mesh_normal.map(|normal| RayHitInfo {
        triangle,
        t,
        normal,
        dir,
    })
}

fn cast_on_obstacle(
    obstacle: &ObstacleGeometry,
    origin: Point3,
    normal: Vec3,
    walk: Walk,
    count_tests: bool,
    work: &mut CastWork,
) -> ObstacleCast {
    let inner_ray = Ray::new(origin, -normal);
    let mut lost = None;
    if let Some(start) = walk.from {
        work.iterative_casts += 1;
        let walked = |hits, steps| ObstacleCast {
            hits,
            walk: Some(WalkRecord {
                from: start,
                steps,
                stop: None,
            }),
            lost: None,
        };
        match iterative_cast(
            &obstacle.mesh,
            &obstacle.adjacency,
            &inner_ray,
            start,
            walk.max_iterations,
        ) {
            IterativeOutcome::Collision(h) => {
                work.ray_triangle_tests += h.tested as u64;
                let n = obstacle.unit_normal(h.triangle);
                return walked([hit_info(n, h.triangle, h.t, -normal), None], h.tested);
            }
            IterativeOutcome::Prediction(h) => {
                work.ray_triangle_tests += h.tested as u64;
                let n = obstacle.unit_normal(h.triangle);
                return walked([None, hit_info(n, h.triangle, -h.t, normal)], h.tested);
            }
            IterativeOutcome::NotFound { iterations, reason } => {
                work.ray_triangle_tests += iterations as u64;
                work.iterative_fallbacks += 1;
                lost = Some(WalkRecord {
                    from: start,
                    steps: iterations,
                    stop: Some(reason),
                });
                if !walk.recast_lost {
                    return ObstacleCast {
                        hits: [None, None],
                        walk: lost,
                        lost,
                    };
                }
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
    ObstacleCast {
        hits: [inner, outer],
        walk: None,
        lost,
    }
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
    walk: Option<WalkRecord>,
    params: &ClothParams,
    out: &mut Detection,
) -> Option<u32> {
    let e = params.half_thickness_m;
    let d_pred = params.prediction_distance_m;
    let switches = params.switches;
    let reproject = switches.reprojection;
    let target = Target::Rigid(obstacle.body);
    let iterative = walk.is_some();
    let mut kept: Option<(RayKind, Real, u32)> = None;
    let classes = if obstacle.closed {
        cloth_to_volume(inner.as_ref(), outer.as_ref(), e, d_pred, reproject)
    } else {
        [inner, outer].map(|hit| match hit {
            Some(h) => thick_rule(h.length(reproject), e, d_pred),
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
                // Switched off, the crossing is still recorded (left uncorrected) so that
                // the frame shows what the detection would have caught.
                let index = note_inversion(vertex, target, &crossing, kind, out);
                if switches.inversion_detection {
                    kind = RayKind::Collision;
                    inverted = true;
                    push_crossing_contact(vertex, target, &crossing, e, index, out);
                }
            }
            if kind == RayKind::Collision && !inverted {
                let tri = obstacle.mesh.triangle(h.triangle as usize).vertices();
                // Inside: out through the surface and past the shell; a front hit within the
                // shell: out to the shell's surface, on the side the vertex is on.
                let wanted =
                    if (obstacle.closed && h.hits_back()) || side(&vertex.current, tri) >= 0 {
                        1
                    } else {
                        -1
                    };
                let depth_m = collision_depth_m(&h, e, e, obstacle.closed, reproject);
                out.contacts.push(ClothContact {
                    vertex: vertex.vertex,
                    target,
                    triangle: h.triangle,
                    normal: h.separation(wanted as Real, reproject),
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
            let length = h.length(reproject);
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
            walk,
        });
    }
    kept.map(|(_, _, triangle)| triangle)
}

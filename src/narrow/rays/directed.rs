//! One directed test S → G (spec 002 §3.1, §3.7 steps 2–4): every vertex of the source casts
//! its inner and outer rays at the target, completely through the target's hierarchy or, when
//! the pair's gate allows, by walking from the triangle its kept ray hit last pass. Everything
//! is computed in the target's frame, where its mesh and hierarchy live.

use super::classify::{InnerHit, classify_inner, classify_outer};
use super::counts::RayCounts;
use super::memory::{Kept, RayMemory};
use super::ray_mesh::RayMesh;
use super::record::{RigidRay, RigidRayCaster, RigidRayClass, RigidRaySide};
use super::settings::RaySettings;
use crate::geom::{Point3, Pose, Ray, Real, Vec3};
use crate::raycast::{IterativeOutcome, iterative_cast};
use crate::trace::NoProbe;

/// A body of the pair.
#[derive(Clone, Copy)]
pub struct Side<'a> {
    pub body: u32,
    pub mesh: &'a RayMesh,
    pub pose: &'a Pose,
}

/// A contact found from the source's side: the source vertex in the world, the direction
/// the source must move to separate (or stay apart), and the depth (negative: a predicted
/// gap).
#[derive(Clone, Copy, Debug)]
pub struct RayContact {
    pub point: Point3,
    pub push: Vec3,
    pub depth: Real,
}

/// What a directed test adds to its pair's answer.
pub struct DirectedOut<'o> {
    pub contacts: &'o mut Vec<RayContact>,
    pub rays: Option<&'o mut Vec<RigidRay>>,
    pub counts: &'o mut RayCounts,
}

/// The hits of one vertex: (inner, outer) with their triangles, and how they were found.
struct VertexHits {
    inner: Option<(u32, InnerHit)>,
    outer: Option<(u32, InnerHit)>,
    /// Only one ray was walked: the other side has no result (not "no hit").
    walked_side: Option<RigidRaySide>,
    caster: RigidRayCaster,
}

/// Runs S → G. `walk`: the pair's gate allows the iterative cast this pass.
pub fn directed_test(
    source: Side,
    target: Side,
    walk: bool,
    settings: &RaySettings,
    margin: Real,
    memory: &mut RayMemory,
    out: DirectedOut,
) {
    let DirectedOut {
        contacts,
        mut rays,
        counts,
    } = out;
    let rel = target.pose.inv_mul(source.pose);
    let cull = target.mesh.local_box.loosened(settings.prediction_m);
    let max_iterations = settings.gate.max_iterations(target.mesh.mean_triangle_m);
    let vertex_count = source.mesh.mesh.vertices.len();
    for (v, (vertex, normal)) in source
        .mesh
        .mesh
        .vertices
        .iter()
        .zip(&source.mesh.normals)
        .enumerate()
    {
        let Some(normal) = normal else { continue };
        let origin = rel * vertex;
        let n = rel.rotation * normal;
        let hits = if walk {
            let Some(kept) = memory
                .kept(source.body, v)
                .filter(|k| k.target == target.body)
            else {
                // No temporal data: nothing near last pass, and the pair barely moved since.
                counts.culled_no_data += 1;
                continue;
            };
            walk_from(target.mesh, origin, n, kept.triangle, max_iterations)
        } else {
            if !cull.contains_point(&origin) {
                counts.culled_by_box += 1;
                continue;
            }
            complete(target.mesh, origin, n, RigidRayCaster::Complete)
        };
        let inner = hits.inner.map(|(_, h)| h);
        let outer = hits.outer.map(|(_, h)| h);
        let verdicts = [
            classify_inner(inner.as_ref(), source.mesh.exit_m[v]),
            classify_outer(outer.as_ref(), settings.prediction_m, settings.reproject),
        ];
        let mut best: Option<Kept> = None;
        for (side, (hit, (class, reject))) in [
            (RigidRaySide::Inner, (hits.inner, verdicts[0])),
            (RigidRaySide::Outer, (hits.outer, verdicts[1])),
        ] {
            if hits.walked_side.is_some_and(|s| s != side) {
                continue;
            }
            count(counts, class, hits.caster);
            if let Some(rays) = rays.as_deref_mut() {
                rays.push(RigidRay {
                    source: source.body,
                    vertex: v as u32,
                    target: target.body,
                    side,
                    triangle: hit.map(|(t, _)| t),
                    t: hit.map_or(f32::INFINITY, |(_, h)| h.t as f32),
                    class,
                    reject,
                    caster: hits.caster,
                });
            }
            let Some((triangle, h)) = hit else { continue };
            if class == RigidRayClass::Rejected {
                continue;
            }
            let length = h.length(settings.reproject);
            let kept = Kept {
                target: target.body,
                triangle,
                class,
                length,
            };
            if best.is_none_or(|b| kept.beats(&b)) {
                best = Some(kept);
            }
            let collision = class == RigidRayClass::Collision;
            if collision || length <= margin {
                let local_push = match (settings.reproject, collision) {
                    (true, _) => h.normal,
                    (false, true) => h.dir,
                    (false, false) => -h.dir,
                };
                contacts.push(RayContact {
                    point: source.pose * vertex,
                    push: target.pose.rotation * local_push,
                    depth: if collision { length } else { -length },
                });
            }
        }
        if let Some(kept) = best {
            memory.offer(source.body, vertex_count, v, kept);
        }
    }
}

fn count(counts: &mut RayCounts, class: RigidRayClass, caster: RigidRayCaster) {
    match class {
        RigidRayClass::Collision => counts.collision += 1,
        RigidRayClass::Prediction => counts.prediction += 1,
        RigidRayClass::Rejected => counts.rejected += 1,
    }
    match caster {
        RigidRayCaster::Complete => counts.complete += 1,
        RigidRayCaster::Walked => counts.walked += 1,
        RigidRayCaster::WalkFailed(_) => counts.walk_failed += 1,
    }
}

fn hit_of(target: &RayMesh, triangle: u32, t: Real, dir: Vec3) -> Option<(u32, InnerHit)> {
    let normal = (*target.triangle_normals.get(triangle as usize)?)?;
    Some((triangle, InnerHit { t, normal, dir }))
}

/// Both rays through the target's hierarchy.
fn complete(target: &RayMesh, origin: Point3, n: Vec3, caster: RigidRayCaster) -> VertexHits {
    let cast = |dir: Vec3| {
        let ray = Ray::new(origin, dir);
        let hit = target
            .bvh
            .cast_ray(&target.mesh, &ray, Real::MAX, 0, &mut NoProbe)?;
        hit_of(target, hit.triangle as u32, hit.t, dir)
    };
    VertexHits {
        inner: cast(-n),
        outer: cast(n),
        walked_side: None,
        caster,
    }
}

/// The inner ray walked from `start` (one walk serves both rays, §3.4.4); a failed walk
/// falls back to the complete cast, which says why the walk stopped.
fn walk_from(target: &RayMesh, origin: Point3, n: Vec3, start: u32, cap: u32) -> VertexHits {
    let ray = Ray::new(origin, -n);
    let walked = |inner, outer, side| VertexHits {
        inner,
        outer,
        walked_side: Some(side),
        caster: RigidRayCaster::Walked,
    };
    match iterative_cast(&target.mesh, &target.adjacency, &ray, start, cap) {
        IterativeOutcome::Collision(h) => walked(
            hit_of(target, h.triangle, h.t, -n),
            None,
            RigidRaySide::Inner,
        ),
        IterativeOutcome::Prediction(h) => walked(
            None,
            hit_of(target, h.triangle, -h.t, n),
            RigidRaySide::Outer,
        ),
        IterativeOutcome::NotFound { reason, .. } => {
            complete(target, origin, n, RigidRayCaster::WalkFailed(reason))
        }
    }
}

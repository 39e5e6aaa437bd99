//! One directed test S → G (spec 002 §3.1, §3.7 steps 2–4): every vertex of the source casts
//! its inner and outer rays at the target, completely through the target's hierarchy or, when
//! the pair's gate allows, by walking from the triangle its kept ray hit last pass. Everything
//! is computed in the target's frame, where its mesh and hierarchy live.

use super::classify::{InnerHit, Verdict, classify_inner, classify_outer};
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

/// How this pass casts.
#[derive(Clone, Copy)]
pub struct Cast<'a> {
    pub settings: &'a RaySettings,
    /// A predicted gap within it becomes a speculative contact.
    pub margin: Real,
    /// The pair's gate allows the walk.
    pub walk: bool,
    /// Also cast walked vertices completely and count the differences.
    pub audit: bool,
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

/// One cast ray: its side, its hit (triangle and hit), its verdict.
type CastRay = (RigidRaySide, Option<(u32, InnerHit)>, Verdict);

/// The hits of one vertex: (inner, outer) with their triangles, and how they were found.
struct VertexHits {
    inner: Option<(u32, InnerHit)>,
    outer: Option<(u32, InnerHit)>,
    /// Only one ray was walked: the other side has no result (not "no hit").
    walked_side: Option<RigidRaySide>,
    caster: RigidRayCaster,
}

impl VertexHits {
    fn verdicts(&self, exit_m: Real, s: &RaySettings) -> [Verdict; 2] {
        let inner = self.inner.map(|(_, h)| h);
        let outer = self.outer.map(|(_, h)| h);
        [
            classify_inner(inner.as_ref(), exit_m),
            classify_outer(outer.as_ref(), s.prediction_m, s.reproject),
        ]
    }

    /// The rays cast, with their verdicts.
    fn rays(&self, exit_m: Real, s: &RaySettings) -> Vec<CastRay> {
        let [vi, vo] = self.verdicts(exit_m, s);
        [
            (RigidRaySide::Inner, self.inner, vi),
            (RigidRaySide::Outer, self.outer, vo),
        ]
        .into_iter()
        .filter(|(side, _, _)| self.walked_side.is_none_or(|w| w == *side))
        .collect()
    }

    /// The ray the vertex keeps: the collision, else the prediction.
    fn kept(&self, target: u32, exit_m: Real, s: &RaySettings) -> Option<Kept> {
        let mut best: Option<Kept> = None;
        for (_, hit, (class, _)) in self.rays(exit_m, s) {
            let Some((triangle, h)) = hit else { continue };
            if class == RigidRayClass::Rejected {
                continue;
            }
            let kept = Kept {
                target,
                triangle,
                class,
                length: h.length(s.reproject),
            };
            if best.is_none_or(|b| kept.beats(&b)) {
                best = Some(kept);
            }
        }
        best
    }
}

/// Runs S → G.
pub fn directed_test(
    source: Side,
    target: Side,
    cast: Cast,
    memory: &mut RayMemory,
    out: DirectedOut,
) {
    let DirectedOut {
        contacts,
        mut rays,
        counts,
    } = out;
    let settings = cast.settings;
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
        let exit_m = source.mesh.exit_m[v];
        let in_box = cull.contains_point(&origin);
        let walk_start = memory
            .kept(source.body, v)
            .filter(|k| cast.walk && k.target == target.body);
        if cast.audit && cast.walk {
            let reference = in_box
                .then(|| complete(target.mesh, origin, n, RigidRayCaster::Complete))
                .and_then(|h| h.kept(target.body, exit_m, settings));
            let walked = walk_start
                .map(|k| walk_from(target.mesh, origin, n, k.triangle, max_iterations))
                .and_then(|h| h.kept(target.body, exit_m, settings));
            audit(reference, walked, counts);
        }
        let hits = match (cast.walk, walk_start) {
            (true, Some(kept)) => walk_from(target.mesh, origin, n, kept.triangle, max_iterations),
            (true, None) => {
                // No temporal data: nothing near last pass, and the pair barely moved since.
                counts.culled_no_data += 1;
                continue;
            }
            (false, _) if !in_box => {
                counts.culled_by_box += 1;
                continue;
            }
            (false, _) => complete(target.mesh, origin, n, RigidRayCaster::Complete),
        };
        for (side, hit, (class, reject)) in hits.rays(exit_m, settings) {
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
            let Some((_, h)) = hit else { continue };
            if class == RigidRayClass::Rejected {
                continue;
            }
            let length = h.length(settings.reproject);
            let collision = class == RigidRayClass::Collision;
            if collision {
                counts.collision_raw_m += h.t;
                counts.collision_projected_m += h.length(true);
            }
            if collision || length <= cast.margin {
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
        if let Some(kept) = hits.kept(target.body, exit_m, settings) {
            memory.offer(source.body, vertex_count, v, kept);
        }
    }
}

/// The thesis's error taxonomy (§3.4.5), on collisions: the walk against the complete cast.
fn audit(reference: Option<Kept>, walked: Option<Kept>, counts: &mut RayCounts) {
    if reference.is_none() && walked.is_none() {
        return;
    }
    counts.audited += 1;
    let collides = |k: &Option<Kept>| k.filter(|k| k.class == RigidRayClass::Collision);
    match (collides(&reference), collides(&walked)) {
        (Some(_), None) => counts.false_negative += 1,
        (None, Some(_)) => counts.false_positive += 1,
        (Some(r), Some(w)) if r.triangle != w.triangle => counts.wrong_location += 1,
        _ => {}
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

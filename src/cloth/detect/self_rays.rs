//! cloth → cloth (spec 002 §4.3 c): each vertex's two rays against the cloth's own surface
//! (its one-ring skipped), walked from last step's hits when the self gate allows, else cast
//! through the cloth's hierarchy, which is built only when a complete cast needs it.

use super::DetectInput;
use super::complete_cast::complete_cast;
use super::crossing::{
    Crossing, VertexMotion, crossing_near, note_inversion, push_crossing_contact,
};
use super::result::{CastWork, ClothContact, Detection, append};
use crate::bvh::{BuildOptions, Bvh};
use crate::cloth::barycentric::barycentric_or_centre;
use crate::cloth::classify::{
    RayHitInfo, RayKind, RayRecord, RaySide, Target, WalkRecord, thick_rule,
};
use crate::cloth::depth::collision_depth_m;
use crate::cloth::inversion::{side, spread_crossings};
use crate::geom::two_threads;
use crate::geom::{Aabb, Point3, Ray, Real, TriMesh, Vec3};
use crate::raycast::{IterativeOutcome, TriangleAdjacency, iterative_cast};
use std::sync::OnceLock;

/// Self rays look this many prediction distances away (a hit beyond is nothing to the thick
/// rule, but the walk keeps its place while a layer comes back).
const SELF_RAY_REACH: Real = 4.0;

/// The cloth's hierarchy, built the first time a complete cast asks for it.
pub(super) fn built<'a>(bvh: &'a OnceLock<Bvh<Aabb>>, surface: &TriMesh) -> &'a Bvh<Aabb> {
    bvh.get_or_init(|| Bvh::build(surface, &BuildOptions::default()))
}

/// Where a vertex's self rays start and what they walk from.
struct SelfVertex<'a> {
    origin: Point3,
    normal: Vec3,
    /// The vertex's own triangles: a ray that meets one is not a self contact.
    incident: &'a [u32],
    /// Last step's hit triangle per side (inner, outer).
    last: [Option<u32>; 2],
}

/// A vertex's two self hits (inner, outer) walked from its last ones on the cloth (§3.4,
/// only the inner ray's line is walked: the sign of `t` tells the side). An error when a walk
/// fails (with the failed walk), reaches the vertex's own triangles, or meets a degenerate
/// one: the vertex is cast completely instead, unless lost rays stay lost.
fn walk_on_self(
    surface: &TriMesh,
    adjacency: &TriangleAdjacency,
    vertex: SelfVertex,
    max_iterations: u32,
    max_t: Real,
    work: &mut CastWork,
) -> Result<[Option<(RayHitInfo, WalkRecord)>; 2], Option<WalkRecord>> {
    let SelfVertex {
        origin,
        normal,
        incident,
        last,
    } = vertex;
    let inner = Ray::new(origin, -normal);
    let mut hits: [Option<(RayHitInfo, WalkRecord)>; 2] = [None, None];
    let starts = match last {
        [Some(a), Some(b)] if a == b => [Some(a), None],
        other => other,
    };
    for start in starts.into_iter().flatten() {
        work.iterative_casts += 1;
        let h = match iterative_cast(surface, adjacency, &inner, start, max_iterations) {
            IterativeOutcome::Collision(h) | IterativeOutcome::Prediction(h) => h,
            IterativeOutcome::NotFound { iterations, reason } => {
                work.ray_triangle_tests += iterations as u64;
                work.iterative_fallbacks += 1;
                return Err(Some(WalkRecord {
                    from: start,
                    steps: iterations,
                    stop: Some(reason),
                }));
            }
        };
        work.ray_triangle_tests += h.tested as u64;
        if incident.contains(&h.triangle) {
            work.iterative_fallbacks += 1;
            return Err(None);
        }
        let (side, t, dir) = if h.t >= 0.0 {
            (0, h.t, -normal)
        } else {
            (1, -h.t, normal)
        };
        if t > max_t {
            continue;
        }
        let Some(normal) = surface.triangle(h.triangle as usize).normal() else {
            return Err(None);
        };
        let hit = RayHitInfo {
            triangle: h.triangle,
            t,
            normal,
            dir,
        };
        if hits[side].is_none_or(|(old, _)| t < old.t) {
            let walk = WalkRecord {
                from: start,
                steps: h.tested,
                stop: None,
            };
            hits[side] = Some((hit, walk));
        }
    }
    Ok(hits)
}

/// A vertex's self hits (inner, outer), each with the walk that found it (None: a complete
/// cast), and the walk that failed on the way.
struct SelfHits {
    hits: [Option<(RayHitInfo, Option<WalkRecord>)>; 2],
    lost: Option<WalkRecord>,
}

/// What every vertex of a range needs to cast against the cloth itself: the gate per
/// cluster, each vertex's cluster and the walk's cap.
pub(super) struct SelfPass<'a> {
    pub input: &'a DetectInput<'a>,
    pub normals: &'a [Vec3],
    pub surface: &'a TriMesh,
    pub bvh: &'a OnceLock<Bvh<Aabb>>,
    pub gate_open: &'a [bool],
    pub cluster_of: &'a [u32],
    pub max_iterations: u32,
}

impl SelfPass<'_> {
    /// The self rays of vertices `first..first + last[0].len()`; `last` holds their last
    /// hits per side and is updated.
    fn run(&self, first: usize, mut last: [&mut [Option<u32>]; 2]) -> Detection {
        let mut found = Detection::default();
        let count = last[0].len().min(last[1].len());
        for k in 0..count {
            let v = first + k;
            let previous_hits = last.each_ref().map(|l| l[k]);
            let SelfHits { hits, lost } = self.hits_of(v, previous_hits, &mut found.work);
            if let Some(walk) = lost {
                let (cloth, vertex) = (self.input.cloth, v as u32);
                let target = Target::Cloth(cloth);
                found
                    .rays
                    .push(RayRecord::lost(cloth, vertex, target, walk));
            }
            for (list, hit) in last.iter_mut().zip(hits) {
                list[k] = hit.map(|(h, _)| h.triangle);
            }
            for (ray_side, hit) in [RaySide::Inner, RaySide::Outer].into_iter().zip(hits) {
                if let Some((h, walk)) = hit {
                    self.classify(v, ray_side, h, walk, &mut found);
                }
            }
        }
        found
    }

    /// Vertex `v`'s two self hits (inner, outer), walked from `previous_hits` when its
    /// cluster's gate is open, else cast completely.
    fn hits_of(&self, v: usize, previous_hits: [Option<u32>; 2], work: &mut CastWork) -> SelfHits {
        let SelfPass {
            input,
            normals,
            surface,
            bvh,
            gate_open,
            cluster_of,
            max_iterations,
        } = *self;
        let DetectInput {
            mesh,
            current,
            params,
            ..
        } = *input;
        let max_t = SELF_RAY_REACH * params.prediction_distance_m;
        let open = cluster_of
            .get(v)
            .and_then(|&c| gate_open.get(c as usize))
            .is_some_and(|&open| open);
        let walked = if open && previous_hits.iter().any(Option::is_some) {
            walk_on_self(
                surface,
                &mesh.adjacency,
                SelfVertex {
                    origin: current[v],
                    normal: normals[v],
                    incident: &mesh.incident[v],
                    last: previous_hits,
                },
                max_iterations,
                max_t,
                work,
            )
        } else {
            Err(None)
        };
        let lost = walked.err().flatten();
        if lost.is_some() && !params.switches.recast_lost_rays {
            return SelfHits {
                hits: [None, None],
                lost,
            };
        }
        let hits = match walked {
            Ok(hits) => hits.map(|h| h.map(|(hit, walk)| (hit, Some(walk)))),
            // An open gate without a last hit: nothing near to update (§3.4.5, the walk only
            // updates rays a complete cast found).
            Err(_) if open && previous_hits.iter().all(Option::is_none) => [None, None],
            Err(_) => [-normals[v], normals[v]].map(|dir| {
                cast_on_self(
                    surface,
                    built(bvh, surface),
                    &mesh.incident[v],
                    Ray::new(current[v], dir),
                    max_t,
                    input.count_tests,
                    work,
                )
                .map(|hit| (hit, None))
            }),
        };
        SelfHits { hits, lost }
    }

    /// One self hit of vertex `v`: the thick rule with `e + e`, then the side test (§4.3 c,
    /// §4.5); a crossing is an inversion and a collision.
    fn classify(
        &self,
        v: usize,
        ray_side: RaySide,
        h: RayHitInfo,
        walk: Option<WalkRecord>,
        out: &mut Detection,
    ) {
        let DetectInput {
            cloth,
            mesh,
            previous,
            current,
            params,
            ..
        } = *self.input;
        let e = params.half_thickness_m;
        let d_pred = params.prediction_distance_m;
        let switches = params.switches;
        let reproject = switches.reprojection;
        let target = Target::Cloth(cloth);
        let (mut kind, reason) = thick_rule(h.length(reproject), 2.0 * e, d_pred);
        let vertex = VertexMotion {
            cloth,
            vertex: v as u32,
            previous: previous[v],
            current: current[v],
        };
        let crossing = crossing_near(
            &vertex,
            h.triangle,
            &mesh.adjacency,
            |_| true,
            |t| {
                (
                    mesh.triangle_points(previous, t),
                    mesh.triangle_points(current, t),
                )
            },
        );
        let crossing = crossing.map(|c| (note_inversion(&vertex, target, &c, kind, out), c));
        let corrected = crossing.filter(|_| switches.inversion_detection);
        if let Some((index, crossing)) = corrected {
            kind = RayKind::Collision;
            // Back through the triangle and clear both shells (our reading of §4.5).
            push_crossing_contact(&vertex, target, &crossing, 2.0 * e, index, out);
        } else if kind == RayKind::Collision {
            let tri_now = mesh.triangle_points(current, h.triangle);
            let wanted = if side(&current[v], tri_now) < 0 {
                -1
            } else {
                1
            };
            out.contacts.push(ClothContact {
                vertex: v as u32,
                target,
                triangle: h.triangle,
                normal: h.separation(wanted as Real, reproject),
                depth_m: collision_depth_m(&h, 2.0 * e, e, false, reproject),
                bary: barycentric_or_centre(&current[v], tri_now),
                wanted_side: wanted,
                inversion: None,
            });
        }
        out.rays.push(RayRecord {
            cloth,
            vertex: v as u32,
            side: ray_side,
            target,
            triangle: Some(h.triangle),
            t: h.t,
            kind,
            reason: if kind == RayKind::Rejected {
                reason
            } else {
                None
            },
            walk,
        });
    }
}

/// Closest hit on the cloth's own surface that is not in the vertex's one-ring. The
/// hierarchy returns the closest hit only, so a one-ring hit restarts the ray just past it.
fn cast_on_self(
    mesh: &TriMesh,
    bvh: &Bvh<Aabb>,
    incident: &[u32],
    Ray { origin, dir }: Ray,
    max_t: Real,
    count_tests: bool,
    work: &mut CastWork,
) -> Option<RayHitInfo> {
    work.full_casts += 1;
    let mut skipped = 0.0;
    let mut from = origin;
    for _ in 0..4 {
        let ray = Ray::new(from, dir);
        let hit = complete_cast(bvh, mesh, &ray, max_t - skipped, 0, count_tests, work)?;
        if !incident.contains(&(hit.triangle as u32)) {
            let normal = mesh.triangle(hit.triangle).normal()?;
            return Some(RayHitInfo {
                triangle: hit.triangle as u32,
                t: skipped + hit.t,
                normal,
                dir,
            });
        }
        let step = hit.t + 1e-9;
        skipped += step;
        from += dir * step;
    }
    None
}

/// cloth → cloth for D → D (§4.3 c, §4.5): thick rule with `e + e`, then the side test.
/// The vertices are split in two halves run side by side, their results appended in vertex
/// order (as one pass would give them).
/// `last` holds each vertex's last self hits per side (inner, outer) and is updated.
pub(super) fn detect_self(
    pass: &SelfPass,
    [inner, outer]: [&mut Vec<Option<u32>>; 2],
    out: &mut Detection,
) {
    let n = inner.len().min(outer.len()).min(pass.input.current.len());
    let mid = two_threads::middle(n);
    let (inner_low, inner_high) = inner[..n].split_at_mut(mid);
    let (outer_low, outer_high) = outer[..n].split_at_mut(mid);
    if mid < n {
        let (high, low) = two_threads::join(
            || pass.run(mid, [inner_high, outer_high]),
            || pass.run(0, [inner_low, outer_low]),
        );
        append(out, low);
        append(out, high);
    } else {
        append(out, pass.run(0, [inner_low, outer_low]));
    }
    spread_self_crossings(pass.input, out);
}

/// The self crossings the rays missed, grown from those they found (issue 12: a vertex at
/// a sheet's border whose crossed triangle slid away within the step; see
/// [`spread_crossings`]).
fn spread_self_crossings(input: &DetectInput, out: &mut Detection) {
    let DetectInput {
        cloth,
        mesh,
        previous,
        current,
        params,
        ..
    } = *input;
    let target = Target::Cloth(cloth);
    let mut inverted = vec![false; current.len()];
    let mut seeds = Vec::new();
    for i in out.inversions.iter().filter(|i| i.target == target) {
        if let Some(flag) = inverted.get_mut(i.vertex as usize) {
            *flag = true;
            seeds.push((i.vertex, i.triangle));
        }
    }
    if seeds.is_empty() {
        return;
    }
    let found = spread_crossings(
        &seeds,
        &mut inverted,
        |v| mesh.neighbours(v),
        |t| mesh.triangles_around(t),
        |v, t| mesh.incident[v as usize].contains(&t),
        |v| (previous[v as usize], current[v as usize]),
        |t| {
            (
                mesh.triangle_points(previous, t),
                mesh.triangle_points(current, t),
            )
        },
    );
    for f in found {
        let vertex = VertexMotion {
            cloth,
            vertex: f.vertex,
            previous: previous[f.vertex as usize],
            current: current[f.vertex as usize],
        };
        let crossing = Crossing {
            triangle: f.triangle,
            before: f.before,
            tri_now: mesh.triangle_points(current, f.triangle),
        };
        let index = note_inversion(&vertex, target, &crossing, RayKind::Collision, out);
        if params.switches.inversion_detection {
            let clearance = 2.0 * params.half_thickness_m;
            push_crossing_contact(&vertex, target, &crossing, clearance, index, out);
        }
    }
}

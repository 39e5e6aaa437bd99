//! Stage 1 and 2 of the cloth narrow phase (spec 002 §4.2): two rays per cloth vertex against
//! every rigid obstacle (through its hierarchy, or walked from last step's triangle when the
//! displacement gate allows) and against the cloth itself; classification after
//! re-projection; inversion detection on every (vertex, triangle) pair the rays found.

use super::classify::{
    RayHitInfo, RayKind, RayRecord, RaySide, RejectReason, Target, cloth_to_volume, thick_rule,
};
use super::inversion::{InversionRecord, crossed, side};
use super::mesh::ClothMesh;
use super::params::ClothParams;
use crate::bvh::{BuildOptions, Bvh, BvhEvent};
use crate::geom::{Aabb, Point3, Ray, Real, TriMesh, Vec3};
use crate::raycast::{IterativeOutcome, TriangleAdjacency, iterative_cast};
use crate::trace::{NoProbe, Probe, TraceEvent};

/// A rigid body the cloth collides with, in world coordinates at this step.
#[derive(Clone, Debug)]
pub struct ObstacleGeometry {
    pub body: u32,
    pub mesh: TriMesh,
    pub bvh: Bvh<Aabb>,
    pub adjacency: TriangleAdjacency,
    pub mean_triangle_m: Real,
}

impl ObstacleGeometry {
    pub fn new(body: u32, mesh: TriMesh) -> Self {
        let bvh = Bvh::build(&mesh, &BuildOptions::default());
        let adjacency = TriangleAdjacency::build(&mesh.triangles);
        let mean_triangle_m = mesh
            .triangles()
            .map(|t| ((t.b - t.a).norm() + (t.c - t.b).norm() + (t.a - t.c).norm()) / 3.0)
            .sum::<Real>()
            / mesh.triangles.len().max(1) as Real;
        Self {
            body,
            mesh,
            bvh,
            adjacency,
            mean_triangle_m,
        }
    }
}

/// One contact handed to the response: move the vertex by `depth_m` along `normal` (and, for
/// cloth targets, the triangle the other way).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClothContact {
    pub vertex: u32,
    pub target: Target,
    pub triangle: u32,
    pub normal: Vec3,
    pub depth_m: Real,
    /// Barycentrics of the vertex's projection on the triangle (cloth targets move by them).
    pub bary: [Real; 3],
    /// The side of the triangle the vertex must end on (the side it held before the step).
    pub wanted_side: i8,
    pub inversion: Option<usize>,
}

/// Counters of the work the casts did, for the bench and the panel.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CastWork {
    pub full_casts: u64,
    pub iterative_casts: u64,
    pub iterative_fallbacks: u64,
    pub ray_triangle_tests: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Detection {
    pub rays: Vec<RayRecord>,
    pub contacts: Vec<ClothContact>,
    pub inversions: Vec<InversionRecord>,
    pub work: CastWork,
}

/// Temporal data of the iterative cast: for each obstacle, each vertex's last hit triangle,
/// and each cluster's displacement accumulated since its last complete cast.
#[derive(Clone, Debug, Default)]
pub struct CastMemory {
    pub last_triangle: Vec<Vec<Option<u32>>>,
    pub positions_at_full: Vec<Vec<Point3>>,
}

/// Counts ray–triangle tests of a complete cast through the hierarchy.
struct TriangleTestCounter(u64);

impl Probe for TriangleTestCounter {
    fn enabled(&self) -> bool {
        true
    }
    fn record(&mut self, make: impl FnOnce() -> TraceEvent) {
        if let crate::families::EventKind::Bvh(BvhEvent::RayStep {
            triangle: Some(_), ..
        }) = make().kind
        {
            self.0 += 1;
        }
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
                work.ray_triangle_tests += 1;
                let n = obstacle.mesh.triangle(h.triangle as usize).normal();
                return (hit_info(n, h.triangle, h.t, -normal), None, true);
            }
            IterativeOutcome::Prediction(h) => {
                work.ray_triangle_tests += 1;
                let n = obstacle.mesh.triangle(h.triangle as usize).normal();
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
        let hit = if count_tests {
            let mut counter = TriangleTestCounter(0);
            let hit =
                obstacle
                    .bvh
                    .cast_ray(&obstacle.mesh, ray, Real::MAX, obstacle.body, &mut counter);
            work.ray_triangle_tests += counter.0;
            hit
        } else {
            obstacle
                .bvh
                .cast_ray(&obstacle.mesh, ray, Real::MAX, obstacle.body, &mut NoProbe)
        };
        hit.and_then(|h| {
            let n = obstacle.mesh.triangle(h.triangle).normal();
            hit_info(n, h.triangle as u32, h.t, ray.dir)
        })
    };
    let inner = cast(&inner_ray);
    let outer = cast(&Ray::new(origin, normal));
    (inner, outer, false)
}

/// Closest hit on the cloth's own surface that is not in the vertex's one-ring. The
/// hierarchy returns the closest hit only, so a one-ring hit restarts the ray just past it.
fn cast_on_self(
    mesh: &TriMesh,
    bvh: &Bvh<Aabb>,
    incident: &[u32],
    origin: Point3,
    dir: Vec3,
    max_t: Real,
    work: &mut CastWork,
) -> Option<RayHitInfo> {
    work.full_casts += 1;
    let mut skipped = 0.0;
    let mut from = origin;
    for _ in 0..4 {
        let hit = bvh.cast_ray(mesh, &Ray::new(from, dir), max_t - skipped, 0, &mut NoProbe)?;
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

pub struct DetectInput<'a> {
    pub cloth: u32,
    pub mesh: &'a ClothMesh,
    pub previous: &'a [Point3],
    pub current: &'a [Point3],
    pub obstacles: &'a [ObstacleGeometry],
    pub params: &'a ClothParams,
    /// Count ray–triangle tests of complete casts (slower: the bench's second figure).
    pub count_tests: bool,
}

fn bary_of(p: &Point3, [a, b, c]: [Point3; 3]) -> [Real; 3] {
    let n = (b - a).cross(&(c - a));
    let area = n.norm_squared();
    if area <= 0.0 {
        return [1.0 / 3.0; 3];
    }
    let wa = (c - b).cross(&(p - b)).dot(&n) / area;
    let wb = (a - c).cross(&(p - c)).dot(&n) / area;
    [wa, wb, 1.0 - wa - wb]
}

pub fn detect(input: &DetectInput, memory: &mut CastMemory) -> Detection {
    let DetectInput {
        cloth,
        mesh,
        previous,
        current,
        obstacles,
        params,
        count_tests,
    } = *input;
    let e = params.half_thickness_m;
    let d_pred = params.prediction_distance_m;
    let normals = mesh.vertex_normals(current);
    let mut out = Detection::default();
    let n = current.len();
    if memory.last_triangle.len() != obstacles.len() {
        memory.last_triangle = vec![vec![None; n]; obstacles.len()];
        memory.positions_at_full = vec![current.to_vec(); obstacles.len()];
    }
    let clusters = mesh.cluster_count(params.cluster_side);
    for (o, obstacle) in obstacles.iter().enumerate() {
        // Cluster measure (§3.5.2): the largest displacement of any vertex of the cluster
        // since the cluster's last complete cast. Obstacles are static in the step's frame.
        let mut moved = vec![0.0 as Real; clusters];
        // Vertex ids index three per-vertex arrays at once.
        #[allow(clippy::needless_range_loop)]
        for v in 0..n {
            let c = mesh.cluster_of(v as u32, params.cluster_side) as usize;
            moved[c] = moved[c].max((current[v] - memory.positions_at_full[o][v]).norm());
        }
        let max_iterations = params.gate.max_iterations(obstacle.mean_triangle_m);
        let target = Target::Rigid(obstacle.body);
        for v in 0..n {
            let c = mesh.cluster_of(v as u32, params.cluster_side) as usize;
            let gate_open = params.iterative_cast && params.gate.allows(moved[c]);
            let walk_from = if gate_open {
                memory.last_triangle[o][v]
            } else {
                None
            };
            let (inner, outer, iterative) = cast_on_obstacle(
                obstacle,
                current[v],
                normals[v],
                walk_from,
                max_iterations,
                count_tests,
                &mut out.work,
            );
            if !iterative {
                memory.positions_at_full[o][v] = current[v];
            }
            memory.last_triangle[o][v] = inner.or(outer).map(|h| h.triangle);
            let classes = cloth_to_volume(inner.as_ref(), outer.as_ref(), e, d_pred);
            for ((hit, ray_side), (mut kind, reason)) in
                [(inner, RaySide::Inner), (outer, RaySide::Outer)]
                    .into_iter()
                    .zip(classes)
            {
                if iterative && hit.is_none() {
                    continue;
                }
                let mut inversion = None;
                if let Some(h) = hit {
                    let tri = obstacle.mesh.triangle(h.triangle as usize).vertices();
                    // The thesis scopes inversions to cloth pairs; a thin rigid shell is crossed
                    // the same way, so the side test runs here too (obstacles are still within
                    // a step: the same triangle at both times).
                    if kind != RayKind::Rejected
                        && crossed(&previous[v], tri, &current[v], tri).is_some()
                    {
                        let promoted = kind == RayKind::Prediction;
                        kind = RayKind::Collision;
                        out.inversions.push(InversionRecord {
                            cloth,
                            vertex: v as u32,
                            target,
                            triangle: h.triangle,
                            promoted,
                            corrected: false,
                        });
                        inversion = Some(out.inversions.len() - 1);
                    }
                    if kind == RayKind::Collision {
                        let length = h.reprojected_length();
                        let now = side(&current[v], tri);
                        let wanted = if inversion.is_some() {
                            -now
                        } else if h.hits_back() {
                            1
                        } else {
                            now.max(1)
                        };
                        // Inside or crossed: out through the surface and past the shell; a
                        // front hit within the shell: out to the shell's surface.
                        let depth_m = if inversion.is_some() || h.hits_back() {
                            length + e
                        } else {
                            e - length
                        };
                        out.contacts.push(ClothContact {
                            vertex: v as u32,
                            target,
                            triangle: h.triangle,
                            normal: h.normal * wanted as Real,
                            depth_m,
                            bary: bary_of(&current[v], tri),
                            wanted_side: wanted,
                            inversion,
                        });
                    }
                }
                out.rays.push(RayRecord {
                    cloth,
                    vertex: v as u32,
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
        }
    }
    if params.self_collision {
        detect_self(cloth, mesh, previous, current, &normals, params, &mut out);
    }
    out
}

/// cloth → cloth for D → D (§4.3 c, §4.5): thick rule with `e + e`, then the side test.
fn detect_self(
    cloth: u32,
    mesh: &ClothMesh,
    previous: &[Point3],
    current: &[Point3],
    normals: &[Vec3],
    params: &ClothParams,
    out: &mut Detection,
) {
    let e = params.half_thickness_m;
    let d_pred = params.prediction_distance_m;
    let Ok(surface) = TriMesh::new(current.to_vec(), mesh.triangles.clone()) else {
        return;
    };
    let bvh: Bvh<Aabb> = Bvh::build(&surface, &BuildOptions::default());
    let target = Target::Cloth(cloth);
    for v in 0..current.len() {
        for (ray_side, dir) in [(RaySide::Inner, -normals[v]), (RaySide::Outer, normals[v])] {
            let hit = cast_on_self(
                &surface,
                &bvh,
                &mesh.incident[v],
                current[v],
                dir,
                d_pred * 4.0,
                &mut out.work,
            );
            let Some(h) = hit else {
                continue;
            };
            let (mut kind, reason) = thick_rule(h.reprojected_length(), 2.0 * e, d_pred);
            let tri_now = mesh.triangle_points(current, h.triangle);
            let tri_prev = mesh.triangle_points(previous, h.triangle);
            let mut inversion = None;
            if let Some((before, _)) = crossed(&previous[v], tri_prev, &current[v], tri_now) {
                let promoted = kind != RayKind::Collision;
                kind = RayKind::Collision;
                out.inversions.push(InversionRecord {
                    cloth,
                    vertex: v as u32,
                    target,
                    triangle: h.triangle,
                    promoted,
                    corrected: false,
                });
                inversion = Some((out.inversions.len() - 1, before));
            }
            if kind == RayKind::Collision {
                let length = h.reprojected_length();
                let (wanted, depth_m) = match inversion {
                    // Back through the triangle and clear both shells (our reading of §4.5).
                    Some((_, before)) => (before, length + 2.0 * e),
                    None if side(&current[v], tri_now) < 0 => (-1, 2.0 * e - length),
                    None => (1, 2.0 * e - length),
                };
                out.contacts.push(ClothContact {
                    vertex: v as u32,
                    target,
                    triangle: h.triangle,
                    normal: h.normal * wanted as Real,
                    depth_m,
                    bary: bary_of(&current[v], tri_now),
                    wanted_side: wanted,
                    inversion: inversion.map(|(i, _)| i),
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
                iterative: false,
            });
        }
    }
}

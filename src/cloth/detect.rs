//! Stage 1 and 2 of the cloth narrow phase (spec 002 §4.2): two rays per cloth vertex against
//! every rigid obstacle (through its hierarchy, or walked from last step's triangle when the
//! displacement gate allows) and against the cloth itself; classification after
//! re-projection; inversion detection on every (vertex, triangle) pair the rays found.

use super::classify::{
    RayHitInfo, RayKind, RayRecord, RaySide, RejectReason, Target, cloth_to_volume, thick_rule,
};
use super::depth::collision_depth_m;
use super::inversion::{InversionRecord, crossed_inside, side, spread_crossings};
use super::mesh::ClothMesh;
use super::params::ClothParams;
use super::self_gate;
use super::two_threads;
use super::volume::{ClothSurface, VolumeContact, VolumeRayRecord, volume_to_cloth};
use crate::bvh::{BuildOptions, Bvh, BvhEvent};
use crate::geom::{Aabb, Point3, Ray, Real, TriMesh, Vec3};
use crate::raycast::{IterativeOutcome, TriangleAdjacency, iterative_cast};
use crate::trace::{NoProbe, Probe, TraceEvent};
use std::sync::OnceLock;

/// A rigid body the cloth collides with, in world coordinates at this step.
#[derive(Clone, Debug)]
pub struct ObstacleGeometry {
    pub body: u32,
    pub mesh: TriMesh,
    pub bvh: Bvh<Aabb>,
    pub adjacency: TriangleAdjacency,
    pub mean_triangle_m: Real,
    /// Each triangle's plane as the signed volume of a vertex against it computes it, so the
    /// side tests of the inversion check reuse it bit for bit.
    pub planes: Vec<FacePlane>,
    /// Every edge has a triangle across it: the obstacle bounds an inside.
    pub closed: bool,
    /// Area-weighted vertex normals: the directions of the volume → cloth rays.
    pub vertex_normals: Vec<Vec3>,
    /// Distance from the bounding box's centre to the farthest vertex.
    pub radius_m: Real,
    /// How far any point of the obstacle moved during the step: the largest vertex
    /// displacement, exact for a rigid motion since surface points are affine combinations
    /// of vertices (zero for a static obstacle).
    pub moved_m: Real,
}

/// A triangle's `(b − a) × (c − a)` and `a`, side by side: the inversion check reads both for
/// four triangles per vertex.
#[derive(Clone, Copy, Debug)]
pub struct FacePlane {
    pub scaled_normal: Vec3,
    pub corner: Point3,
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
        let planes = mesh
            .triangles()
            .map(|t| FacePlane {
                scaled_normal: t.scaled_normal(),
                corner: t.a,
            })
            .collect();
        let closed = (0..mesh.triangles.len() as u32)
            .all(|t| (0..3).all(|edge| adjacency.across(t, edge).is_some()));
        let mut vertex_normals = vec![Vec3::zeros(); mesh.vertices.len()];
        for tri in &mesh.triangles {
            let [a, b, c] = tri.map(|i| mesh.vertices[i as usize]);
            let n = (b - a).cross(&(c - a));
            for &i in tri {
                vertex_normals[i as usize] += n;
            }
        }
        let vertex_normals = vertex_normals
            .into_iter()
            .map(|n| n.try_normalize(1e-300).unwrap_or_else(Vec3::y))
            .collect();
        let centre = Aabb::from_points(&mesh.vertices).center();
        let radius_m = mesh
            .vertices
            .iter()
            .map(|p| (p - centre).norm())
            .fold(0.0, Real::max);
        Self {
            body,
            mesh,
            bvh,
            adjacency,
            mean_triangle_m,
            planes,
            closed,
            vertex_normals,
            radius_m,
            moved_m: 0.0,
        }
    }

    pub(super) fn unit_normal(&self, triangle: u32) -> Option<Vec3> {
        let plane = self.planes.get(triangle as usize)?;
        plane.scaled_normal.try_normalize(1e-300)
    }

    /// Whether a point moving from `previous` to `current` may have changed side of the
    /// triangle's plane: false when it is strictly on one side at both ends (the obstacle is
    /// static within a step), the common case, decided without forming the triangle.
    fn may_cross(&self, triangle: u32, previous: &Point3, current: &Point3) -> bool {
        let Some(FacePlane {
            scaled_normal: n,
            corner: a,
        }) = self.planes.get(triangle as usize)
        else {
            return false;
        };
        let (before, now) = (n.dot(&(previous - a)), n.dot(&(current - a)));
        !((before > 0.0 && now > 0.0) || (before < 0.0 && now < 0.0))
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
    /// volume → cloth: rays from the closed bodies' vertices and the contacts they found.
    pub volume_rays: Vec<VolumeRayRecord>,
    pub volume_contacts: Vec<VolumeContact>,
}

/// Temporal data of the iterative cast: for each obstacle (then the cloth itself, see
/// [`SELF_LISTS`]), each vertex's last hit triangle, and each cluster's relative
/// displacement accumulated since its last complete cast (§3.5). Small and exact, so a
/// recording can carry it and a restored step casts the same rays.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CastMemory {
    pub last_triangle: Vec<Vec<Option<u32>>>,
    pub accumulated_m: Vec<Vec<Real>>,
    /// Each vertex's ray origin at the last detection (f32: only the gate reads it, and the
    /// recording stays small), so the gate measures how far the rays moved, not the sag
    /// that each step's response takes back.
    #[serde(default)]
    pub origins: Vec<[f32; 3]>,
}

/// With self-collision, the memory holds the cloth's own entries after the obstacles': two
/// more `last_triangle` lists (each vertex's last hit on the cloth on its inner and outer
/// side, §3.4.1) and one more `accumulated_m` list (per cluster, [`self_gate`]). Appending
/// keeps the recorded type, so recordings made before the cloth walked on itself still load.
const SELF_LISTS: usize = 2;

/// Fits the memory to this step's obstacles, vertices and clusters: lists of another shape
/// start again (every ray cast completely), the obstacles' kept when only the cloth's own
/// lists are missing.
fn fit_memory(
    memory: &mut CastMemory,
    obstacles: usize,
    walk_self: bool,
    n: usize,
    clusters: usize,
) {
    let fits = |m: &CastMemory, lists: usize, accumulators: usize| {
        m.last_triangle.len() >= lists
            && m.accumulated_m.len() >= accumulators
            && m.last_triangle[..lists].iter().all(|t| t.len() == n)
            && m.accumulated_m[..accumulators]
                .iter()
                .all(|a| a.len() == clusters)
    };
    if !fits(memory, obstacles, obstacles) {
        memory.last_triangle = vec![vec![None; n]; obstacles];
        memory.accumulated_m = vec![vec![Real::INFINITY; clusters]; obstacles];
    }
    let (lists, accumulators) = if walk_self {
        (obstacles + SELF_LISTS, obstacles + 1)
    } else {
        (obstacles, obstacles)
    };
    let exact = memory.last_triangle.len() == lists && memory.accumulated_m.len() == accumulators;
    if !(exact && fits(memory, lists, accumulators)) {
        memory.last_triangle.truncate(obstacles);
        memory.accumulated_m.truncate(obstacles);
        memory.last_triangle.resize(lists, vec![None; n]);
        memory
            .accumulated_m
            .resize(accumulators, vec![Real::INFINITY; clusters]);
    }
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
            let n = obstacle.unit_normal(h.triangle as u32);
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
        let hit = if count_tests {
            let mut counter = TriangleTestCounter(0);
            let hit = bvh.cast_ray(mesh, &ray, max_t - skipped, 0, &mut counter);
            work.ray_triangle_tests += counter.0;
            hit
        } else {
            bvh.cast_ray(mesh, &ray, max_t - skipped, 0, &mut NoProbe)
        }?;
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

pub(super) fn bary_of(p: &Point3, [a, b, c]: [Point3; 3]) -> [Real; 3] {
    let n = (b - a).cross(&(c - a));
    let area = n.norm_squared();
    if area <= 0.0 {
        return [1.0 / 3.0; 3];
    }
    let wa = (c - b).cross(&(p - b)).dot(&n) / area;
    let wb = (a - c).cross(&(p - c)).dot(&n) / area;
    [wa, wb, 1.0 - wa - wb]
}

/// Appends one part's results, renumbering the inversions its contacts point to.
fn append(out: &mut Detection, part: Detection) {
    let nothing_yet = out.rays.is_empty()
        && out.inversions.is_empty()
        && out.contacts.is_empty()
        && out.volume_rays.is_empty()
        && out.volume_contacts.is_empty();
    if nothing_yet {
        let work = out.work;
        *out = part;
        out.work.full_casts += work.full_casts;
        out.work.iterative_casts += work.iterative_casts;
        out.work.iterative_fallbacks += work.iterative_fallbacks;
        out.work.ray_triangle_tests += work.ray_triangle_tests;
        return;
    }
    let offset = out.inversions.len();
    out.rays.extend(part.rays);
    out.inversions.extend(part.inversions);
    out.volume_rays.extend(part.volume_rays);
    out.volume_contacts.extend(part.volume_contacts);
    out.contacts
        .extend(part.contacts.into_iter().map(|c| ClothContact {
            inversion: c.inversion.map(|i| i + offset),
            ..c
        }));
    out.work.full_casts += part.work.full_casts;
    out.work.iterative_casts += part.work.iterative_casts;
    out.work.iterative_fallbacks += part.work.iterative_fallbacks;
    out.work.ray_triangle_tests += part.work.ray_triangle_tests;
}

/// What every vertex of a range needs to cast against the obstacles.
struct RigidPass<'a> {
    input: &'a DetectInput<'a>,
    normals: &'a [Vec3],
    /// Each vertex's cluster.
    cluster_of: &'a [u32],
    /// Per obstacle, per cluster: the walk may run.
    gate_open: &'a [Vec<bool>],
}

impl RigidPass<'_> {
    /// The rays of vertices `first..first + last[o].len()` against every obstacle, one
    /// detection per obstacle (in the order a single pass would give).
    fn run(&self, first: usize, mut last: Vec<&mut [Option<u32>]>) -> Vec<Detection> {
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

/// The largest displacement of each cluster's ray origins since the last detection (the
/// positions the rays left from then, kept in the memory): a sheet resting on a body sags
/// under gravity and is pushed back every step, but its rays leave from the same places.
fn cluster_motion(
    cluster_of: &[u32],
    clusters: usize,
    current: &[Point3],
    origins: &[[f32; 3]],
) -> Vec<Real> {
    let half = |range: std::ops::Range<usize>| {
        let mut moved = vec![0.0 as Real; clusters];
        for v in range {
            let p = current[v];
            let d = match origins.get(v) {
                // f32 storage rounds by up to half an ulp of the coordinate.
                Some(o) => (p - self_gate::widen(o)).norm() + 1e-7 * p.coords.amax(),
                None => Real::INFINITY,
            };
            if let Some(m) = cluster_of.get(v).and_then(|&c| moved.get_mut(c as usize)) {
                *m = m.max(d);
            }
        }
        moved
    };
    let n = current.len();
    let mid = two_threads::middle(n);
    if mid == n {
        return half(0..n);
    }
    let (high, mut low) = two_threads::join(|| half(mid..n), || half(0..mid));
    for (l, h) in low.iter_mut().zip(high) {
        *l = l.max(h);
    }
    low
}

/// The step's rays, contacts and inversions, on the cloth's two threads (called outside
/// them, as the bench does, each split would hand its half to another pool and wait).
pub fn detect(input: &DetectInput, memory: &mut CastMemory) -> Detection {
    two_threads::run(|| detect_here(input, memory))
}

fn detect_here(input: &DetectInput, memory: &mut CastMemory) -> Detection {
    let DetectInput {
        mesh,
        current,
        obstacles,
        params,
        ..
    } = *input;
    let normals = mesh.vertex_normals(current);
    let mut out = Detection::default();
    let n = current.len();
    let clusters = mesh.cluster_count(params.cluster_side);
    let rigid = obstacles.len();
    fit_memory(memory, rigid, params.self_collision, n, clusters);
    let cluster_of = mesh.cluster_map(params.cluster_side);
    let step_moved = cluster_motion(&cluster_of, clusters, current, &memory.origins);
    // Relative displacement since the cluster's last complete cast: its own motion plus the
    // obstacle's (a bound: both may move apart). Over the threshold, the cluster is cast
    // completely and its measure starts again.
    let gate_open: Vec<Vec<bool>> = memory
        .accumulated_m
        .iter_mut()
        .zip(obstacles)
        .map(|(accumulated, obstacle)| {
            accumulated
                .iter_mut()
                .zip(&step_moved)
                .map(|(acc, moved)| {
                    *acc += moved + obstacle.moved_m;
                    let open = params.iterative_cast && params.gate.allows(*acc);
                    if !open {
                        *acc = 0.0;
                    }
                    open
                })
                .collect()
        })
        .collect();
    let pass = RigidPass {
        input,
        normals: &normals,
        cluster_of: &cluster_of,
        gate_open: &gate_open,
    };
    let mid = two_threads::middle(n);
    let (low, high): (Vec<_>, Vec<_>) = memory.last_triangle[..rigid]
        .iter_mut()
        .map(|t| t.split_at_mut(mid))
        .unzip();
    let rigid_rays = || {
        if mid < n {
            let (high_parts, low_parts) =
                two_threads::join(|| pass.run(mid, high), || pass.run(0, low));
            (low_parts, high_parts)
        } else {
            (pass.run(0, low), Vec::new())
        }
    };
    // The self gate is serial: the other thread takes the rigid rays meanwhile.
    let (origins, self_accumulated) = (&memory.origins, memory.accumulated_m.get_mut(rigid));
    let self_gates = || match self_accumulated {
        Some(accumulated) if params.self_collision => {
            open_self_gates(input, &cluster_of, origins, accumulated)
        }
        _ => Vec::new(),
    };
    let ((low_parts, high_parts), self_gate_open) = two_threads::join(rigid_rays, self_gates);
    memory.origins = current
        .iter()
        .map(|p| [p.x as f32, p.y as f32, p.z as f32])
        .collect();
    let mut high_parts = high_parts.into_iter();
    for part in low_parts {
        append(&mut out, part);
        if let Some(h) = high_parts.next() {
            append(&mut out, h);
        }
    }
    let bounds = Aabb::from_points(current);
    let reach = bounds.loosened(params.prediction_distance_m);
    let volumes_near: Vec<&ObstacleGeometry> = obstacles
        .iter()
        .filter(|o| {
            params.volume_rays && o.closed && Aabb::from_points(&o.mesh.vertices).intersects(&reach)
        })
        .collect();
    if !params.self_collision && volumes_near.is_empty() {
        return out;
    }
    let Ok(surface) = TriMesh::new(current.to_vec(), mesh.triangles.clone()) else {
        return out;
    };
    // Built on first need: a settled sheet walks every self ray and never asks for it.
    let bvh = OnceLock::new();
    for obstacle in volumes_near {
        volume_to_cloth(
            obstacle,
            &ClothSurface {
                mesh: &surface,
                bvh: built(&bvh, &surface),
                bounds,
            },
            params,
            &mut out.volume_rays,
            &mut out.volume_contacts,
        );
    }
    if let [inner, outer] = &mut memory.last_triangle[rigid..] {
        let pass = SelfPass {
            input,
            normals: &normals,
            surface: &surface,
            bvh: &bvh,
            gate_open: &self_gate_open,
            cluster_of: &cluster_of,
            max_iterations: params.gate.max_iterations(mesh.mean_edge_m()),
        };
        detect_self(&pass, [inner, outer], &mut out);
    }
    out
}

/// Which clusters may walk on the cloth this step (spec 002 §3.5.2, [`self_gate`]), from the
/// ray origins of the last detection; `accumulated` is the cloth's own list of the memory.
fn open_self_gates(
    input: &DetectInput,
    cluster_of: &[u32],
    origins: &[[f32; 3]],
    accumulated: &mut [Real],
) -> Vec<bool> {
    let DetectInput {
        mesh,
        current,
        params,
        ..
    } = *input;
    let clusters = mesh.cluster_count(params.cluster_side);
    let steps = self_gate::cluster_steps(cluster_of, clusters, current, origins);
    // Clusters that may meet the thick rule (a hit within the prediction distance), plus
    // the threshold (§3.5.2 inflates by D_thr / 2 each). A pair farther apart cannot hold a
    // collision or a prediction, and the step it comes nearer is a new pair: a complete cast.
    // Self rays reach further (SELF_RAY_REACH) only to keep the walk's place; counting those
    // pairs too made the gate cost more than the walk saved (2 ms of a 27,000-vertex step).
    let reach = params.prediction_distance_m + params.gate.threshold_m;
    let near = self_gate::near_pairs(&self_gate::cluster_boxes(
        cluster_of, clusters, current, reach,
    ));
    let before: Vec<Point3> = origins.iter().map(self_gate::widen).collect();
    let before = self_gate::cluster_boxes(cluster_of, clusters, &before, reach);
    let open = self_gate::open_gates(&steps, &near, &before, accumulated, |d| {
        params.gate.allows(d)
    });
    if params.iterative_cast {
        open
    } else {
        vec![false; clusters]
    }
}

/// Self rays look this many prediction distances away (a hit beyond is nothing to the thick
/// rule, but the walk keeps its place while a layer comes back).
const SELF_RAY_REACH: Real = 4.0;

/// The cloth's hierarchy, built the first time a complete cast asks for it.
fn built<'a>(bvh: &'a OnceLock<Bvh<Aabb>>, surface: &TriMesh) -> &'a Bvh<Aabb> {
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
/// only the inner ray's line is walked: the sign of `t` tells the side). None when a walk
/// fails, reaches the vertex's own triangles, or meets a degenerate one: the vertex is cast
/// completely instead.
fn walk_on_self(
    surface: &TriMesh,
    adjacency: &TriangleAdjacency,
    vertex: SelfVertex,
    max_iterations: u32,
    max_t: Real,
    work: &mut CastWork,
) -> Option<[Option<RayHitInfo>; 2]> {
    let SelfVertex {
        origin,
        normal,
        incident,
        last,
    } = vertex;
    let inner = Ray::new(origin, -normal);
    let mut hits: [Option<RayHitInfo>; 2] = [None, None];
    let starts = match last {
        [Some(a), Some(b)] if a == b => [Some(a), None],
        other => other,
    };
    for start in starts.into_iter().flatten() {
        work.iterative_casts += 1;
        let h = match iterative_cast(surface, adjacency, &inner, start, max_iterations) {
            IterativeOutcome::Collision(h) | IterativeOutcome::Prediction(h) => h,
            IterativeOutcome::NotFound { iterations, .. } => {
                work.ray_triangle_tests += iterations as u64;
                work.iterative_fallbacks += 1;
                return None;
            }
        };
        work.ray_triangle_tests += h.tested as u64;
        if incident.contains(&h.triangle) {
            work.iterative_fallbacks += 1;
            return None;
        }
        let (side, t, dir) = if h.t >= 0.0 {
            (0, h.t, -normal)
        } else {
            (1, -h.t, normal)
        };
        if t > max_t {
            continue;
        }
        let hit = RayHitInfo {
            triangle: h.triangle,
            t,
            normal: surface.triangle(h.triangle as usize).normal()?,
            dir,
        };
        if hits[side].is_none_or(|old| t < old.t) {
            hits[side] = Some(hit);
        }
    }
    Some(hits)
}

/// cloth → cloth for D → D (§4.3 c, §4.5): thick rule with `e + e`, then the side test.
/// The vertices are split in two halves run side by side, their results appended in vertex
/// order (as one pass would give them).
/// `last` holds each vertex's last self hits per side (inner, outer) and is updated.
fn detect_self(pass: &SelfPass, [inner, outer]: [&mut Vec<Option<u32>>; 2], out: &mut Detection) {
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

/// What every vertex of a range needs to cast against the cloth itself: the gate per
/// cluster, each vertex's cluster and the walk's cap.
struct SelfPass<'a> {
    input: &'a DetectInput<'a>,
    normals: &'a [Vec3],
    surface: &'a TriMesh,
    bvh: &'a OnceLock<Bvh<Aabb>>,
    gate_open: &'a [bool],
    cluster_of: &'a [u32],
    max_iterations: u32,
}

impl SelfPass<'_> {
    /// The self rays of vertices `first..first + last[0].len()`; `last` holds their last
    /// hits per side and is updated.
    fn run(&self, first: usize, mut last: [&mut [Option<u32>]; 2]) -> Detection {
        let SelfPass {
            input,
            normals,
            surface,
            bvh,
            gate_open,
            cluster_of,
            max_iterations,
        } = *self;
        let mut found = Detection::default();
        let out = &mut found;
        let DetectInput {
            cloth,
            mesh,
            previous,
            current,
            params,
            ..
        } = *input;
        let e = params.half_thickness_m;
        let d_pred = params.prediction_distance_m;
        let target = Target::Cloth(cloth);
        let max_t = SELF_RAY_REACH * d_pred;
        let count = last[0].len().min(last[1].len());
        for k in 0..count {
            let v = first + k;
            let previous_hits = last.each_ref().map(|l| l[k]);
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
                    &mut out.work,
                )
            } else {
                None
            };
            // A walk that fell back to a complete cast is a complete cast.
            let iterative = walked.is_some();
            let hits = match walked {
                Some(hits) => hits,
                // An open gate without a last hit: nothing near to update (§3.4.5, the walk only
                // updates rays a complete cast found).
                None if open && previous_hits.iter().all(Option::is_none) => [None, None],
                None => [-normals[v], normals[v]].map(|dir| {
                    cast_on_self(
                        surface,
                        built(bvh, surface),
                        &mesh.incident[v],
                        Ray::new(current[v], dir),
                        max_t,
                        input.count_tests,
                        &mut out.work,
                    )
                }),
            };
            for (list, hit) in last.iter_mut().zip(hits) {
                list[k] = hit.map(|h| h.triangle);
            }
            for (ray_side, hit) in [RaySide::Inner, RaySide::Outer].into_iter().zip(hits) {
                let Some(h) = hit else {
                    continue;
                };
                let (mut kind, reason) = thick_rule(h.reprojected_length(), 2.0 * e, d_pred);
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
                if let Some(crossing) = crossing {
                    let index = note_inversion(&vertex, target, &crossing, kind, out);
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
                        normal: h.normal * wanted as Real,
                        depth_m: collision_depth_m(&h, 2.0 * e, e, false),
                        bary: bary_of(&current[v], tri_now),
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
                    iterative,
                });
            }
        }
        found
    }
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
        let clearance = 2.0 * params.half_thickness_m;
        push_crossing_contact(&vertex, target, &crossing, clearance, index, out);
    }
}

/// A cloth vertex at both ends of the step.
struct VertexMotion {
    cloth: u32,
    vertex: u32,
    previous: Point3,
    current: Point3,
}

/// A triangle the vertex went through during the step, with its sides before and now.
struct Crossing {
    triangle: u32,
    before: i8,
    tri_now: [Point3; 3],
}

/// The triangle the vertex crossed: the hit one, or one across its edges (near an edge the
/// ray along the normal and the vertex's path need not meet the same triangle). `may_cross`
/// rules out, cheaply, triangles whose plane the path cannot have crossed.
fn crossing_near(
    vertex: &VertexMotion,
    hit: u32,
    adjacency: &TriangleAdjacency,
    may_cross: impl Fn(u32) -> bool,
    triangle_at: impl Fn(u32) -> ([Point3; 3], [Point3; 3]),
) -> Option<Crossing> {
    let neighbours = (0..3).filter_map(|edge| adjacency.across(hit, edge));
    std::iter::once(hit)
        .chain(neighbours)
        .filter(|&t| may_cross(t))
        .find_map(|t| {
            let (tri_prev, tri_now) = triangle_at(t);
            crossed_inside(&vertex.previous, tri_prev, &vertex.current, tri_now).map(
                |(before, _)| Crossing {
                    triangle: t,
                    before,
                    tri_now,
                },
            )
        })
}

/// Records an inversion once per vertex and target: both rays of a vertex may find the same
/// crossing, and the report counts vertices that crossed, not rays.
fn note_inversion(
    vertex: &VertexMotion,
    target: Target,
    crossing: &Crossing,
    kind: RayKind,
    out: &mut Detection,
) -> Option<usize> {
    let seen = out.inversions.last().is_some_and(|i| {
        i.cloth == vertex.cloth && i.vertex == vertex.vertex && i.target == target
    });
    if seen {
        return None;
    }
    out.inversions.push(InversionRecord {
        cloth: vertex.cloth,
        vertex: vertex.vertex,
        target,
        triangle: crossing.triangle,
        promoted: kind != RayKind::Collision,
        corrected: false,
    });
    Some(out.inversions.len() - 1)
}

/// The contact of a crossing (§4.5): the normal points to the side the vertex held before
/// the step, and the depth takes it back through the plane and past `clearance`.
fn push_crossing_contact(
    vertex: &VertexMotion,
    target: Target,
    crossing: &Crossing,
    clearance: Real,
    inversion: Option<usize>,
    out: &mut Detection,
) {
    // Only the first ray's contact of an inverted vertex is kept: a second one would push it
    // the same way twice.
    let Some(index) = inversion else { return };
    let [a, b, c] = crossing.tri_now;
    let Some(unit) = (b - a).cross(&(c - a)).try_normalize(1e-300) else {
        return;
    };
    let distance = unit.dot(&(vertex.current - a)).abs();
    out.contacts.push(ClothContact {
        vertex: vertex.vertex,
        target,
        triangle: crossing.triangle,
        normal: unit * crossing.before as Real,
        depth_m: distance + clearance,
        bary: bary_of(&vertex.current, crossing.tri_now),
        wanted_side: crossing.before,
        inversion: Some(index),
    });
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
                    bary: bary_of(&vertex.current, tri),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cloth::mesh::GridSpec;

    /// Two sheets of one cloth 15 mm apart, within the two shells (2e = 20 mm): the self rays
    /// of each sheet find the other one (only a vertex's own one-ring is skipped), and the
    /// vertices get collision contacts on the other sheet's triangles.
    #[test]
    fn self_rays_meet_the_other_sheets() {
        let sheet = |y: Real| GridSpec {
            columns: 6,
            rows: 6,
            corner: Point3::new(0.0, y, 0.0),
            u: Vec3::new(0.0, 0.0, 0.5),
            v: Vec3::new(0.5, 0.0, 0.0),
        };
        let (mesh, positions) = ClothMesh::sheets(&[sheet(0.0), sheet(0.015)]).unwrap();
        let params = ClothParams::default();
        assert!(2.0 * params.half_thickness_m > 0.015);
        let detection = detect(
            &DetectInput {
                cloth: 0,
                mesh: &mesh,
                previous: &positions,
                current: &positions,
                obstacles: &[],
                params: &params,
                count_tests: false,
            },
            &mut CastMemory::default(),
        );
        let sheet_of = |v: u32| mesh.sheet_of(v).unwrap();
        let tri_sheet = |t: u32| sheet_of(mesh.triangles[t as usize][0]);
        for r in &detection.rays {
            if let Some(t) = r.triangle {
                assert!(!mesh.incident[r.vertex as usize].contains(&t), "{r:?}");
            }
        }
        for k in 0..2 {
            let across = detection
                .contacts
                .iter()
                .filter(|c| sheet_of(c.vertex) == k && tri_sheet(c.triangle) != k)
                .count();
            // Every vertex lies over a vertex of the other sheet: at least the 4 × 4 interior
            // ones hit it (a ray through a border vertex may graze past the border).
            assert!(across >= 16, "sheet {k}: {across}");
        }
        assert!(detection.inversions.is_empty());
        // The contacts push the sheets apart: the lower one down, the upper one up.
        for c in &detection.contacts {
            let up = if sheet_of(c.vertex) == 1 { 1.0 } else { -1.0 };
            assert!(c.normal.y * up > 0.99, "{c:?}");
        }
    }
}

//! Stage 1 and 2 of the cloth narrow phase (spec 002 §4.2): two rays per cloth vertex against
//! every rigid obstacle (through its hierarchy, or walked from last step's triangle when the
//! displacement gate allows) and against the cloth itself; classification after
//! re-projection; inversion detection on every (vertex, triangle) pair the rays found.
//!
//! `detect` runs the rigid rays (`rigid.rs`) on both threads beside the self gates
//! (`gates.rs`), then the rays that meet the cloth's surface: volume → cloth
//! (`super::volume`) and the self rays (`self_rays.rs`). Both kinds of rays report crossings
//! through `crossing.rs`; the memory they walk from is `memory.rs`, what they hand on
//! `result.rs`.

mod complete_cast;
mod crossing;
mod gates;
mod memory;
mod result;
mod rigid;
mod self_rays;

pub use super::obstacle::{FacePlane, ObstacleGeometry};
pub use memory::CastMemory;
pub use result::{CastWork, ClothContact, Detection};

use super::mesh::ClothMesh;
use super::params::ClothParams;
use super::volume::{ClothSurface, volume_to_cloth};
use crate::geom::two_threads;
use crate::geom::{Aabb, Point3, TriMesh, Vec3};
use memory::fit_memory;
use result::append;
use rigid::RigidPass;
use self_rays::{SelfPass, built, detect_self};
use std::sync::OnceLock;

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
    let clusters = mesh.cluster_count(params.cluster_side);
    fit_memory(
        memory,
        obstacles.len(),
        params.self_collision,
        current.len(),
        clusters,
    );
    let cluster_of = mesh.cluster_map(params.cluster_side);
    let step_moved = gates::cluster_motion(&cluster_of, clusters, current, &memory.origins);
    let gate_open =
        gates::open_rigid_gates(&mut memory.accumulated_m, obstacles, &step_moved, params);
    let pass = RigidPass {
        input,
        normals: &normals,
        cluster_of: &cluster_of,
        gate_open: &gate_open,
    };
    let (mut out, self_gate_open) = rigid_rays_and_self_gates(&pass, memory);
    let rigid = obstacles.len();
    let on_surface = SurfaceRays {
        input,
        normals: &normals,
        cluster_of: &cluster_of,
        self_gate_open: &self_gate_open,
    };
    on_surface.detect(&mut memory.last_triangle[rigid..], &mut out);
    out
}

/// The rigid rays on both threads while the self gates open (serially) beside them; the
/// memory's ray origins move on to this step's. Returns the rigid rays' detection, in vertex
/// order per obstacle, and the self gates.
fn rigid_rays_and_self_gates(pass: &RigidPass, memory: &mut CastMemory) -> (Detection, Vec<bool>) {
    let DetectInput {
        current, params, ..
    } = *pass.input;
    let n = current.len();
    let rigid = pass.input.obstacles.len();
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
    let (origins, self_accumulated) = (&memory.origins, memory.accumulated_m.get_mut(rigid));
    let self_gates = || match self_accumulated {
        Some(accumulated) if params.self_collision => {
            gates::open_self_gates(pass.input, pass.cluster_of, origins, accumulated)
        }
        _ => Vec::new(),
    };
    let ((low_parts, high_parts), self_gate_open) = two_threads::join(rigid_rays, self_gates);
    memory.origins = current
        .iter()
        .map(|p| [p.x as f32, p.y as f32, p.z as f32])
        .collect();
    let mut out = Detection::default();
    let mut high_parts = high_parts.into_iter();
    for part in low_parts {
        append(&mut out, part);
        if let Some(h) = high_parts.next() {
            append(&mut out, h);
        }
    }
    (out, self_gate_open)
}

/// The rays that meet the cloth's own surface: volume → cloth from the closed bodies near
/// it, then cloth → cloth.
struct SurfaceRays<'a> {
    input: &'a DetectInput<'a>,
    normals: &'a [Vec3],
    cluster_of: &'a [u32],
    self_gate_open: &'a [bool],
}

impl SurfaceRays<'_> {
    /// `self_lists` are the memory's lists after the obstacles' (the cloth's own last hits,
    /// inner and outer, when it collides with itself).
    fn detect(&self, self_lists: &mut [Vec<Option<u32>>], out: &mut Detection) {
        let DetectInput {
            mesh,
            current,
            obstacles,
            params,
            ..
        } = *self.input;
        let bounds = Aabb::from_points(current);
        let reach = bounds.loosened(params.prediction_distance_m);
        let volumes_near: Vec<&ObstacleGeometry> = obstacles
            .iter()
            .filter(|o| {
                params.volume_rays
                    && o.closed
                    && Aabb::from_points(&o.mesh.vertices).intersects(&reach)
            })
            .collect();
        if !params.self_collision && volumes_near.is_empty() {
            return;
        }
        let Ok(surface) = TriMesh::new(current.to_vec(), mesh.triangles.clone()) else {
            return;
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
                    previous: self.input.previous,
                },
                params,
                &mut out.volume_rays,
                &mut out.volume_contacts,
            );
        }
        if let [inner, outer] = self_lists {
            let pass = SelfPass {
                input: self.input,
                normals: self.normals,
                surface: &surface,
                bvh: &bvh,
                gate_open: self.self_gate_open,
                cluster_of: self.cluster_of,
                max_iterations: params.gate.max_iterations(mesh.mean_edge_m()),
            };
            detect_self(&pass, [inner, outer], out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cloth::mesh::GridSpec;
    use crate::geom::Real;

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

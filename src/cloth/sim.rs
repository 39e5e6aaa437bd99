//! One cloth and its step: integrate (gravity, wind), satisfy the springs (position-based
//! dynamics) with last step's resting contacts held, detect with rays, detect inversions,
//! respond, then mark which inversions the response corrected.

use super::classify::{RayRecord, Target};
use super::detect::{CastMemory, CastWork, ClothContact, DetectInput, Detection, detect};
use super::held_contacts::{HeldPlane, HoldSettings, held_planes, hold};
use super::held_volume::{HeldPoint, corner_contacts, held_points, hold_points};
use super::inversion::InversionRecord;
use super::mesh::ClothMesh;
pub use super::obstacle::ObstacleGeometry as Obstacle;
use super::params::ClothParams;
use super::response::{apply_contacts, contact_holds};
use super::solver::{CONVERGED_M, SpringSchedule};
use super::volume::{VolumeRayRecord, apply_volume_contacts};
use crate::bvh::Bvh;
use crate::geom::two_threads;
use crate::geom::{Aabb, Point3, Real, Vec3};
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct Cloth {
    pub id: u32,
    pub mesh: ClothMesh,
    pub positions: Vec<Point3>,
    pub velocities: Vec<Vec3>,
    /// Zero for pinned vertices.
    pub inverse_mass: Vec<Real>,
    pub params: ClothParams,
    pub memory: CastMemory,
    /// The springs in the order the solver runs them (built from `mesh`).
    pub schedule: SpringSchedule,
    /// The hierarchy the volume rays search, refitted to the cloth each step: its topology
    /// never changes, and a refit costs a fraction of a build.
    volume_tree: Option<Bvh<Aabb>>,
}

#[derive(Clone, Debug, Default)]
pub struct StepOutcome {
    pub rays: Vec<RayRecord>,
    pub inversions: Vec<InversionRecord>,
    pub work: CastWork,
    pub contacts: usize,
    /// volume → cloth rays (from the closed bodies' vertices) and their contact count.
    pub volume_rays: Vec<VolumeRayRecord>,
    pub volume_contacts: usize,
    /// Wall-clock seconds spent integrating, in the spring passes, casting rays and in the
    /// response.
    pub stage_s: [Real; 4],
}

impl Cloth {
    pub fn new(
        id: u32,
        mesh: ClothMesh,
        positions: Vec<Point3>,
        params: ClothParams,
    ) -> Result<Self, String> {
        params.validate()?;
        if positions.len() != mesh.vertex_count() {
            return Err(format!(
                "cloth {id}: {} positions for {} vertices",
                positions.len(),
                mesh.vertex_count()
            ));
        }
        let n = positions.len();
        Ok(Self {
            id,
            positions,
            velocities: vec![Vec3::zeros(); n],
            inverse_mass: vec![1.0; n],
            params,
            memory: CastMemory::default(),
            volume_tree: None,
            schedule: SpringSchedule::new(
                &mesh,
                &vec![1.0; n],
                [
                    params.stretch_stiffness,
                    params.shear_stiffness,
                    params.bend_stiffness,
                ],
            ),
            mesh,
        })
    }

    pub fn pin(&mut self, vertex: u32) -> Result<(), String> {
        match self.inverse_mass.get_mut(vertex as usize) {
            Some(w) => {
                *w = 0.0;
                Ok(())
            }
            None => Err(format!("cloth {}: no vertex {vertex} to pin", self.id)),
        }
    }

    pub fn step(&mut self, dt_s: Real, obstacles: &[Obstacle], count_tests: bool) -> StepOutcome {
        two_threads::run(|| self.step_here(dt_s, obstacles, count_tests))
    }

    fn step_here(&mut self, dt_s: Real, obstacles: &[Obstacle], count_tests: bool) -> StepOutcome {
        let t0 = Instant::now();
        let previous = self.positions.clone();
        // Last step's resting contacts hold through the spring passes, so a sheet under
        // tension on a body balances on it instead of being pulled through it every step.
        let settings = HoldSettings::new(&self.params, dt_s);
        let mut held = held_planes(
            &self.memory,
            obstacles,
            &previous,
            &self.velocities,
            &self.inverse_mass,
            &settings,
        );
        let mut held_volume = if self.params.volume_rays {
            held_points(
                obstacles,
                (&self.mesh.triangles, &mut self.volume_tree),
                &previous,
                &self.velocities,
                &settings,
            )
        } else {
            Vec::new()
        };
        self.integrate(dt_s);
        let t1 = Instant::now();
        self.solve_springs(&mut held, &mut held_volume);
        let t2 = Instant::now();
        let detection = detect(
            &DetectInput {
                cloth: self.id,
                mesh: &self.mesh,
                previous: &previous,
                current: &self.positions,
                obstacles,
                params: &self.params,
                count_tests,
            },
            &mut self.memory,
        );
        let t3 = Instant::now();
        self.respond(&detection, &held, &held_volume, &previous);
        let mut inversions = detection.inversions;
        self.mark_corrected(&mut inversions, &detection.contacts, obstacles);
        self.update_velocities(&previous, dt_s, &detection.contacts);
        let t4 = Instant::now();
        let secs = |a: Instant, b: Instant| b.duration_since(a).as_secs_f64();
        StepOutcome {
            stage_s: [secs(t0, t1), secs(t1, t2), secs(t2, t3), secs(t3, t4)],
            rays: detection.rays,
            inversions,
            work: detection.work,
            contacts: detection.contacts.len(),
            volume_contacts: detection.volume_contacts.len(),
            volume_rays: detection.volume_rays,
        }
    }

    /// Gravity and wind (drag along each vertex normal), then the move.
    fn integrate(&mut self, dt_s: Real) {
        let p = self.params;
        let normals = self.mesh.vertex_normals(&self.positions);
        // Vertex ids index four per-vertex arrays at once.
        #[allow(clippy::needless_range_loop)]
        for v in 0..self.positions.len() {
            if self.inverse_mass[v] == 0.0 {
                continue;
            }
            let relative_air = p.wind_mps - self.velocities[v];
            let wind = normals[v] * (p.wind_drag * relative_air.dot(&normals[v]));
            self.velocities[v] += (p.gravity_mps2 + wind) * dt_s;
            self.positions[v] += self.velocities[v] * dt_s;
        }
    }

    /// The spring passes, the held contacts enforced after each.
    fn solve_springs(&mut self, held: &mut [HeldPlane], held_volume: &mut [HeldPoint]) {
        let p = self.params;
        let stiffness = [p.stretch_stiffness, p.shear_stiffness, p.bend_stiffness];
        if !self.schedule.fits(&self.inverse_mass, stiffness) {
            self.schedule = SpringSchedule::new(&self.mesh, &self.inverse_mass, stiffness);
        }
        hold(held, &mut self.positions);
        hold_points(held_volume, &mut self.positions, &self.inverse_mass);
        // Up to the iteration count, stopping once a pass barely moves anything (a sheet
        // gravity only translates converges in one).
        for _ in 0..p.solver_iterations {
            let moved = self.schedule.solve(&mut self.positions);
            hold(held, &mut self.positions);
            hold_points(held_volume, &mut self.positions, &self.inverse_mass);
            if moved < CONVERGED_M {
                break;
            }
        }
    }

    /// The contacts' response, then friction for the detected and the held contacts.
    fn respond(
        &mut self,
        detection: &Detection,
        held: &[HeldPlane],
        held_volume: &[HeldPoint],
        previous: &[Point3],
    ) {
        apply_contacts(
            &self.mesh,
            &mut self.positions,
            &self.inverse_mass,
            &detection.contacts,
        );
        apply_volume_contacts(
            &self.mesh.triangles,
            &mut self.positions,
            &self.inverse_mass,
            &detection.volume_contacts,
        );
        let pressed = detection
            .contacts
            .iter()
            .map(|c| (c.vertex, c.normal, c.depth_m));
        let held_pressed = held.iter().map(|h| (h.vertex, h.normal, h.pushed_m));
        // The held points only: a landing contact's depth can be the whole step's fall, and
        // friction that large, along the triangle's normal rather than the body's, dragged
        // the vertices of a fast sheet back into a sphere.
        let volume_held = held_volume
            .iter()
            .flat_map(|h| corner_contacts(h.triangle, h.bary, h.normal, h.pushed_m));
        apply_friction(
            &mut self.positions,
            previous,
            &self.inverse_mass,
            pressed.chain(held_pressed).chain(volume_held),
            self.params.friction,
        );
    }

    /// Marks the inversions the response put back on their side.
    fn mark_corrected(
        &self,
        inversions: &mut [InversionRecord],
        contacts: &[ClothContact],
        obstacles: &[Obstacle],
    ) {
        for c in contacts {
            let Some(i) = c.inversion else { continue };
            let rigid = match c.target {
                Target::Rigid(body) => obstacles
                    .iter()
                    .find(|o| o.body == body)
                    .map(|o| o.mesh.triangle(c.triangle as usize).vertices()),
                Target::Cloth(_) => None,
            };
            inversions[i].corrected = contact_holds(&self.mesh, &self.positions, rigid, c);
        }
    }

    /// The velocities the step's motion implies, damped; pinned vertices stay still.
    fn update_velocities(&mut self, previous: &[Point3], dt_s: Real, contacts: &[ClothContact]) {
        let keep = 1.0 - self.params.damping;
        #[allow(clippy::needless_range_loop)]
        for v in 0..self.positions.len() {
            self.velocities[v] = if self.inverse_mass[v] == 0.0 {
                Vec3::zeros()
            } else {
                (self.positions[v] - previous[v]) * (keep / dt_s)
            };
        }
        // Inelastic contacts: a vertex pushed out must not keep the speed that took it in, or
        // it crosses again next step (position-based velocity pass, after the update).
        for c in contacts {
            let v = c.vertex as usize;
            let into = self.velocities[v].dot(&c.normal);
            if into < 0.0 {
                self.velocities[v] -= c.normal * into;
            }
        }
    }
}

/// Position-based Coulomb friction: each contact `(vertex, normal, depth)` allows at most
/// `friction * depth` of the vertex's tangential motion to be removed over the step.
fn apply_friction(
    positions: &mut [Point3],
    previous: &[Point3],
    inverse_mass: &[Real],
    contacts: impl Iterator<Item = (u32, Vec3, Real)>,
    friction: Real,
) {
    for (v, normal, depth) in contacts {
        let v = v as usize;
        if inverse_mass.get(v).is_none_or(|&w| w == 0.0) || !(depth.is_finite() && depth > 0.0) {
            continue;
        }
        let moved = positions[v] - previous[v];
        let tangential = moved - normal * moved.dot(&normal);
        let slide = tangential.norm();
        if slide > 0.0 {
            let cut = (friction * depth).min(slide);
            positions[v] -= tangential * (cut / slide);
        }
    }
}

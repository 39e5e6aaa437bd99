//! The world: a scene's bodies stepping through the pipeline, the built-in scenes and the
//! scene file format.

mod build;
mod collide;
pub mod family;
mod margins;
mod mesh_lookahead;
pub mod pick;
mod scenes;
pub mod sleep;
mod small_steps;
mod solve;
mod start_pairs;
mod step;
mod substep;
mod tessellate;
mod warm_start;

pub use crate::frame::{ContactGeometry, ContactPoint, PipelineEvent};
pub use crate::scene::{
    BodyDesc, BroadPhaseKind, DEFAULT_SCENE, Material, NarrowKind, ProceduralMesh, Scene,
    SceneError, ShapeDesc, SolverSettings, builtin_scene, builtin_scene_list, builtin_scenes,
    load_scene, obj, procedural, scene_kit,
};
pub use build::shape_of;
pub use tessellate::display_mesh;

use crate::broad::{BroadPhase, BroadStats};
use crate::bvh::{AnyBvh, BuildOptions};
use crate::dynamics::{RigidBody, Shape};
use crate::frame::Frame;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

#[derive(Clone)]
pub struct World {
    scene: Scene,
    pub bodies: Vec<RigidBody>,
    broad: BroadPhase,
    /// The hierarchy of each triangle-mesh body, in its local frame (rigid meshes never
    /// need a refit).
    trees: Vec<Option<Arc<AnyBvh>>>,
    /// Half the diagonal of each body's local box: how far a spinning body's rim reaches,
    /// for the speculative margin. Constant, so computed once (a mesh has many vertices).
    rim_radius: Vec<f64>,
    frame_index: u64,
    time_s: f64,
    /// Pairs that have touched, for the first-contact markers.
    touched: BTreeSet<(u32, u32)>,
    warm_start: warm_start::WarmStart,
    /// Which bodies sleep, and how long the others have been still.
    sleep: sleep::Sleep,
    /// What the narrow phase remembers of each pair between substeps.
    narrow: crate::narrow::NarrowCache,
    /// With `narrow: Rays`: each closed mesh or polyhedron body as the rays see it (none
    /// otherwise, and for round shapes and open meshes, which keep the other tests).
    ray_meshes: Vec<Option<Arc<crate::narrow::rays::RayMesh>>>,
    /// The ray-traced narrow phase's settings and memory.
    rays: crate::narrow::rays::RayNarrow,
    /// The running state of each family the scene brings in (`Scene::families`).
    sims: Vec<Box<dyn crate::family::FamilySim>>,
    /// The family of each simulation (`EngineFamily::NAME`), whose stages its step is timed in.
    sim_families: Vec<&'static str>,
}

impl World {
    pub fn new(scene: Scene) -> Result<World, SceneError> {
        Self::with_origin(scene, Path::new("<built-in>"))
    }

    /// Builds the world; `file` names the scene in errors. When it is a scene file, an error
    /// about one of its bodies or families also names the line of that entry.
    pub fn with_origin(scene: Scene, file: &Path) -> Result<World, SceneError> {
        Self::build(scene, file).map_err(|e| {
            let is_scene_file = file
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("ron"));
            match crate::input::read_text_bounded(file) {
                Ok(text) if is_scene_file => e.located(&text),
                _ => e,
            }
        })
    }

    fn build(scene: Scene, file: &Path) -> Result<World, SceneError> {
        scene.validate(file)?;
        scene.check_memory(file, crate::input::memory_budget())?;
        let bodies = build::build_bodies(&scene, file)?;
        start_pairs::check_start_pairs(&scene, &bodies, file, crate::input::memory_budget())?;
        let rim_radius: Vec<f64> = bodies
            .iter()
            .map(|b| crate::ccd::rim_radius(&b.shape))
            .collect();
        let options = BuildOptions::default();
        let trees = bodies
            .iter()
            .map(|b| match &b.shape {
                Shape::Mesh(m) => Some(Arc::new(AnyBvh::build(m, scene.mesh_bv, &options))),
                _ => None,
            })
            .collect();
        let ray_meshes = if scene.solver.narrow == crate::scene::NarrowKind::Rays {
            bodies
                .iter()
                .map(|b| {
                    crate::narrow::rays::RayMesh::of_shape(&b.shape)
                        .filter(|m| m.closed)
                        .map(Arc::new)
                })
                .collect()
        } else {
            vec![None; bodies.len()]
        };
        let setup = crate::family::SimSetup {
            scene: &scene,
            bodies: &bodies,
            file,
        };
        let sims = scene
            .families
            .iter()
            .enumerate()
            .map(|(i, data)| data.simulation(&setup).map_err(|e| e.in_family_entry(i)))
            .collect::<Result<Vec<_>, _>>()?;
        let scene_rays = scene.solver.rays;
        Ok(World {
            sims,
            sim_families: scene.families.iter().map(|d| d.family()).collect(),
            broad: BroadPhase::new(scene.broad_phase),
            scene,
            bodies,
            trees,
            rim_radius,
            frame_index: 0,
            time_s: 0.0,
            touched: BTreeSet::new(),
            warm_start: Default::default(),
            sleep: Default::default(),
            narrow: Default::default(),
            rays: crate::narrow::rays::RayNarrow::new(scene_rays),
            ray_meshes,
        })
    }

    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The hierarchy of a triangle-mesh body.
    pub fn tree(&self, body: u32) -> Option<&AnyBvh> {
        self.trees.get(body as usize)?.as_deref()
    }

    /// A body as the ray-traced narrow phase sees it (scenes with `narrow: Rays` only).
    pub fn ray_mesh(&self, body: u32) -> Option<&crate::narrow::rays::RayMesh> {
        self.ray_meshes.get(body as usize)?.as_deref()
    }

    /// What the ray-traced narrow phase cast in the last pass over the pairs.
    pub fn ray_counts(&self) -> crate::narrow::rays::RayCounts {
        self.rays.pass_counts
    }

    /// Also cast every walked ray completely and count the differences in `ray_counts`
    /// (the thesis's erroneous rays; twice the cost, for measurements).
    pub fn set_ray_audit(&mut self, on: bool) {
        self.rays.audit = on;
    }

    /// What the broad phase did in the last step.
    pub fn broad_stats(&self) -> BroadStats {
        self.broad.stats()
    }

    /// What each family's simulation finds wrong in a recorded frame (for `validate`).
    pub fn family_violations(&self, frame: &Frame) -> Vec<String> {
        self.sims.iter().flat_map(|s| s.violations(frame)).collect()
    }

    pub fn frame_index(&self) -> u64 {
        self.frame_index
    }

    /// Frame 0: the initial state, before any step.
    pub fn initial_frame(&self) -> Frame {
        Frame {
            index: self.frame_index,
            time_s: self.time_s,
            bodies: self.bodies.iter().map(|b| b.state()).collect(),
            counters: crate::frame::Counters {
                bodies: self.bodies.len() as u32,
                // An empty float sum is -0.0, which printed as "-0.0000"; + 0.0 makes it +0.
                kinetic_energy_j: self
                    .bodies
                    .iter()
                    .map(|b| b.kinetic_energy())
                    .sum::<crate::geom::Real>()
                    + 0.0,
                ..Default::default()
            },
            families: self.sims.iter().map(|s| s.frame_data()).collect(),
            ..Default::default()
        }
    }

    /// Hands the viewer's input to the families for the next step.
    pub fn drive(&mut self, input: &crate::family::FamilyInput) {
        for sim in &mut self.sims {
            sim.drive(input);
        }
    }

    /// Puts every body in the state a frame recorded, to resume stepping from it (the
    /// viewer's fork). Pairs touching in that frame count as having touched already.
    pub fn restore(&mut self, frame: &Frame) {
        // Who slept is not part of a frame: a resumed run starts with every body awake.
        self.wake_all();
        for s in &frame.bodies {
            if let Some(b) = self.bodies.get_mut(s.id as usize) {
                b.set_state(s);
            }
        }
        self.frame_index = frame.index;
        self.time_s = frame.time_s;
        self.touched = frame.contacts.iter().map(|c| (c.a, c.b)).collect();
        for (sim, data) in self.sims.iter_mut().zip(&frame.families) {
            sim.restore(data);
        }
        // Last step's impulses are not part of a frame: a resumed run starts cold, exactly as
        // `validate` does when it restarts from a recorded frame.
        self.warm_start = Default::default();
        // Nor are the rays kept for walking: the first pass after casts completely.
        self.rays.forget();
    }
}

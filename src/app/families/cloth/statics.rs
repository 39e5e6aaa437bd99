//! The cloth's static data, rebuilt once per session from the recorded scene by the engine's
//! own constructors: the sheets' grids (triangles, one-rings), the rigid bodies' meshes in
//! their own frames (the obstacles the rays were cast against) and whether each is closed
//! (a closed obstacle has an inside, which changes how a ray's depth reads).

use crate::app::families::FamilyContext;
use crate::cloth::detect::ObstacleGeometry;
use crate::cloth::{ClothMesh, ClothScene};
use crate::families::FamilySceneData;
use crate::geom::{TriMesh, Vec3};
use crate::raycast::TriangleAdjacency;
use std::sync::Arc;

pub struct RigidMesh {
    pub local: TriMesh,
    pub closed: bool,
    /// What a walk on the body crosses (to retrace a recorded walk).
    pub adjacency: TriangleAdjacency,
    pub mean_triangle_m: f64,
    /// In the body's frame: the directions of its vertices' rays against the sheet.
    pub vertex_normals: Vec<Vec3>,
}

pub struct ClothStatics {
    pub scene: ClothScene,
    pub mesh: ClothMesh,
    /// By body id (the cloth's rigid targets name bodies by id, which is their index).
    pub rigid: Vec<RigidMesh>,
}

#[derive(Default)]
pub struct StaticsCache {
    generation: Option<u64>,
    statics: Option<Arc<ClothStatics>>,
    /// Why the scene has no cloth to show, for the panel to say.
    pub problem: Option<String>,
}

impl StaticsCache {
    pub fn get(&mut self, cx: &FamilyContext) -> Option<Arc<ClothStatics>> {
        if self.generation != Some(cx.generation()) {
            self.generation = Some(cx.generation());
            self.statics = None;
            self.problem = None;
            match build(cx) {
                Ok(s) => self.statics = Some(Arc::new(s)),
                Err(e) => self.problem = Some(e),
            }
        }
        self.statics.clone()
    }
}

fn build(cx: &FamilyContext) -> Result<ClothStatics, String> {
    let scene = cx
        .scene_data()
        .iter()
        .find_map(|d| match d {
            FamilySceneData::Cloth(c) => Some(c.clone()),
            _ => None,
        })
        .ok_or("This scene has no cloth. Open a cloth scene (File ▸ Scenes: cloth-…).")?;
    let (mesh, _) = scene.mesh()?;
    let world = cx.world().ok_or_else(|| {
        cx.statics
            .problem
            .clone()
            .unwrap_or_else(|| "the scene's bodies are not rebuilt yet".into())
    })?;
    let rigid = world
        .bodies
        .iter()
        .map(|b| {
            let local = crate::world::display_mesh(&b.shape);
            let g = ObstacleGeometry::new(b.id, local.clone());
            RigidMesh {
                local,
                closed: g.closed,
                adjacency: g.adjacency,
                mean_triangle_m: g.mean_triangle_m,
                vertex_normals: g.vertex_normals,
            }
        })
        .collect();
    Ok(ClothStatics { scene, mesh, rigid })
}

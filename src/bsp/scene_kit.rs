//! What the BSP scenes share: a level scene with no bodies and no gravity, a floor slab.

use super::level::{BspScene, box_planes};
use crate::families::FamilySceneData;
use crate::geom::Plane;
use crate::world::scene_kit::scene;
use crate::world::{BroadPhaseKind, Scene};

pub fn bsp_scene(name: &str, description: &str, data: BspScene) -> Scene {
    let mut s = scene(name, description, Vec::new(), BroadPhaseKind::BruteForce);
    s.gravity = [0.0, 0.0, 0.0];
    s.families.push(FamilySceneData::Bsp(data));
    s
}

/// A floor slab from -half to half in x and z, its top at y = 0.
pub fn floor(half: f64) -> Vec<Plane> {
    box_planes([-half, -0.5, -half], [half, 0.0, half])
}

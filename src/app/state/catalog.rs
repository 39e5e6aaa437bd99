//! What the viewer knows about each body besides its per-frame state: name, shape, mass,
//! colour and the mesh that draws it. Built once per session from the engine's bodies.

use crate::app::render_mesh::RenderMesh;
use crate::dynamics::{RigidBody, Shape};
use crate::trace::BodyId;
use crate::world::{Scene, display_mesh};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Clone, Debug)]
pub struct BodyInfo {
    pub id: BodyId,
    pub name: String,
    /// "sphere", "box", ...
    pub shape_kind: &'static str,
    /// The shape's dimensions in words, for the inspector.
    pub shape_text: String,
    pub fixed: bool,
    pub mass_kg: Option<f64>,
    pub material: String,
    /// sRGB, 0–1.
    pub color: [f32; 3],
    /// Index into [`BodyCatalog::meshes`].
    pub mesh: usize,
}

/// Bodies of a session with their shapes (for picking) and their shared display meshes.
pub struct BodyCatalog {
    pub bodies: Vec<BodyInfo>,
    /// The engine's shapes, by body id, for the pick ray.
    pub shapes: Vec<Shape>,
    /// Distinct display meshes: bodies with identical meshes share one, so they draw in one
    /// instanced call.
    pub meshes: Vec<Arc<RenderMesh>>,
    /// Unique per catalog: the GPU cache re-uploads meshes when it changes.
    pub generation: u64,
    /// Set when the bodies could not be built (e.g. a recording whose scene refers to a
    /// missing mesh file): the viewer then draws body origins only.
    pub problem: Option<String>,
}

static GENERATION: AtomicU64 = AtomicU64::new(1);

/// Distinct, readable colours: golden-ratio hue steps at moderate saturation.
pub fn palette(i: u32) -> [f32; 3] {
    let h = (i as f32 * 0.618_034 + 0.08).fract();
    hsv(h, 0.55, 0.9)
}

fn hsv(h: f32, s: f32, v: f32) -> [f32; 3] {
    let i = (h * 6.0).floor();
    let f = h * 6.0 - i;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - f * s), v * (1.0 - (1.0 - f) * s));
    match i as i32 % 6 {
        0 => [v, t, p],
        1 => [q, v, p],
        2 => [p, v, t],
        3 => [p, q, v],
        4 => [t, p, v],
        _ => [v, p, q],
    }
}

fn shape_text(shape: &Shape) -> String {
    match shape {
        Shape::Sphere { radius } => format!("sphere, radius {radius:.3} m"),
        Shape::Box {
            half_extents: h, ..
        } => {
            format!("box, half extents {:.3} × {:.3} × {:.3} m", h.x, h.y, h.z)
        }
        Shape::Capsule {
            radius,
            half_height,
        } => {
            format!("capsule, radius {radius:.3} m, half height {half_height:.3} m (axis y)")
        }
        Shape::Convex(p) => format!(
            "convex hull, {} vertices, {} faces, {} edges",
            p.vertices.len(),
            p.faces.len(),
            p.edges.len()
        ),
        Shape::Mesh(m) => format!(
            "triangle mesh, {} vertices, {} triangles",
            m.vertices.len(),
            m.triangles.len()
        ),
    }
}

/// A hash of a mesh's exact data, to share identical meshes.
fn mesh_key(mesh: &crate::geom::TriMesh) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    mesh.vertices.len().hash(&mut h);
    for v in &mesh.vertices {
        for c in v.iter() {
            c.to_bits().hash(&mut h);
        }
    }
    mesh.triangles.hash(&mut h);
    h.finish()
}

impl BodyCatalog {
    pub fn from_bodies(scene: &Scene, bodies: &[RigidBody]) -> Self {
        let mut meshes: Vec<Arc<RenderMesh>> = Vec::new();
        let mut by_key: HashMap<u64, usize> = HashMap::new();
        let mut infos = Vec::with_capacity(bodies.len());
        for b in bodies {
            let mesh = display_mesh(&b.shape);
            let key = mesh_key(&mesh);
            let index = *by_key.entry(key).or_insert_with(|| {
                meshes.push(Arc::new(RenderMesh::from_trimesh(&mesh)));
                meshes.len() - 1
            });
            let desc_color = scene.bodies.get(b.id as usize).and_then(|d| d.color);
            let color = desc_color.unwrap_or(if b.fixed {
                [0.55, 0.57, 0.6]
            } else {
                palette(b.id)
            });
            infos.push(BodyInfo {
                id: b.id,
                name: b.name.clone(),
                shape_kind: b.shape.name(),
                shape_text: shape_text(&b.shape),
                fixed: b.fixed,
                mass_kg: (b.inv_mass > 0.0).then(|| 1.0 / b.inv_mass),
                material: b.material.name.clone(),
                color,
                mesh: index,
            });
        }
        Self {
            bodies: infos,
            shapes: bodies.iter().map(|b| b.shape.clone()).collect(),
            meshes,
            generation: GENERATION.fetch_add(1, Ordering::Relaxed),
            problem: None,
        }
    }

    /// Names only: for a recording whose scene cannot be rebuilt.
    pub fn names_only(names: &[String], problem: String) -> Self {
        Self {
            bodies: names
                .iter()
                .enumerate()
                .map(|(i, n)| BodyInfo {
                    id: i as BodyId,
                    name: n.clone(),
                    shape_kind: "unknown",
                    shape_text: "unknown (the scene could not be rebuilt)".into(),
                    fixed: false,
                    mass_kg: None,
                    material: String::new(),
                    color: palette(i as u32),
                    mesh: usize::MAX,
                })
                .collect(),
            shapes: Vec::new(),
            meshes: Vec::new(),
            generation: GENERATION.fetch_add(1, Ordering::Relaxed),
            problem: Some(problem),
        }
    }

    pub fn body(&self, id: BodyId) -> Option<&BodyInfo> {
        self.bodies.get(id as usize).filter(|b| b.id == id)
    }

    pub fn name(&self, id: BodyId) -> String {
        self.body(id)
            .map_or_else(|| format!("body {id}"), |b| b.name.clone())
    }

    pub fn mesh_of(&self, id: BodyId) -> Option<&Arc<RenderMesh>> {
        self.body(id).and_then(|b| self.meshes.get(b.mesh))
    }

    pub fn triangle_count(&self) -> usize {
        self.bodies
            .iter()
            .filter_map(|b| self.meshes.get(b.mesh))
            .map(|m| m.triangle_count)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{World, builtin_scene};

    #[test]
    fn identical_shapes_share_a_mesh_and_every_body_is_listed() {
        let scene = builtin_scene("box-stack").expect("built-in");
        let world = World::new(scene.clone()).expect("builds");
        let cat = BodyCatalog::from_bodies(&scene, &world.bodies);
        assert_eq!(cat.bodies.len(), world.bodies.len());
        // Eight equal boxes and a floor: two meshes.
        assert_eq!(cat.meshes.len(), 2);
        assert!(cat.bodies[0].fixed && cat.bodies[0].mass_kg.is_none());
        assert!(cat.bodies[1].mass_kg.is_some_and(|m| m > 0.0));
        assert_eq!(cat.name(3), "box-2");
        assert_eq!(cat.name(99), "body 99");
    }

    #[test]
    fn palette_colours_differ() {
        let a = palette(1);
        let b = palette(2);
        assert!(a.iter().zip(&b).any(|(x, y)| (x - y).abs() > 0.1));
        assert!(a.iter().all(|c| (0.0..=1.0).contains(c)));
    }
}

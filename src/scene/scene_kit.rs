//! Pieces the built-in scenes of every family share: a floor, the materials, a seeded
//! generator, a scene with default settings.

use super::{BodyDesc, BroadPhaseKind, Material, ProceduralMesh, Scene, ShapeDesc, SolverSettings};

pub fn floor(half: f64) -> BodyDesc {
    let mut f = BodyDesc::new(
        "floor",
        ShapeDesc::Box {
            half_extents: [half, 0.5, half],
        },
        [0.0, -0.5, 0.0],
    )
    .fixed();
    f.material = Some("ground".into());
    f.color = Some([0.42, 0.45, 0.5]);
    f
}

pub fn materials() -> Vec<Material> {
    vec![
        Material {
            name: "ground".into(),
            density: 1.0,
            restitution: 0.2,
            friction: 0.7,
        },
        Material {
            name: "rubber".into(),
            density: 1.1,
            restitution: 0.6,
            friction: 0.9,
        },
        Material {
            name: "wood".into(),
            density: 0.7,
            restitution: 0.3,
            friction: 0.5,
        },
        Material {
            name: "steel".into(),
            density: 7.8,
            restitution: 0.15,
            friction: 0.4,
        },
    ]
}

/// A small deterministic generator so scenes are the same on every machine.
pub struct Lcg(pub u64);
impl Lcg {
    pub fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

/// A scene with the default gravity and solver, the shared materials and no family data.
pub fn scene(
    name: &str,
    description: &str,
    bodies: Vec<BodyDesc>,
    broad_phase: BroadPhaseKind,
) -> Scene {
    Scene {
        name: name.into(),
        description: description.into(),
        gravity: [0.0, -9.81, 0.0],
        solver: SolverSettings::default(),
        broad_phase,
        mesh_bv: crate::bvh::BvKind::Aabb,
        materials: materials(),
        bodies,
        families: Vec::new(),
    }
}

pub fn torus(
    name: &str,
    major: f64,
    minor: f64,
    segments: (u32, u32),
    position: [f64; 3],
) -> BodyDesc {
    BodyDesc::new(
        name,
        ShapeDesc::Procedural(ProceduralMesh::Torus {
            major_radius: major,
            minor_radius: minor,
            major_segments: segments.0,
            minor_segments: segments.1,
        }),
        position,
    )
}

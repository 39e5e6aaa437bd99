//! The scene model: what a RON scene file holds.

use crate::geom::Real;
use serde::{Deserialize, Serialize};

/// A complete, self-contained description of a simulation's initial state and settings.
/// Recordings embed it, so `validate` can re-simulate from the file alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default = "default_gravity")]
    pub gravity: [Real; 3],
    #[serde(default)]
    pub solver: SolverSettings,
    #[serde(default)]
    pub broad_phase: BroadPhaseKind,
    /// The bounding volume of the triangle-mesh hierarchies (mesh against mesh contacts).
    #[serde(default = "default_mesh_bv")]
    pub mesh_bv: crate::bvh::BvKind,
    #[serde(default)]
    pub materials: Vec<Material>,
    pub bodies: Vec<BodyDesc>,
    /// What algorithm families add to the scene (a BSP level, a cloth, NURBS surfaces).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub families: Vec<crate::families::FamilySceneData>,
}

fn default_mesh_bv() -> crate::bvh::BvKind {
    crate::bvh::BvKind::Aabb
}

fn default_gravity() -> [Real; 3] {
    [0.0, -9.81, 0.0]
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SolverSettings {
    pub dt_s: Real,
    /// Sequential-impulse passes over the contacts per step.
    pub iterations: u32,
    /// Fraction of the penetration corrected per step (position projection).
    pub baumgarte: Real,
    /// Penetration allowed without correction, to keep resting contacts quiet.
    pub slop_m: Real,
    /// A contact deeper than this is reported as a violation by `validate` and marked.
    pub penetration_tolerance_m: Real,
    /// Continuous collision: `Off`, `Speculative` (the default), `Substep(n)` or `Toi`.
    /// Written only when not the default, so older scene files and recordings read the same.
    #[serde(skip_serializing_if = "super::CcdMode::is_default")]
    pub ccd: super::CcdMode,
    /// The rigid solver: `Impulses` (the default) or `Tgs(n)`, small steps. Written only
    /// when not the default, as `ccd`.
    #[serde(skip_serializing_if = "super::SolverMethod::is_default")]
    pub method: super::SolverMethod,
    /// How pairs of closed meshes and polyhedra are tested: `Hierarchy` (the default:
    /// hierarchies for meshes, separating axes for polyhedra) or `Rays` (the ray-traced
    /// narrow phase, spec 002). Written only when not the default, as `ccd`.
    #[serde(skip_serializing_if = "NarrowKind::is_default")]
    pub narrow: NarrowKind,
    /// The ray-traced narrow phase's parameters, read when `narrow` is `Rays`.
    #[serde(skip_serializing_if = "crate::narrow::rays::RaySettings::is_default")]
    pub rays: crate::narrow::rays::RaySettings,
    /// Islands of bodies that have stayed still for half a second fall asleep until an awake
    /// body comes within reach. Off unless a scene asks; written only when on.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sleep: bool,
}

impl SolverSettings {
    /// Velocity passes over the contacts per frame: what a solver of another engine must be
    /// given to be compared at the same effort.
    pub fn passes(&self) -> u32 {
        let per_pipeline = match self.method {
            super::SolverMethod::Impulses => self.iterations,
            super::SolverMethod::Tgs(n) => n,
        };
        per_pipeline * self.ccd.substeps()
    }
}

/// The narrow phase of mesh and polyhedron pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum NarrowKind {
    #[default]
    Hierarchy,
    /// Rays from every vertex along its normal, both ways (Hermann 2008, Lehericey 2016).
    Rays,
}

impl NarrowKind {
    pub fn is_default(&self) -> bool {
        *self == NarrowKind::Hierarchy
    }
}

impl Default for SolverSettings {
    fn default() -> Self {
        Self {
            dt_s: 1.0 / 60.0,
            iterations: 10,
            baumgarte: 0.2,
            slop_m: 0.005,
            penetration_tolerance_m: 0.1,
            ccd: super::CcdMode::default(),
            method: super::SolverMethod::default(),
            narrow: NarrowKind::default(),
            rays: Default::default(),
            sleep: false,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BroadPhaseKind {
    /// All pairs: the oracle, and the default until a scene asks for more.
    #[default]
    BruteForce,
    SweepAndPrune,
    Grid,
    Octree,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Material {
    pub name: String,
    #[serde(default = "one")]
    pub density: Real,
    #[serde(default = "half")]
    pub restitution: Real,
    #[serde(default = "half")]
    pub friction: Real,
}

fn one() -> Real {
    1.0
}
fn half() -> Real {
    0.5
}

impl Default for Material {
    fn default() -> Self {
        Self {
            name: "default".into(),
            density: 1.0,
            restitution: 0.3,
            friction: 0.5,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ShapeDesc {
    Sphere {
        radius: Real,
    },
    Box {
        half_extents: [Real; 3],
    },
    /// Axis along local y, as in the query protocol.
    Capsule {
        radius: Real,
        half_height: Real,
    },
    ConvexHull {
        points: Vec<[Real; 3]>,
    },
    TriMesh {
        vertices: Vec<[Real; 3]>,
        triangles: Vec<[u32; 3]>,
    },
    /// A Wavefront OBJ file, relative to the scene file.
    Obj {
        path: String,
        #[serde(default = "one")]
        scale: Real,
    },
    /// A mesh the engine generates (tori, terrains, dense spheres).
    Procedural(ProceduralMesh),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ProceduralMesh {
    Torus {
        major_radius: Real,
        minor_radius: Real,
        major_segments: u32,
        minor_segments: u32,
    },
    /// A height field over a square of `size` metres with `cells` per side.
    Terrain {
        size: Real,
        cells: u32,
        amplitude: Real,
        seed: u64,
    },
    /// A subdivided icosahedron: 20 × 4^level triangles.
    IcoSphere { radius: Real, level: u32 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyDesc {
    pub name: String,
    pub shape: ShapeDesc,
    /// A material name from `materials`, or the default material.
    #[serde(default)]
    pub material: Option<String>,
    #[serde(default)]
    pub position: [Real; 3],
    /// Rotation as an axis scaled by the angle in radians.
    #[serde(default)]
    pub rotation: [Real; 3],
    #[serde(default)]
    pub linear_velocity: [Real; 3],
    #[serde(default)]
    pub angular_velocity: [Real; 3],
    /// Fixed bodies never move: floors, walls, terrains.
    #[serde(default)]
    pub fixed: bool,
    /// Display colour (sRGB, 0–1); the viewer picks one when absent.
    #[serde(default)]
    pub color: Option<[f32; 3]>,
}

impl BodyDesc {
    pub fn new(name: impl Into<String>, shape: ShapeDesc, position: [Real; 3]) -> Self {
        Self {
            name: name.into(),
            shape,
            material: None,
            position,
            rotation: [0.0; 3],
            linear_velocity: [0.0; 3],
            angular_velocity: [0.0; 3],
            fixed: false,
            color: None,
        }
    }

    pub fn fixed(mut self) -> Self {
        self.fixed = true;
        self
    }
}

impl Scene {
    /// True when a family's data makes the scene replay only (a captured run of another
    /// engine): a world built from it is for drawing, never for stepping on.
    pub fn replay_only(&self) -> bool {
        self.families.iter().any(|f| f.replay_only())
    }
}

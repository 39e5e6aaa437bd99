//! The scene description, below the stepping: what a simulation starts from (bodies, shapes,
//! materials, the solver's and the broad phase's settings, what each family adds), how a RON
//! scene file, an OBJ mesh or a procedural mesh is read into it, and the catalogue of
//! built-in scenes. The pipeline builds its bodies from a `Scene`; nothing here steps.

mod builtin;
mod ccd_mode;
mod description;
mod error;
mod load;
mod locate;
mod memory;
pub mod obj;
pub mod procedural;
pub mod scene_kit;
mod solver_method;

pub use builtin::{
    BuiltinScene, DEFAULT_SCENE, builtin_scene, builtin_scene_family, builtin_scene_list,
    builtin_scenes, builtin_scenes_by_family, load_scene, scene_file,
};
pub use ccd_mode::{CcdMode, MAX_SUBSTEPS};
pub use description::{
    BodyDesc, BroadPhaseKind, Material, NarrowKind, ProceduralMesh, Scene, ShapeDesc,
    SolverSettings,
};
pub use error::SceneError;
pub use memory::MemoryEstimate;
pub use solver_method::{MAX_TGS_SUBSTEPS, SolverMethod};

//! NURBS surfaces and the thesis' OBB subdivision query (seed 000, `spec/000-nurbs-obb.md`).
//!
//! Surfaces keep homogeneous control points so that knot insertion is exact for rational
//! patches (spheres, tori). Boxes are built from control points during the query only, so a
//! deforming surface needs no precomputation. Rigid surfaces may keep their subdivision tree
//! in their own frame instead ([`SurfaceTree`]): a query then only turns cached boxes.

pub mod annex_table;
pub mod basis;
mod box_budget;
pub mod control_obb;
pub mod eval;
pub mod event;
mod family;
mod field_error;
pub mod flat;
mod input_limits;
pub mod piece_box;
pub mod precision_study;
pub mod query;
pub mod query_four;
mod query_ops;
pub mod rigid;
pub mod rules;
pub mod scene_data;
pub mod scenes;
pub mod shapes;
pub mod shell_mass;
mod sim;
mod sim_bodies;
pub mod split;
pub mod spring;
pub mod surface;
pub mod surface_file;
pub mod surface_json;
pub mod surface_tree;
pub mod tessellate;
pub mod thesis_surfaces;

pub use control_obb::control_point_obb;
pub use event::{NurbsEvent, PatchPath};
pub use family::NurbsFamily;
pub use flat::FlatSegment;
pub use piece_box::piece_box;
pub use query::{
    HitMode, NurbsHit, QueryOptions, QueryStats, Stop, intersect, rebuild_piece, rebuild_piece_box,
    rebuild_piece_box_with, rebuild_piece_with,
};
pub use rules::{BoxRule, NormalRule, NurbsRules, Recursion, SplitRule};
pub use scene_data::{Motion, NurbsBisection, NurbsBody, NurbsFrame, NurbsImpulse, NurbsScene};
pub use sim::{NurbsSim, substeps};
pub use surface::{NurbsSurface, SurfaceError};
pub use surface_tree::{SurfaceTree, intersect_posed, intersect_posed_traced};

//! Cloth: a position-based sheet with the ray-traced narrow phase of spec 002 §4 (thick-cloth
//! model of half thickness `e`, the acceptance rules of the three elementary tests, re-projected
//! contact normals) and the history-based inversion detection of §4.5.

pub mod classify;
pub mod depth;
pub mod detect;
pub mod event;
pub mod family;
pub mod held_contacts;
pub mod held_volume;
pub mod inversion;
pub mod mesh;
pub mod mesh_piece;
pub mod obstacle;
pub mod params;
pub mod query_ops;
pub mod recording_report;
pub mod report;
pub mod response;
pub mod scene_data;
pub mod scenes;
pub mod self_gate;
pub mod sim;
pub mod solver;
pub mod spring;
pub mod volume;
pub mod world_sim;

pub use crate::geom::barycentric;
pub use classify::{RayKind, RayRecord, RaySide, RejectReason, Target, WalkRecord};
pub use event::ClothEvent;
pub use family::ClothFamily;
pub use inversion::{InversionRecord, side, signed_vol6};
pub use mesh::ClothMesh;
pub use params::{ClothParams, ClothSwitches};
pub use report::{ClothFrameSummary, InversionReport, inversion_report};
pub use scene_data::{ClothFrame, ClothScene, ExtraSheet, ObjPiece};
pub use self_gate::GateMeasure;
pub use sim::{Cloth, Obstacle, StepOutcome};

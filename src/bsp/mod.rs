//! BSP levels and slide traces (spec 001): brushes with bevels, a BSP over them, shapes with
//! their plane offsets, the swept test (latest entry, earliest exit per brush), the iterative
//! slide, Quake `.map` import, and the family that records a walker sliding through a level.

pub mod article;
mod axial_cull;
mod bevel;
mod brush;
pub mod clip;
pub mod corners;
pub mod event;
pub mod face_tree;
pub mod map;
mod map_error;
mod map_lexer;
pub mod mesh_bsp;
mod shape;
pub mod slide;
pub mod sweep;
mod tree;
pub mod u_block;
mod walk_nodes;

pub use brush::{Brush, BrushError, MAX_BRUSH_PLANES};
pub use clip::{BrushClip, MIN_DISTANCE, clip_brush};
pub use event::{BspEvent, ClipOutcome, NodeSide, SlideBranch, SlideEnd};
pub use shape::Shape;
pub use slide::{MAX_IMPACT, MIN_MOVE, Slide, slide, slide_with};
pub use sweep::{Sweep, SweepHit, sweep, sweep_brute_force};
pub use tree::{BspTree, Child, Leaf, Node, TreeStats};
mod family;
pub mod level;
mod query_ops;
mod scene_kit;
pub mod scenes;
mod scenes_article;
mod scenes_ends;
mod sim;

pub use family::BspFamily;
pub use level::{BspFrame, BspScene, BspSweepMode, box_planes, prism_planes};
pub use sim::WalkerSim;

//! Arka3D (spec 003 §2.16): the hybrid collision detection of a 3D brick-breaker. Balls
//! bounce in a walled box against a 10×10×10 board of cubes, found by the thesis' four-step
//! facet routine, with error recovery by intemporal displacement and the three ablation
//! switches of its scenarios 4–6. `docs/arka3d.md` says what was chosen where the thesis is
//! ambiguous.

pub mod balls;
pub mod board;
pub mod clock;
pub mod event;
mod family;
pub mod level;
pub mod motion;
pub mod paddle;
pub mod recovery;
mod report;
pub mod routine;
pub mod scenes;
pub mod sim;

pub use event::{ArkaEvent, RecoveryKind, Region};
pub use family::ArkaFamily;
pub use level::{ArkaCounters, ArkaFrame, ArkaScene, BallDesc, BallState};
pub use paddle::PaddleDesc;
pub use routine::Switches;

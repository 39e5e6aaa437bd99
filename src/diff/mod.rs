//! `collidoscope diff`: where two runs part. Frames are compared in order; inside the first
//! frame that differs, pairs, contacts, impulses, other algorithm events and body states are
//! compared in that (pipeline) order, each matched by what it is, never by its place in a
//! list. The report's contract is `docs/diff-report.md`.

mod compare;
mod frame_list;
mod matching;
mod parts;
mod report;
mod run;
mod tolerance;

pub use compare::{body_difference, first_difference};
pub use frame_list::{Difference, body_name, differences, trace_positions};
pub use parts::{Key, STAGES};
pub use report::DiffReport;
pub use run::{DiffError, diff};
pub use tolerance::{Tolerance, ulps_apart};

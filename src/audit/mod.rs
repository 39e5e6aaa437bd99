//! The audit of a captured run: our exact algorithms run on the captured shapes and poses,
//! step by step, and every place where the engine under test disagrees with them. It cannot
//! re-simulate another engine, so `validate` audits a captured run instead.
//!
//! Per step: contacts the engine missed or reported for colliders that are apart, depths and
//! normals that differ from ours, bodies that tunnelled between two steps, non-finite or
//! exploding states, and pairs the engine's broad phase did not report.

mod checks;
mod extent;
mod finding;
mod options;
mod pair_scan;
mod report;
mod run;
mod states;

pub use finding::{Check, ContactView, Finding};
pub use options::{AuditOptions, DEFAULT_DEPTH_TOLERANCE_M, DEFAULT_NORMAL_TOLERANCE_DEG};
pub use report::{AuditReport, PairCounts, disagreement};
pub use run::{AuditError, Auditor, audit};

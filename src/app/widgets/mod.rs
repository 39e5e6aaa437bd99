//! Widgets the family panels share, so that a control reads the same in every panel:
//!
//! - [`prose`]: a paragraph wrapped at the panel's visible edge;
//! - [`description`]: a step in words, a title over its explanation;
//! - [`grid`]: names and their values in a striped two-column grid;
//! - [`step_row`]: "◀ step / step ▶", one event of the trace back or on;
//! - [`stepper`]: four buttons through a sequence (first, back, on, last).
//!
//! Widgets know nothing of the families: a family's panel builds its rows and words and hands
//! them over.

pub mod description;
pub mod grid;
pub mod prose;
pub mod step_row;
pub mod stepper;

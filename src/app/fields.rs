//! Name–value rows, as the inspector shows fields: the panels' shared grid
//! ([`crate::app::widgets::grid`]).

pub use crate::app::widgets::grid::grid;

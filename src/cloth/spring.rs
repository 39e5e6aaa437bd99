//! The distance constraints of the position-based cloth: grid sheets and mesh pieces both
//! make them (their own file so that `mesh` and `mesh_piece` share them without naming each
//! other both ways).

use crate::geom::Real;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpringKind {
    Stretch,
    Shear,
    Bend,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spring {
    pub a: u32,
    pub b: u32,
    pub rest_m: Real,
    pub kind: SpringKind,
}

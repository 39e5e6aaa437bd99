//! The first difference of two frames, and the first body whose state differs: what the
//! `diff` report names (the viewer lists them all, see [`super::frame_list`]).

use super::frame_list::{Difference, visit};
use super::matching::{StageDiff, stage_differences};
use super::parts::Parts;
use super::tolerance::Tolerance;
use crate::frame::Frame;
use std::ops::ControlFlow;

/// The first item of `a` and `b` that differs beyond `tol`, in pipeline order: the first of
/// [`super::differences`], found without listing the rest.
pub fn first_difference(
    a: &Frame,
    b: &Frame,
    tol: Tolerance,
    names: &[String],
) -> Option<Difference> {
    let mut first = None;
    visit(a, b, tol, names, |d| {
        first = Some(d);
        ControlFlow::Break(())
    });
    first
}

/// The first body whose state differs, with the largest difference of its numbers.
pub fn body_difference(a: &Frame, b: &Frame, tol: Tolerance) -> Option<(u32, f64)> {
    let (pa, pb) = (Parts::of(a), Parts::of(b));
    match stage_differences(&pa.stages[4], &pb.stages[4], tol).next()? {
        StageDiff::OnlyIn(_, key) => Some((key.bodies()[0], f64::INFINITY)),
        StageDiff::Values { key, delta, .. } => {
            Some((key.bodies()[0], delta.unwrap_or(f64::INFINITY)))
        }
    }
}

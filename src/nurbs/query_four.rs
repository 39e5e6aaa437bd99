//! Subdivide4 of the thesis' Algorithm 2.2: a piece cut in four, one halving in each
//! direction (by the split rule, so for single-span pieces U then V). A quarter is two
//! halvings, so its path names it as any other piece's does. The recursion around it is in
//! `query` (`Recursion::Subdivide4`).

use super::event::{MAX_PATH_DEPTH, PatchPath};
use super::rules::{SplitRule, halve, splittable};
use super::surface::NurbsSurface;

/// The pieces `surface` (at `path`) is cut into, with their paths, and the paths of the
/// pieces halved on the way (the query's split events, in order): two halvings, or one where a
/// half is too thin to halve again.
pub fn quarters(
    surface: &NurbsSurface,
    path: PatchPath,
    rule: SplitRule,
) -> (Vec<(NurbsSurface, PatchPath)>, Vec<PatchPath>) {
    let (lo, hi) = halve(surface, path.depth, rule);
    let mut halved = vec![path];
    let mut out = Vec::with_capacity(4);
    for (which, half) in [(0u8, lo), (1u8, hi)] {
        let p = path.child(which);
        if !splittable(&half) || p.depth >= MAX_PATH_DEPTH {
            out.push((half, p));
            continue;
        }
        let (a, b) = halve(&half, p.depth, rule);
        halved.push(p);
        out.push((a, p.child(0)));
        out.push((b, p.child(1)));
    }
    (out, halved)
}

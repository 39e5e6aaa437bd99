//! Algorithm 2.2 of the thesis: both surfaces cut in four (Subdivide4) and the 16 pairs tested
//! one level deeper. Kept beside Algorithm 2.3 for the cost model: it builds two boxes per call
//! and halves three times per surface per call, where 2.3 builds one box and halves once.
//!
//! A quarter is two halvings by the split rule (one in each direction for single-span pieces),
//! so its path names it as any other piece's does.

use super::event::{MAX_PATH_DEPTH, NurbsEvent};
use super::query::{Context, Piece, leaf, splittable};
use super::rules::halve;
use super::surface::NurbsSurface;
use crate::geom::Obb;

/// The pieces a piece is cut into: two halvings, or one where a half is too thin to halve.
fn four<F: FnMut(NurbsEvent)>(
    ctx: &mut Context<'_, F>,
    p: &Piece<'_>,
) -> Vec<(NurbsSurface, super::PatchPath)> {
    let rule = ctx.options.split_rule;
    let (lo, hi) = halve(p.surface, p.path.depth, rule);
    ctx.split_event(p);
    let mut out = Vec::with_capacity(4);
    for (which, half) in [(0u8, lo), (1u8, hi)] {
        let path = p.path.child(which);
        if !splittable(&half) || path.depth >= MAX_PATH_DEPTH {
            out.push((half, path));
            continue;
        }
        let (a, b) = halve(&half, path.depth, rule);
        ctx.split_event(&Piece {
            surface: &half,
            path,
            is_a: p.is_a,
            parent_box: None,
        });
        out.push((a, path.child(0)));
        out.push((b, path.child(1)));
    }
    out
}

/// The rest of a call of Algorithm 2.2 once the boxes overlap: a hit at the stop, else the
/// 16 pairs of quarters, surface a's quarter first.
pub(super) fn quarter<F: FnMut(NurbsEvent)>(
    ctx: &mut Context<'_, F>,
    (pa, box_a): (Piece<'_>, &Obb),
    (pb, box_b): (Piece<'_>, &Obb),
    depth: u32,
    at_stop: bool,
) {
    let exhausted = depth >= ctx.options.max_depth
        || pa.path.depth + 2 > MAX_PATH_DEPTH
        || pb.path.depth + 2 > MAX_PATH_DEPTH
        || !splittable(pa.surface)
        || !splittable(pb.surface);
    if at_stop || exhausted {
        leaf(ctx, &pa, &pb, box_a, box_b);
        return;
    }
    let qa = four(ctx, &pa);
    let qb = four(ctx, &pb);
    for (sa, path_a) in &qa {
        for (sb, path_b) in &qb {
            if ctx.done {
                return;
            }
            let first = Piece {
                surface: sa,
                path: *path_a,
                is_a: true,
                parent_box: Some(box_a),
            };
            let second = Piece {
                surface: sb,
                path: *path_b,
                is_a: false,
                parent_box: Some(box_b),
            };
            super::query::collide_pair(ctx, first, second, depth + 1);
        }
    }
}

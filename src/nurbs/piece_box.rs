//! The box rule of the query: which axes a sub-patch's box takes. The query and the viewer
//! both build boxes through [`piece_box`], so a recorded path always names the box the query
//! tested.
//!
//! The thesis (§2.1) builds every box from the eigenvectors of the covariance of the piece's
//! control points: [`BoxRule::Covariance`], the default. [`BoxRule::CornerFrame`] keeps the
//! whole surface's covariance box but gives a piece below it the frame of its four corner
//! control points (the mean u edge and the normal of the diagonals): a half of its parent is
//! nearly as flat, and this frame needs no moments and no eigen-solver.

use super::control_obb::{control_point_obb, corner_axes, obb_along};
use super::rules::BoxRule;
use super::surface::NurbsSurface;
use crate::geom::Obb;

/// The box of `piece`, a sub-patch of a surface (`parent` is the box of the piece it was
/// halved from, `None` for the whole surface). Any orthonormal frame gives a conservative
/// box (positive weights keep the piece inside its control points' hull); the frame only
/// decides how tight it is.
pub fn piece_box(piece: &NurbsSurface, parent: Option<&Obb>, rule: BoxRule) -> Obb {
    if parent.is_none() || rule == BoxRule::Covariance {
        return control_point_obb(piece);
    }
    match (corner_axes(piece), piece.points.first()) {
        (Some(axes), Some(first)) => obb_along(&piece.points, axes, first.xyz() / first.w),
        // A collapsed corner (a sphere's pole) leaves no plane: the covariance decides.
        _ => control_point_obb(piece),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Mat3;
    use crate::nurbs::shapes::{random_bicubic, sphere_octant};
    use crate::nurbs::split::Direction;

    /// Every control point inside its box, at every level, for polynomial and rational
    /// pieces, including the octant whose pole collapses a row of control points.
    #[test]
    fn piece_boxes_hold_their_control_points() {
        let mut rng = crate::world::scene_kit::Lcg(3);
        let surfaces = [
            random_bicubic(7, 2.0, 0.4, &mut rng),
            sphere_octant([0.0; 3], 1.0, [1.0, 1.0, 1.0]),
        ];
        for (s, rule) in surfaces.iter().flat_map(|s| {
            [
                (s.clone(), BoxRule::Covariance),
                (s.clone(), BoxRule::CornerFrame),
            ]
        }) {
            let root = piece_box(&s, None, BoxRule::CornerFrame);
            assert_eq!(
                root,
                control_point_obb(&s),
                "the whole surface: the thesis' box"
            );
            let mut pieces = vec![(s, root)];
            for depth in 0..6 {
                let dir = if depth % 2 == 0 {
                    Direction::U
                } else {
                    Direction::V
                };
                let mut next = Vec::new();
                for (p, b) in &pieces {
                    let (lo, hi) = p.split_half(dir);
                    for half in [lo, hi] {
                        let hb = piece_box(&half, Some(b), rule);
                        for c in half.cartesian_points() {
                            let local = hb.axes.transpose() * (c - hb.center);
                            for (x, h) in local.iter().zip(hb.half_extents.iter()) {
                                assert!(x.abs() <= h + 1e-12 * (1.0 + h), "{local} {h}");
                            }
                        }
                        let orth = hb.axes.transpose() * hb.axes;
                        assert!((orth - Mat3::identity()).norm() < 1e-12);
                        next.push((half, hb));
                    }
                }
                pieces = next;
            }
        }
    }
}

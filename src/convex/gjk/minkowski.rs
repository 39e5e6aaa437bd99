//! The one question GJK and EPA ask of a pair of shapes: a point of their Minkowski difference
//! A − B farthest along a direction.

use super::simplex::SimplexVertex;
use crate::convex::support::SupportMap;
use crate::geom::Vec3;

/// The vertex of A − B farthest along `dir`: A's support along `dir` minus B's against it,
/// named by both support ids (`u32::MAX` for a shape without vertices).
pub fn minkowski_support<A, B>(a: &A, b: &B, dir: &Vec3) -> SimplexVertex
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let (pa, ia) = a.support(dir);
    let (pb, ib) = b.support(&-dir);
    SimplexVertex::new(pa, pb, [ia.unwrap_or(u32::MAX), ib.unwrap_or(u32::MAX)])
}

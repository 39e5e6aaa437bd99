//! Inversions (spec 002 §4.5): a vertex whose path crossed a triangle the rays found, or one
//! across its edges, is recorded once and pushed back to the side it held before the step.

use super::result::{ClothContact, Detection};
use crate::cloth::barycentric::barycentric_or_centre;
use crate::cloth::classify::{RayKind, Target};
use crate::cloth::inversion::{InversionRecord, crossed_inside};
use crate::geom::{Point3, Real, Triangle};
use crate::raycast::TriangleAdjacency;

/// A cloth vertex at both ends of the step.
pub(super) struct VertexMotion {
    pub cloth: u32,
    pub vertex: u32,
    pub previous: Point3,
    pub current: Point3,
}

/// A triangle the vertex went through during the step, with its sides before and now.
pub(super) struct Crossing {
    pub triangle: u32,
    pub before: i8,
    pub tri_now: [Point3; 3],
}

/// The triangle the vertex crossed: the hit one, or one across its edges (near an edge the
/// ray along the normal and the vertex's path need not meet the same triangle). `may_cross`
/// rules out, cheaply, triangles whose plane the path cannot have crossed.
pub(super) fn crossing_near(
    vertex: &VertexMotion,
    hit: u32,
    adjacency: &TriangleAdjacency,
    may_cross: impl Fn(u32) -> bool,
    triangle_at: impl Fn(u32) -> ([Point3; 3], [Point3; 3]),
) -> Option<Crossing> {
    let neighbours = (0..3).filter_map(|edge| adjacency.across(hit, edge));
    std::iter::once(hit)
        .chain(neighbours)
        .filter(|&t| may_cross(t))
        .find_map(|t| {
            let (tri_prev, tri_now) = triangle_at(t);
            crossed_inside(&vertex.previous, tri_prev, &vertex.current, tri_now).map(
                |(before, _)| Crossing {
                    triangle: t,
                    before,
                    tri_now,
                },
            )
        })
}

/// Records an inversion once per vertex and target: both rays of a vertex may find the same
/// crossing, and the report counts vertices that crossed, not rays.
pub(super) fn note_inversion(
    vertex: &VertexMotion,
    target: Target,
    crossing: &Crossing,
    kind: RayKind,
    out: &mut Detection,
) -> Option<usize> {
    let seen = out.inversions.last().is_some_and(|i| {
        i.cloth == vertex.cloth && i.vertex == vertex.vertex && i.target == target
    });
    if seen {
        return None;
    }
    out.inversions.push(InversionRecord {
        cloth: vertex.cloth,
        vertex: vertex.vertex,
        target,
        triangle: crossing.triangle,
        promoted: kind != RayKind::Collision,
        corrected: false,
    });
    Some(out.inversions.len() - 1)
}

/// The contact of a crossing (§4.5): the normal points to the side the vertex held before
/// the step, and the depth takes it back through the plane and past `clearance`.
pub(super) fn push_crossing_contact(
    vertex: &VertexMotion,
    target: Target,
    crossing: &Crossing,
    clearance: Real,
    inversion: Option<usize>,
    out: &mut Detection,
) {
    // Only the first ray's contact of an inverted vertex is kept: a second one would push it
    // the same way twice.
    let Some(index) = inversion else { return };
    let [a, b, c] = crossing.tri_now;
    let Some(unit) = Triangle::new(a, b, c).normal() else {
        return;
    };
    let distance = unit.dot(&(vertex.current - a)).abs();
    out.contacts.push(ClothContact {
        vertex: vertex.vertex,
        target,
        triangle: crossing.triangle,
        normal: unit * crossing.before as Real,
        depth_m: distance + clearance,
        bary: barycentric_or_centre(&vertex.current, crossing.tri_now),
        wanted_side: crossing.before,
        inversion: Some(index),
    });
}

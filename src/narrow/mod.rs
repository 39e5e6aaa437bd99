//! The narrow phase: exact contact generation for each pair of shape types.
//!
//! Every function returns contact points with the normal pointing from the first shape to the
//! second and a positive depth when the shapes overlap.

mod coherent;
mod convex_cull;
mod gauss_sat;
mod hull_features;
mod kept_contacts;
mod manifold;
pub mod mesh_mesh;
mod polyhedra;
pub mod rays;
pub mod reduce;
pub(crate) mod round;
pub mod thinning;
pub(crate) mod versus_mesh;
mod view;

use crate::bvh::AnyBvh;
use crate::geom::Shape;
use crate::geom::{ConvexPolyhedron, Point3, Pose, Real};

pub use coherent::{NarrowCache, NarrowMethod};
pub use manifold::ContactPoint;
pub use polyhedra::{SatAxis, polyhedron_contacts, sat_query};
pub use thinning::Thinned;

/// Contacts between two shapes at their poses; empty when they are further apart than
/// `margin`. Within the margin, contacts have a negative depth (the gap): speculative
/// contacts, which let the solver stop fast bodies before they tunnel or sink in.
pub fn collide(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: Real,
) -> Vec<ContactPoint> {
    use Shape::*;
    let flip = |mut v: Vec<ContactPoint>| {
        for c in &mut v {
            c.normal = -c.normal;
        }
        v
    };
    match (a, b) {
        (Sphere { radius: ra }, Sphere { radius: rb }) => {
            round::sphere_sphere(&center(pose_a), *ra, &center(pose_b), *rb, margin)
                .into_iter()
                .collect()
        }
        (Sphere { radius }, Capsule { .. }) => {
            round::sphere_capsule(&center(pose_a), *radius, b, pose_b, margin)
                .into_iter()
                .collect()
        }
        (Capsule { .. }, Sphere { .. }) => flip(collide(b, pose_b, a, pose_a, margin)),
        (Capsule { .. }, Capsule { .. }) => round::capsule_capsule(a, pose_a, b, pose_b, margin),
        (Sphere { .. } | Capsule { .. }, Box { polyhedron: p, .. } | Convex(p)) => {
            flip(round_against_hull(p, pose_b, a, pose_a, margin))
        }
        (Box { polyhedron: p, .. } | Convex(p), Sphere { .. } | Capsule { .. }) => {
            round_against_hull(p, pose_a, b, pose_b, margin)
        }
        (Box { polyhedron: p, .. } | Convex(p), Box { polyhedron: q, .. } | Convex(q)) => {
            if convex_cull::apart_beyond(p, pose_a, q, pose_b, margin) {
                return Vec::new();
            }
            polyhedron_contacts(&p.transformed(pose_a), &q.transformed(pose_b), margin)
        }
        (Mesh(_), _) | (_, Mesh(_)) => with_mesh((a, pose_a, None), (b, pose_b, None), margin).0,
    }
}

/// A sphere or a capsule against a hull, worked in the hull's own frame (the round shape moved
/// there rather than every vertex of the hull to the world); the normal points from the hull.
fn round_against_hull(
    hull: &ConvexPolyhedron,
    pose_hull: &Pose,
    round: &Shape,
    pose_round: &Pose,
    margin: Real,
) -> Vec<ContactPoint> {
    let local = pose_hull.inv_mul(pose_round);
    let found = match round {
        Shape::Sphere { radius } => {
            round::sphere_polyhedron(hull, &center(&local), *radius, margin)
                .into_iter()
                .collect()
        }
        _ => round::capsule_polyhedron(hull, round, &local, margin),
    };
    manifold::all_moved_by(found, pose_hull)
}

/// One side of a pair with a mesh: its shape, pose, and the mesh's hierarchy if it has one.
pub type MeshSide<'a> = (&'a Shape, &'a Pose, Option<&'a AnyBvh>);

/// A pair where one side may be a mesh, its hierarchy finding the triangles near the other
/// shape (the same contacts as [`collide`], which scans every triangle), and whether the
/// pair tested only a sample of them ([`thinning`]).
pub fn with_mesh(a: MeshSide, b: MeshSide, margin: Real) -> (Vec<ContactPoint>, Option<Thinned>) {
    match (a, b) {
        // Mesh against mesh goes through the bounding-volume hierarchies (bvh module).
        ((Shape::Mesh(_), ..), (Shape::Mesh(_), ..)) => (Vec::new(), None),
        ((Shape::Mesh(mesh), pose_a, tree), (b, pose_b, _)) => {
            let (points, thinned) =
                versus_mesh::shape_mesh_in_tree(b, pose_b, mesh, pose_a, tree, margin);
            (points.into_iter().map(|c| c.flipped()).collect(), thinned)
        }
        ((a, pose_a, _), (Shape::Mesh(mesh), pose_b, tree)) => {
            versus_mesh::shape_mesh_in_tree(a, pose_a, mesh, pose_b, tree, margin)
        }
        ((a, pose_a, _), (b, pose_b, _)) => (collide(a, pose_a, b, pose_b, margin), None),
    }
}

/// The short name of a pair test, as trace events and plots show it.
pub fn test_name(a: &Shape, b: &Shape) -> String {
    format!("{}-{}", a.name(), b.name())
}

fn center(pose: &Pose) -> Point3 {
    pose.translation.vector.into()
}

/// The deepest penetration among contacts, or the smallest gap as a negative number.
pub fn max_depth(contacts: &[ContactPoint]) -> Real {
    contacts
        .iter()
        .map(|c| c.depth)
        .fold(Real::NEG_INFINITY, Real::max)
}

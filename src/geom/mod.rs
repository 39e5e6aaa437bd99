//! Geometric primitives in `f64` and the exact basic tests between them.
//!
//! Everything here is plain data plus pure functions: no tracing, no allocation in the tests.
//! A debugger must not add precision bugs of its own, hence `f64` throughout.

mod aabb;
mod adjacency;
pub mod barycentric;
mod capsule;
pub mod cell_hasher;
pub mod closed_mesh;
pub mod closest;
mod convex;
mod hull;
pub mod inline_stack;
mod mesh;
pub mod near_tree;
mod obb;
mod plane;
pub mod point_grid;
pub mod polytope;
pub mod prefetch;
mod ray;
mod segment;
mod shape;
mod sphere;
pub mod triangle;
pub mod two_threads;

pub use aabb::Aabb;
pub use capsule::Capsule;
pub use convex::{ConvexPolyhedron, HullError, PolyhedronError, farthest_along};
pub use hull::hull_triangles;
pub use mesh::{MeshError, TriMesh};
pub use obb::Obb;
pub use plane::Plane;
pub use ray::{Ray, RayHit};
pub use segment::Segment;
pub use shape::{MassProperties, Shape};
pub use sphere::Sphere;
pub use triangle::Triangle;

pub type Real = f64;
pub type Vec3 = nalgebra::Vector3<Real>;
pub type Point3 = nalgebra::Point3<Real>;
pub type Mat3 = nalgebra::Matrix3<Real>;
pub type Quat = nalgebra::UnitQuaternion<Real>;
pub type Pose = nalgebra::Isometry3<Real>;

/// True when every component of the point is finite.
pub fn is_finite_point(p: &Point3) -> bool {
    p.iter().all(|c| c.is_finite())
}

//! The ray-traced narrow phase for rigid pairs (spec 002 §3.1–3.7): Hermann's volume → volume
//! test in both directions, with prediction rays, re-projection and the iterative cast gated
//! by the pair's relative displacement. Closed triangle meshes and convex polyhedra (as
//! triangle meshes) only; spheres and capsules keep their analytic tests.

mod classify;
mod counts;
mod directed;
mod manifold;
mod memory;
mod pair;
mod ray_mesh;
mod record;
mod settings;

pub use classify::{InnerHit, OuterHit, classify_inner, classify_outer};
pub use counts::RayCounts;
pub use manifold::reduce_to_four;
pub use pair::{PairRays, RayNarrow};
pub use ray_mesh::RayMesh;
pub use record::{RigidRay, RigidRayCaster, RigidRayClass, RigidRayReject, RigidRaySide};
pub use settings::RaySettings;

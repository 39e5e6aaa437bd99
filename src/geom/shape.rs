use super::{Aabb, ConvexPolyhedron, Mat3, Pose, Real, TriMesh, Vec3};
use std::sync::Arc;

/// A collision shape in body-local coordinates, centred on the body's centre of mass.
#[derive(Clone, Debug)]
pub enum Shape {
    Sphere {
        radius: Real,
    },
    Box {
        half_extents: Vec3,
        polyhedron: Arc<ConvexPolyhedron>,
    },
    /// Axis along local y.
    Capsule {
        radius: Real,
        half_height: Real,
    },
    Convex(Arc<ConvexPolyhedron>),
    Mesh(Arc<TriMesh>),
}

/// Mass properties of a shape of uniform density.
#[derive(Clone, Copy, Debug)]
pub struct MassProperties {
    pub mass: Real,
    /// Inertia tensor about the centre of mass, in local coordinates.
    pub inertia: Mat3,
}

impl Shape {
    pub fn cuboid(half_extents: Vec3) -> Self {
        Shape::Box {
            half_extents,
            polyhedron: Arc::new(ConvexPolyhedron::cuboid(half_extents)),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Shape::Sphere { .. } => "sphere",
            Shape::Box { .. } => "box",
            Shape::Capsule { .. } => "capsule",
            Shape::Convex(_) => "convex",
            Shape::Mesh(_) => "mesh",
        }
    }

    /// The polyhedron of a box or hull, for the polyhedral tests.
    pub fn polyhedron(&self) -> Option<&ConvexPolyhedron> {
        match self {
            Shape::Box { polyhedron, .. } | Shape::Convex(polyhedron) => Some(polyhedron),
            _ => None,
        }
    }

    pub fn mass_properties(&self, density: Real) -> MassProperties {
        use std::f64::consts::PI;
        match self {
            Shape::Sphere { radius: r } => {
                let m = density * 4.0 / 3.0 * PI * r.powi(3);
                MassProperties {
                    mass: m,
                    inertia: Mat3::identity() * (0.4 * m * r * r),
                }
            }
            Shape::Box {
                half_extents: h, ..
            } => {
                let m = density * 8.0 * h.x * h.y * h.z;
                let (x2, y2, z2) = (4.0 * h.x * h.x, 4.0 * h.y * h.y, 4.0 * h.z * h.z);
                MassProperties {
                    mass: m,
                    inertia: Mat3::from_diagonal(&Vec3::new(y2 + z2, x2 + z2, x2 + y2))
                        * (m / 12.0),
                }
            }
            Shape::Capsule {
                radius: r,
                half_height: hh,
            } => {
                // Cylinder plus two hemispheres, each hemisphere's inertia shifted to its
                // own centre of mass then to the capsule's centre.
                let mc = density * PI * r * r * 2.0 * hh;
                let ms = density * 4.0 / 3.0 * PI * r.powi(3);
                let h = 2.0 * hh;
                let iy = mc * r * r / 2.0 + ms * 0.4 * r * r;
                let ix = mc * (3.0 * r * r + h * h) / 12.0
                    + ms * (0.4 * r * r + h * h / 4.0 + 3.0 * h * r / 8.0);
                MassProperties {
                    mass: mc + ms,
                    inertia: Mat3::from_diagonal(&Vec3::new(ix, iy, ix)),
                }
            }
            Shape::Convex(poly) => {
                let mesh = TriMesh {
                    vertices: poly.vertices.clone(),
                    triangles: poly.triangles(),
                };
                mesh_mass(&mesh, density)
            }
            Shape::Mesh(mesh) => mesh_mass(mesh, density),
        }
    }

    /// World-space bounding box at `pose`.
    pub fn aabb(&self, pose: &Pose) -> Aabb {
        match self {
            Shape::Sphere { radius } => Aabb::from_center_half_extents(
                pose.translation.vector.into(),
                Vec3::repeat(*radius),
            ),
            Shape::Box { half_extents, .. } => {
                Aabb::from_center_half_extents(Default::default(), *half_extents).transformed(pose)
            }
            Shape::Capsule {
                radius,
                half_height,
            } => {
                let axis = pose.rotation * Vec3::new(0.0, *half_height, 0.0);
                let c: super::Point3 = pose.translation.vector.into();
                Aabb::from_points(&[c + axis, c - axis]).loosened(*radius)
            }
            Shape::Convex(poly) => Aabb::around(poly.vertices.iter().map(|v| pose * v)),
            Shape::Mesh(mesh) => Aabb::around(mesh.vertices.iter().map(|v| pose * v)),
        }
    }
}

fn mesh_mass(mesh: &TriMesh, density: Real) -> MassProperties {
    let (vol, _, inertia) = mesh.mass_properties();
    // Open or inside-out meshes give a non-positive volume: treat them as thin shells of the
    // box they span, so that a bad mesh still simulates instead of exploding.
    if vol > 1e-12 {
        MassProperties {
            mass: density * vol,
            inertia: inertia * density,
        }
    } else {
        let e = mesh.aabb().extents();
        let m = density * (e.x * e.y * e.z).max(1e-6);
        let (x2, y2, z2) = (e.x * e.x, e.y * e.y, e.z * e.z);
        MassProperties {
            mass: m,
            inertia: Mat3::from_diagonal(&Vec3::new(y2 + z2, x2 + z2, x2 + y2)) * (m / 12.0),
        }
    }
}

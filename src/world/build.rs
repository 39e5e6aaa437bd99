//! Turning a scene description into rigid bodies.

use super::{BodyDesc, Material, ProceduralMesh, Scene, SceneError, ShapeDesc, procedural};
use crate::dynamics::{RigidBody, Shape};
use crate::geom::{ConvexPolyhedron, Mat3, Point3, Pose, TriMesh, Vec3};
use std::path::Path;
use std::sync::Arc;

pub(super) fn build_bodies(scene: &Scene, file: &Path) -> Result<Vec<RigidBody>, SceneError> {
    scene
        .bodies
        .iter()
        .enumerate()
        .map(|(index, desc)| {
            build_body(scene, index, desc).map_err(|cause| SceneError::Body {
                line: None,
                file: file.to_path_buf(),
                index,
                name: desc.name.clone(),
                cause,
            })
        })
        .collect()
}

fn material(scene: &Scene, desc: &BodyDesc) -> Material {
    desc.material
        .as_ref()
        .and_then(|m| scene.materials.iter().find(|x| &x.name == m))
        .cloned()
        .unwrap_or_default()
}

fn points(p: &[[f64; 3]]) -> Vec<Point3> {
    p.iter().map(|c| Point3::new(c[0], c[1], c[2])).collect()
}

/// The shape in local coordinates and the offset of its centre of mass from the scene's
/// origin of the shape: hulls and meshes are re-centred so the body rotates about its mass
/// centre, and the body's position moves by the same offset.
pub fn shape_of(desc: &ShapeDesc) -> Result<(Shape, Vec3), String> {
    let centred = |mesh: TriMesh| {
        let (vol, com, _) = mesh.mass_properties();
        let offset = if vol > 1e-12 {
            com.coords
        } else {
            mesh.aabb().center().coords
        };
        let moved = TriMesh {
            vertices: mesh.vertices.iter().map(|v| v - offset).collect(),
            triangles: mesh.triangles,
        };
        (moved, offset)
    };
    Ok(match desc {
        ShapeDesc::Sphere { radius } => (Shape::Sphere { radius: *radius }, Vec3::zeros()),
        ShapeDesc::Box { half_extents } => {
            (Shape::cuboid(Vec3::from(*half_extents)), Vec3::zeros())
        }
        ShapeDesc::Capsule {
            radius,
            half_height,
        } => (
            Shape::Capsule {
                radius: *radius,
                half_height: *half_height,
            },
            Vec3::zeros(),
        ),
        ShapeDesc::ConvexHull { points: p } => {
            let hull =
                ConvexPolyhedron::hull(&points(p)).map_err(|e| format!("shape.points: {e}"))?;
            let mesh = TriMesh {
                vertices: hull.vertices.clone(),
                triangles: hull.triangles(),
            };
            let (_, offset) = centred(mesh);
            let moved = ConvexPolyhedron::from_faces(
                hull.vertices.iter().map(|v| v - offset).collect(),
                hull.faces.clone(),
            );
            (Shape::Convex(Arc::new(moved)), offset)
        }
        ShapeDesc::TriMesh {
            vertices,
            triangles,
        } => {
            let mesh = TriMesh::new(points(vertices), triangles.clone())
                .map_err(|e| format!("shape: {e}"))?;
            let (m, off) = centred(mesh);
            (Shape::Mesh(Arc::new(m)), off)
        }
        ShapeDesc::Obj { path, scale } => {
            let mesh = super::obj::load_obj(Path::new(path)).map_err(|e| e.to_string())?;
            let scaled = TriMesh {
                vertices: mesh
                    .vertices
                    .iter()
                    .map(|v| Point3::from(v.coords * *scale))
                    .collect(),
                triangles: mesh.triangles,
            };
            let (m, off) = centred(scaled);
            (Shape::Mesh(Arc::new(m)), off)
        }
        ShapeDesc::Procedural(p) => {
            let mesh = match *p {
                ProceduralMesh::Torus {
                    major_radius,
                    minor_radius,
                    major_segments,
                    minor_segments,
                } => procedural::torus(major_radius, minor_radius, major_segments, minor_segments),
                ProceduralMesh::Terrain {
                    size,
                    cells,
                    amplitude,
                    seed,
                } => procedural::terrain(size, cells, amplitude, seed),
                ProceduralMesh::IcoSphere { radius, level } => procedural::icosphere(radius, level),
            };
            // Procedural meshes keep their authored origin: a terrain is not closed, and a
            // torus' centre of mass is its origin already.
            (Shape::Mesh(Arc::new(mesh)), Vec3::zeros())
        }
    })
}

fn build_body(scene: &Scene, index: usize, desc: &BodyDesc) -> Result<RigidBody, String> {
    let (shape, offset) = shape_of(&desc.shape)?;
    let material = material(scene, desc);
    let rotation = crate::geom::Quat::from_scaled_axis(Vec3::from(desc.rotation));
    let position = Vec3::from(desc.position) + rotation * offset;
    let props = shape.mass_properties(material.density);
    let (inv_mass, inv_inertia_local) = if desc.fixed || props.mass <= 0.0 {
        (0.0, Mat3::zeros())
    } else {
        (
            1.0 / props.mass,
            props.inertia.try_inverse().unwrap_or_else(Mat3::zeros),
        )
    };
    Ok(RigidBody {
        id: index as u32,
        name: desc.name.clone(),
        shape,
        pose: Pose::from_parts(position.into(), rotation),
        linear_velocity: if desc.fixed {
            Vec3::zeros()
        } else {
            Vec3::from(desc.linear_velocity)
        },
        angular_velocity: if desc.fixed {
            Vec3::zeros()
        } else {
            Vec3::from(desc.angular_velocity)
        },
        inv_mass,
        inv_inertia_local,
        material,
        fixed: desc.fixed,
    })
}

use super::bevel::add_bevels;
use super::corners::corners;
use crate::geom::triangle::scaled_normal;
use crate::geom::{Aabb, Plane, Point3, Real, Vec3};
use serde::{Deserialize, Serialize};

/// A closed convex solid: the points behind every plane (outward normals). The first
/// `face_count` planes are the brush's own faces; the rest are bevels, extra supporting planes
/// through its edges and its bounding box so that a shape pushed out by plane offsets does not
/// snag on sharp corners (with them, a box's swept volume is exactly the Minkowski sum).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Brush {
    pub planes: Vec<Plane>,
    pub face_count: usize,
    pub vertices: Vec<Point3>,
    pub bounds: Aabb,
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BrushError {
    #[error("a plane has no direction or is not finite")]
    BadPlane,
    #[error("the planes enclose no volume")]
    Empty,
    #[error("the planes do not close the brush (it is unbounded)")]
    Unbounded,
    #[error("{count} planes: a brush has at most {limit}")]
    TooManyPlanes { count: usize, limit: usize },
}

/// Relative tolerance of "on the plane" tests, scaled by the brush's size.
const ON_PLANE: Real = 1e-9;
/// Far planes that make an open brush visible as unbounded.
const FAR: Real = 1e7;
/// Planes a brush may have. Building one is O(n²) in its planes, so this bounds the work
/// (a few hundred milliseconds); real brushes have tens of planes.
pub const MAX_BRUSH_PLANES: usize = 4096;

impl Brush {
    /// Builds a brush from its face planes: drops duplicate and redundant planes, finds the
    /// vertices, adds the bevels.
    pub fn from_planes(planes: &[Plane]) -> Result<Brush, BrushError> {
        Brush::from_planes_with(planes, true)
    }

    /// [`Brush::from_planes`], with the bevels or without (the faces alone: a box shape's
    /// swept volume then over-reaches at convex edges, spec 001 §13.3).
    pub fn from_planes_with(planes: &[Plane], bevels: bool) -> Result<Brush, BrushError> {
        if planes.len() > MAX_BRUSH_PLANES {
            return Err(BrushError::TooManyPlanes {
                count: planes.len(),
                limit: MAX_BRUSH_PLANES,
            });
        }
        let mut faces: Vec<Plane> = Vec::new();
        for p in planes {
            if !p.normal.iter().all(|c| c.is_finite()) || !p.d.is_finite() {
                return Err(BrushError::BadPlane);
            }
            // Distances are compared with offsets, so normals must be unit: a level that
            // rounds them (0.7, 0, 0.7) would give the article's NaN crease (spec 001 §13.2).
            // Unit ones within rounding are kept bit for bit.
            let len = p.normal.norm();
            if len == 0.0 {
                return Err(BrushError::BadPlane);
            }
            let p = &if (len - 1.0).abs() > 1e-12 {
                Plane {
                    normal: p.normal / len,
                    d: p.d / len,
                }
            } else {
                *p
            };
            let dup = faces
                .iter()
                .position(|q| q.normal.dot(&p.normal) > 1.0 - 1e-12);
            match dup {
                // Two planes facing the same way: the tighter one bounds the brush.
                Some(i) => {
                    if p.d < faces[i].d {
                        faces[i] = *p;
                    }
                }
                None => faces.push(*p),
            }
        }
        let mut bounded = faces.clone();
        for axis in [Vec3::x(), Vec3::y(), Vec3::z()] {
            bounded.push(Plane {
                normal: axis,
                d: FAR,
            });
            bounded.push(Plane {
                normal: -axis,
                d: FAR,
            });
        }
        let vertices = corners(&bounded);
        if vertices.len() < 4 {
            return Err(BrushError::Empty);
        }
        let scale = vertices
            .iter()
            .map(|v| v.coords.amax())
            .fold(1.0, Real::max);
        if scale >= FAR * 0.5 {
            return Err(BrushError::Unbounded);
        }
        let tol = ON_PLANE * scale;
        // A plane touched by fewer than three vertices carries no face.
        faces.retain(|p| {
            vertices
                .iter()
                .filter(|v| p.signed_distance(v).abs() <= tol)
                .nth(2)
                .is_some()
        });
        if faces.len() < 4 {
            return Err(BrushError::Empty);
        }
        let bounds = Aabb::from_points(vertices.iter());
        if (bounds.max - bounds.min).min() <= tol {
            return Err(BrushError::Empty);
        }
        let face_count = faces.len();
        let mut planes = faces;
        if bevels {
            add_bevels(&mut planes, &vertices, &bounds, tol);
        }
        Ok(Brush {
            planes,
            face_count,
            vertices,
            bounds,
        })
    }

    /// An axis-aligned box brush.
    pub fn cuboid(min: Point3, max: Point3) -> Result<Brush, BrushError> {
        let mut planes = Vec::with_capacity(6);
        for (i, axis) in [Vec3::x(), Vec3::y(), Vec3::z()].into_iter().enumerate() {
            planes.push(Plane {
                normal: axis,
                d: max[i],
            });
            planes.push(Plane {
                normal: -axis,
                d: -min[i],
            });
        }
        Brush::from_planes(&planes)
    }

    /// The brush of a closed convex mesh: the planes of its triangles (counter-clockwise seen
    /// from outside). A mesh that is not convex gives a brush that is its hull only when every
    /// vertex is behind every face: that is checked.
    pub fn from_convex_mesh(vertices: &[Point3], triangles: &[[u32; 3]]) -> Result<Brush, String> {
        let mut planes = Vec::new();
        for (t, tri) in triangles.iter().enumerate() {
            let get = |k: u32| {
                vertices
                    .get(k as usize)
                    .copied()
                    .ok_or(format!("triangle {t}: vertex {k} out of range"))
            };
            let (a, b, c) = (get(tri[0])?, get(tri[1])?, get(tri[2])?);
            if let Some(p) = Plane::from_point_normal(&a, &scaled_normal(a, b, c)) {
                planes.push(p);
            }
        }
        let brush = Brush::from_planes(&planes).map_err(|e| e.to_string())?;
        let tol = 1e-7 * brush.bounds.max.coords.amax().max(1.0);
        for p in &planes {
            if vertices.iter().any(|v| p.signed_distance(v) > tol) {
                return Err("the mesh is not convex: split it into convex brushes".into());
            }
        }
        Ok(brush)
    }

    /// The brush's own faces, without the bevels.
    pub fn faces(&self) -> &[Plane] {
        &self.planes[..self.face_count]
    }
}

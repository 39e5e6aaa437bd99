//! Whether a triangle mesh bounds a solid: closed (every edge shared by exactly two
//! triangles), consistently oriented (each shared edge run once each way), and enclosing a
//! positive volume (counter-clockwise seen from outside). A BSP built from anything else has
//! no well-defined inside (spec 001 §2.1), so its solid leaves would be wrong.

use super::{Point3, Real};
use std::collections::HashMap;

/// Relative to the cube of the bounding box's largest side: a volume at or below this is
/// "zero" (a flat mesh, or one folded onto itself).
const MIN_VOLUME: Real = 1e-9;

/// Why a mesh does not bound a solid; the message names the triangle or edge at fault.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ClosedMeshError {
    #[error("the mesh has no triangles")]
    NoTriangles,
    #[error("triangle {triangle}: vertex {vertex} out of range")]
    OutOfRange { triangle: usize, vertex: u32 },
    #[error("vertex {0} is not finite")]
    NotFinite(usize),
    #[error("triangle {triangle} uses vertex {vertex} twice")]
    RepeatedVertex { triangle: usize, vertex: u32 },
    #[error("open: edge ({0},{1}) is used by 1 triangle")]
    Open(u32, u32),
    #[error("not a surface: edge ({0},{1}) is used by {2} triangles")]
    NonManifold(u32, u32, usize),
    #[error("inconsistent orientation at edge ({0},{1}): both triangles run it from {0} to {1}")]
    Orientation(u32, u32),
    #[error("zero volume ({0:e})")]
    ZeroVolume(Real),
    #[error("inside out (volume {0})")]
    InsideOut(Real),
}

/// Six times the signed volume the triangles enclose, about the first vertex (closer than
/// the origin, so less cancellation).
fn six_volume(vertices: &[Point3], triangles: &[[u32; 3]]) -> Real {
    let o = vertices[triangles[0][0] as usize];
    triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|k| vertices[k as usize] - o);
            a.dot(&b.cross(&c))
        })
        .sum()
}

/// Checks that the mesh bounds a solid and returns its volume. The first fault found is
/// reported, edges in increasing order, so the message is the same on every run.
pub fn check_closed_mesh(
    vertices: &[Point3],
    triangles: &[[u32; 3]],
) -> Result<Real, ClosedMeshError> {
    if triangles.is_empty() {
        return Err(ClosedMeshError::NoTriangles);
    }
    let mut directed: HashMap<(u32, u32), usize> = HashMap::with_capacity(triangles.len() * 3);
    for (t, tri) in triangles.iter().enumerate() {
        for (k, &v) in tri.iter().enumerate() {
            if v as usize >= vertices.len() {
                return Err(ClosedMeshError::OutOfRange {
                    triangle: t,
                    vertex: v,
                });
            }
            if !super::is_finite_point(&vertices[v as usize]) {
                return Err(ClosedMeshError::NotFinite(v as usize));
            }
            if tri[(k + 1) % 3] == v {
                return Err(ClosedMeshError::RepeatedVertex {
                    triangle: t,
                    vertex: v,
                });
            }
            *directed.entry((v, tri[(k + 1) % 3])).or_default() += 1;
        }
    }
    let mut undirected: Vec<(u32, u32)> = directed
        .keys()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    undirected.sort_unstable();
    undirected.dedup();
    for (a, b) in undirected {
        let ab = directed.get(&(a, b)).copied().unwrap_or(0);
        let ba = directed.get(&(b, a)).copied().unwrap_or(0);
        match ab + ba {
            1 => return Err(ClosedMeshError::Open(a, b)),
            2 => {}
            n => return Err(ClosedMeshError::NonManifold(a, b, n)),
        }
        if ab == 2 {
            return Err(ClosedMeshError::Orientation(a, b));
        }
        if ba == 2 {
            return Err(ClosedMeshError::Orientation(b, a));
        }
    }
    let volume = six_volume(vertices, triangles) / 6.0;
    let aabb = super::Aabb::from_points(triangles.iter().flatten().map(|&k| &vertices[k as usize]));
    let side = (aabb.max - aabb.min).amax();
    if volume.abs() <= MIN_VOLUME * side * side * side {
        return Err(ClosedMeshError::ZeroVolume(volume));
    }
    if volume < 0.0 {
        return Err(ClosedMeshError::InsideOut(volume));
    }
    Ok(volume)
}

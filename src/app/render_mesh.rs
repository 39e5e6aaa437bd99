//! A display mesh (from the engine's `display_mesh`) prepared for the GPU: `f32` vertices,
//! normals split at creases so boxes look flat and spheres round, and the edges a wireframe
//! or a selection outline draws. Nothing here is collision geometry: it only re-packs the
//! triangles the engine handed over.

use crate::geom::TriMesh;
use std::collections::HashMap;

/// Above this dihedral angle an edge is a crease: normals split there and the outline shows it.
const CREASE_COS: f32 = 0.906; // cos 25°
/// Edges between faces this close to coplanar are left out of the wireframe (fan diagonals).
const FLAT_COS: f32 = 0.99995; // cos 0.57°

#[derive(Clone, Debug, Default, PartialEq)]
pub struct RenderMesh {
    /// Triangle vertices with their normals, split at creases.
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    pub indices: Vec<u32>,
    /// The original (unsplit) vertices, which the edge lists index.
    pub edge_positions: Vec<[f32; 3]>,
    /// Pairs of `edge_positions` indices: every edge that is not between coplanar faces.
    pub wire_edges: Vec<u32>,
    /// Pairs: only the creases and open borders, the outline of the shape.
    pub outline_edges: Vec<u32>,
    /// Radius of the bounding sphere about the body origin, for framing the camera.
    pub radius: f32,
    pub triangle_count: usize,
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn normalize(a: [f32; 3]) -> [f32; 3] {
    let l = dot(a, a).sqrt();
    if l > 0.0 {
        [a[0] / l, a[1] / l, a[2] / l]
    } else {
        [0.0, 1.0, 0.0]
    }
}

impl RenderMesh {
    pub fn from_trimesh(mesh: &TriMesh) -> Self {
        let verts: Vec<[f32; 3]> = mesh
            .vertices
            .iter()
            .map(|p| [p.x as f32, p.y as f32, p.z as f32])
            .collect();
        let tris: Vec<[u32; 3]> = mesh
            .triangles
            .iter()
            .copied()
            .filter(|t| t.iter().all(|&i| (i as usize) < verts.len()))
            .collect();
        let face_normals: Vec<[f32; 3]> = tris
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| verts[i as usize]);
                normalize(cross(sub(b, a), sub(c, a)))
            })
            .collect();

        let (positions, normals, indices) = smooth_vertices(&verts, &tris, &face_normals);
        let (wire_edges, outline_edges) = drawn_edges(&tris, &face_normals);
        let radius = verts
            .iter()
            .map(|v| dot(*v, *v))
            .fold(0.0f32, f32::max)
            .sqrt();
        Self {
            positions,
            normals,
            indices,
            edge_positions: verts,
            wire_edges,
            outline_edges,
            radius,
            triangle_count: tris.len(),
        }
    }
}

/// The triangles' corners with normals smoothed within each crease-bounded fan of faces:
/// (positions, normals, indices). Corners with the same position and normal are shared.
fn smooth_vertices(
    verts: &[[f32; 3]],
    tris: &[[u32; 3]],
    face_normals: &[[f32; 3]],
) -> (Vec<[f32; 3]>, Vec<[f32; 3]>, Vec<u32>) {
    let mut around: Vec<Vec<u32>> = vec![Vec::new(); verts.len()];
    for (f, t) in tris.iter().enumerate() {
        for &v in t {
            around[v as usize].push(f as u32);
        }
    }
    let mut positions = Vec::with_capacity(tris.len() * 3);
    let mut normals = Vec::with_capacity(tris.len() * 3);
    let mut indices = Vec::with_capacity(tris.len() * 3);
    // (vertex, smoothed normal bits) -> output vertex, so smooth regions stay shared.
    let mut shared: HashMap<(u32, [u32; 3]), u32> = HashMap::new();
    for (f, t) in tris.iter().enumerate() {
        let nf = face_normals[f];
        for &v in t {
            let mut n = [0.0f32; 3];
            for &g in &around[v as usize] {
                let ng = face_normals[g as usize];
                if dot(ng, nf) >= CREASE_COS {
                    n = [n[0] + ng[0], n[1] + ng[1], n[2] + ng[2]];
                }
            }
            let n = normalize(n);
            let key = (v, n.map(f32::to_bits));
            let idx = *shared.entry(key).or_insert_with(|| {
                positions.push(verts[v as usize]);
                normals.push(n);
                (positions.len() - 1) as u32
            });
            indices.push(idx);
        }
    }
    (positions, normals, indices)
}

/// The edges to draw, as index pairs: (every edge between faces that are not flat, the
/// creases). Borders and non-manifold edges are in both.
fn drawn_edges(tris: &[[u32; 3]], face_normals: &[[f32; 3]]) -> (Vec<u32>, Vec<u32>) {
    // Each undirected edge with the faces on its sides.
    let mut edges: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    for (f, t) in tris.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            edges
                .entry((a.min(b), a.max(b)))
                .or_default()
                .push(f as u32);
        }
    }
    let mut sorted: Vec<_> = edges.into_iter().collect();
    sorted.sort_unstable_by_key(|(e, _)| *e);
    let mut wire_edges = Vec::new();
    let mut outline_edges = Vec::new();
    for ((a, b), faces) in sorted {
        let (flat, crease) = match faces.as_slice() {
            [f, g] => {
                let c = dot(face_normals[*f as usize], face_normals[*g as usize]);
                (c >= FLAT_COS, c < CREASE_COS)
            }
            // Borders and non-manifold edges are always drawn.
            _ => (false, true),
        };
        if !flat {
            wire_edges.extend([a, b]);
        }
        if crease {
            outline_edges.extend([a, b]);
        }
    }
    (wire_edges, outline_edges)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{ConvexPolyhedron, Vec3};

    #[test]
    fn a_box_has_flat_faces_and_twelve_edges() {
        let poly = ConvexPolyhedron::cuboid(Vec3::new(1.0, 2.0, 3.0));
        let mesh = TriMesh {
            vertices: poly.vertices.clone(),
            triangles: poly.triangles(),
        };
        let r = RenderMesh::from_trimesh(&mesh);
        assert_eq!(r.triangle_count, 12);
        // Every face gets its own four vertices: 24, each normal axis-aligned.
        assert_eq!(r.positions.len(), 24);
        for n in &r.normals {
            assert_eq!(n.iter().filter(|c| c.abs() > 0.999).count(), 1, "{n:?}");
        }
        assert_eq!(r.wire_edges.len(), 24, "12 edges, no diagonals");
        assert_eq!(r.outline_edges.len(), 24);
        assert!((r.radius - 14f32.sqrt()).abs() < 1e-5);
    }

    #[test]
    fn a_sphere_is_smooth_and_has_no_outline() {
        let mesh = crate::world::procedural::icosphere(1.0, 3);
        let r = RenderMesh::from_trimesh(&mesh);
        assert_eq!(
            r.positions.len(),
            mesh.vertices.len(),
            "no splits on a smooth surface"
        );
        assert!(r.outline_edges.is_empty());
        assert_eq!(r.wire_edges.len() / 2, mesh.triangles.len() * 3 / 2);
        for (p, n) in r.positions.iter().zip(&r.normals) {
            assert!(dot(normalize(*p), *n) > 0.98, "normals point outwards");
        }
    }

    #[test]
    fn bad_indices_are_skipped() {
        let mesh = TriMesh {
            vertices: vec![crate::geom::Point3::origin(); 3],
            triangles: vec![[0, 1, 2], [0, 1, 9]],
        };
        assert_eq!(RenderMesh::from_trimesh(&mesh).triangle_count, 1);
    }
}

//! Which features of a polyhedron touch: each edge's two faces, each vertex's edges, each
//! face's boundary edges. The closest-feature walk moves along these, and the Gauss-map test
//! reads each edge's two faces.

/// The adjacency of a closed polyhedron.
#[derive(Debug, Default)]
pub(super) struct Adjacency {
    /// `[left, right]` for each edge: tail → head runs counter-clockwise around `left`.
    pub edge_faces: Vec<[u32; 2]>,
    pub vertex_edges: Vec<Vec<u32>>,
    /// Each face's edges in its vertex order (edge k joins vertex k to vertex k + 1).
    pub face_edges: Vec<Vec<u32>>,
}

/// The adjacency of counter-clockwise `faces` over their sorted, unique `edges` (as
/// `[smaller, larger]`). Fails with the first edge that does not border exactly two faces,
/// once each way round: then the surface is not closed and has no walk to offer.
pub(super) fn adjacency(
    vertex_count: usize,
    faces: &[Vec<u32>],
    edges: &[[u32; 2]],
) -> Result<Adjacency, [u32; 2]> {
    let mut edge_faces = vec![[u32::MAX; 2]; edges.len()];
    let mut face_edges = Vec::with_capacity(faces.len());
    for (f, face) in faces.iter().enumerate() {
        let mut boundary = Vec::with_capacity(face.len());
        for k in 0..face.len() {
            let (a, b) = (face[k], face[(k + 1) % face.len()]);
            let e = edges
                .binary_search(&[a.min(b), a.max(b)])
                .map_err(|_| [a, b])?;
            let side = usize::from(a > b);
            if edge_faces[e][side] != u32::MAX {
                return Err([a, b]);
            }
            edge_faces[e][side] = f as u32;
            boundary.push(e as u32);
        }
        face_edges.push(boundary);
    }
    if let Some(e) = edge_faces.iter().position(|f| f.contains(&u32::MAX)) {
        return Err(edges[e]);
    }
    let mut vertex_edges = vec![Vec::new(); vertex_count];
    for (e, &[a, b]) in edges.iter().enumerate() {
        vertex_edges[a as usize].push(e as u32);
        vertex_edges[b as usize].push(e as u32);
    }
    Ok(Adjacency {
        edge_faces,
        vertex_edges,
        face_edges,
    })
}

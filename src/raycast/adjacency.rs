//! Triangle–edge adjacency in the edge numbering of the iterative cast's locate step
//! (spec 002 §3.4.3 note): edge 0 = (V0,V2) is left when `u < 0`, edge 1 = (V0,V1) when
//! `v < 0`, edge 2 = (V1,V2) when `u + v > 1`.

use std::collections::HashMap;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TriangleAdjacency {
    /// For each triangle and each of its three edges, the triangle across it (None on a
    /// border or a non-manifold edge, where the walk must stop).
    neighbours: Vec<[Option<u32>; 3]>,
}

/// The vertex pairs of the three edges, in the locate step's numbering.
pub fn edge_vertices(tri: [u32; 3], edge: usize) -> (u32, u32) {
    match edge {
        0 => (tri[0], tri[2]),
        1 => (tri[0], tri[1]),
        _ => (tri[1], tri[2]),
    }
}

impl TriangleAdjacency {
    pub fn build(triangles: &[[u32; 3]]) -> Self {
        let key = |a: u32, b: u32| (a.min(b), a.max(b));
        let mut owners: HashMap<(u32, u32), Vec<(u32, usize)>> = HashMap::new();
        for (t, &tri) in triangles.iter().enumerate() {
            for edge in 0..3 {
                let (a, b) = edge_vertices(tri, edge);
                owners.entry(key(a, b)).or_default().push((t as u32, edge));
            }
        }
        let mut neighbours = vec![[None; 3]; triangles.len()];
        for sharing in owners.values() {
            // Only manifold edges are walked: with three or more triangles on an edge the
            // next triangle is ambiguous.
            if let [(t0, e0), (t1, e1)] = sharing.as_slice() {
                neighbours[*t0 as usize][*e0] = Some(*t1);
                neighbours[*t1 as usize][*e1] = Some(*t0);
            }
        }
        Self { neighbours }
    }

    pub fn across(&self, triangle: u32, edge: usize) -> Option<u32> {
        self.neighbours
            .get(triangle as usize)?
            .get(edge)
            .copied()
            .flatten()
    }

    pub fn triangle_count(&self) -> usize {
        self.neighbours.len()
    }
}

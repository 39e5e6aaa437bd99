//! A rectangular cloth sheet: its triangles, the springs of its position-based constraints
//! (stretch, shear, bend) and the one-ring of each vertex (excluded from its own self rays).

use crate::geom::{Point3, Real, Vec3};
use crate::raycast::TriangleAdjacency;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpringKind {
    Stretch,
    Shear,
    Bend,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spring {
    pub a: u32,
    pub b: u32,
    pub rest_m: Real,
    pub kind: SpringKind,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ClothMesh {
    pub columns: u32,
    pub rows: u32,
    pub triangles: Vec<[u32; 3]>,
    pub springs: Vec<Spring>,
    pub adjacency: TriangleAdjacency,
    /// Triangles around each vertex.
    pub incident: Vec<Vec<u32>>,
}

impl ClothMesh {
    /// A `columns × rows` grid spanning `u` and `v` from `corner`; the rest lengths are the
    /// flat sheet's.
    pub fn grid(
        columns: u32,
        rows: u32,
        corner: Point3,
        u: Vec3,
        v: Vec3,
    ) -> Result<(ClothMesh, Vec<Point3>), String> {
        if columns < 2 || rows < 2 {
            return Err(format!(
                "a cloth needs at least 2 × 2 vertices, got {columns} × {rows}"
            ));
        }
        if (columns as u64) * (rows as u64) > 4_000_000 {
            return Err(format!(
                "a cloth of {columns} × {rows} vertices is too large"
            ));
        }
        let index = |i: u32, j: u32| j * columns + i;
        let mut positions = Vec::with_capacity((columns * rows) as usize);
        for j in 0..rows {
            for i in 0..columns {
                let fu = i as Real / (columns - 1) as Real;
                let fv = j as Real / (rows - 1) as Real;
                positions.push(corner + u * fu + v * fv);
            }
        }
        let mut triangles = Vec::new();
        for j in 0..rows - 1 {
            for i in 0..columns - 1 {
                let (a, b, c, d) = (
                    index(i, j),
                    index(i + 1, j),
                    index(i + 1, j + 1),
                    index(i, j + 1),
                );
                triangles.push([a, b, c]);
                triangles.push([a, c, d]);
            }
        }
        let mut springs = Vec::new();
        let mut add = |a: u32, b: u32, kind: SpringKind| {
            let rest_m = (positions[a as usize] - positions[b as usize]).norm();
            springs.push(Spring { a, b, rest_m, kind });
        };
        for j in 0..rows {
            for i in 0..columns {
                if i + 1 < columns {
                    add(index(i, j), index(i + 1, j), SpringKind::Stretch);
                }
                if j + 1 < rows {
                    add(index(i, j), index(i, j + 1), SpringKind::Stretch);
                }
                if i + 1 < columns && j + 1 < rows {
                    add(index(i, j), index(i + 1, j + 1), SpringKind::Shear);
                    add(index(i + 1, j), index(i, j + 1), SpringKind::Shear);
                }
                if i + 2 < columns {
                    add(index(i, j), index(i + 2, j), SpringKind::Bend);
                }
                if j + 2 < rows {
                    add(index(i, j), index(i, j + 2), SpringKind::Bend);
                }
            }
        }
        let mut incident = vec![Vec::new(); positions.len()];
        for (t, tri) in triangles.iter().enumerate() {
            for &v in tri {
                incident[v as usize].push(t as u32);
            }
        }
        let adjacency = TriangleAdjacency::build(&triangles);
        Ok((
            ClothMesh {
                columns,
                rows,
                triangles,
                springs,
                adjacency,
                incident,
            },
            positions,
        ))
    }

    pub fn vertex_count(&self) -> usize {
        (self.columns * self.rows) as usize
    }

    pub fn triangle_points(&self, positions: &[Point3], t: u32) -> [Point3; 3] {
        let [a, b, c] = self.triangles[t as usize];
        [
            positions[a as usize],
            positions[b as usize],
            positions[c as usize],
        ]
    }

    /// The vertices sharing a triangle (hence an edge) with `v`, each once.
    pub fn neighbours(&self, v: u32) -> Vec<u32> {
        let mut out: Vec<u32> = self
            .incident
            .get(v as usize)
            .into_iter()
            .flatten()
            .flat_map(|&t| self.triangles[t as usize])
            .filter(|&w| w != v)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The triangles sharing a corner with triangle `t`, `t` included, each once.
    pub fn triangles_around(&self, t: u32) -> Vec<u32> {
        let mut out: Vec<u32> = self
            .triangles
            .get(t as usize)
            .into_iter()
            .flatten()
            .flat_map(|&v| self.incident[v as usize].iter().copied())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Area-weighted vertex normals; a vertex whose triangles cancel gets +z's fallback so
    /// that rays always have a direction.
    pub fn vertex_normals(&self, positions: &[Point3]) -> Vec<Vec3> {
        let mut normals = vec![Vec3::zeros(); positions.len()];
        for tri in &self.triangles {
            let [a, b, c] = tri.map(|i| positions[i as usize]);
            let n = (b - a).cross(&(c - a));
            for &i in tri {
                normals[i as usize] += n;
            }
        }
        normals
            .into_iter()
            .map(|n| n.try_normalize(1e-300).unwrap_or_else(Vec3::z))
            .collect()
    }

    /// The cluster of a vertex: square blocks of `side` vertices (§3.5.2).
    pub fn cluster_of(&self, vertex: u32, side: u32) -> u32 {
        let side = side.max(1);
        let per_row = self.columns.div_ceil(side);
        (vertex / self.columns / side) * per_row + (vertex % self.columns) / side
    }

    pub fn cluster_count(&self, side: u32) -> usize {
        let side = side.max(1);
        (self.columns.div_ceil(side) * self.rows.div_ceil(side)) as usize
    }

    pub fn mean_edge_m(&self) -> Real {
        let stretch: Vec<_> = self
            .springs
            .iter()
            .filter(|s| s.kind == SpringKind::Stretch)
            .collect();
        stretch.iter().map(|s| s.rest_m).sum::<Real>() / stretch.len().max(1) as Real
    }
}

//! A cloth of one or more rectangular sheets: its triangles, the springs of its position-based
//! constraints (stretch, shear, bend) and the one-ring of each vertex (excluded from its own
//! self rays). Several sheets are one mesh of disconnected grids (issue 12, stacked sheets):
//! the self-collision that keeps a sheet off itself then keeps the sheets off each other, with
//! no other kind of contact and nothing new in a recording.

use super::mesh_piece::{self, MeshPart, PieceInput};
use crate::geom::triangle::scaled_normal;
use crate::geom::two_threads::fill_halves;
use crate::geom::{Point3, Real, Vec3};
use crate::raycast::TriangleAdjacency;

pub use super::spring::{Spring, SpringKind};

/// One rectangular sheet of the mesh: vertices `first..first + columns * rows`, row by row
/// (`columns` along `u`, then the next row along `v`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetGrid {
    pub first: u32,
    pub columns: u32,
    pub rows: u32,
}

impl SheetGrid {
    pub fn vertex_count(&self) -> u32 {
        self.columns * self.rows
    }

    pub fn vertices(&self) -> std::ops::Range<u32> {
        self.first..self.first + self.vertex_count()
    }

    fn clusters(&self, side: u32) -> u32 {
        self.columns.div_ceil(side) * self.rows.div_ceil(side)
    }
}

/// Vertices of a whole cloth at most, however many sheets (the bound a single grid had).
pub const MAX_VERTICES: u64 = 4_000_000;

/// The grid cells' shape as the cell's area over its longest side or diagonal squared
/// (1/2 for a square, 0 for a sliver). A sliver's box covers hundreds of its neighbours, so
/// every ray through it tests them all: a 7,111 × 10 sheet sheared by 45° took 4 s a step.
const MIN_CELL_QUALITY: Real = 0.01;

fn cell_quality(du: Vec3, dv: Vec3) -> Real {
    let longest = [du, dv, du + dv, du - dv]
        .iter()
        .map(|d| d.norm_squared())
        .fold(0.0, Real::max);
    du.cross(&dv).norm() / longest
}

/// What one sheet of a cloth is made from: a `columns × rows` grid spanning `u` and `v`
/// from `corner`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridSpec {
    pub columns: u32,
    pub rows: u32,
    pub corner: Point3,
    pub u: Vec3,
    pub v: Vec3,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ClothMesh {
    /// The sheets in vertex order (one for a plain grid), no vertex shared between two.
    pub sheets: Vec<SheetGrid>,
    /// Pieces made from triangle meshes, their vertices after every sheet's.
    pub pieces: Vec<MeshPart>,
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
        Self::sheets(&[GridSpec {
            columns,
            rows,
            corner,
            u,
            v,
        }])
    }

    /// Several grids in one mesh, each sheet's vertices after the previous sheet's; no spring
    /// or triangle joins two sheets. Errors name the sheet (its index in `specs`).
    pub fn sheets(specs: &[GridSpec]) -> Result<(ClothMesh, Vec<Point3>), String> {
        Self::build(specs, &[])
    }

    /// Grid sheets, then pieces made from triangle meshes (see [`mesh_piece`]), in one
    /// mesh. Errors name the sheet or the piece (its file and face line when known).
    pub fn build(
        specs: &[GridSpec],
        pieces: &[PieceInput],
    ) -> Result<(ClothMesh, Vec<Point3>), String> {
        if specs.is_empty() && pieces.is_empty() {
            return Err("a cloth needs at least one sheet or mesh piece".into());
        }
        let mut total: u64 = 0;
        for (k, spec) in specs.iter().enumerate() {
            let GridSpec { columns, rows, .. } = *spec;
            let which = if specs.len() == 1 {
                String::new()
            } else {
                format!("sheet {k}: ")
            };
            if columns < 2 || rows < 2 {
                return Err(format!(
                    "{which}a cloth needs at least 2 × 2 vertices, got {columns} × {rows}"
                ));
            }
            // A sheet without area has coincident or collinear vertices: zero-length springs
            // and every triangle degenerate, on which the self rays meet everything at once.
            let GridSpec { u, v, .. } = *spec;
            let area = u.cross(&v).norm();
            if !area.is_finite() || area <= 1e-9 * u.norm() * v.norm() {
                return Err(format!(
                    "{which}the sheet's u and v span no area (a zero vector or parallel ones)"
                ));
            }
            let quality = cell_quality(u / (columns - 1) as Real, v / (rows - 1) as Real);
            if quality < MIN_CELL_QUALITY {
                return Err(format!(
                    "{which}the sheet's cells are slivers (area over squared longest side \
                     {quality:.1e}, at least {MIN_CELL_QUALITY} needed): use fewer columns or \
                     rows along the short side, or directions further from parallel"
                ));
            }
            total += columns as u64 * rows as u64;
            if total > MAX_VERTICES {
                return Err(format!(
                    "{which}a cloth of {columns} × {rows} vertices is too large (at most \
                     {MAX_VERTICES} vertices in all its sheets)"
                ));
            }
        }
        for piece in pieces {
            total += piece.positions.len() as u64;
            if total > MAX_VERTICES {
                return Err(format!(
                    "{}: {} vertices bring the cloth past the {MAX_VERTICES} vertices it may \
                     have",
                    piece.name,
                    piece.positions.len()
                ));
            }
            mesh_piece::check(piece)?;
        }
        let mut mesh = ClothMesh {
            pieces: Vec::with_capacity(pieces.len()),
            sheets: Vec::with_capacity(specs.len()),
            triangles: Vec::new(),
            springs: Vec::new(),
            adjacency: TriangleAdjacency::default(),
            incident: Vec::new(),
        };
        let mut positions = Vec::with_capacity(total as usize);
        for spec in specs {
            mesh.add_sheet(spec, &mut positions);
        }
        for piece in pieces {
            let first = positions.len() as u32;
            let springs = mesh_piece::springs(piece, first);
            mesh.pieces.push(mesh_piece::part(piece, first, &springs));
            mesh.springs.extend(springs);
            mesh.triangles
                .extend(piece.triangles.iter().map(|t| t.map(|v| v + first)));
            positions.extend_from_slice(&piece.positions);
        }
        mesh.incident = vec![Vec::new(); positions.len()];
        for (t, tri) in mesh.triangles.iter().enumerate() {
            for &v in tri {
                mesh.incident[v as usize].push(t as u32);
            }
        }
        mesh.adjacency = TriangleAdjacency::build(&mesh.triangles);
        Ok((mesh, positions))
    }

    /// Appends one sheet's vertices, triangles and springs (sizes checked by the caller).
    fn add_sheet(&mut self, spec: &GridSpec, positions: &mut Vec<Point3>) {
        let GridSpec {
            columns,
            rows,
            corner,
            u,
            v,
        } = *spec;
        let first = positions.len() as u32;
        self.sheets.push(SheetGrid {
            first,
            columns,
            rows,
        });
        let index = |i: u32, j: u32| first + j * columns + i;
        for j in 0..rows {
            for i in 0..columns {
                let fu = i as Real / (columns - 1) as Real;
                let fv = j as Real / (rows - 1) as Real;
                positions.push(corner + u * fu + v * fv);
            }
        }
        for j in 0..rows - 1 {
            for i in 0..columns - 1 {
                let (a, b, c, d) = (
                    index(i, j),
                    index(i + 1, j),
                    index(i + 1, j + 1),
                    index(i, j + 1),
                );
                self.triangles.push([a, b, c]);
                self.triangles.push([a, c, d]);
            }
        }
        let springs = &mut self.springs;
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
    }

    pub fn vertex_count(&self) -> usize {
        let pieces: usize = self.pieces.iter().map(|p| p.count as usize).sum();
        self.sheets
            .iter()
            .map(|s| s.vertex_count() as usize)
            .sum::<usize>()
            + pieces
    }

    /// Sheets and mesh pieces: the parts a palette tints apart.
    pub fn part_count(&self) -> usize {
        self.sheets.len() + self.pieces.len()
    }

    /// What the viewer calls part `k` (as numbered by [`sheet_of`](Self::sheet_of)): "sheet
    /// k", or "piece NAME" for a mesh piece.
    pub fn part_name(&self, k: usize) -> String {
        match k.checked_sub(self.sheets.len()) {
            Some(p) => match self.pieces.get(p) {
                Some(piece) => format!("piece {}", piece.name),
                None => format!("part {k}"),
            },
            None => format!("sheet {k}"),
        }
    }

    /// The vertices of part `k` (a sheet or, past them, a mesh piece).
    pub fn part_vertices(&self, k: usize) -> std::ops::Range<u32> {
        match k.checked_sub(self.sheets.len()) {
            Some(p) => self.pieces.get(p).map_or(0..0, MeshPart::vertices),
            None => self.sheets[k].vertices(),
        }
    }

    /// The part a vertex belongs to: its index in `sheets`, or past them the mesh piece's
    /// index plus the number of sheets; `None` past the last one.
    pub fn sheet_of(&self, vertex: u32) -> Option<usize> {
        // Few sheets: a scan is as fast as a search, and the first sheet is the usual answer.
        self.sheets
            .iter()
            .position(|s| s.vertices().contains(&vertex))
            .or_else(|| {
                let k = self
                    .pieces
                    .iter()
                    .position(|p| p.vertices().contains(&vertex))?;
                Some(self.sheets.len() + k)
            })
    }

    /// Where the solver splits the vertices in two halves: the row boundary nearest below
    /// the middle vertex (for one sheet, the first `rows / 2` rows), so that few springs
    /// cross it. In a mesh piece, which has no rows, the middle vertex itself.
    pub fn half_split(&self) -> usize {
        let middle = (self.vertex_count() / 2) as u32;
        match self.sheet_of(middle) {
            Some(k) if k >= self.sheets.len() => middle as usize,
            Some(k) => {
                let s = &self.sheets[k];
                (s.first + (middle - s.first) / s.columns * s.columns) as usize
            }
            None => 0,
        }
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
        let mut faces = vec![Vec3::zeros(); self.triangles.len()];
        fill_halves(&mut faces, |first, part| {
            for (k, face) in part.iter_mut().enumerate() {
                let [a, b, c] = self.triangles[first + k].map(|i| positions[i as usize]);
                *face = scaled_normal(a, b, c);
            }
        });
        // Each vertex sums its triangles in index order (`incident` is built in that order),
        // as a scatter over the triangles would, but the halves need no shared writes.
        let mut normals = vec![Vec3::z(); positions.len()];
        fill_halves(&mut normals, |first, part| {
            for (k, normal) in part.iter_mut().enumerate() {
                let around = self.incident.get(first + k).map_or(&[][..], |t| &t[..]);
                let sum = around
                    .iter()
                    .fold(Vec3::zeros(), |sum, &t| sum + faces[t as usize]);
                *normal = sum.try_normalize(1e-300).unwrap_or_else(Vec3::z);
            }
        });
        normals
    }

    /// The cluster of a vertex: square blocks of `side` vertices of its own sheet (§3.5.2),
    /// numbered sheet after sheet, then the cells of each mesh piece
    /// ([`MeshPart::clusters`], cut anew at each call: use `cluster_map` for many vertices);
    /// a vertex past the last part gets the last cluster.
    pub fn cluster_of(&self, vertex: u32, side: u32) -> u32 {
        let side = side.max(1);
        let mut before = 0;
        for s in &self.sheets {
            if s.vertices().contains(&vertex) {
                let local = vertex - s.first;
                let per_row = s.columns.div_ceil(side);
                return before + (local / s.columns / side) * per_row + (local % s.columns) / side;
            }
            before += s.clusters(side);
        }
        for p in &self.pieces {
            let (map, count) = p.clusters(side);
            if p.vertices().contains(&vertex) {
                return before + map[(vertex - p.first) as usize];
            }
            before += count;
        }
        before.saturating_sub(1)
    }

    /// [`cluster_of`](Self::cluster_of) for every vertex at once, row by row (the
    /// detection reads it per vertex every step; three divisions each added up).
    pub fn cluster_map(&self, side: u32) -> Vec<u32> {
        let side = side.max(1);
        let last = (self.cluster_count(side) as u32).saturating_sub(1);
        let mut map = vec![last; self.vertex_count()];
        let mut before = 0;
        for s in &self.sheets {
            let per_row = s.columns.div_ceil(side);
            let first = (s.first as usize).min(map.len());
            let sheet = &mut map[first..];
            for (row, cells) in sheet.chunks_mut(s.columns.max(1) as usize).enumerate() {
                if row as u32 >= s.rows {
                    break;
                }
                let start = before + (row as u32 / side) * per_row;
                for (column, cluster) in cells.iter_mut().enumerate() {
                    *cluster = start + column as u32 / side;
                }
            }
            before += s.clusters(side);
        }
        for p in &self.pieces {
            let (local, count) = p.clusters(side);
            let first = p.first as usize;
            for (cluster, c) in map.iter_mut().skip(first).zip(local) {
                *cluster = before + c;
            }
            before += count;
        }
        map
    }

    pub fn cluster_count(&self, side: u32) -> usize {
        let side = side.max(1);
        let pieces: usize = self
            .pieces
            .iter()
            .map(|p| p.clusters(side).1 as usize)
            .sum();
        self.sheets
            .iter()
            .map(|s| s.clusters(side) as usize)
            .sum::<usize>()
            + pieces
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

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(columns: u32, rows: u32, y: Real) -> GridSpec {
        GridSpec {
            columns,
            rows,
            corner: Point3::new(0.0, y, 0.0),
            u: Vec3::new(1.0, 0.0, 0.0),
            v: Vec3::new(0.0, 0.0, 1.0),
        }
    }

    /// A sheet with a zero or a repeated direction has no area (the fuzzer's slow query: a
    /// 999 × 9 grid with u = 0, all of whose self rays met every triangle).
    #[test]
    fn a_sheet_without_area_is_refused() {
        let x = Vec3::new(1.0, 0.0, 0.0);
        for (u, v) in [(Vec3::zeros(), x), (x, Vec3::zeros()), (x, -2.0 * x)] {
            let err = ClothMesh::grid(4, 4, Point3::origin(), u, v).unwrap_err();
            assert!(err.contains("span no area"), "{err}");
        }
        // A tiny sheet is not a flat one.
        let tiny = ClothMesh::grid(4, 4, Point3::origin(), 1e-6 * x, Vec3::new(0.0, 0.0, 1e-6));
        assert!(tiny.is_ok());
    }

    /// Cells far from square are refused (the fuzzer's 4 s step: 7,111 × 10 vertices on a
    /// unit sheet sheared by 45°); the built-in sheets' shapes pass.
    #[test]
    fn sliver_cells_are_refused() {
        let (x, z) = (Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 1.0));
        for (columns, rows, u, v) in [(7111, 10, x, x + z), (77777, 2, x, z), (200, 2, x, z)] {
            let err = ClothMesh::grid(columns, rows, Point3::origin(), u, v).unwrap_err();
            assert!(err.contains("slivers"), "{columns} × {rows}: {err}");
        }
        for (columns, rows, u, v) in [(20, 20, x, z), (40, 10, x, z), (30, 30, x, x + z)] {
            assert!(ClothMesh::grid(columns, rows, Point3::origin(), u, v).is_ok());
        }
        assert!((cell_quality(x, z) - 0.5).abs() < 1e-12);
    }

    /// One sheet through `sheets` is the plain grid: the same vertices, triangles and
    /// springs in the same order (recorded runs of one-sheet scenes must not change), and
    /// the solver's split is the first `rows / 2` rows.
    #[test]
    fn one_sheet_is_the_plain_grid() {
        for (columns, rows) in [(2, 2), (5, 7), (20, 20), (3, 9)] {
            let (mesh, positions) = ClothMesh::grid(
                columns,
                rows,
                Point3::new(0.0, 1.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(0.0, 0.0, 1.0),
            )
            .unwrap();
            assert_eq!(
                mesh.sheets,
                vec![SheetGrid {
                    first: 0,
                    columns,
                    rows
                }]
            );
            assert_eq!(positions.len(), (columns * rows) as usize);
            assert_eq!(mesh.vertex_count(), positions.len());
            assert_eq!(
                mesh.triangles.len(),
                (2 * (columns - 1) * (rows - 1)) as usize
            );
            assert_eq!(mesh.half_split(), (rows / 2 * columns) as usize);
            // Clusters of side 4: the former single-grid formula.
            let per_row = columns.div_ceil(4);
            for v in 0..columns * rows {
                assert_eq!(
                    mesh.cluster_of(v, 4),
                    (v / columns / 4) * per_row + (v % columns) / 4
                );
            }
            assert_eq!(
                mesh.cluster_count(4),
                (columns.div_ceil(4) * rows.div_ceil(4)) as usize
            );
        }
    }

    /// Several sheets: each sheet's vertices follow the previous sheet's, nothing (triangle,
    /// spring, adjacency, one-ring) joins two sheets, and each sheet is the grid it would be
    /// alone, shifted.
    #[test]
    fn sheets_are_disconnected_grids_numbered_in_order() {
        let specs = [spec(4, 3, 0.0), spec(3, 5, 0.5), spec(2, 2, 1.0)];
        let (mesh, positions) = ClothMesh::sheets(&specs).unwrap();
        assert_eq!(mesh.sheets.len(), 3);
        assert_eq!(
            mesh.sheets.iter().map(|s| s.first).collect::<Vec<_>>(),
            [0, 12, 27]
        );
        assert_eq!(positions.len(), 31);
        assert_eq!(mesh.vertex_count(), 31);
        let sheet = |v: u32| mesh.sheet_of(v).unwrap();
        assert_eq!(
            (sheet(0), sheet(11), sheet(12), sheet(26), sheet(30)),
            (0, 0, 1, 1, 2)
        );
        assert_eq!(mesh.sheet_of(31), None);
        for tri in &mesh.triangles {
            assert!(tri.iter().all(|&v| sheet(v) == sheet(tri[0])), "{tri:?}");
        }
        for s in &mesh.springs {
            assert_eq!(sheet(s.a), sheet(s.b), "{s:?}");
        }
        for (t, tri) in mesh.triangles.iter().enumerate() {
            for edge in 0..3 {
                if let Some(other) = mesh.adjacency.across(t as u32, edge) {
                    assert_eq!(sheet(mesh.triangles[other as usize][0]), sheet(tri[0]));
                }
            }
        }
        for v in 0..31 {
            assert!(mesh.neighbours(v).iter().all(|&w| sheet(w) == sheet(v)));
        }
        for (k, s) in specs.iter().enumerate() {
            let (alone, alone_positions) =
                ClothMesh::grid(s.columns, s.rows, s.corner, s.u, s.v).unwrap();
            let first = mesh.sheets[k].first;
            let range = mesh.sheets[k].vertices();
            assert_eq!(
                &positions[range.start as usize..range.end as usize],
                &alone_positions[..]
            );
            let shifted: Vec<[u32; 3]> = alone
                .triangles
                .iter()
                .map(|t| t.map(|v| v + first))
                .collect();
            assert!(shifted.iter().all(|t| mesh.triangles.contains(t)));
            assert_eq!(
                alone.springs.len(),
                mesh.springs
                    .iter()
                    .filter(|sp| range.contains(&sp.a))
                    .count()
            );
        }
    }

    /// Clusters never span two sheets, every vertex has one, and they are numbered densely.
    #[test]
    fn clusters_stay_within_their_sheet() {
        let (mesh, positions) =
            ClothMesh::sheets(&[spec(9, 6, 0.0), spec(5, 5, 1.0), spec(7, 2, 2.0)]).unwrap();
        for side in [1, 2, 4, 100] {
            let count = mesh.cluster_count(side);
            let mut owner = vec![None; count];
            for v in 0..positions.len() as u32 {
                let c = mesh.cluster_of(v, side) as usize;
                assert!(c < count, "vertex {v} side {side}: cluster {c} of {count}");
                let s = mesh.sheet_of(v).unwrap();
                assert_eq!(
                    *owner[c].get_or_insert(s),
                    s,
                    "cluster {c} spans two sheets"
                );
            }
            assert!(
                owner.iter().all(Option::is_some),
                "side {side}: an empty cluster"
            );
            let map = mesh.cluster_map(side);
            let one_by_one: Vec<u32> = (0..positions.len() as u32)
                .map(|v| mesh.cluster_of(v, side))
                .collect();
            assert_eq!(map, one_by_one, "side {side}");
        }
        // The split is a row boundary of the sheet holding the middle vertex.
        let split = mesh.half_split() as u32;
        let s = &mesh.sheets[mesh.sheet_of(split).unwrap()];
        assert_eq!((split - s.first) % s.columns, 0);
        assert!(split <= mesh.vertex_count() as u32 / 2);
    }

    #[test]
    fn bad_sheets_are_refused_by_name() {
        let err = ClothMesh::sheets(&[spec(3, 3, 0.0), spec(1, 4, 1.0)]).unwrap_err();
        assert!(err.contains("sheet 1") && err.contains("1 × 4"), "{err}");
        let err = ClothMesh::sheets(&[
            spec(2000, 1000, 0.0),
            spec(2000, 1000, 1.0),
            spec(2, 2, 0.0),
        ])
        .unwrap_err();
        assert!(
            err.contains("sheet 2") && err.contains("too large"),
            "{err}"
        );
        assert!(ClothMesh::sheets(&[]).is_err());
    }
}

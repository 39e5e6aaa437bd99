//! A cloth piece made from any triangle mesh (an OBJ garment: a skirt, a tube), beside the
//! grid sheets: its checks, its springs and its clusters.
//!
//! Springs: a stretch spring on every edge, and a bend spring across every interior edge
//! between the two vertices opposite it. There is no shear spring: a grid needs diagonals
//! because its springs outline quads, which shear freely, but here every edge is a triangle's
//! and a triangle whose three sides keep their lengths keeps its shape.

use super::spring::{Spring, SpringKind};
use crate::geom::{Point3, Real};
use std::collections::HashMap;

/// What a mesh piece is made from: positions already placed (translated, scaled), triangles
/// in the piece's own numbering, and where they came from for errors.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PieceInput {
    /// What errors and the panel call the piece (the OBJ's file name).
    pub name: String,
    pub positions: Vec<Point3>,
    pub triangles: Vec<[u32; 3]>,
    /// The line of each triangle's face and of each position in the file, when known
    /// (empty otherwise: errors then name the triangle's or vertex's index).
    pub face_lines: Vec<usize>,
    pub position_lines: Vec<usize>,
}

/// A mesh piece inside a [`ClothMesh`](super::ClothMesh): vertices `first..first + count`.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshPart {
    pub first: u32,
    pub count: u32,
    pub triangles: u32,
    pub name: String,
    /// The rest positions, from which the clusters are cut (they must not follow the motion:
    /// a vertex's cluster is fixed for the whole run).
    rest: Vec<Point3>,
    mean_edge_m: Real,
}

impl MeshPart {
    pub fn vertices(&self) -> std::ops::Range<u32> {
        self.first..self.first + self.count
    }

    /// §3.5.2's clusters for a free mesh: a grid of cubic cells of [`CELL_EDGES`] × `side`
    /// mean edges over the rest positions, one cluster per occupied cell, numbered in the
    /// order of their first vertex, so that a cluster holds about `side²` vertices as a
    /// grid's block does, and its vertices lie within the cell's diagonal. Returns each
    /// vertex's cluster (local to the piece) and the count.
    pub fn clusters(&self, side: u32) -> (Vec<u32>, u32) {
        let cell = (CELL_EDGES * side.max(1) as Real * self.mean_edge_m).max(Real::MIN_POSITIVE);
        let mut number: HashMap<[i64; 3], u32> = HashMap::new();
        let map = self
            .rest
            .iter()
            .map(|p| {
                let key = [p.x, p.y, p.z].map(|c| (c / cell).floor() as i64);
                let next = number.len() as u32;
                *number.entry(key).or_insert(next)
            })
            .collect();
        (map, number.len() as u32)
    }
}

/// A cluster cell's side in mean edges, per vertex of the grid's block side. A surface cuts a
/// cube in less than a face on average (a plane at random crosses a cube of side `L` in
/// `L²/1.5`), so cells of `side` edges held 0.6 `side²` vertices on the skirt; 1.3 brings
/// that to about `side²`.
pub const CELL_EDGES: Real = 1.3;

/// Where a piece's triangle or vertex is, for errors: its line when known.
fn face(input: &PieceInput, t: usize) -> String {
    match input.face_lines.get(t) {
        Some(line) => format!("{}:{line}", input.name),
        None => format!("{}: triangle {t}", input.name),
    }
}

fn vertex(input: &PieceInput, v: usize) -> String {
    match input.position_lines.get(v) {
        Some(line) => format!("{}:{line}: vertex {}", input.name, v + 1),
        None => format!("{}: vertex {}", input.name, v + 1),
    }
}

/// A triangle's area over its longest side squared under which it counts as degenerate
/// (an equilateral triangle has 0.43): its normal is noise, and rays meet it anywhere.
const MIN_TRIANGLE_QUALITY: Real = 1e-6;

/// A triangle on an edge: the triangle, its vertex opposite the edge, and whether it runs the
/// edge from the smaller vertex to the larger.
type Side = (usize, u32, bool);

/// Edges of a piece (smaller vertex first), each with the triangles on it, in order of first
/// use.
struct Edges {
    keys: Vec<(u32, u32)>,
    sides: HashMap<(u32, u32), Vec<Side>>,
}

fn edges(triangles: &[[u32; 3]]) -> Edges {
    let mut keys = Vec::new();
    let mut sides: HashMap<(u32, u32), Vec<Side>> = HashMap::new();
    for (t, &[a, b, c]) in triangles.iter().enumerate() {
        for (p, q, opposite) in [(a, b, c), (b, c, a), (c, a, b)] {
            let key = (p.min(q), p.max(q));
            let entry = sides.entry(key).or_default();
            if entry.is_empty() {
                keys.push(key);
            }
            entry.push((t, opposite, p < q));
        }
    }
    Edges { keys, sides }
}

/// Refuses what the cloth cannot simulate: a vertex index out of range, a degenerate
/// triangle (a repeated corner or no area), the same triangle twice, an edge of more than
/// two triangles (non-manifold: the walk and the bend springs need two sides at most), two
/// neighbours wound opposite ways (the vertex normals, hence the rays, would cancel), and a
/// vertex no triangle uses (refused rather than dropped, so that pinned vertices keep the
/// file's numbering).
pub fn check(input: &PieceInput) -> Result<(), String> {
    let n = input.positions.len();
    if input.triangles.is_empty() {
        return Err(format!("{}: no triangles", input.name));
    }
    let mut used = vec![false; n];
    let mut seen: HashMap<[u32; 3], usize> = HashMap::new();
    for (t, tri) in input.triangles.iter().enumerate() {
        if let Some(&v) = tri.iter().find(|&&v| v as usize >= n) {
            return Err(format!(
                "{}: vertex {} is not among the {n} positions",
                face(input, t),
                v as u64 + 1
            ));
        }
        if tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] {
            return Err(format!(
                "{}: degenerate triangle (a vertex repeated: {:?})",
                face(input, t),
                tri.map(|v| v + 1)
            ));
        }
        let [a, b, c] = tri.map(|v| input.positions[v as usize]);
        let longest = [b - a, c - b, a - c]
            .iter()
            .map(|e| e.norm_squared())
            .fold(0.0, Real::max);
        let quality = (b - a).cross(&(c - a)).norm() / 2.0 / longest;
        if !(quality >= MIN_TRIANGLE_QUALITY) {
            return Err(format!(
                "{}: degenerate (zero-area) triangle: area over squared longest side \
                 {quality:.1e}, at least {MIN_TRIANGLE_QUALITY:.0e} needed",
                face(input, t)
            ));
        }
        let mut sorted = *tri;
        sorted.sort_unstable();
        if let Some(&first) = seen.get(&sorted) {
            return Err(format!(
                "{}: the same triangle as {}",
                face(input, t),
                face(input, first)
            ));
        }
        seen.insert(sorted, t);
        for &v in tri {
            used[v as usize] = true;
        }
    }
    if let Some(v) = used.iter().position(|u| !u) {
        return Err(format!(
            "{}: used by no triangle (a free particle in the cloth): remove it",
            vertex(input, v)
        ));
    }
    let e = edges(&input.triangles);
    for key in &e.keys {
        let sides = &e.sides[key];
        if let Some(&(third, ..)) = sides.get(2) {
            return Err(format!(
                "{}: non-manifold edge {}–{} (a third triangle on it, after {} and {})",
                face(input, third),
                key.0 + 1,
                key.1 + 1,
                face(input, sides[0].0),
                face(input, sides[1].0)
            ));
        }
        if let [(t0, _, way0), (t1, _, way1)] = sides[..]
            && way0 == way1
        {
            return Err(format!(
                "{}: wound the other way from its neighbour {} across edge {}–{}: flip one",
                face(input, t1),
                face(input, t0),
                key.0 + 1,
                key.1 + 1
            ));
        }
    }
    Ok(())
}

/// The piece's springs, its vertices numbered from `first`: a stretch spring per edge in
/// order of first use, then a bend spring per interior edge in the same order. Rest lengths
/// are the input's.
pub fn springs(input: &PieceInput, first: u32) -> Vec<Spring> {
    let e = edges(&input.triangles);
    let spring = |a: u32, b: u32, kind: SpringKind| Spring {
        a: a + first,
        b: b + first,
        rest_m: (input.positions[a as usize] - input.positions[b as usize]).norm(),
        kind,
    };
    let mut out: Vec<Spring> = e
        .keys
        .iter()
        .map(|&(a, b)| spring(a, b, SpringKind::Stretch))
        .collect();
    out.extend(e.keys.iter().filter_map(|key| match e.sides[key][..] {
        [(_, p, _), (_, q, _)] => Some(spring(p, q, SpringKind::Bend)),
        _ => None,
    }));
    out
}

/// The part a checked piece becomes, its vertices from `first`.
pub fn part(input: &PieceInput, first: u32, springs: &[Spring]) -> MeshPart {
    let stretch: Vec<Real> = springs
        .iter()
        .filter(|s| s.kind == SpringKind::Stretch)
        .map(|s| s.rest_m)
        .collect();
    MeshPart {
        first,
        count: input.positions.len() as u32,
        triangles: input.triangles.len() as u32,
        name: input.name.clone(),
        rest: input.positions.clone(),
        mean_edge_m: stretch.iter().sum::<Real>() / stretch.len().max(1) as Real,
    }
}

#[cfg(test)]
mod tests {
    use super::super::ClothMesh;
    use super::super::mesh::GridSpec;
    use super::*;
    use crate::geom::Vec3;

    /// A grid sheet and a mesh piece in one cloth: the piece's vertices and triangles follow
    /// the sheet's, each part is named and numbered, the split stays a row boundary of the
    /// sheet when the middle vertex is there, and clusters never span the two.
    #[test]
    fn a_sheet_and_a_piece_make_one_cloth_of_two_parts() {
        let sheet = GridSpec {
            columns: 5,
            rows: 4,
            corner: Point3::origin(),
            u: Vec3::new(1.0, 0.0, 0.0),
            v: Vec3::new(0.0, 0.0, 1.0),
        };
        let piece = PieceInput {
            name: "tri.obj".into(),
            positions: vec![
                Point3::new(0.0, 1.0, 0.0),
                Point3::new(1.0, 1.0, 0.0),
                Point3::new(0.0, 1.0, 1.0),
            ],
            triangles: vec![[0, 1, 2]],
            face_lines: vec![4],
            position_lines: vec![1, 2, 3],
        };
        let (mesh, positions) = ClothMesh::build(&[sheet], &[piece]).unwrap();
        assert_eq!(
            (positions.len(), mesh.vertex_count(), mesh.part_count()),
            (23, 23, 2)
        );
        assert_eq!(mesh.triangles.last(), Some(&[20, 21, 22]));
        assert_eq!(mesh.pieces[0].vertices(), 20..23);
        assert_eq!(
            (mesh.sheet_of(19), mesh.sheet_of(20), mesh.sheet_of(23)),
            (Some(0), Some(1), None)
        );
        assert_eq!(mesh.part_name(0), "sheet 0");
        assert_eq!(mesh.part_name(1), "piece tri.obj");
        assert_eq!(mesh.part_vertices(1), 20..23);
        // The middle vertex (11) is in the sheet: its row boundary, 10.
        assert_eq!(mesh.half_split(), 10);
        let map = mesh.cluster_map(2);
        let sheet_clusters: Vec<u32> = map[..20].to_vec();
        assert!(map[20..].iter().all(|c| !sheet_clusters.contains(c)));
        assert_eq!(mesh.cluster_count(2), 3 * 2 + 1);
        // The piece's springs: its three edges, no bend (no interior edge).
        let piece_springs: Vec<_> = mesh.springs.iter().filter(|s| s.a >= 20).collect();
        assert_eq!(piece_springs.len(), 3);
        // Errors name the file and the face line.
        let bad = PieceInput {
            triangles: vec![[0, 1, 1]],
            ..PieceInput {
                name: "tri.obj".into(),
                positions: positions[20..].to_vec(),
                face_lines: vec![4],
                ..Default::default()
            }
        };
        let err = ClothMesh::build(&[sheet], &[bad]).unwrap_err();
        assert!(err.starts_with("tri.obj:4: degenerate"), "{err}");
    }
}

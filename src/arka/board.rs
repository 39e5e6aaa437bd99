//! The board (thesis §2.3.6): a 10×10×10 array of cells, each empty or a cube, and the derived
//! list of exposed facets. A facet between two cubes is never created: it can be neither seen
//! nor hit. The list is rebuilt from scratch whenever a cube changes (`RefreshStage`).

use crate::geom::{Point3, Real, Vec3};

/// Cells per side; the board is `SIDE³` cells of edge 1 (cube `(i, j, k)` fills
/// `[i, i+1] × [j, j+1] × [k, k+1]`).
pub const SIDE: usize = 10;
pub const CELLS: usize = SIDE * SIDE * SIDE;

/// A cell's state, as one byte in scenes and frames.
pub const EMPTY: u8 = 0;
/// 1 to 3: a cube with that many hits left.
pub const MAX_HITS: u8 = 3;
/// Destroys its neighbours, recursively, when it is destroyed.
pub const EXPLOSIVE: u8 = 254;
/// Never destroyed: the cube of the thesis' worst bug (recursive corner bounces).
pub const INDESTRUCTIBLE: u8 = 255;

/// The six faces of a cube, in the order of [`FACE_NORMALS`]: +x, −x, +y, −y, +z, −z.
pub const FACE_NORMALS: [[i8; 3]; 6] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
];

/// Whether `state` is a valid cell byte.
pub fn is_valid_state(state: u8) -> bool {
    state <= MAX_HITS || state == EXPLOSIVE || state == INDESTRUCTIBLE
}

pub fn cell_index(i: usize, j: usize, k: usize) -> usize {
    (k * SIDE + j) * SIDE + i
}

pub fn cell_coords(cell: usize) -> [usize; 3] {
    [cell % SIDE, (cell / SIDE) % SIDE, cell / (SIDE * SIDE)]
}

/// The cell holding `p`, possibly outside the board (negative or ≥ `SIDE`).
pub fn cell_of(p: &Point3) -> [i64; 3] {
    [p.x.floor() as i64, p.y.floor() as i64, p.z.floor() as i64]
}

/// One exposed face of a cube: a unit square in an axis-aligned plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Facet {
    pub cell: u16,
    /// Index into [`FACE_NORMALS`].
    pub face: u8,
}

impl Facet {
    pub fn axis(&self) -> usize {
        self.face as usize / 2
    }

    pub fn normal(&self) -> Vec3 {
        let n = FACE_NORMALS[self.face as usize];
        Vec3::new(n[0] as Real, n[1] as Real, n[2] as Real)
    }

    /// The facet's centre.
    pub fn center(&self) -> Point3 {
        let [i, j, k] = cell_coords(self.cell as usize);
        let c = Point3::new(i as Real + 0.5, j as Real + 0.5, k as Real + 0.5);
        c + self.normal() * 0.5
    }

    /// The plane's offset along the facet's axis (`x`, `y` or `z` = this value).
    pub fn plane_offset(&self) -> Real {
        self.center()[self.axis()]
    }

    /// The two in-plane axes.
    pub fn in_plane_axes(&self) -> [usize; 2] {
        match self.axis() {
            0 => [1, 2],
            1 => [0, 2],
            _ => [0, 1],
        }
    }

    /// The closest point of the (closed) square to `p`.
    pub fn closest_point(&self, p: &Point3) -> Point3 {
        let c = self.center();
        let mut q = c;
        for a in self.in_plane_axes() {
            q[a] = p[a].clamp(c[a] - 0.5, c[a] + 0.5);
        }
        q
    }

    /// The distance from `p` to the square (the sort key of step 2).
    pub fn distance(&self, p: &Point3) -> Real {
        (self.closest_point(p) - p).norm()
    }
}

/// The cubes and their exposed facets.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub cells: Vec<u8>,
    pub facets: Vec<Facet>,
    /// For each cell, the range of its facets in `facets` (they are stored cell by cell).
    pub facet_ranges: Vec<(u16, u16)>,
}

impl Board {
    /// A board from `SIDE³` cell bytes (validated by the caller).
    pub fn new(cells: Vec<u8>) -> Self {
        let mut b = Board {
            cells,
            facets: Vec::new(),
            facet_ranges: Vec::new(),
        };
        b.rebuild_facets();
        b
    }

    pub fn is_solid(&self, i: i64, j: i64, k: i64) -> bool {
        let inside = |c: i64| (0..SIDE as i64).contains(&c);
        inside(i)
            && inside(j)
            && inside(k)
            && self.cells[cell_index(i as usize, j as usize, k as usize)] != EMPTY
    }

    /// The solid cell holding `p`, if any.
    pub fn solid_cell_at(&self, p: &Point3) -> Option<usize> {
        let [i, j, k] = cell_of(p);
        self.is_solid(i, j, k)
            .then(|| cell_index(i as usize, j as usize, k as usize))
    }

    /// Whether the face `face` of the cube in `cell` is exposed (its neighbour is empty or
    /// outside the board).
    pub fn is_exposed(&self, cell: usize, face: usize) -> bool {
        let [i, j, k] = cell_coords(cell);
        let n = FACE_NORMALS[face];
        !self.is_solid(
            i as i64 + n[0] as i64,
            j as i64 + n[1] as i64,
            k as i64 + n[2] as i64,
        )
    }

    /// `RefreshStage`: the facet list from scratch.
    pub fn rebuild_facets(&mut self) {
        self.facets.clear();
        self.facet_ranges.clear();
        for cell in 0..self.cells.len() {
            let start = self.facets.len() as u16;
            if self.cells[cell] != EMPTY {
                for face in 0..6 {
                    if self.is_exposed(cell, face) {
                        self.facets.push(Facet {
                            cell: cell as u16,
                            face: face as u8,
                        });
                    }
                }
            }
            self.facet_ranges.push((start, self.facets.len() as u16));
        }
    }

    pub fn cube_count(&self) -> usize {
        self.cells.iter().filter(|&&c| c != EMPTY).count()
    }

    /// The facets of the cubes in the 3×3×3 block of cells around `center` (step 1).
    pub fn neighbourhood_facets(&self, center: [i64; 3], out: &mut Vec<Facet>) {
        let range = |c: i64| (c - 1).max(0)..=(c + 1).min(SIDE as i64 - 1);
        for k in range(center[2]) {
            for j in range(center[1]) {
                for i in range(center[0]) {
                    let (a, b) = self.facet_ranges[cell_index(i as usize, j as usize, k as usize)];
                    out.extend_from_slice(&self.facets[a as usize..b as usize]);
                }
            }
        }
    }

    /// One hit on the cube in `cell`: the cells whose state changed (an explosive cube takes
    /// its neighbours with it, recursively). Facets are rebuilt when anything changed.
    pub fn hit(&mut self, cell: usize) -> Vec<usize> {
        let mut changed = Vec::new();
        match self.cells[cell] {
            EMPTY | INDESTRUCTIBLE => {}
            EXPLOSIVE => self.explode(cell, &mut changed),
            n => {
                self.cells[cell] = n - 1;
                changed.push(cell);
            }
        }
        if !changed.is_empty() {
            self.rebuild_facets();
        }
        changed
    }

    fn explode(&mut self, cell: usize, changed: &mut Vec<usize>) {
        let mut stack = vec![cell];
        while let Some(c) = stack.pop() {
            if self.cells[c] == EMPTY || self.cells[c] == INDESTRUCTIBLE {
                continue;
            }
            let was_explosive = self.cells[c] == EXPLOSIVE;
            self.cells[c] = EMPTY;
            changed.push(c);
            if was_explosive {
                let [i, j, k] = cell_coords(c);
                for n in FACE_NORMALS {
                    let (a, b, d) = (
                        i as i64 + n[0] as i64,
                        j as i64 + n[1] as i64,
                        k as i64 + n[2] as i64,
                    );
                    if self.is_solid(a, b, d) {
                        stack.push(cell_index(a as usize, b as usize, d as usize));
                    }
                }
            }
        }
    }
}

//! Error recovery (thesis §2.4.5, §2.7): an intemporal displacement moves a ball without
//! advancing time, out of a cube its centre entered, or off a facet it hit twice in one
//! instant. No detection runs during the move; the walls and the next step catch the rest.

use super::board::{Board, FACE_NORMALS, Facet, cell_coords};
use crate::geom::{Point3, Real, Vec3};

/// How far past the radius a displaced ball is put, so that the next pass starts clear.
pub const CLEARANCE: Real = 1e-6;

/// Off the facet: the centre is put `r` (plus the clearance) in front of the facet's plane and
/// the velocity made to leave it. The returned pair is the new position and velocity.
pub fn off_facet(facet: &Facet, p: &Point3, v: &Vec3, r: Real) -> (Point3, Vec3) {
    let axis = facet.axis();
    let n = facet.normal();
    let mut to = *p;
    to[axis] = facet.plane_offset() + n[axis] * (r + CLEARANCE);
    let mut v = *v;
    if v.dot(&n) < 0.0 {
        v[axis] = -v[axis];
    }
    (to, v)
}

/// Out of the cube of `cell`: through its nearest face whose neighbour is not solid (the
/// nearest face at all when every neighbour is), `r` past the face, bouncing the velocity
/// if it pointed into the cube.
pub fn out_of_cube(board: &Board, cell: usize, p: &Point3, v: &Vec3, r: Real) -> (Point3, Vec3) {
    let [i, j, k] = cell_coords(cell);
    let min = [i as Real, j as Real, k as Real];
    let mut best: Option<(bool, Real, usize)> = None;
    for (face, n) in FACE_NORMALS.iter().enumerate() {
        let axis = face / 2;
        let plane = if n[axis] > 0 {
            min[axis] + 1.0
        } else {
            min[axis]
        };
        let depth = (plane - p[axis]).abs();
        let open = board.is_exposed(cell, face);
        // Open faces first, then the shallowest.
        let better = match best {
            None => true,
            Some((bo, bd, _)) => (open && !bo) || (open == bo && depth < bd),
        };
        if better {
            best = Some((open, depth, face));
        }
    }
    let face = best.map_or(4, |b| b.2);
    off_facet(
        &Facet {
            cell: cell as u16,
            face: face as u8,
        },
        p,
        v,
        r,
    )
}

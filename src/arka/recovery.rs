//! Error recovery (thesis §2.4.5, §2.7): an intemporal displacement moves a ball without
//! advancing time, out of a cube its centre entered, or off a facet it hit twice in one
//! instant. No detection runs during the move; the walls and the next step catch the rest.

use super::board::{Board, FACE_NORMALS, Facet, SIDE, cell_coords};
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

/// Whether the cell next to `cell` across `face` is empty and inside the box (x and y in
/// the board, z from 0 to `height`): a face on a wall opens onto nothing a ball may enter.
fn opens_into_box(board: &Board, cell: usize, face: usize, height: Real) -> bool {
    let [i, j, k] = cell_coords(cell);
    let n = FACE_NORMALS[face];
    let next = [
        i as i64 + n[0] as i64,
        j as i64 + n[1] as i64,
        k as i64 + n[2] as i64,
    ];
    let side = SIDE as i64;
    let in_box = (0..side).contains(&next[0])
        && (0..side).contains(&next[1])
        && next[2] >= 0
        && (next[2] as Real) < height;
    in_box && board.is_exposed(cell, face)
}

/// Out of the cube of `cell`: through its nearest face that opens onto an empty cell inside
/// the box, `r` past the face, bouncing the velocity if it pointed into the cube. A face on
/// a wall is never used: it would put the ball outside the box. A cube buried in others
/// (reached by a long step) has no such face: the ball goes to the nearest empty cell.
pub fn out_of_cube(
    board: &Board,
    cell: usize,
    p: &Point3,
    v: &Vec3,
    r: Real,
    height: Real,
) -> (Point3, Vec3) {
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
        let open = opens_into_box(board, cell, face, height);
        // Open faces first, then the shallowest.
        let better = match best {
            None => true,
            Some((bo, bd, _)) => (open && !bo) || (open == bo && depth < bd),
        };
        if better {
            best = Some((open, depth, face));
        }
    }
    let Some((true, _, face)) = best else {
        return to_nearest_empty_cell(board, p, v, r, height);
    };
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

/// The last resort: the ball put in the empty cell of the box nearest `p` (at the point of
/// the cell nearest `p`, `r` in from its sides), its velocity reversed. The box above the
/// board is empty, so a cell is always found.
fn to_nearest_empty_cell(
    board: &Board,
    p: &Point3,
    v: &Vec3,
    r: Real,
    height: Real,
) -> (Point3, Vec3) {
    let layers = (height.floor() as i64).max(SIDE as i64);
    let mut best: Option<(Real, Point3)> = None;
    for k in 0..layers {
        for j in 0..SIDE as i64 {
            for i in 0..SIDE as i64 {
                if board.is_solid(i, j, k) {
                    continue;
                }
                let lo = [i as Real, j as Real, k as Real];
                let mut q = *p;
                for a in 0..3 {
                    let hi = (lo[a] + 1.0).min(if a == 2 { height } else { SIDE as Real });
                    q[a] = p[a].clamp(lo[a] + r, (hi - r).max(lo[a] + r));
                }
                let d = (q - p).norm();
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, q));
                }
            }
        }
    }
    (best.map_or(*p, |b| b.1), -v)
}

/// The centre brought back into the box `[r, hi − r]` on each axis (after an intemporal
/// displacement, which runs no detection and may have crossed a wall); whether it moved.
pub fn contain(p: &mut Point3, r: Real, hi: [Real; 3]) -> bool {
    let before = *p;
    for (axis, top) in hi.into_iter().enumerate() {
        p[axis] = p[axis].clamp(r.min(top / 2.0), (top - r).max(top / 2.0));
    }
    *p != before
}

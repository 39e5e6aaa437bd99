//! The ball-versus-board routine (thesis §2.4.5, spec 003 §2.16.4), one pass: the facets that
//! may be hit (3×3×3 cells, orientation culling, distance sort with an early exit) and the
//! segment–plane test that classifies a hit as a face bounce or a corner bounce.
//!
//! Choices where the thesis is silent or ambiguous (`docs/arka3d.md`):
//! - the tested segment runs from the old centre to the new centre extended by `r` along the
//!   motion (the spec's "most likely" reading);
//! - "crosses the plane" is a sign change of the signed distance in either direction, so with
//!   culling off a facet seen from behind can be hit (the thesis' scenario 5 errors);
//! - the facet "extended by the radius" is square-cornered (the square grown by `r`);
//! - the sort key is the distance from the old centre to the facet square, and the cut-off is
//!   `|motion| + r + r·√2`, beyond which no point of the segment can reach the grown square.

use super::board::{Board, Facet, cell_of};
use super::event::Region;
use crate::geom::{Point3, Real, Vec3};

/// The ablation switches of scenarios 4–6, all on by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Switches {
    /// Step 1: only the 3×3×3 cells around the centre (off: every cube).
    pub space_division: bool,
    /// Step 2: keep a facet only when `dot(normal, dir) < 0`.
    pub orientation_culling: bool,
    /// Step 2: stop at the maximum distance in the sorted list.
    pub distance_early_exit: bool,
}

impl Default for Switches {
    fn default() -> Self {
        Switches {
            space_division: true,
            orientation_culling: true,
            distance_early_exit: true,
        }
    }
}

/// What one pass found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    pub facet: Facet,
    pub region: Region,
    /// Where the segment meets the facet's plane.
    pub point: Point3,
    /// The fraction of the segment (old centre → new centre + r·dir) at the plane.
    pub fraction: Real,
}

/// The counters of one pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassCounts {
    /// Facets left after steps 1 and 2's culling (before the distance cut-off).
    pub preselected: u32,
    /// Facets given the full segment–plane test.
    pub treated: u32,
}

/// The segment of step 3: from the old centre to the new centre plus `r` along the motion.
pub fn tested_segment(old: &Point3, new: &Point3, r: Real) -> Option<(Point3, Point3)> {
    let motion = new - old;
    let len = motion.norm();
    (len > 0.0).then(|| (*old, new + motion * (r / len)))
}

/// Step 3 on one facet: where the segment crosses its plane, and which region of the facet
/// (face, or the edge and vertex bands of the square grown by `r`) holds the crossing.
pub fn facet_test(facet: &Facet, a: &Point3, b: &Point3, r: Real) -> Option<Hit> {
    let axis = facet.axis();
    let offset = facet.plane_offset();
    let (da, db) = (a[axis] - offset, b[axis] - offset);
    // A crossing needs the ends on opposite sides (touching counts at the far end only, so a
    // ball resting on the plane after a bounce does not hit it again).
    if !((da > 0.0 && db <= 0.0) || (da < 0.0 && db >= 0.0)) {
        return None;
    }
    let t = da / (da - db);
    let mut p = a + (b - a) * t;
    p[axis] = offset;
    let c = facet.center();
    let mut outside = 0;
    for ax in facet.in_plane_axes() {
        let off = (p[ax] - c[ax]).abs();
        if off > 0.5 + r {
            return None;
        }
        if off > 0.5 {
            outside += 1;
        }
    }
    let region = match outside {
        0 => Region::Face,
        1 => Region::Edge,
        _ => Region::Vertex,
    };
    Some(Hit {
        facet: *facet,
        region,
        point: p,
        fraction: t,
    })
}

/// Steps 1–3 once: the first facet hit in increasing distance order, or none.
pub fn first_hit(
    board: &Board,
    old: &Point3,
    new: &Point3,
    r: Real,
    switches: Switches,
    scratch: &mut Vec<(Real, Facet)>,
    counts: &mut PassCounts,
) -> Option<Hit> {
    preselect(board, old, new, switches, scratch, counts);
    test_preselected(scratch, old, new, r, switches, counts)
}

/// Steps 1 and 2: the candidate facets with their distance to the old centre, sorted.
pub fn preselect(
    board: &Board,
    old: &Point3,
    new: &Point3,
    switches: Switches,
    scratch: &mut Vec<(Real, Facet)>,
    counts: &mut PassCounts,
) {
    scratch.clear();
    let motion = new - old;
    if motion.norm() == 0.0 {
        return;
    }
    let dir: Vec3 = motion.normalize();
    let mut candidates = Vec::new();
    if switches.space_division {
        board.neighbourhood_facets(cell_of(old), &mut candidates);
    } else {
        candidates.extend_from_slice(&board.facets);
    }
    scratch.extend(
        candidates
            .into_iter()
            .filter(|f| !switches.orientation_culling || f.normal().dot(&dir) < 0.0)
            .map(|f| (f.distance(old), f)),
    );
    counts.preselected += scratch.len() as u32;
    // Ties broken by cell and face, so the order (and the answer) never depends on the sort.
    scratch.sort_by(|x, y| {
        x.0.total_cmp(&y.0)
            .then(x.1.cell.cmp(&y.1.cell))
            .then(x.1.face.cmp(&y.1.face))
    });
}

/// Step 3 over the sorted candidates: the first hit, stopping at the maximum distance.
pub fn test_preselected(
    sorted: &[(Real, Facet)],
    old: &Point3,
    new: &Point3,
    r: Real,
    switches: Switches,
    counts: &mut PassCounts,
) -> Option<Hit> {
    let (a, b) = tested_segment(old, new, r)?;
    let max_distance = max_hit_distance((new - old).norm(), r);
    for &(d, facet) in sorted {
        if switches.distance_early_exit && d > max_distance {
            break;
        }
        counts.treated += 1;
        if let Some(hit) = facet_test(&facet, &a, &b, r) {
            return Some(hit);
        }
    }
    None
}

/// No facet farther than this from the old centre can be hit: the crossing lies within
/// `len + r` of it and the grown square within `r·√2` of the square.
pub fn max_hit_distance(len: Real, r: Real) -> Real {
    len + r + r * std::f64::consts::SQRT_2
}

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

/// The ablation switches of scenarios 4–6 (all on by default), and the two causes of error
/// the thesis blames (both off by default): its frame-rate-dependent step and its
/// single-precision arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Switches {
    /// Step 1: only the 3×3×3 cells around the centre (off: every cube).
    pub space_division: bool,
    /// Step 2: keep a facet only when `dot(normal, dir) < 0`.
    pub orientation_culling: bool,
    /// Step 2: stop at the maximum distance in the sorted list.
    pub distance_early_exit: bool,
    /// The thesis' clock: a step lasts as long as the previous one took to compute, by a
    /// deterministic cost model (`super::clock`), instead of a fixed 1/60 s.
    #[serde(default)]
    pub frame_rate_step: bool,
    /// The routine and the ball states in single precision, as DirectX's `float` vectors:
    /// every operation rounded to `f32`.
    #[serde(default)]
    pub single_precision: bool,
}

impl Default for Switches {
    fn default() -> Self {
        Switches {
            space_division: true,
            orientation_culling: true,
            distance_early_exit: true,
            frame_rate_step: false,
            single_precision: false,
        }
    }
}

/// Rounds to single precision when `single` (each `+ − × ÷` done in `f64` and rounded once is
/// exactly the `f32` operation: a double has more than twice a float's bits).
#[inline]
pub fn fl(x: Real, single: bool) -> Real {
    if single { x as f32 as Real } else { x }
}

/// [`fl`] on each coordinate.
#[inline]
pub fn fl3(p: Point3, single: bool) -> Point3 {
    if single { p.map(|c| fl(c, true)) } else { p }
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
    facet_test_in(facet, a, b, r, false)
}

/// [`facet_test`], in single precision when `single`.
pub fn facet_test_in(facet: &Facet, a: &Point3, b: &Point3, r: Real, single: bool) -> Option<Hit> {
    let axis = facet.axis();
    let offset = facet.plane_offset();
    let (da, db) = (fl(a[axis] - offset, single), fl(b[axis] - offset, single));
    // A crossing needs the ends on opposite sides (touching counts at the far end only, so a
    // ball resting on the plane after a bounce does not hit it again).
    if !((da > 0.0 && db <= 0.0) || (da < 0.0 && db >= 0.0)) {
        return None;
    }
    let t = fl(da / fl(da - db, single), single);
    let mut p = a + (b - a) * t;
    if single {
        // Each coordinate as a float computes it: a + (b − a)·t, rounded at every operation.
        for ax in 0..3 {
            p[ax] = fl(a[ax] + fl(fl(b[ax] - a[ax], true) * t, true), true);
        }
    }
    p[axis] = offset;
    let c = facet.center();
    let grown = fl(0.5 + r, single);
    let mut outside = 0;
    for ax in facet.in_plane_axes() {
        let off = fl(p[ax] - c[ax], single).abs();
        if off > grown {
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
    let single = switches.single_precision;
    let dir = if single {
        dir.map(|c| fl(c, true))
    } else {
        dir
    };
    scratch.extend(
        candidates
            .into_iter()
            .filter(|f| !switches.orientation_culling || f.normal().dot(&dir) < 0.0)
            .map(|f| (fl(f.distance(old), single), f)),
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
    let single = switches.single_precision;
    let (a, b) = tested_segment(old, new, r)?;
    let (a, b) = (fl3(a, single), fl3(b, single));
    let max_distance = fl(max_hit_distance((new - old).norm(), r), single);
    for &(d, facet) in sorted {
        if switches.distance_early_exit && d > max_distance {
            break;
        }
        counts.treated += 1;
        if let Some(hit) = facet_test_in(&facet, &a, &b, r, single) {
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

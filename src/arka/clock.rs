//! The thesis' clock (spec 003 §3, §4.3): Arka3D measured the time each frame took and moved
//! the balls by it, so a slow frame made the next step long (scenario 4 ran under 3 fps, and
//! its 61 errors are blamed on the long steps). Wall-clock time would make a recording
//! irreproducible, so a cost model stands in for it: the work of the previous step, counted
//! in facets preselected (the distance computations and the sort that dominate the thesis'
//! Fig. 3.12), priced at a fixed time per facet.

use crate::geom::Real;

/// A step never shorter than a frame at 60 Hz (the thesis ran at "about 50" frames a second
/// when the collision work was small).
pub const BASE_STEP_S: Real = 1.0 / 60.0;

/// Seconds per facet preselected on the thesis' machine, calibrated on scenario 4 with a
/// fixed step: about 1,570 facets preselected a step (four balls, each facing about half of
/// the board's 600 facets, and the reruns after bounces) at 2.2e-4 s make a 0.35 s step, the
/// thesis' "under 3 fps"; scenario 3's 20 a step cost 4 ms, well inside a 1/60 s frame (the
/// thesis: "at least 45 fps").
pub const COST_PER_FACET_S: Real = 2.2e-4;

/// No step longer than this, so that a run of very long steps cannot feed on itself (the
/// thesis gives no bound; at 1 s a ball crosses the board in about one step).
pub const MAX_STEP_S: Real = 1.0;

/// The next step's length after a step that preselected `preselected` facets.
pub fn next_step(preselected: u32) -> Real {
    (COST_PER_FACET_S * preselected as Real).clamp(BASE_STEP_S, MAX_STEP_S)
}

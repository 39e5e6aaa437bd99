//! Conservative advancement: from a time where two bodies are apart, step forward by the
//! distance divided by the fastest any point of the pair can close it. The distance can only
//! shrink that fast, so every step lands on a time where the bodies are still apart; the
//! steps shrink as they approach, and stop within `target` of touching.

use crate::ccd::CcdEvent;
use crate::geom::Real;
use crate::trace::{BodyId, Probe, Verdict};

/// Steps allowed before giving up; spinning bodies whose bound is mostly rotation converge
/// slowest. Giving up reports the last time reached, where the pair is still apart.
pub const MAX_STEPS: u32 = 200;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Advance {
    /// The pair comes within `target` at `t` (a fraction of the step); `distance` is the
    /// distance there, at least half the target.
    Impact { t: Real, distance: Real, steps: u32 },
    /// No contact before the end of the step.
    Clear { steps: u32 },
    /// Already within `target` at the first time: the discrete contacts handle this pair.
    Touching { distance: Real },
    /// No distance for this pair of shapes.
    Unsupported,
    /// Still apart at `t` after [`MAX_STEPS`] steps (a grazing or spinning pair): the safe
    /// answer is to treat `t` as the impact.
    GaveUp { t: Real },
}

/// Advances the pair (`a`, `b`) from `t_from`. `bound` is the most the distance can change
/// over the whole step (the pair's relative reach); `distance(t, cap)` is the signed
/// distance at `t`, or a lower bound that is at least `cap` when they are further apart.
pub fn conservative_advancement<P: Probe>(
    pair: (BodyId, BodyId),
    t_from: Real,
    bound: Real,
    target: Real,
    distance: impl FnMut(Real, Real) -> Option<Real>,
    probe: &mut P,
) -> Advance {
    let band = Band {
        below: target,
        width: target,
    };
    advance_into(pair, t_from, bound, band, distance, probe)
}

/// Where advancement stops: at a distance at most `below` and above `below - width`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    pub below: Real,
    pub width: Real,
}

/// [`conservative_advancement`] into any band, a depth as well as a gap: a pair already
/// overlapping advances until it overlaps by more than `-band.below`.
pub fn advance_into<P: Probe>(
    (a, b): (BodyId, BodyId),
    t_from: Real,
    bound: Real,
    band: Band,
    mut distance: impl FnMut(Real, Real) -> Option<Real>,
    probe: &mut P,
) -> Advance {
    let Band { below, width } = band;
    let mut t = t_from;
    for steps in 0..MAX_STEPS {
        // Beyond what the pair can close in the rest of the step, the exact value does not
        // matter: the cap keeps the narrow phase from looking further.
        let cap = bound * (1.0 - t) + (below + width);
        let Some(d) = distance(t, cap) else {
            return Advance::Unsupported;
        };
        let verdict = if d <= below {
            Verdict::Hit
        } else {
            Verdict::Info
        };
        super::event::report(
            probe,
            verdict,
            CcdEvent::Advance {
                a,
                b,
                t,
                distance: d,
                bound,
            },
        );
        if d <= below {
            if steps == 0 {
                return Advance::Touching { distance: d };
            }
            return Advance::Impact {
                t,
                distance: d,
                steps,
            };
        }
        if bound <= 0.0 {
            return Advance::Clear { steps: steps + 1 };
        }
        // Aim for the band's middle so the last step lands inside it, not on its edge.
        let next = t + (d - (below - 0.5 * width)) / bound;
        if next >= 1.0 {
            return Advance::Clear { steps: steps + 1 };
        }
        if next <= t || next.is_nan() {
            // No progress at this precision (an overflowed bound, or a step below an ulp
            // of t): every later step would measure the same distance at the same time.
            return Advance::GaveUp { t };
        }
        t = next;
    }
    Advance::GaveUp { t }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::NoProbe;

    #[test]
    fn a_point_closing_at_the_bound_stops_once_within_target() {
        // Distance 1 - t·2: contact at t = 0.5; the target band is [0.01, 0.02].
        let r = conservative_advancement(
            (0, 1),
            0.0,
            2.0,
            0.02,
            |t, _| Some(1.0 - 2.0 * t),
            &mut NoProbe,
        );
        let Advance::Impact { t, distance, .. } = r else {
            panic!("{r:?}");
        };
        assert!((0.49..0.5).contains(&t), "{t}");
        assert!((0.01 - 1e-12..=0.02).contains(&distance), "{distance}");
    }

    #[test]
    fn an_overlapping_pair_advances_into_a_band_of_depth() {
        // 0.02 deep at t = 0, sinking 0.2 over the step: 0.06 deep at t = 0.2.
        let band = Band {
            below: -0.06,
            width: 0.01,
        };
        let sinking = |t: Real, _| Some(-0.02 - 0.2 * t);
        let r = advance_into((0, 1), 0.0, 0.2, band, sinking, &mut NoProbe);
        let Advance::Impact { t, distance, .. } = r else {
            panic!("{r:?}");
        };
        assert!((0.2..0.25).contains(&t), "{t}");
        assert!((-0.07..=-0.06).contains(&distance), "{distance}");
    }

    #[test]
    fn a_pair_that_never_closes_is_clear_and_a_touching_one_is_left_alone() {
        let clear =
            conservative_advancement((0, 1), 0.0, 1.0, 0.02, |_, _| Some(5.0), &mut NoProbe);
        assert!(matches!(clear, Advance::Clear { .. }), "{clear:?}");
        let touching =
            conservative_advancement((0, 1), 0.0, 1.0, 0.02, |_, _| Some(0.0), &mut NoProbe);
        assert!(matches!(touching, Advance::Touching { .. }), "{touching:?}");
        let none = conservative_advancement((0, 1), 0.0, 1.0, 0.02, |_, _| None, &mut NoProbe);
        assert_eq!(none, Advance::Unsupported);
    }

    #[test]
    fn a_step_that_cannot_move_time_gives_up_at_once() {
        // A bound that overflowed (a speed near f64::MAX): each step would be 0.
        let mut calls = 0;
        let r = conservative_advancement(
            (0, 1),
            0.25,
            Real::INFINITY,
            0.02,
            |_, _| {
                calls += 1;
                Some(1.0)
            },
            &mut NoProbe,
        );
        assert_eq!(r, Advance::GaveUp { t: 0.25 });
        assert_eq!(calls, 1);
    }
}

//! Continuous collision's trace events. They carry ids and the scalars that cannot be
//! derived (fractions of the step, distances, bounds); the poses they speak of are ghosts
//! rebuilt from the frames' recorded states (`ghost_pose`, `integrated_motion`).

use crate::geom::{Point3, Real};
use crate::trace::FamilyEvent;
use crate::trace::{BodyId, Verdict};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CcdEvent {
    /// One conservative-advancement step of the pair at fraction `t` of `a`'s integrated
    /// motion: their distance there and the bound on how fast it can close (m per step).
    Advance {
        a: BodyId,
        b: BodyId,
        t: Real,
        distance: Real,
        bound: Real,
    },
    /// The ray between two positions: `body`'s centre from the start of the step to its end,
    /// seen from `other`, against `other` inflated by `radius` (0: the course's point ray);
    /// `t` is where it enters.
    Ray {
        body: BodyId,
        other: BodyId,
        radius: Real,
        t: Option<Real>,
    },
    /// `body` reached `other` at fraction `t` of the step, closing at `approach_mps`; it
    /// bounced there and moved on for the rest of the step.
    Impact {
        body: BodyId,
        other: BodyId,
        t: Real,
        approach_mps: Real,
    },
    /// Supersampling: where a fast body's centre was after substep `k` of `n` (positions
    /// between two frames are not in the recording, so this one is).
    Substep {
        body: BodyId,
        k: u32,
        n: u32,
        centre: Point3,
    },
    /// `body`'s centre passed through `other` between the frames, entering at `t`, and the
    /// pair had no contact: a missed collision.
    Tunnelled {
        body: BodyId,
        other: BodyId,
        t: Real,
    },
}

impl FamilyEvent for CcdEvent {
    fn bodies(&self) -> Vec<BodyId> {
        use CcdEvent::*;
        match self {
            Advance { a, b, .. } => vec![*a, *b],
            Ray { body, other, .. }
            | Impact { body, other, .. }
            | Tunnelled { body, other, .. } => {
                vec![*body, *other]
            }
            Substep { body, .. } => vec![*body],
        }
    }

    fn summary(&self, verdict: Verdict) -> String {
        use CcdEvent::*;
        match self {
            Advance {
                a,
                b,
                t,
                distance,
                bound,
            } => format!(
                "advance {a} × {b}: t = {t:.4}, distance {distance:.4} m, bound {bound:.4} m/step: {}",
                verdict.word()
            ),
            Ray {
                body,
                other,
                radius,
                t,
            } => {
                let what = if *radius > 0.0 {
                    format!("inflated by {radius:.3} m")
                } else {
                    "point".to_string()
                };
                match t {
                    Some(t) => format!(
                        "ray between positions of {body} vs {other} ({what}): enters at t = {t:.4}"
                    ),
                    None => format!("ray between positions of {body} vs {other} ({what}): miss"),
                }
            }
            Impact {
                body,
                other,
                t,
                approach_mps,
            } => {
                format!("impact {body} on {other} at t = {t:.4}, closing at {approach_mps:.2} m/s")
            }
            Substep { body, k, n, .. } => format!("substep {k}/{n}: body {body}"),
            Tunnelled { body, other, t } => {
                format!("TUNNELLED: {body} passed through {other} at t = {t:.4} with no contact")
            }
        }
    }
}

/// Reports one event. The world runs continuous collision as part of the narrow phase (it
/// sets the probe's stage), so its events sit next to the contacts they prevent or explain.
#[inline(always)]
pub(crate) fn report<P: crate::trace::Probe>(probe: &mut P, verdict: Verdict, event: CcdEvent) {
    crate::trace_event!(probe, crate::trace::TraceEvent::new(verdict, event));
}

/// The timeline marker of a missed collision.
pub const TUNNELLED: &str = "tunnelled";

/// Reports where a fast body's centre is after substep `k` of `n`.
pub fn report_substep<P: crate::trace::Probe>(
    probe: &mut P,
    body: BodyId,
    k: u32,
    n: u32,
    centre: Point3,
) {
    report(
        probe,
        Verdict::Info,
        CcdEvent::Substep { body, k, n, centre },
    );
}

impl CcdEvent {
    /// One event of each kind with typical values, to measure their size in a recording.
    pub fn samples() -> [CcdEvent; 5] {
        [
            CcdEvent::Advance {
                a: 12,
                b: 140,
                t: 0.4,
                distance: 0.03,
                bound: 0.7,
            },
            CcdEvent::Ray {
                body: 12,
                other: 140,
                radius: 0.05,
                t: Some(0.4),
            },
            CcdEvent::Impact {
                body: 12,
                other: 140,
                t: 0.4,
                approach_mps: 40.0,
            },
            CcdEvent::Substep {
                body: 12,
                k: 2,
                n: 4,
                centre: Point3::new(1.0, 2.0, 3.0),
            },
            CcdEvent::Tunnelled {
                body: 12,
                other: 140,
                t: 0.4,
            },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::TraceEvent;

    /// Events hold ids and scalars only: a few dozen bytes each in a recording.
    #[test]
    fn every_event_is_compact_in_a_recording() {
        let events = CcdEvent::samples();
        for e in events {
            let bytes = postcard::to_allocvec(&TraceEvent::new(Verdict::Info, e.clone()))
                .unwrap()
                .len();
            assert!(bytes <= 40, "{e:?} takes {bytes} bytes");
            assert!(!e.summary(Verdict::Info).is_empty());
            assert!(!e.bodies().is_empty());
        }
    }
}

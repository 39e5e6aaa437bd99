//! GJK's and EPA's trace events: support-vertex ids and a few scalars, never hull copies (the
//! recording holds the hulls and poses; a viewer rebuilds each simplex from the ids).

use crate::trace::FamilyEvent;
use crate::trace::{BodyId, EventKind, NoProbe, Probe, TraceEvent, Verdict};
use serde::{Deserialize, Serialize};

/// A support vertex of the Minkowski difference named by the vertex ids on A and on B
/// (`u32::MAX` for a shape without vertices).
pub type IdPair = [u32; 2];

/// How a GJK or EPA run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GjkStatus {
    /// The duality gap fell below the relative tolerance: the distance is exact to it.
    Converged,
    /// The new support point was already in the simplex, or the distance stopped falling:
    /// nothing left to gain in floating point.
    NoProgress,
    /// The origin lies in the Minkowski difference (distance zero, touching or overlapping).
    Penetrating,
    /// The iteration cap stopped the run: never expected, reported rather than looped.
    IterationCap,
    /// The distance was known to lie above or below the limit the query asked about, before
    /// it converged.
    Decided,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum GjkStep {
    /// One GJK iteration: the simplex after reduction (its support vertices by id) and the
    /// distance from the origin to it, with the search direction it gives next.
    Simplex {
        iteration: u16,
        len: u8,
        ids: [IdPair; 4],
        distance: f32,
        direction: [f32; 3],
    },
    /// One EPA expansion: the polytope face nearest the origin, its distance, and the support
    /// vertex added beyond it.
    Expand {
        iteration: u16,
        face: [IdPair; 3],
        depth: f32,
        normal: [f32; 3],
        added: IdPair,
    },
    /// The end of a query.
    End {
        status: GjkStatus,
        distance: f64,
        /// Penetration depth from EPA (0 when apart).
        depth: f64,
        iterations: u32,
        epa_iterations: u32,
        warm: bool,
    },
}

/// One event of a GJK query between two bodies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GjkEvent {
    pub bodies: [BodyId; 2],
    pub step: GjkStep,
}

impl FamilyEvent for GjkEvent {
    fn bodies(&self) -> Vec<BodyId> {
        self.bodies.to_vec()
    }

    fn summary(&self, _verdict: Verdict) -> String {
        let id = |p: &IdPair| {
            let one = |i: u32| {
                if i == u32::MAX {
                    "·".to_string()
                } else {
                    i.to_string()
                }
            };
            format!("{}−{}", one(p[0]), one(p[1]))
        };
        match &self.step {
            GjkStep::Simplex {
                iteration,
                len,
                ids,
                distance,
                ..
            } => {
                let verts: Vec<String> = ids[..*len as usize].iter().map(id).collect();
                format!(
                    "GJK {iteration}: simplex [{}], distance {distance:.6}",
                    verts.join(", ")
                )
            }
            GjkStep::Expand {
                iteration,
                face,
                depth,
                added,
                ..
            } => format!(
                "EPA {iteration}: face [{}, {}, {}] at depth {depth:.6}, adds {}",
                id(&face[0]),
                id(&face[1]),
                id(&face[2]),
                id(added)
            ),
            GjkStep::End {
                status,
                distance,
                depth,
                iterations,
                epa_iterations,
                warm,
            } => {
                let warm = if *warm { ", warm start" } else { "" };
                if *status == GjkStatus::Penetrating {
                    format!(
                        "GJK: penetrating, depth {depth:.6} after {iterations} + {epa_iterations} EPA step(s){warm}"
                    )
                } else {
                    format!(
                        "GJK: {status:?}, distance {distance:.6} after {iterations} step(s){warm}"
                    )
                }
            }
        }
    }
}

/// Where GJK reports: a probe that takes `GjkEvent`s. `NoProbe` drops them at no cost; the
/// convex family wraps a trace probe with [`GjkTrace`] to put them in its own event enum.
pub trait GjkProbe {
    fn enabled(&self) -> bool;
    fn record(&mut self, verdict: Verdict, make: impl FnOnce() -> GjkEvent);
}

impl GjkProbe for NoProbe {
    #[inline(always)]
    fn enabled(&self) -> bool {
        false
    }

    #[inline(always)]
    fn record(&mut self, _verdict: Verdict, _make: impl FnOnce() -> GjkEvent) {}
}

/// Keeps every event, for tests and for callers that want the steps without a recording.
impl GjkProbe for Vec<GjkEvent> {
    fn enabled(&self) -> bool {
        true
    }

    fn record(&mut self, _verdict: Verdict, make: impl FnOnce() -> GjkEvent) {
        self.push(make());
    }
}

/// A trace probe seen as a GJK probe: `wrap` turns a `GjkEvent` into the family's event kind.
pub struct GjkTrace<'p, P: Probe + ?Sized> {
    pub probe: &'p mut P,
    pub wrap: fn(GjkEvent) -> EventKind,
}

impl<P: Probe + ?Sized> GjkProbe for GjkTrace<'_, P> {
    #[inline]
    fn enabled(&self) -> bool {
        self.probe.enabled()
    }

    #[inline]
    fn record(&mut self, verdict: Verdict, make: impl FnOnce() -> GjkEvent) {
        let wrap = self.wrap;
        crate::trace_event!(self.probe, TraceEvent::new(verdict, wrap(make())));
    }
}

/// Reports a step of the query between `bodies`.
#[inline(always)]
pub(super) fn report<G: GjkProbe + ?Sized>(
    probe: &mut G,
    bodies: [BodyId; 2],
    verdict: Verdict,
    step: impl FnOnce() -> GjkStep,
) {
    probe.record(verdict, || GjkEvent {
        bodies,
        step: step(),
    });
}

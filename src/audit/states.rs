//! Bodies whose state is not a number, or whose speed grows with no cause that we can see:
//! each reported once, at the first step it happens. A contact reported in the step or the
//! one before is a cause (a hit speeds a body up), and so is being driven (kinematic): only
//! a free body that speeds up beyond gravity is exploding.

use super::finding::{Check, Finding};
use crate::frame::BodyState;
use crate::geom::Vec3;

fn finite(s: &BodyState) -> bool {
    s.position.iter().all(|v| v.is_finite())
        && s.rotation.coords.iter().all(|v| v.is_finite())
        && s.linear_velocity.iter().all(|v| v.is_finite())
        && s.angular_velocity.iter().all(|v| v.is_finite())
}

/// What the state checks need from the step.
pub struct StateStep<'a> {
    pub frame: u64,
    pub engine_frame: u64,
    pub dt_s: f64,
    pub gravity: Vec3,
    pub previous: Option<&'a [BodyState]>,
    pub bodies: &'a [BodyState],
    /// Bodies with a cause to speed up: a contact this step or the one before, or driven.
    pub pushed: &'a std::collections::HashSet<u32>,
}

/// Remembers the bodies already reported, so each is reported once per check.
#[derive(Default)]
pub struct StateChecks {
    reported_non_finite: Vec<bool>,
    reported_exploding: Vec<bool>,
}

impl StateChecks {
    /// Whether body `id` has had a non-finite state (it is then left out of the other checks).
    pub fn broken(&self, id: u32) -> bool {
        self.reported_non_finite
            .get(id as usize)
            .copied()
            .unwrap_or(false)
    }

    pub fn check(
        &mut self,
        step: &StateStep,
        gain_tolerance: f64,
        name: &dyn Fn(u32) -> String,
        out: &mut Vec<Finding>,
    ) {
        let n = step.bodies.len();
        self.reported_non_finite
            .resize(n.max(self.reported_non_finite.len()), false);
        self.reported_exploding
            .resize(n.max(self.reported_exploding.len()), false);
        for s in step.bodies {
            let i = s.id as usize;
            if i >= self.reported_non_finite.len() {
                continue;
            }
            if !finite(s) {
                if !self.reported_non_finite[i] {
                    self.reported_non_finite[i] = true;
                    out.push(non_finite(step, s, name));
                }
                continue;
            }
            let before = step
                .previous
                .and_then(|p| p.iter().find(|b| b.id == s.id))
                .filter(|b| finite(b));
            let Some(before) = before.filter(|_| !step.pushed.contains(&s.id)) else {
                continue;
            };
            let (v0, v1) = (before.linear_velocity.norm(), s.linear_velocity.norm());
            let allowed = step.gravity.norm() * step.dt_s + gain_tolerance;
            if v1 - v0 > allowed && !self.reported_exploding[i] {
                self.reported_exploding[i] = true;
                out.push(Finding {
                    check: Check::Exploding,
                    frame: step.frame,
                    engine_frame: step.engine_frame,
                    bodies: vec![s.id],
                    engine_ids: vec![name(s.id)],
                    ours: Some(v0 + step.gravity.norm() * step.dt_s),
                    theirs: Some(v1),
                    tolerance: gain_tolerance,
                    our_contact: None,
                    their_contact: None,
                    sentence: format!(
                        "{}'s speed went from {v0:.3} to {v1:.3} m/s in one step: more than \
                         gravity's {:.3} m/s and the {gain_tolerance} m/s allowed",
                        name(s.id),
                        step.gravity.norm() * step.dt_s
                    ),
                    our_trace: Vec::new(),
                });
            }
        }
    }
}

fn non_finite(step: &StateStep, s: &BodyState, name: &dyn Fn(u32) -> String) -> Finding {
    let mut what = Vec::new();
    if !s.position.iter().all(|v| v.is_finite()) {
        what.push("position");
    }
    if !s.rotation.coords.iter().all(|v| v.is_finite()) {
        what.push("rotation");
    }
    if !s.linear_velocity.iter().all(|v| v.is_finite()) {
        what.push("linear velocity");
    }
    if !s.angular_velocity.iter().all(|v| v.is_finite()) {
        what.push("angular velocity");
    }
    Finding {
        check: Check::NonFinite,
        frame: step.frame,
        engine_frame: step.engine_frame,
        bodies: vec![s.id],
        engine_ids: vec![name(s.id)],
        ours: None,
        theirs: None,
        tolerance: 0.0,
        our_contact: None,
        their_contact: None,
        sentence: format!(
            "{}'s {} is not a number (NaN or infinite)",
            name(s.id),
            what.join(" and ")
        ),
        our_trace: Vec::new(),
    }
}

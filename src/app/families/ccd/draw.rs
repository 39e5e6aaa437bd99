//! The 3D overlay of the continuous-collision view, rebuilt from the two frames' states.

use super::FamilyContext;
use crate::app::viewport::draw_list::{DrawList, Rgba, to_f32};
use crate::app::views::colors;
use crate::ccd::recorded_motion::{ghost_pose, integrated_motion};
use crate::ccd::{CcdEvent, centre, rim_radius};
use crate::geom::{Pose, Vec3};
use crate::record::{BodyState, Frame};
use crate::trace::BodyId;

const PATH: Rgba = [0.75, 0.75, 0.8, 1.0];
const GHOST: Rgba = [0.55, 0.7, 1.0, 0.6];
const SAMPLE: Rgba = [0.4, 1.0, 0.6, 1.0];

/// The frame before the one under the playhead (the start of the step its events speak of).
fn previous(cx: &FamilyContext) -> Option<std::sync::Arc<Frame>> {
    let pos = cx.state.playhead.frame.checked_sub(1)?;
    cx.session()?.frame(pos).ok()
}

struct Step<'a> {
    cx: &'a FamilyContext<'a>,
    before: &'a Frame,
    after: &'a Frame,
    gravity: Vec3,
    dt_s: f64,
}

impl Step<'_> {
    fn states(&self, body: BodyId) -> Option<(&BodyState, &BodyState)> {
        Some((self.before.body(body)?, self.after.body(body)?))
    }

    fn rim(&self, body: BodyId) -> f64 {
        self.cx
            .world()
            .and_then(|w| w.bodies.get(body as usize))
            .map_or(0.1, |b| rim_radius(&b.shape))
    }

    /// Where the integrator sent the body (the motion advancement and impacts speak of).
    fn integrated(&self, body: BodyId, t: f64) -> Option<Pose> {
        let (s, _) = self.states(body)?;
        let fixed = self
            .cx
            .world()
            .and_then(|w| w.bodies.get(body as usize))
            .is_some_and(|b| b.fixed);
        Some(integrated_motion(s, &self.gravity, self.dt_s, fixed).at(t))
    }

    /// Between the two recorded states (the path the tunnelling check followed).
    fn between(&self, body: BodyId, t: f64) -> Option<Pose> {
        let (s, e) = self.states(body)?;
        Some(ghost_pose(s, e, t))
    }

    fn path(&self, body: BodyId, color: Rgba, list: &mut DrawList) {
        if let Some((s, e)) = self.states(body) {
            list.line_on_top(to_f32(&s.position), to_f32(&e.position), color);
        }
    }
}

pub fn overlay(cx: &FamilyContext, events: &[(usize, &CcdEvent)], list: &mut DrawList) {
    let (Some(after), Some(before), Some(scene)) = (cx.frame(), previous(cx), cx.scene()) else {
        return;
    };
    let step = Step {
        cx,
        before: &before,
        after,
        gravity: Vec3::from(scene.gravity),
        dt_s: scene.solver.dt_s,
    };
    let current = cx.event().map(|(i, _)| i);
    for &(i, e) in events {
        let emphasis = if current == Some(i) { 1.0 } else { 0.0 };
        match *e {
            CcdEvent::Ray { body, t, .. } => {
                step.path(body, PATH, list);
                if let Some(p) = t.and_then(|t| step.between(body, t)) {
                    list.point(&centre(&p), 6.0 + 4.0 * emphasis as f32, colors::RESULT);
                }
            }
            CcdEvent::Advance { a, t, .. } => {
                if let Some(p) = step.integrated(a, t) {
                    list.sphere(&centre(&p), step.rim(a), GHOST, emphasis > 0.0);
                }
            }
            CcdEvent::Impact { body, t, .. } => {
                step.path(body, PATH, list);
                if let Some(p) = step.integrated(body, t) {
                    list.sphere(&centre(&p), step.rim(body), colors::RESULT, true);
                }
            }
            CcdEvent::Substep { centre: c, .. } => {
                list.point(&c, 5.0 + 4.0 * emphasis as f32, SAMPLE);
            }
            CcdEvent::Tunnelled { body, t, .. } => {
                step.path(body, colors::WARNING, list);
                if let Some(p) = step.between(body, t) {
                    list.sphere(&centre(&p), step.rim(body), colors::WARNING, emphasis > 0.0);
                }
            }
        }
    }
}

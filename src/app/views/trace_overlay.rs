//! The geometry of trace events, exactly as `TraceEvent::shapes` gives it: the current
//! event bright and filled, the others (when asked) faint, so that a frame's whole work, say
//! 100,000 node tests, shows at once.

use super::colors::{self, with_alpha};
use super::{AlgorithmView, TraceOverlay, ViewContext};
use crate::app::viewport::draw_list::{DrawList, Instance, Style, Template, rows_from, to_f32};
use crate::trace::{DebugShape, TraceEvent};
use crate::world::PipelineEvent;
use nalgebra::Matrix4;

pub struct TraceOverlayView;

impl AlgorithmView for TraceOverlayView {
    fn name(&self) -> &'static str {
        "trace"
    }

    fn draw(&self, ctx: &ViewContext, out: &mut DrawList) {
        let trace = &ctx.frame.trace;
        let current = ctx.event.map(|(i, _)| i);
        let others = match (ctx.options.trace, current) {
            (TraceOverlay::Off, _) => return,
            (TraceOverlay::Current, _) => 0..0,
            (TraceOverlay::UpToCurrent, Some(i)) => 0..i,
            (TraceOverlay::UpToCurrent, None) => 0..0,
            (TraceOverlay::WholeFrame, _) => 0..trace.len(),
        };
        // Contacts and impulses name the frame's contacts: resolved against the frame, in
        // one pass over the trace.
        if !others.is_empty() {
            let shapes = PipelineEvent::frame_shapes(ctx.frame);
            for (i, e) in trace[others.clone()].iter().enumerate() {
                if Some(i) != current && ctx.options.draws(e) {
                    draw_event(e, &shapes[others.start + i], false, out);
                }
            }
        }
        if let Some((i, e)) = ctx.event {
            let shapes = match trace.get(i) {
                Some(x) if std::ptr::eq(x, e) => PipelineEvent::event_shapes(ctx.frame, i),
                _ => e.shapes(),
            };
            draw_event(e, &shapes, true, out);
        }
    }
}

/// One event's shapes; `current` draws it prominently (fills, on-top results, bigger points).
pub fn draw_event(e: &TraceEvent, shapes: &[DebugShape], current: bool, out: &mut DrawList) {
    let alpha = if current { 1.0 } else { 0.35 };
    for shape in shapes.iter().cloned() {
        match shape {
            DebugShape::Point(p, role) => {
                let c = with_alpha(colors::shape(role, e.verdict), alpha);
                out.point(&p, if current { 10.0 } else { 4.0 }, c);
            }
            DebugShape::Line(a, b, role) => {
                let c = with_alpha(colors::shape(role, e.verdict), alpha);
                if current {
                    out.line_on_top(to_f32(&a), to_f32(&b), c);
                } else {
                    out.line(to_f32(&a), to_f32(&b), c);
                }
            }
            DebugShape::Arrow(from, v, role) => {
                out.arrow(&from, &v, with_alpha(colors::shape(role, e.verdict), alpha));
            }
            DebugShape::Box(b, role) => {
                let c = with_alpha(colors::shape(role, e.verdict), alpha);
                out.aabb(b.min.coords.into(), b.max.coords.into(), c, current);
            }
            DebugShape::Obb(o, role) => {
                let c = with_alpha(colors::shape(role, e.verdict), alpha);
                let m = Matrix4::new_translation(&o.center.coords)
                    * o.axes.to_homogeneous()
                    * Matrix4::new_nonuniform_scaling(&o.half_extents);
                let rows = rows_from(&m);
                out.volume(Template::Cube, Style::Wire, Instance { rows, color: c });
                if current {
                    out.volume(
                        Template::Cube,
                        Style::Translucent,
                        Instance {
                            rows,
                            color: with_alpha(c, 0.18),
                        },
                    );
                }
            }
            DebugShape::Sphere(s, role) => {
                let c = with_alpha(colors::shape(role, e.verdict), alpha);
                out.sphere(&s.center, s.radius, c, current);
            }
            DebugShape::Triangle(t, role) => {
                let c = with_alpha(colors::shape(role, e.verdict), alpha);
                let [a, b, cc] = [to_f32(&t.a), to_f32(&t.b), to_f32(&t.c)];
                for (p, q) in [(a, b), (b, cc), (cc, a)] {
                    if current {
                        out.line_on_top(p, q, c);
                    } else {
                        out.line(p, q, c);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::state::Selection;
    use crate::app::state::catalog::BodyCatalog;
    use crate::app::views::{ViewContext, ViewOptions};
    use crate::geom::{Aabb, Point3 as P};
    use crate::record::Frame;
    use crate::trace::{EventKind, Stage, Verdict};

    fn pair_event(k: f64) -> TraceEvent {
        TraceEvent::staged(
            Stage::BroadPhase,
            Verdict::Hit,
            EventKind::Broad(crate::broad::BroadEvent::BroadPair {
                a: 0,
                b: 1,
                box_a: Aabb::new(P::new(k, 0.0, 0.0), P::new(k + 1.0, 1.0, 1.0)),
                box_b: Aabb::new(P::new(k, 2.0, 0.0), P::new(k + 1.0, 3.0, 1.0)),
            }),
        )
    }

    fn draw(mode: TraceOverlay, current: Option<usize>, n: usize) -> DrawList {
        let frame = Frame {
            trace: (0..n).map(|k| pair_event(k as f64)).collect(),
            ..Default::default()
        };
        let catalog = BodyCatalog::names_only(&[], String::new());
        let options = ViewOptions {
            trace: mode,
            hidden_stages: vec![],
            ..Default::default()
        };
        let ctx = ViewContext {
            frame: &frame,
            catalog: &catalog,
            selection: Selection::None,
            event: current.map(|i| (i, &frame.trace[i])),
            options: &options,
            penetration_tolerance_m: 0.1,
            scene_radius: 10.0,
            ghost_bodies: false,
        };
        let mut out = DrawList::default();
        TraceOverlayView.draw(&ctx, &mut out);
        out
    }

    #[test]
    fn draws_exactly_the_recorded_shapes_per_mode() {
        // Each BroadPair event has two boxes.
        assert_eq!(
            draw(TraceOverlay::Current, Some(3), 10).volume_count(Template::Cube, Style::Wire),
            2
        );
        assert_eq!(
            draw(TraceOverlay::Current, Some(3), 10)
                .volume_count(Template::Cube, Style::Translucent),
            2
        );
        assert_eq!(
            draw(TraceOverlay::UpToCurrent, Some(3), 10).volume_count(Template::Cube, Style::Wire),
            8
        );
        assert_eq!(
            draw(TraceOverlay::WholeFrame, Some(3), 10).volume_count(Template::Cube, Style::Wire),
            20
        );
        assert_eq!(
            draw(TraceOverlay::WholeFrame, None, 10)
                .volume_count(Template::Cube, Style::Translucent),
            0
        );
        assert_eq!(
            draw(TraceOverlay::Off, Some(3), 10).volume_count(Template::Cube, Style::Wire),
            0
        );
    }

    #[test]
    fn a_hundred_thousand_boxes_are_one_group() {
        let out = draw(TraceOverlay::WholeFrame, None, 50_000);
        assert_eq!(out.volume_count(Template::Cube, Style::Wire), 100_000);
        assert_eq!(out.volumes.len(), 1);
    }
}

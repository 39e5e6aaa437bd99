//! Under the step scrubber of an audited captured run: where in the engine's frame our narrow
//! phase ran on a finding's pair, and what it did there (the test, each point), so that the
//! engine's own events and ours read side by side.

use super::x_of;
use crate::app::state::AppState;
use crate::app::views::colors::{self, EventPalette};
use crate::audit::Finding;
use crate::trace::{Stage, TraceEvent};
use egui::{Pos2, Rect, RichText, Sense, Stroke, Ui, Vec2};

/// Width of one of our events on the row, in points.
const EVENT_PX: f32 = 8.0;

pub(super) fn show(ui: &mut Ui, state: &AppState, palette: &EventPalette) {
    let Some(frame) = state.current_frame() else {
        return;
    };
    let Some(audit) = state.session.as_ref().and_then(|s| s.audit.as_ref()) else {
        return;
    };
    let here: Vec<&Finding> = audit
        .at_frame(frame.index)
        .map(|(_, f)| f)
        .filter(|f| !f.our_trace.is_empty())
        .collect();
    let Some(finding) = shown(&here, state) else {
        return;
    };
    let (a, b) = (finding.bodies[0], finding.bodies[1]);
    let n = frame.trace.len();
    let at = anchor(&frame.trace, (a, b));
    ui.label(
        RichText::new(sentence(finding, at, n))
            .small()
            .color(colors::egui(colors::OURS)),
    )
    .on_hover_text(
        "The audit ran our exact narrow phase on this pair at this step; the row shows its \
         events where the engine's narrow phase sits in the frame's trace",
    );
    paint_row(ui, &finding.our_trace, at, n, palette);
}

/// The finding whose pair is selected, else the step's first with a trace.
fn shown<'a>(here: &[&'a Finding], state: &AppState) -> Option<&'a Finding> {
    let selected = |f: &&&Finding| matches!(f.bodies[..], [a, b] if state.selection == crate::app::state::Selection::pair(a, b));
    here.iter()
        .find(selected)
        .or_else(|| here.first())
        .copied()
        .filter(|f| f.bodies.len() == 2)
}

/// Where our narrow phase sits in the engine's trace: at the engine's own narrow-phase event
/// on the pair, else after its last narrow-phase event (before the first of a later stage),
/// else at the end.
pub fn anchor(trace: &[TraceEvent], (a, b): (u32, u32)) -> usize {
    let on_pair = |e: &TraceEvent| {
        let bodies = e.bodies();
        bodies.contains(&a) && bodies.contains(&b)
    };
    let rank = |s: Stage| Stage::ALL.iter().position(|&x| x == s).unwrap_or(0);
    let narrow = rank(Stage::NarrowPhase);
    trace
        .iter()
        .position(|e| e.stage == Stage::NarrowPhase && on_pair(e))
        .or_else(|| trace.iter().position(|e| rank(e.stage) > narrow))
        .unwrap_or(trace.len())
}

fn sentence(f: &Finding, at: usize, n: usize) -> String {
    let what = f
        .our_trace
        .first()
        .map_or_else(String::new, TraceEvent::summary);
    let place = if n == 0 {
        "the engine recorded no events in this step".to_string()
    } else if at >= n {
        format!("after the engine's {n} events")
    } else {
        format!("at the engine's event {} of {n}", at + 1)
    };
    format!(
        "◆ our narrow phase on {} ran here ({place}): {what}",
        f.subject()
    )
}

/// Our events as ticks in a block that starts where the anchor sits on the scrubber above.
fn paint_row(ui: &mut Ui, ours: &[TraceEvent], at: usize, n: usize, palette: &EventPalette) {
    let (rect, response) =
        ui.allocate_exact_size(Vec2::new(ui.available_width(), 12.0), Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Group, true, "Our narrow phase"));
    let track = rect.shrink2(Vec2::new(6.0, 1.0));
    // The same horizontal margin as the scrubber above: event `at` is straight above.
    let x0 = match n {
        0 => track.left(),
        _ if at < n => x_of(track, at, n),
        _ => track.right(),
    };
    let width = (ours.len() as f32 * EVENT_PX).min(track.right() - track.left());
    let left = x0.min(track.right() - width);
    let painter = ui.painter_at(rect);
    let ours_color = colors::egui(colors::OURS);
    painter.line_segment(
        [Pos2::new(x0, rect.top()), Pos2::new(x0, rect.bottom())],
        Stroke::new(2.0, ours_color),
    );
    for (i, e) in ours.iter().enumerate() {
        let x = left + i as f32 * EVENT_PX;
        let tick = Rect::from_min_size(
            Pos2::new(x + 1.0, track.top()),
            Vec2::new(EVENT_PX - 2.0, track.height()),
        );
        painter.rect_filled(tick, 1.0, colors::egui(palette.event(e)));
    }
    painter.rect_stroke(
        Rect::from_min_max(
            Pos2::new(left, track.top()),
            Pos2::new(left + width, track.bottom()),
        ),
        1.0,
        Stroke::new(1.0, ours_color),
        egui::StrokeKind::Outside,
    );
    if let Some(p) = response.hover_pos() {
        let i = ((p.x - left) / EVENT_PX).floor();
        if i >= 0.0
            && let Some(e) = ours.get(i as usize)
        {
            response.on_hover_text_at_pointer(format!(
                "ours {} / {}: {}",
                i as usize + 1,
                ours.len(),
                e.summary()
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::PipelineEvent;
    use crate::trace::Verdict;

    fn test_on(stage: Stage, a: u32, b: u32) -> TraceEvent {
        TraceEvent::staged(
            stage,
            Verdict::Hit,
            PipelineEvent::ShapeTest {
                a,
                b,
                test: "sphere-sphere".into(),
                contacts: 1,
                max_depth: 0.1,
            },
        )
    }

    #[test]
    fn ours_sit_at_the_engines_test_of_the_pair_else_after_its_narrow_phase() {
        let trace = vec![
            test_on(Stage::BroadPhase, 0, 1),
            test_on(Stage::NarrowPhase, 2, 3),
            test_on(Stage::NarrowPhase, 0, 1),
            test_on(Stage::Response, 0, 1),
        ];
        assert_eq!(
            anchor(&trace, (0, 1)),
            2,
            "the engine's own test of the pair"
        );
        assert_eq!(
            anchor(&trace, (4, 5)),
            3,
            "first event after the narrow phase"
        );
        assert_eq!(anchor(&trace[..3], (4, 5)), 3, "no later stage: the end");
        assert_eq!(anchor(&[], (0, 1)), 0);
    }
}

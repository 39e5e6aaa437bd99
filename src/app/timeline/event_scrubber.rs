//! The step scrubber: the buttons and the line that name the current event, then a strip
//! through the current frame's trace, coloured by family, with the family views' marks.

use super::{Strip, index_at, x_of};
use crate::app::families::EventMark;
use crate::app::state::{AppState, Command};
use crate::app::viewport::draw_list::Rgba;
use crate::app::views::colors::{self, EventPalette};
use crate::record::Frame;
use crate::trace::{TraceEvent, Verdict};
use egui::{Painter, Pos2, Rect, Stroke, Ui, Vec2};

pub(super) fn show(
    ui: &mut Ui,
    state: &AppState,
    marks: &[EventMark],
    palette: &EventPalette,
    out: &mut Vec<Command>,
) {
    let frame = state.current_frame();
    let n = frame.map_or(0, |f| f.trace.len());
    ui.horizontal(|ui| {
        step_buttons(ui, out);
        let text = match (state.current_event(), frame) {
            (Some((i, e)), _) => describe_event(i, n, e),
            (None, Some(f)) if n > 0 => describe_frame(n, f),
            _ => "no trace recorded for this frame".to_string(),
        };
        ui.add(egui::Label::new(egui::RichText::new(text).monospace()).truncate())
            .on_hover_text("The step inside the frame the viewport and inspector show");
    });
    let strip = Strip::new(
        ui,
        18.0,
        Vec2::new(6.0, 2.0),
        n,
        state.playhead.event.map_or(-1.0, |e| e as f64),
        "Event scrubber",
    );
    if let Some(v) = strip.requested_value(ui) {
        out.push(Command::SeekEvent((v >= 0.0).then(|| v.round() as usize)));
    }
    if let Some(e) = strip.pointed_index(n)
        && Some(e) != state.playhead.event
    {
        out.push(Command::SeekEvent(Some(e)));
    }
    let Strip {
        rect,
        track,
        response,
    } = strip;
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 3.0, ui.visuals().extreme_bg_color);
    let Some(frame) = frame else {
        return;
    };
    if n == 0 {
        return;
    }
    paint_events(&painter, track, &frame.trace, palette);
    // The family views' marks: a notch at the top of the strip.
    for m in marks.iter().filter(|m| m.event < n) {
        let x = x_of(track, m.event, n);
        painter.rect_filled(
            Rect::from_min_size(Pos2::new(x - 1.5, rect.top()), Vec2::new(3.0, 6.0)),
            0.0,
            colors::egui(m.color),
        );
    }
    if let Some(e) = state.playhead.event {
        let x = x_of(track, e, n);
        let c = colors::egui(colors::SELECTION);
        painter.rect_filled(
            Rect::from_center_size(Pos2::new(x, rect.center().y), Vec2::new(4.0, rect.height())),
            1.0,
            c,
        );
    }
    if let Some(hover) = response.hover_pos() {
        let i = index_at(track, hover.x, n);
        if let Some(e) = frame.trace.get(i) {
            let mark = marks
                .iter()
                .find(|m| m.event == i)
                .map_or_else(String::new, |m| format!("\n◆ {}", m.text));
            response.on_hover_text_at_pointer(format!(
                "event {} ({}): {}{mark}",
                i + 1,
                e.stage.name(),
                e.summary()
            ));
        }
    }
}

fn step_buttons(ui: &mut Ui, out: &mut Vec<Command>) {
    if ui
        .button("◀ Event")
        .on_hover_text("Previous event of the trace (Shift+←)")
        .clicked()
    {
        out.push(Command::StepEvents(-1));
    }
    if ui
        .button("Event ▶")
        .on_hover_text("Next event of the trace (Shift+→)")
        .clicked()
    {
        out.push(Command::StepEvents(1));
    }
}

fn describe_event(i: usize, n: usize, e: &TraceEvent) -> String {
    format!(
        "event {} / {n} · {} · {}",
        i + 1,
        e.stage.name(),
        e.summary()
    )
}

fn describe_frame(n: usize, f: &Frame) -> String {
    let dropped = if f.counters.trace_dropped > 0 {
        format!(" (+{} not recorded: trace limit)", f.counters.trace_dropped)
    } else {
        String::new()
    };
    format!("{n} events in this frame{dropped} — step with Shift+→ or click the strip")
}

/// One colour per pixel column: the family of its events, red when one is a warning.
fn paint_events(painter: &Painter, track: Rect, trace: &[TraceEvent], palette: &EventPalette) {
    let n = trace.len();
    let columns = track.width().max(1.0) as usize;
    let mut col: Vec<Option<(Rgba, bool)>> = vec![None; columns + 1];
    for (i, e) in trace.iter().enumerate() {
        let c = if n > 1 {
            (i as f32 / (n - 1) as f32 * columns as f32) as usize
        } else {
            0
        };
        if let Some(slot) = col.get_mut(c) {
            let warn = e.verdict == Verdict::Warning || slot.is_some_and(|s| s.1);
            *slot = Some((palette.event(e), warn));
        }
    }
    for (c, slot) in col.iter().enumerate() {
        if let Some((color, warn)) = slot {
            let color = if *warn {
                colors::WARNING
            } else {
                colors::with_alpha(*color, 0.8)
            };
            let x = track.left() + c as f32;
            painter.line_segment(
                [Pos2::new(x, track.top()), Pos2::new(x, track.bottom())],
                Stroke::new(1.0, colors::egui(color)),
            );
        }
    }
}

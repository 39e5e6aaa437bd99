//! The frame scrubber: the session's frames along a strip, with a histogram of contacts per
//! frame, where the recording ends and the session was forked, the markers and the playhead.

use super::{Strip, index_at, x_of};
use crate::app::state::session::Session;
use crate::app::state::summary::FrameSummary;
use crate::app::state::{AppState, Command};
use crate::app::views::colors;
use egui::{Painter, Pos2, Rect, Stroke, Ui, Vec2, Visuals};

pub(super) fn show(ui: &mut Ui, state: &AppState, out: &mut Vec<Command>) {
    let n = state.frame_count();
    let strip = Strip::new(
        ui,
        34.0,
        Vec2::new(6.0, 4.0),
        n,
        state.playhead.frame as f64,
        "Frame scrubber",
    );
    if let Some(v) = strip.requested_value(ui) {
        out.push(Command::SeekFrame(v.max(0.0).round() as usize));
    }
    let findings = state
        .session
        .as_ref()
        .and_then(|s| s.audit.as_ref())
        .map_or(&[][..], |a| &a.findings[..]);
    if let Some(f) = strip.pointed_index(n)
        && (f != state.playhead.frame || state.playhead.event.is_some())
    {
        // A click on an audit finding's marker goes to its frame, however narrow the strip.
        let near = strip
            .response
            .clicked()
            .then(|| strip.response.interact_pointer_pos())
            .flatten()
            .and_then(|p| nearest_finding(strip.track, findings, p.x, n));
        out.push(Command::SeekFrame(near.unwrap_or(f)));
    }
    let Strip {
        rect,
        track,
        response,
    } = strip;
    let visuals = ui.visuals();
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 4.0, visuals.extreme_bg_color);
    let Some(session) = &state.session else {
        return;
    };
    let summaries = session.summaries();
    if !summaries.is_empty() && n > 1 {
        paint_contact_density(&painter, visuals, track, summaries, n);
    }
    paint_recording_end_and_fork(&painter, visuals, rect, track, session, n);
    paint_markers(&painter, track, session, n);
    paint_findings(&painter, track, findings, n);
    let divergence = state.compare.as_ref().and_then(|c| c.divergence);
    if let Some(f) = divergence
        && n > 0
    {
        paint_divergence(&painter, rect, x_of(track, f, n));
    }
    if n > 0 {
        paint_playhead(&painter, rect, x_of(track, state.playhead.frame, n));
    }
    if let Some(hover) = response.hover_pos() {
        let f = index_at(track, hover.x, n);
        let near: Vec<String> = session
            .markers()
            .all()
            .iter()
            .filter(|m| (x_of(track, m.frame, n) - hover.x).abs() <= 4.0)
            .take(6)
            .map(|m| format!("● frame {}: {}", m.frame, m.text))
            .collect();
        let mut tip = format!("frame {f} — click or drag to seek");
        let audited: Vec<String> = findings
            .iter()
            .filter(|x| (x_of(track, x.frame as usize, n) - hover.x).abs() <= 4.0)
            .take(6)
            .map(|x| format!("▲ step {}: {} — {}", x.frame, x.check.name(), x.subject()))
            .collect();
        if !audited.is_empty() {
            tip.push('\n');
            tip.push_str(&audited.join("\n"));
        }
        if let Some(d) = divergence
            && (x_of(track, d, n) - hover.x).abs() <= 4.0
        {
            tip.push_str(&format!("\n≠ frame {d}: the compared runs part here"));
        }
        if !near.is_empty() {
            tip.push('\n');
            tip.push_str(&near.join("\n"));
        }
        response.on_hover_text_at_pointer(tip);
    }
}

/// Contacts per frame as a faint histogram: where things happen, at a glance. Frames not yet
/// summarised (a recording still being read) stay hatched.
fn paint_contact_density(
    painter: &Painter,
    visuals: &Visuals,
    track: Rect,
    summaries: &[FrameSummary],
    n: usize,
) {
    let columns = track.width().max(1.0) as usize;
    let max = summaries
        .iter()
        .map(|s| s.contacts)
        .max()
        .unwrap_or(0)
        .max(1) as f32;
    let mut col_max = vec![0u32; columns + 1];
    for (i, s) in summaries.iter().enumerate() {
        let c = ((i as f32 / (n - 1) as f32) * columns as f32) as usize;
        if let Some(m) = col_max.get_mut(c) {
            *m = (*m).max(s.contacts);
        }
    }
    let fill = visuals.selection.bg_fill.gamma_multiply(0.45);
    for (c, &v) in col_max.iter().enumerate() {
        if v > 0 {
            let h = (v as f32 / max) * (track.height() - 4.0);
            let x = track.left() + c as f32;
            painter.line_segment(
                [
                    Pos2::new(x, track.bottom()),
                    Pos2::new(x, track.bottom() - h),
                ],
                Stroke::new(1.0, fill),
            );
        }
    }
    if summaries.len() < n {
        let x = x_of(track, summaries.len(), n);
        painter.rect_filled(
            Rect::from_min_max(Pos2::new(x, track.top()), track.right_bottom()),
            0.0,
            visuals.faint_bg_color.gamma_multiply(1.5),
        );
    }
}

/// The line between the recorded frames and those stepped in the app, and the fork's sign.
fn paint_recording_end_and_fork(
    painter: &Painter,
    visuals: &Visuals,
    rect: Rect,
    track: Rect,
    session: &Session,
    n: usize,
) {
    let recorded = session.store().recorded_len();
    if recorded > 0 && recorded < n {
        let x = x_of(track, recorded, n);
        painter.line_segment(
            [Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom())],
            Stroke::new(1.0, visuals.weak_text_color()),
        );
    }
    if let Some(f) = session.forked_at {
        let x = x_of(track, f, n);
        painter.text(
            Pos2::new(x, rect.top()),
            egui::Align2::CENTER_TOP,
            "⤴",
            egui::FontId::proportional(11.0),
            visuals.weak_text_color(),
        );
    }
}

/// One tick per pixel column, the most severe kind wins.
fn paint_markers(painter: &Painter, track: Rect, session: &Session, n: usize) {
    let mut last_x = f32::NEG_INFINITY;
    for m in session.markers().all() {
        let x = x_of(track, m.frame, n).round();
        if x == last_x && !matches!(m.kind, crate::record::MarkerKind::Divergence) {
            continue;
        }
        last_x = x;
        let c = colors::egui(colors::marker(&m.kind));
        painter.line_segment(
            [Pos2::new(x, track.top()), Pos2::new(x, track.top() + 9.0)],
            Stroke::new(2.0, c),
        );
        painter.circle_filled(Pos2::new(x, track.top() + 2.0), 2.5, c);
    }
}

/// The audit's findings: a triangle under the strip per frame, in its check's colour.
fn paint_findings(painter: &Painter, track: Rect, findings: &[crate::audit::Finding], n: usize) {
    let mut last_x = f32::NEG_INFINITY;
    for f in findings {
        let x = x_of(track, f.frame as usize, n).round();
        if x == last_x {
            continue;
        }
        last_x = x;
        let c = colors::egui(colors::audit(f.check));
        let y = track.bottom();
        painter.line_segment(
            [Pos2::new(x, y - 12.0), Pos2::new(x, y)],
            Stroke::new(2.0, c),
        );
        painter.add(egui::Shape::convex_polygon(
            vec![
                Pos2::new(x - 5.0, y + 3.0),
                Pos2::new(x + 5.0, y + 3.0),
                Pos2::new(x, y - 5.0),
            ],
            c,
            Stroke::NONE,
        ));
    }
}

/// The frame of the finding marker within 5 px of `x`, the nearest.
fn nearest_finding(
    track: Rect,
    findings: &[crate::audit::Finding],
    x: f32,
    n: usize,
) -> Option<usize> {
    findings
        .iter()
        .map(|f| {
            (
                f.frame as usize,
                (x_of(track, f.frame as usize, n) - x).abs(),
            )
        })
        .filter(|(_, d)| *d <= 5.0)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(f, _)| f)
}

/// Where the compared runs part: a red line across the strip, flagged at its top.
fn paint_divergence(painter: &Painter, rect: Rect, x: f32) {
    let c = colors::egui(colors::DIFFERS);
    painter.line_segment(
        [Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom())],
        Stroke::new(3.0, c),
    );
    let flag = Rect::from_min_size(Pos2::new(x + 1.0, rect.top() + 1.0), Vec2::new(16.0, 13.0));
    painter.rect_filled(flag, 2.0, c);
    painter.text(
        flag.center(),
        egui::Align2::CENTER_CENTER,
        "≠",
        egui::FontId::proportional(12.0),
        egui::Color32::WHITE,
    );
}

fn paint_playhead(painter: &Painter, rect: Rect, x: f32) {
    let c = colors::egui(colors::SELECTION);
    painter.line_segment(
        [Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom())],
        Stroke::new(2.0, c),
    );
    painter.add(egui::Shape::convex_polygon(
        vec![
            Pos2::new(x - 5.0, rect.bottom()),
            Pos2::new(x + 5.0, rect.bottom()),
            Pos2::new(x, rect.bottom() - 7.0),
        ],
        c,
        Stroke::NONE,
    ));
}

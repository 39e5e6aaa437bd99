//! Per-frame plots: time of each stage (the rigid pipeline's and each family's), contact/pair/
//! test counts and memory. A cursor
//! follows the playhead; clicking a plot seeks there. Long runs are decimated to a min/max
//! envelope per bucket, so 100,000 frames plot as fast as 1,000 and no spike is lost.

use crate::app::families::{Measured, NOT_CAPTURED};
use crate::app::state::summary::{FamilyStageLabel, FrameSummary, STAGE_NAMES};
use crate::app::state::{AppState, Command};
use crate::app::viewport::draw_list::Rgba;
use crate::app::views::colors;
use egui::Ui;
use egui_plot::{HLine, Legend, Line, Plot, PlotPoint, VLine};

const BUCKETS: usize = 700;

/// A min/max envelope of `value` over frames: at most two points per bucket, in frame order.
pub fn envelope(
    summaries: &[FrameSummary],
    value: impl Fn(&FrameSummary) -> f64,
) -> Vec<PlotPoint> {
    let n = summaries.len();
    if n <= 2 * BUCKETS {
        return summaries
            .iter()
            .enumerate()
            .map(|(i, s)| PlotPoint::new(i as f64, value(s)))
            .collect();
    }
    let mut out = Vec::with_capacity(2 * BUCKETS);
    for b in 0..BUCKETS {
        let (lo, hi) = (
            b * n / BUCKETS,
            ((b + 1) * n / BUCKETS).max(b * n / BUCKETS + 1),
        );
        let (mut imin, mut imax) = (lo, lo);
        for i in lo..hi.min(n) {
            let v = value(&summaries[i]);
            if v < value(&summaries[imin]) {
                imin = i;
            }
            if v > value(&summaries[imax]) {
                imax = i;
            }
        }
        let (first, second) = if imin <= imax {
            (imin, imax)
        } else {
            (imax, imin)
        };
        out.push(PlotPoint::new(first as f64, value(&summaries[first])));
        if second != first {
            out.push(PlotPoint::new(second as f64, value(&summaries[second])));
        }
    }
    out
}

/// A step of 1, 2 or 5 times a power of ten that cuts `range` into about four.
pub fn nice_step(range: f64) -> f64 {
    let raw = (range / 4.0).max(1e-12);
    let p = 10f64.powf(raw.log10().floor());
    let m = raw / p;
    p * if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    }
}

/// As many decimals as the step needs (0.005 steps: three), so no two labels read the same.
pub fn tick_label(value: f64, step: f64) -> String {
    let decimals = if step > 0.0 && step.is_finite() {
        (-step.log10().floor()).clamp(0.0, 12.0) as usize
    } else {
        0
    };
    format!("{value:.decimals$}")
}

fn nice_grid(input: egui_plot::GridInput) -> Vec<egui_plot::GridMark> {
    let (lo, hi) = input.bounds;
    if !(hi > lo) || !lo.is_finite() || !hi.is_finite() {
        return Vec::new();
    }
    let step = nice_step(hi - lo);
    let minor = step / 5.0;
    let first = (lo / minor).ceil() as i64;
    let last = (hi / minor).floor() as i64;
    (first..=last.min(first + 200))
        .map(|k| {
            let major = k % 5 == 0;
            egui_plot::GridMark {
                value: k as f64 * minor,
                step_size: if major { step } else { minor },
            }
        })
        .collect()
}

#[derive(Default)]
pub struct PlotsUi {
    key: Option<(u64, usize, Measured)>,
    stages: [Vec<PlotPoint>; 4],
    /// The family stages of the session's frames, as the playhead's frame names them.
    family_stages: Vec<(FamilyStageLabel, Vec<PlotPoint>)>,
    counts: [Vec<PlotPoint>; 3],
    memory: Vec<PlotPoint>,
    memory_is_history: bool,
}

impl PlotsUi {
    fn refresh(&mut self, state: &AppState, measured: Measured) {
        let Some(session) = &state.session else {
            return;
        };
        let s = session.summaries();
        let key = (state.session_generation, s.len(), measured);
        if self.key == Some(key) {
            return;
        }
        self.key = Some(key);
        for (k, series) in self.stages.iter_mut().enumerate() {
            *series = envelope(s, |x| x.stage_ms[k] as f64);
        }
        let labels = session
            .frame(state.playhead.frame.min(s.len().saturating_sub(1)))
            .map(|f| crate::app::state::summary::family_stage_labels(&f))
            .unwrap_or_default();
        self.family_stages = labels
            .into_iter()
            .enumerate()
            .map(|(k, label)| (label, envelope(s, |x| x.family_stage_ms[k] as f64)))
            .collect();
        self.counts[0] = envelope(s, |x| x.contacts as f64);
        self.counts[1] = envelope(s, |x| x.broad_pairs as f64);
        self.counts[2] = envelope(s, |x| x.narrow_tests as f64);
        self.memory_is_history = s.iter().any(|x| x.history_bytes > 0);
        self.memory = if self.memory_is_history {
            envelope(s, |x| x.history_bytes as f64 / (1 << 20) as f64)
        } else {
            envelope(s, |x| x.frame_bytes as f64 / 1024.0)
        };
    }

    /// `measured`: what the run's frames hold; a series they do not hold is said to be not
    /// captured rather than drawn as zeros.
    pub fn show(&mut self, ui: &mut Ui, state: &AppState, measured: Measured) -> Vec<Command> {
        let mut out = Vec::new();
        self.refresh(state, measured);
        let Some(session) = &state.session else {
            ui.weak("Nothing open.");
            return out;
        };
        let row = PlotRow {
            frames: session.len().max(1),
            cursor: state.playhead.frame as f64,
            link: egui::Id::unique("plots-x"),
            width: ((ui.available_width() - 16.0) / 3.0).max(120.0),
            height: ui.available_height().max(60.0),
        };
        ui.horizontal(|ui| {
            self.stage_plot(ui, &row, measured, &mut out);
            self.counts_plot(ui, &row, measured, &mut out);
            self.memory_plot(ui, &row, session.budget_bytes(), &mut out);
        });
        out
    }

    fn stage_plot(&self, ui: &mut Ui, row: &PlotRow, measured: Measured, out: &mut Vec<Command>) {
        let text = PlotText {
            id: "plot-stages",
            title: "Stage time (ms)",
            tip: "Wall-clock time of each stage per frame: the rigid pipeline's four, then each family's own",
        };
        if !measured.stage_times {
            row.not_captured(ui, &text, "the engine that ran this sent no stage timings");
            return;
        }
        let stage_colors = [
            colors::stage(crate::trace::Stage::Integrate),
            colors::stage(crate::trace::Stage::BroadPhase),
            colors::stage(crate::trace::Stage::NarrowPhase),
            colors::stage(crate::trace::Stage::Response),
        ];
        let mut lines = named_lines(&self.stages, STAGE_NAMES, stage_colors);
        for (label, points) in &self.family_stages {
            let name = label.text();
            let color = colors::from_name(&name);
            lines.push(Line::new(name, points.as_slice()).color(colors::egui(color)));
        }
        row.plot(ui, text, lines, None, out);
    }

    /// Contacts, pairs and tests: the series the run holds, and which it does not.
    fn counts_plot(&self, ui: &mut Ui, row: &PlotRow, measured: Measured, out: &mut Vec<Command>) {
        let count_names = ["contacts", "broad-phase pairs", "narrow-phase tests"];
        let count_colors = [colors::CONTACT, colors::FIRST, colors::SECOND];
        let held = [measured.contacts, measured.pairs, measured.narrow_tests];
        let lines: Vec<Line<'_>> = named_lines(&self.counts, count_names, count_colors)
            .into_iter()
            .zip(held)
            .filter_map(|(l, h)| h.then_some(l))
            .collect();
        let missing: Vec<&str> = count_names
            .iter()
            .zip(held)
            .filter_map(|(n, h)| (!h).then_some(*n))
            .collect();
        let title = if missing.is_empty() {
            "Counts".to_string()
        } else {
            format!("Counts ({NOT_CAPTURED}: {})", missing.join(", "))
        };
        let text = PlotText {
            id: "plot-counts",
            title: &title,
            tip: "Contacts, candidate pairs and shape tests per frame",
        };
        if lines.is_empty() {
            row.not_captured(
                ui,
                &text,
                "the engine that ran this sent none of these counts",
            );
        } else {
            row.plot(ui, text, lines, None, out);
        }
    }

    /// The history's memory against its budget, or the size of each recorded frame.
    fn memory_plot(&self, ui: &mut Ui, row: &PlotRow, budget_bytes: usize, out: &mut Vec<Command>) {
        let budget_mib = budget_bytes as f64 / (1 << 20) as f64;
        let (title, name, tip) = if self.memory_is_history {
            (
                format!("Memory (MiB of {budget_mib:.0} budget)"),
                "history",
                "Memory the history holds after each frame; past the budget, older frames spill to disk",
            )
        } else {
            (
                "Frame size (KiB)".to_string(),
                "frame size",
                "Estimated size of each recorded frame",
            )
        };
        // The budget line only when it is near: otherwise it flattens the curve.
        let peak = self.memory.iter().map(|p| p.y).fold(0.0, f64::max);
        let budget = (self.memory_is_history && peak > 0.5 * budget_mib)
            .then(|| HLine::new("budget", budget_mib).color(colors::egui(colors::WARNING)));
        let lines = vec![
            Line::new(name, self.memory.as_slice())
                .color(colors::egui([0.6, 0.75, 1.0, 1.0]))
                .fill(0.0),
        ];
        let text = PlotText {
            id: "plot-memory",
            title: &title,
            tip,
        };
        row.plot(ui, text, lines, budget, out);
    }
}

/// One line per series, named and coloured.
fn named_lines<'a, const N: usize>(
    series: &'a [Vec<PlotPoint>; N],
    names: [&'a str; N],
    line_colors: [Rgba; N],
) -> Vec<Line<'a>> {
    series
        .iter()
        .zip(names)
        .zip(line_colors)
        .map(|((pts, name), c)| Line::new(name, pts.as_slice()).color(colors::egui(c)))
        .collect()
}

/// A plot's id, its title and what its title's tooltip says.
struct PlotText<'a> {
    id: &'a str,
    title: &'a str,
    tip: &'a str,
}

/// The plots side by side: over the same frames, their x axes and cursors linked.
struct PlotRow {
    frames: usize,
    /// The playhead's frame.
    cursor: f64,
    link: egui::Id,
    width: f32,
    height: f32,
}

impl PlotRow {
    /// A titled plot of `lines` (and an optional level); a click seeks its frame.
    fn plot(
        &self,
        ui: &mut Ui,
        text: PlotText<'_>,
        lines: Vec<Line<'_>>,
        extra: Option<HLine>,
        out: &mut Vec<Command>,
    ) {
        let n = self.frames;
        ui.vertical(|ui| {
            ui.label(egui::RichText::new(text.title).strong())
                .on_hover_text(text.tip);
            let resp = self.frame_plot(text.id).show(ui, |p| {
                for l in lines {
                    p.line(l);
                }
                if let Some(h) = extra {
                    p.add(h);
                }
                p.add(
                    VLine::new("", self.cursor)
                        .color(colors::egui(colors::SELECTION))
                        .width(1.5),
                );
                p.pointer_coordinate()
            });
            if resp.response.clicked()
                && let Some(at) = resp.inner
            {
                out.push(Command::SeekFrame(
                    at.x.round().clamp(0.0, (n - 1) as f64) as usize
                ));
            }
            resp.response.on_hover_text(format!(
                "{}\nClick to seek; drag to pan, Ctrl+wheel to zoom, double-click to reset.",
                text.tip
            ));
        });
    }

    /// In a plot's place: its title and why there is nothing to plot.
    fn not_captured(&self, ui: &mut Ui, text: &PlotText<'_>, why: &str) {
        ui.vertical(|ui| {
            ui.label(egui::RichText::new(text.title).strong())
                .on_hover_text(text.tip);
            let size = egui::vec2(self.width, (self.height - 22.0).max(20.0));
            let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
            ui.painter().rect_stroke(
                rect,
                2.0,
                ui.visuals().widgets.noninteractive.bg_stroke,
                egui::StrokeKind::Inside,
            );
            let label = format!("{NOT_CAPTURED}: {why}");
            let color = ui.visuals().weak_text_color();
            let galley = ui.painter().layout(
                label.clone(),
                egui::FontId::proportional(13.0),
                color,
                (rect.width() - 16.0).max(40.0),
            );
            let at = rect.center() - galley.size() / 2.0;
            ui.painter().galley(at, galley, color);
            response
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, label.as_str()));
        });
    }

    /// The plot's frame: its size, legend, linked axes and grid.
    fn frame_plot<'a>(&self, id: &str) -> Plot<'a> {
        Plot::new(id)
            .width(self.width)
            .height(self.height - 22.0)
            .legend(
                Legend::default()
                    .position(egui_plot::Corner::LeftTop)
                    .background_alpha(0.6)
                    .text_style(egui::TextStyle::Small),
            )
            .link_axis(self.link, [true, false])
            .link_cursor(self.link, [true, false])
            .include_x(0.0)
            .include_x((self.frames - 1) as f64)
            .include_y(0.0)
            .allow_scroll(false)
            // The plots are short: 1-2-5 steps, about four labelled lines whatever the range.
            .y_grid_spacer(nice_grid)
            .custom_y_axes(vec![
                egui_plot::AxisHints::new_y()
                    .label_spacing(egui::Rangef::new(13.0, 20.0))
                    .formatter(|m, _| tick_label(m.value, m.step_size)),
            ])
            .show_x(true)
            .x_axis_formatter(|m, _| format!("{:.0}", m.value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_steps_give_a_few_round_labels() {
        assert_eq!(nice_step(8.8), 2.0);
        assert_eq!(nice_step(50.0), 10.0);
        assert!((nice_step(0.7) - 0.2).abs() < 1e-12);
        let marks = nice_grid(egui_plot::GridInput {
            bounds: (0.0, 8.8),
            base_step_size: 0.01,
        });
        let majors: Vec<f64> = marks
            .iter()
            .filter(|m| m.step_size == 2.0)
            .map(|m| m.value)
            .collect();
        assert_eq!(majors, [0.0, 2.0, 4.0, 6.0, 8.0]);
        assert_eq!(tick_label(0.005, 0.005), "0.005");
        assert_eq!(tick_label(0.01, 0.005), "0.010");
        assert_eq!(tick_label(40.0, 10.0), "40");
        assert_eq!(tick_label(0.4, 0.2), "0.4");
    }

    #[test]
    fn the_envelope_keeps_every_extreme() {
        let s: Vec<FrameSummary> = (0..100_000)
            .map(|i| FrameSummary {
                contacts: if i == 54_321 { 999 } else { (i % 7) as u32 },
                ..Default::default()
            })
            .collect();
        let e = envelope(&s, |x| x.contacts as f64);
        assert!(e.len() <= 2 * BUCKETS);
        assert!(
            e.iter().any(|p| p.x == 54_321.0 && p.y == 999.0),
            "the spike survives"
        );
        assert!(e.windows(2).all(|w| w[0].x <= w[1].x), "in frame order");
        let small = envelope(&s[..10], |x| x.contacts as f64);
        assert_eq!(small.len(), 10);
    }
}

//! The "Thesis experiments" section: Figs 3.2–3.5 and 3.7–3.8 of the thesis (spec 000 §5) as
//! measured by `benches/nurbs_thesis.rs`, each plot under a line saying what the thesis'
//! figure shows, so that ours reads against its claim. The files are read from
//! `bench-results/` (or `COLLIDOSCOPE_BENCH_DIR`) when the section is first opened and again
//! on request, not every frame.

use super::bench::{self, BenchTable, Row, Sweep};
use super::palette;
use super::precision_csv::{self, Motion, PrecisionTable};
use egui::{Color32, RichText, Ui};
use std::path::{Path, PathBuf};

/// A colour per precision case (1..=6).
const CASE_COLORS: [Color32; 6] = [
    Color32::from_rgb(230, 120, 90),
    Color32::from_rgb(240, 200, 80),
    Color32::from_rgb(120, 210, 110),
    Color32::from_rgb(90, 180, 240),
    Color32::from_rgb(170, 130, 240),
    Color32::from_rgb(240, 120, 200),
];
/// The lowest error plotted (log axis): an exact hit (error 0) is drawn here.
const ERROR_FLOOR: f64 = 1e-18;

pub struct ThesisView {
    dir: PathBuf,
    pub timing: Option<Result<BenchTable, String>>,
    pub precision: Option<Result<PrecisionTable, String>>,
}

impl Default for ThesisView {
    fn default() -> Self {
        let dir = std::env::var_os("COLLIDOSCOPE_BENCH_DIR")
            .map_or_else(|| PathBuf::from(bench::RESULTS_DIR), PathBuf::from);
        Self {
            dir,
            timing: None,
            precision: None,
        }
    }
}

impl ThesisView {
    /// Reads both files from `dir` now (and on later reloads).
    pub fn load_from(&mut self, dir: &Path) {
        self.dir = dir.to_path_buf();
        self.reload();
    }

    fn reload(&mut self) {
        self.timing = Some(bench::load(&self.dir.join(bench::THESIS_CSV)));
        self.precision = Some(precision_csv::load(&self.dir.join(bench::PRECISION_CSV)));
    }

    pub fn show(&mut self, ui: &mut Ui) {
        if self.timing.is_none() {
            self.reload();
        }
        ui.horizontal(|ui| {
            ui.label(RichText::new(self.dir.display().to_string()).monospace().small());
            if ui.button("Reload").clicked() {
                self.reload();
            }
        });
        match &self.timing {
            Some(Ok(t)) => {
                skipped_note(ui, &t.skipped);
                for s in Sweep::THESIS {
                    time_plot(ui, s, &t.sweep(s));
                }
            }
            Some(Err(e)) => missing(ui, e),
            None => {}
        }
        match &self.precision {
            Some(Ok(p)) => {
                skipped_note(ui, &p.skipped);
                for m in Motion::ALL {
                    precision_plot(ui, m, p);
                }
            }
            Some(Err(e)) => missing(ui, e),
            None => {}
        }
    }
}

fn missing(ui: &mut Ui, e: &str) {
    ui.label(format!("No results to plot ({e}). Run in the crate's folder:"));
    ui.label(RichText::new(bench::THESIS_COMMAND).monospace());
}

fn skipped_note(ui: &mut Ui, skipped: &[(usize, String)]) {
    if let Some((line, cause)) = skipped.first() {
        ui.colored_label(
            palette::egui(crate::app::views::colors::WARNING),
            format!("{} line(s) skipped; line {line}: {cause}", skipped.len()),
        );
    }
}

fn claim(ui: &mut Ui, text: &str) {
    ui.label(RichText::new(text).italics().small());
}

/// One timing figure: median and mean per query against x (the worst case on a log axis: it
/// spans orders of magnitude). The rate sweep is plotted at the measured rate.
fn time_plot(ui: &mut Ui, s: Sweep, rows: &[Row]) {
    ui.label(RichText::new(s.title()).strong());
    if let Some(c) = s.thesis_claim() {
        claim(ui, c);
    }
    if rows.is_empty() {
        ui.label(RichText::new("(no rows for this figure)").small());
        return;
    }
    let log = s == Sweep::WorstCase;
    let y = |v: f64| if log { v.max(1e-3).log10() } else { v };
    let x = |r: &Row| {
        if s == Sweep::ThesisRate {
            r.collision_rate * 100.0
        } else {
            r.x
        }
    };
    let median: Vec<[f64; 2]> = rows.iter().map(|r| [x(r), y(r.median_us)]).collect();
    let mean: Vec<[f64; 2]> = rows.iter().map(|r| [x(r), y(r.mean_us)]).collect();
    let mut plot = egui_plot::Plot::new(("nurbs-thesis", s as u8))
        .height(140.0)
        .allow_scroll(false)
        .allow_drag(false)
        .x_axis_label(if s == Sweep::ThesisRate {
            "measured collision rate (%)"
        } else {
            s.x_label()
        })
        .y_axis_label(if log { "µs per query (log)" } else { "µs per query" });
    if log {
        plot = plot.y_axis_formatter(|m, _| format!("1e{}", m.value));
    } else {
        plot = plot.include_y(0.0);
    }
    plot.show(ui, |p| {
        let (a, b) = (palette::egui(palette::A), palette::egui(palette::B));
        p.line(egui_plot::Line::new("median", median.clone()).color(a));
        p.points(egui_plot::Points::new("median", median).radius(2.5).color(a));
        p.line(egui_plot::Line::new("mean", mean).color(b));
        if s == Sweep::ThesisDepth {
            // Where the thesis' plateau ends and its f32 climb starts, ours beside it.
            for x in [30.0, 55.0] {
                p.vline(
                    egui_plot::VLine::new("thesis plateau", x)
                        .color(Color32::GRAY)
                        .style(egui_plot::LineStyle::dashed_loose()),
                );
            }
        }
    });
    let queries: u64 = rows.iter().map(|r| r.queries).sum();
    ui.horizontal(|ui| {
        ui.label(
            RichText::new(format!("ours: {} points, {queries} queries", rows.len())).small(),
        );
        let small = |t: &str, c| RichText::new(t).small().color(palette::egui(c));
        ui.label(small("■ median", palette::A));
        ui.label(small("■ mean", palette::B));
        if s == Sweep::ThesisDepth {
            ui.label(RichText::new("┆ thesis' plateau 30–55").small());
        }
    });
}

/// One precision figure: each case's worst-hit error against the level, log error axis.
fn precision_plot(ui: &mut Ui, m: Motion, table: &PrecisionTable) {
    ui.label(RichText::new(m.title()).strong());
    claim(ui, m.thesis_claim());
    let series: Vec<(u8, Vec<[f64; 2]>)> = (1..=6u8)
        .map(|c| {
            let pts = table
                .series(c, m)
                .iter()
                .map(|r| [f64::from(r.level), r.error.max(ERROR_FLOOR).log10()])
                .collect();
            (c, pts)
        })
        .filter(|(_, pts): &(u8, Vec<[f64; 2]>)| !pts.is_empty())
        .collect();
    if series.is_empty() {
        ui.label(RichText::new("(no rows for this figure)").small());
        return;
    }
    ui.horizontal_wrapped(|ui| {
        for (c, _) in &series {
            ui.label(RichText::new(format!("■ case {c}")).color(CASE_COLORS[usize::from(*c) - 1]));
        }
    });
    egui_plot::Plot::new(("nurbs-precision", m as u8))
        .height(160.0)
        .allow_scroll(false)
        .allow_drag(false)
        .x_axis_label("recursion level")
        .y_axis_label("error (log10, world units)")
        .y_axis_formatter(|g, _| format!("1e{}", g.value))
        .show(ui, |p| {
            for (c, pts) in &series {
                let color = CASE_COLORS[usize::from(*c) - 1];
                let name = format!("case {c}");
                p.line(egui_plot::Line::new(name.clone(), pts.clone()).color(color));
                p.points(egui_plot::Points::new(name, pts.clone()).radius(2.0).color(color));
            }
        });
    let points: usize = series.iter().map(|(_, p)| p.len()).sum();
    ui.label(
        RichText::new(format!(
            "ours: {} cases, {points} points (worst hit's distance to the analytic contact)",
            series.len()
        ))
        .small(),
    );
}

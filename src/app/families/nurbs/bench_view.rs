//! The "Benchmarks" section: the thesis' three timing curves from the bench's CSV, one plot
//! per sweep (median and mean query time against x). The file is read when the section is
//! first opened and again on request, not every frame.

use super::bench::{self, BenchTable, Sweep};
use super::palette;
use egui::Ui;

#[derive(Default)]
pub struct BenchView {
    /// The parse result, once read.
    pub table: Option<Result<BenchTable, String>>,
}

impl BenchView {
    pub fn show(&mut self, ui: &mut Ui) {
        if self.table.is_none() {
            self.reload();
        }
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(bench::CSV_PATH).monospace().small());
            if ui.button("Reload").clicked() {
                self.reload();
            }
        });
        match &self.table {
            None => {}
            Some(Err(e)) => {
                ui.label(format!("No bench results to plot ({e})."));
                ui.label("Run this in the crate's folder to make them:");
                ui.label(egui::RichText::new(bench::BENCH_COMMAND).monospace());
            }
            Some(Ok(t)) => plots(ui, t),
        }
    }

    fn reload(&mut self) {
        self.table = Some(bench::load(std::path::Path::new(bench::CSV_PATH)));
    }
}

fn plots(ui: &mut Ui, t: &BenchTable) {
    if !t.skipped.is_empty() {
        let first = &t.skipped[0];
        ui.colored_label(
            palette::egui(crate::app::views::colors::WARNING),
            format!(
                "{} line(s) skipped; line {}: {}",
                t.skipped.len(),
                first.0,
                first.1
            ),
        );
    }
    for s in Sweep::ALL {
        let rows = t.sweep(s);
        ui.label(egui::RichText::new(s.title()).strong());
        if rows.is_empty() {
            ui.label(egui::RichText::new("(no rows for this sweep)").small());
            continue;
        }
        let median: Vec<[f64; 2]> = rows.iter().map(|r| [r.x, r.median_us]).collect();
        let mean: Vec<[f64; 2]> = rows.iter().map(|r| [r.x, r.mean_us]).collect();
        egui_plot::Plot::new(format!("nurbs-bench-{s:?}"))
            .height(130.0)
            .include_y(0.0)
            .allow_scroll(false)
            .allow_drag(false)
            .x_axis_label(s.x_label())
            .y_axis_label("µs per query")
            .legend(egui_plot::Legend::default())
            .show(ui, |p| {
                p.line(
                    egui_plot::Line::new("median", median.clone()).color(palette::egui(palette::A)),
                );
                p.points(
                    egui_plot::Points::new("", median)
                        .radius(2.5)
                        .color(palette::egui(palette::A)),
                );
                p.line(egui_plot::Line::new("mean", mean).color(palette::egui(palette::B)));
            });
        let worst = rows.iter().map(|r| r.median_us).fold(0.0, f64::max);
        let queries: u64 = rows.iter().map(|r| r.queries).sum();
        ui.label(
            egui::RichText::new(format!(
                "{} points, {queries} queries; slowest median {worst:.2} µs",
                rows.len()
            ))
            .small(),
        );
    }
}

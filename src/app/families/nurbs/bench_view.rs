//! The "Benchmarks" section: the thesis' three timing curves from the bench's CSVs, one plot
//! per sweep, the median query time of each method against x, side by side. The file is read when the section is
//! first opened and again on request, not every frame.

use super::bench::{self, BenchTable, Sweep};
use super::palette;
use crate::app::viewport::draw_list::Rgba;
use egui::Ui;

/// The bench's four series, each its own CSV in the same format: the thesis' query (nothing
/// precomputed), the query on cached subdivision trees, a fresh tree per query, and the
/// polygonal reference. Only the first is required.
const SERIES: [(&str, &str, Rgba); 4] = [
    (bench::CSV_PATH, "cold: nothing precomputed", palette::A),
    ("bench-results/nurbs-warm.csv", "warm: cached subdivision trees", palette::HIT),
    ("bench-results/nurbs-fresh.csv", "fresh trees + query", palette::SEPARATED),
    ("bench-results/nurbs-reference.csv", "polygonal reference (BVH built once)", palette::B),
];

#[derive(Default)]
pub struct BenchView {
    /// The parse result of the cold series, once read.
    pub table: Option<Result<BenchTable, String>>,
    /// The other series that were found and parsed, by index in `SERIES`.
    others: Vec<(usize, BenchTable)>,
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
            Some(Ok(t)) => plots(ui, t, &self.others),
        }
    }

    fn reload(&mut self) {
        let load = |path: &str| bench::load(std::path::Path::new(path));
        self.table = Some(load(SERIES[0].0));
        // A series the bench did not write (an older run) is left out of the plots.
        self.others = (1..SERIES.len())
            .filter_map(|i| load(SERIES[i].0).ok().map(|t| (i, t)))
            .collect();
    }
}

fn plots(ui: &mut Ui, cold: &BenchTable, others: &[(usize, BenchTable)]) {
    if !cold.skipped.is_empty() {
        let first = &cold.skipped[0];
        ui.colored_label(
            palette::egui(crate::app::views::colors::WARNING),
            format!(
                "{} line(s) skipped; line {}: {}",
                cold.skipped.len(),
                first.0,
                first.1
            ),
        );
    }
    let series: Vec<(usize, &BenchTable)> = std::iter::once((0, cold))
        .chain(others.iter().map(|(i, t)| (*i, t)))
        .collect();
    // One legend for the three plots, above them: inside a plot it hid the curves.
    ui.horizontal_wrapped(|ui| {
        for &(i, _) in &series {
            let (_, name, color) = SERIES[i];
            ui.label(egui::RichText::new(format!("■ {name}")).color(palette::egui(color)));
        }
    });
    for s in Sweep::ALL {
        let rows = cold.sweep(s);
        ui.label(egui::RichText::new(s.title()).strong());
        if rows.is_empty() {
            ui.label(egui::RichText::new("(no rows for this sweep)").small());
            continue;
        }
        egui_plot::Plot::new(format!("nurbs-bench-{s:?}"))
            .height(150.0)
            .include_y(0.0)
            .allow_scroll(false)
            .allow_drag(false)
            .x_axis_label(s.x_label())
            .y_axis_label("median µs per query")
            .show(ui, |p| {
                for &(i, table) in &series {
                    let (_, name, color) = SERIES[i];
                    let median: Vec<[f64; 2]> =
                        table.sweep(s).iter().map(|r| [r.x, r.median_us]).collect();
                    if median.is_empty() {
                        continue;
                    }
                    let color = palette::egui(color);
                    p.line(egui_plot::Line::new(name, median.clone()).color(color));
                    p.points(egui_plot::Points::new(name, median).radius(2.5).color(color));
                }
            });
        let worst = rows.iter().map(|r| r.median_us).fold(0.0, f64::max);
        let queries: u64 = rows.iter().map(|r| r.queries).sum();
        ui.label(
            egui::RichText::new(format!(
                "cold: {} points, {queries} queries; slowest median {worst:.2} µs",
                rows.len()
            ))
            .small(),
        );
    }
}

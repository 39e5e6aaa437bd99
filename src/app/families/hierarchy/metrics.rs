//! The tree's metrics in numbers and two histograms.

use crate::app::views::colors;
use crate::bvh::TreeStats;
use egui::{RichText, Ui};

pub fn metrics(ui: &mut Ui, stats: &TreeStats, tested: &[u32]) {
    let s = &stats.summary;
    let touched = tested.iter().filter(|&&t| t > 0).count();
    let rows = [
        ("nodes / leaves", format!("{} / {}", s.nodes, s.leaves)),
        (
            "depth max / mean",
            format!("{} / {:.2}", s.depth_max, s.depth_mean),
        ),
        ("SAH cost", format!("{:.4}", s.sah_cost)),
        (
            "sibling overlap (m³)",
            format!("{:.5}", s.sibling_overlap_volume),
        ),
        (
            "memory",
            format!("{:.1} KiB", s.memory_bytes as f64 / 1024.0),
        ),
        ("nodes tested this frame", format!("{touched}")),
    ];
    crate::app::widgets::grid::grid(ui, "tree-metrics", &rows);
    ui.columns(2, |cols| {
        histogram(
            &mut cols[0],
            "depth-hist",
            "Leaves per depth",
            &stats.depth_histogram,
        );
        histogram(
            &mut cols[1],
            "size-hist",
            "Leaves per size (triangles)",
            &stats.leaf_size_histogram,
        );
    });
}

fn histogram(ui: &mut Ui, id: &str, title: &str, counts: &[u32]) {
    ui.label(RichText::new(title).small());
    let bars: Vec<egui_plot::Bar> = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| egui_plot::Bar::new(i as f64, c as f64).width(0.8))
        .collect();
    egui_plot::Plot::new(id)
        .height(80.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .include_y(0.0)
        .show_x(true)
        .show(ui, |p| {
            p.bar_chart(
                egui_plot::BarChart::new(title, bars)
                    .color(colors::egui(super::COLOR)),
            );
        });
}

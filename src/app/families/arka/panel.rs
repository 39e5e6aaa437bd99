//! The Arka3D panel: the frame's counters, the scene's ablation switches (read-only), the
//! frame's bounces and recoveries in words, and the counters over the run.

use crate::app::widgets::grid::grid;
use crate::arka::{ArkaEvent, ArkaFrame, ArkaScene, ArkaCounters};
use crate::trace::{EventKind, TraceEvent, Verdict};
use crate::family::FamilyEvent;
use egui::Ui;

pub fn counters(ui: &mut Ui, frame: &ArkaFrame) {
    ui.strong("This frame");
    let rows: Vec<(String, String)> = frame
        .counters
        .named()
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    grid(ui, "arka-counters", &rows);
}

pub fn switches(ui: &mut Ui, scene: &ArkaScene) {
    ui.strong("Ablation switches (set by the scene)");
    let on = |b: bool| if b { "on" } else { "OFF" };
    let s = scene.switches;
    grid(
        ui,
        "arka-switches",
        &[
            ("space division (3×3×3 cells)", on(s.space_division)),
            ("orientation culling", on(s.orientation_culling)),
            ("distance early exit", on(s.distance_early_exit)),
        ],
    );
}

/// The frame's bounces and recoveries, one line each.
pub fn happenings(ui: &mut Ui, events: &[TraceEvent]) {
    let lines: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Arka(a @ (ArkaEvent::Bounce { .. } | ArkaEvent::Recovery { .. })) => {
                Some(a.summary(Verdict::Info))
            }
            _ => None,
        })
        .collect();
    if lines.is_empty() {
        ui.weak("No bounce and no recovery in this frame.");
    }
    for l in lines {
        if l.starts_with("RECOVERY") {
            ui.colored_label(egui::Color32::from_rgb(230, 60, 60), l);
        } else {
            ui.label(l);
        }
    }
}

/// Bounces, recoveries and tested facets per frame over the run.
pub fn plot(ui: &mut Ui, series: &[(u64, ArkaCounters)], cursor: u64) {
    let line = |f: fn(&ArkaCounters) -> u32| -> Vec<[f64; 2]> {
        series.iter().map(|(i, c)| [*i as f64, f(c) as f64]).collect()
    };
    egui_plot::Plot::new("arka-counters-plot")
        .height(140.0)
        .include_y(0.0)
        .allow_scroll(false)
        .allow_drag(false)
        .legend(egui_plot::Legend::default())
        .x_axis_label("frame")
        .show(ui, |p| {
            p.line(egui_plot::Line::new("facets tested", line(|c| c.treated)));
            p.line(egui_plot::Line::new(
                "bounces",
                line(|c| c.face_bounces + c.corner_bounces),
            ));
            p.line(egui_plot::Line::new("recoveries", line(|c| c.recoveries())));
            p.vline(egui_plot::VLine::new("frame", cursor as f64));
        });
}

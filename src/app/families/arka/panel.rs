//! The Arka3D panel: the step, the colour key of the regions, the frame's bounces and
//! recoveries in words (the one stepped to first), the frame's counters, the scene's
//! switches (read-only) and the counters over the run.

use super::draw::{PADDLE, RECOVERY, region_color};
use crate::app::viewport::draw_list::Rgba;
use crate::app::widgets::grid::grid;
use crate::arka::{ArkaCounters, ArkaEvent, ArkaFrame, ArkaScene, Region};
use crate::family::FamilyEvent;
use crate::trace::{EventKind, TraceEvent, Verdict};
use egui::{Color32, Ui};

fn color32(c: Rgba) -> Color32 {
    let b = |x: f32| (x.clamp(0.0, 1.0) * 255.0) as u8;
    Color32::from_rgb(b(c[0]), b(c[1]), b(c[2]))
}

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

/// The step's length, and whose clock set it.
pub fn step(ui: &mut Ui, scene: &ArkaScene, frame: &ArkaFrame) {
    let clock = if scene.switches.frame_rate_step {
        "the thesis' frame-rate clock: as long as the previous step's work"
    } else {
        "fixed"
    };
    ui.label(format!("Step: {:.1} ms ({clock})", frame.step_s * 1e3));
}

/// What the colours of the bounces mean.
pub fn region_key(ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Bounce decided in the");
        for region in [Region::Face, Region::Edge, Region::Vertex] {
            ui.colored_label(color32(region_color(region)), region.describe());
        }
        ui.colored_label(color32(PADDLE), "paddle");
        ui.colored_label(color32(RECOVERY), "recovery");
    });
}

pub fn switches(ui: &mut Ui, scene: &ArkaScene) {
    ui.strong("Switches (set by the scene)");
    let on = |b: bool| if b { "on" } else { "OFF" };
    let s = scene.switches;
    grid(
        ui,
        "arka-switches",
        &[
            ("space division (3×3×3 cells)", on(s.space_division)),
            ("orientation culling", on(s.orientation_culling)),
            ("distance early exit", on(s.distance_early_exit)),
            ("frame-rate step (thesis)", if s.frame_rate_step { "ON" } else { "off" }),
            ("single precision (thesis)", if s.single_precision { "ON" } else { "off" }),
        ],
    );
}

/// The frame's bounces and recoveries, one line each, the one stepped to first and marked.
pub fn happenings(ui: &mut Ui, events: &[TraceEvent], current: Option<usize>) {
    let lines: Vec<(usize, Rgba, String)> = events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let EventKind::Arka(a) = &e.kind else {
                return None;
            };
            let color = match a {
                ArkaEvent::Bounce { region, .. } => region_color(*region),
                ArkaEvent::Paddle { .. } => PADDLE,
                ArkaEvent::Recovery { .. } => RECOVERY,
                _ => return None,
            };
            Some((i, color, a.summary(Verdict::Info)))
        })
        .collect();
    if lines.is_empty() {
        ui.weak("No bounce and no recovery in this frame.");
        return;
    }
    let picked = lines.iter().find(|l| Some(l.0) == current);
    if let Some((i, color, text)) = picked {
        ui.colored_label(color32(*color), format!("▶ event {i}: {text}"));
    }
    for (i, color, text) in &lines {
        if Some(*i) != current {
            ui.colored_label(color32(*color), format!("event {i}: {text}"));
        }
    }
}

/// Bounces, recoveries, tested facets and (with the frame-rate switch, where it varies) the
/// step in ms per frame over the run.
pub fn plot(ui: &mut Ui, series: &[(u64, ArkaCounters, f64)], cursor: u64, with_step: bool) {
    let line = |f: &dyn Fn(&ArkaCounters, f64) -> f64| -> Vec<[f64; 2]> {
        series.iter().map(|(i, c, s)| [*i as f64, f(c, *s)]).collect()
    };
    egui_plot::Plot::new("arka-counters-plot")
        .height(140.0)
        .include_y(0.0)
        .allow_scroll(false)
        .allow_drag(false)
        .legend(egui_plot::Legend::default())
        .x_axis_label("frame")
        .show(ui, |p| {
            p.line(egui_plot::Line::new(
                "facets tested",
                line(&|c, _| c.treated as f64),
            ));
            p.line(egui_plot::Line::new(
                "bounces",
                line(&|c, _| (c.face_bounces + c.corner_bounces) as f64),
            ));
            p.line(egui_plot::Line::new(
                "recoveries",
                line(&|c, _| c.recoveries() as f64),
            ));
            if with_step {
                p.line(egui_plot::Line::new("step (ms)", line(&|_, s| s * 1e3)));
            }
            // No name: the playhead is not a series and stays out of the legend.
            p.vline(egui_plot::VLine::new("", cursor as f64));
        });
}

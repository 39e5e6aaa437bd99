//! A captured event in the inspector: the stage and label as the engine wrote them, the
//! engine bodies it names (ids and names), its colliders and its values.

use super::data;
use crate::app::families::FamilyContext;
use crate::app::widgets::grid::grid;
use crate::capture::{CaptureEvent, CaptureScene, body_label};
use crate::trace::TraceEvent;
use egui::Ui;

/// The rows shown for an event (also read by the tests).
pub fn rows(scene: Option<&CaptureScene>, e: &TraceEvent, ev: &CaptureEvent) -> Vec<(String, String)> {
    let mut rows = vec![
        ("stage (engine's word)".to_string(), ev.stage.clone()),
        ("step stage".to_string(), e.stage.name().to_string()),
        ("label".to_string(), ev.label.clone()),
    ];
    for (k, &b) in ev.bodies.iter().enumerate() {
        let name = scene
            .and_then(|s| s.bodies.get(b as usize))
            .map_or_else(|| format!("body #{b}"), body_label);
        rows.push((format!("body {}", k + 1), name));
    }
    if let Some(scene) = scene {
        for &c in &ev.colliders {
            let id = scene
                .collider(c)
                .map_or_else(|| format!("#{c}"), |x| x.id.to_string());
            let shape = data::shape_of(scene, c).map_or_else(String::new, |s| {
                format!(" · {}", data::shape_text(s))
            });
            rows.push(("collider".to_string(), format!("{id}{shape}")));
        }
    }
    for (k, v) in &ev.values {
        rows.push((k.clone(), v.to_string()));
    }
    rows
}

pub fn show(ui: &mut Ui, cx: &FamilyContext, e: &TraceEvent, ev: &CaptureEvent) {
    ui.label(
        egui::RichText::new(format!("Captured event: {} — {}", ev.stage, ev.label)).strong(),
    );
    grid(ui, "capture-event", &rows(data::scene(cx), e, ev));
}

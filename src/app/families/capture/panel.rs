//! The captured run's side panel: which engine, which stages it sent (the others "not
//! captured"), the step's engine frame and state hash, the run's first contact and deepest
//! penetration, the legend of the 3D view with the impulse scale, then the step's pairs,
//! contacts and bodies, and the stream's skipped lines.

use super::CaptureView;
use super::data;
use super::draw::{self, Drawn};
use super::tables;
use crate::app::families::{FamilyContext, NOT_CAPTURED};
use crate::app::state::Command;
use crate::app::views::colors;
use crate::app::widgets::grid::grid;
use crate::app::widgets::prose::prose;
use crate::capture::{CaptureFrame, CaptureScene, Captured};
use egui::{RichText, Ui};

pub fn show(view: &mut CaptureView, ui: &mut Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
    let Some(scene) = data::scene(cx) else {
        prose(ui, "This session is not a captured run.");
        return;
    };
    let step = data::step(cx);
    header(ui, cx, scene, step.map(|(_, cf)| cf));
    ui.separator();
    run_marks(view, ui, cx, out);
    ui.separator();
    super::audit_panel::show(view, ui, cx, out);
    ui.separator();
    legend(view, ui);
    ui.separator();
    let Some((frame, cf)) = step else {
        prose(ui, "No step received yet.");
        stream_log(ui, cx);
        return;
    };
    let captured = data::captured(scene, Some(cf));
    let rows = data::contacts(frame, cf);
    tables::contacts(ui, scene, &rows, captured, out);
    tables::pairs(ui, scene, cf, captured, out);
    tables::bodies(ui, scene, frame, cf, out);
    ui.separator();
    stages(ui, captured);
    stream_log(ui, cx);
}

/// The engine, the step and its hash.
fn header(ui: &mut Ui, cx: &FamilyContext, scene: &CaptureScene, cf: Option<&CaptureFrame>) {
    ui.label(RichText::new(format!("Captured from {}", scene.engine)).strong());
    let mut rows = vec![(
        "step".to_string(),
        format!(
            "{} of {}",
            cx.state.playhead.frame,
            cx.state.frame_count().saturating_sub(1)
        ),
    )];
    if let Some(cf) = cf {
        rows.push(("engine frame".into(), cf.engine_frame.to_string()));
        rows.push((
            "engine state hash".into(),
            cf.state_hash.clone().unwrap_or_else(|| "not sent".into()),
        ));
    }
    grid(ui, "capture-step", &rows);
    ui.weak(format!(
        "Replayed as captured: {}.",
        crate::app::state::session::REPLAY_ONLY_WHY
    ));
}

/// Which stages the engine sent so far; the rest are not captured (not zero).
fn stages(ui: &mut Ui, captured: Captured) {
    const WORDS: [(&str, Captured); 8] = [
        ("body states", Captured::STATES),
        ("velocities", Captured::VELOCITIES),
        ("broad-phase pairs", Captured::PAIRS),
        ("contacts", Captured::CONTACTS),
        ("contact impulses", Captured::IMPULSES),
        ("free events", Captured::EVENTS),
        ("sleeping", Captured::SLEEPING),
        ("CCD flags", Captured::CCD),
    ];
    egui::CollapsingHeader::new("Stages captured")
        .id_salt("capture-stages")
        .default_open(true)
        .show(ui, |ui| {
            let mut rows: Vec<(String, String)> = WORDS
                .iter()
                .map(|(w, c)| {
                    let v = if captured.has(*c) { "captured" } else { NOT_CAPTURED };
                    ((*w).to_string(), v.to_string())
                })
                .collect();
            rows.push(("stage timings".into(), NOT_CAPTURED.into()));
            rows.push(("narrow-phase tests".into(), NOT_CAPTURED.into()));
            rows.push(("masses, kinetic energy".into(), NOT_CAPTURED.into()));
            grid(ui, "capture-stages-grid", &rows);
        });
}

/// The frame of the run's first contact and of its deepest penetration.
fn marks(cx: &FamilyContext) -> (Option<usize>, Option<(usize, f32)>) {
    let Some(session) = cx.session() else {
        return (None, None);
    };
    let s = session.summaries();
    let first = s.iter().position(|x| x.contacts > 0);
    let deepest = s
        .iter()
        .enumerate()
        .filter(|(_, x)| x.max_penetration_m.is_finite() && x.max_penetration_m > 0.0)
        .map(|(i, x)| (i, x.max_penetration_m))
        // The first of equal depths: where it was reached.
        .reduce(|best, x| if x.1 > best.1 { x } else { best });
    (first, deepest)
}

fn run_marks(view: &mut CaptureView, ui: &mut Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
    let (first, deepest) = marks(cx);
    ui.horizontal_wrapped(|ui| {
        match first {
            Some(f) => {
                if ui
                    .button(format!("→ first contact (step {f})"))
                    .on_hover_text("Go to the run's first step with a contact, the camera on it")
                    .clicked()
                {
                    out.push(Command::SeekFrame(f));
                    view.refocus += 1;
                }
            }
            None => {
                ui.weak("No contact in the run (so far)");
            }
        }
        if let Some((f, depth)) = deepest
            && ui
                .button(format!("→ deepest penetration: {depth:.4} m (step {f})"))
                .on_hover_text("Go to the step with the run's deepest contact, the camera on it")
                .clicked()
        {
            out.push(Command::SeekFrame(f));
            view.refocus += 1;
        }
        if ui
            .button("Frame the contacts")
            .on_hover_text("Point the camera at this step's contacts")
            .clicked()
        {
            view.refocus += 1;
        }
    });
}

/// A colour swatch, then the switch of what is drawn in it.
fn switch(ui: &mut Ui, color: [f32; 4], on: &mut bool, text: String) {
    ui.label(RichText::new("■").color(colors::egui(color)));
    ui.checkbox(on, text);
}

/// What the 3D view's colours mean, the impulse scale, and their switches.
fn legend(view: &mut CaptureView, ui: &mut Ui) {
    let d: Drawn = view.drawn;
    let t = &mut view.toggles;
    ui.horizontal_wrapped(|ui| {
        switch(ui, draw::CONTACT, &mut t.contacts, format!("contact points ({})", d.contacts));
        ui.label(RichText::new("■").color(colors::egui(draw::NORMAL)));
        ui.label(format!("their normals ({} m)", data::number(d.normal_m, 2)));
    });
    ui.horizontal_wrapped(|ui| {
        let scale = match d.scale {
            Some(s) => format!(
                "normal impulses ({}): the largest, {}, is drawn {} m long",
                d.arrows,
                data::number(s.largest, 4),
                data::number(s.length_m, 2)
            ),
            None => "normal impulses: none this step".to_string(),
        };
        switch(ui, draw::IMPULSE, &mut t.impulses, scale);
    });
    ui.horizontal_wrapped(|ui| {
        let touching = format!("pairs touching ({})", d.pairs_touching);
        switch(ui, draw::TOUCHING, &mut t.pairs, touching);
        let apart = format!("pairs apart ({})", d.pairs_apart);
        switch(ui, draw::APART, &mut t.apart_pairs, apart);
    });
    ui.horizontal_wrapped(|ui| {
        switch(ui, draw::CCD, &mut t.ccd, format!("CCD active ({})", d.ccd_bodies));
        ui.checkbox(&mut t.labels, "labels");
        ui.checkbox(&mut t.fade_bodies, "fade bodies");
    });
    ui.weak("Tangent impulses are in the table: the stream gives no tangent directions.");
}

/// Lines the stream skipped, and a live capture's connections.
fn stream_log(ui: &mut Ui, cx: &FamilyContext) {
    let Some(log) = cx.session().and_then(|s| s.stream.as_ref()) else {
        return;
    };
    for note in &log.notes {
        ui.weak(note);
    }
    if log.skipped_total == 0 && log.warnings.is_empty() {
        return;
    }
    let title = format!("Stream lines skipped ({})", log.skipped_total);
    egui::CollapsingHeader::new(RichText::new(title).color(colors::egui(colors::WARNING)))
        .id_salt("capture-skipped")
        .default_open(true)
        .show(ui, |ui| {
            for e in &log.skipped {
                ui.label(RichText::new(e.to_string()).monospace());
            }
            if log.skipped_total > log.skipped.len() as u64 {
                ui.weak(format!(
                    "… and {} more",
                    log.skipped_total - log.skipped.len() as u64
                ));
            }
            for w in &log.warnings {
                ui.weak(format!("note: {w}"));
            }
            for (what, n, first) in &log.unknown {
                ui.weak(format!("ignored: {what} on {n} line(s), first line {first}"));
            }
        });
}

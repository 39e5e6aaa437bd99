//! The audit in the captured run's panel: how far it got, the findings counted per check,
//! the shown step's findings with their sentences, then every finding as a row
//! "step N · check · ids · ours vs theirs (tolerance)"; a click on a row goes to its step,
//! selects its pair (or body) and frames the camera on it.

use super::CaptureView;
use crate::app::families::FamilyContext;
use crate::app::state::audit::AuditRun;
use crate::app::state::{Command, Selection};
use crate::app::views::colors;
use crate::audit::{Check, Finding};
use egui::{RichText, Ui};

/// Rows listed at most: past them the list says how many more (the timeline shows them all).
const ROWS: usize = 500;

pub fn show(view: &mut CaptureView, ui: &mut Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
    let Some(audit) = cx.session().and_then(|s| s.audit.as_ref()) else {
        return;
    };
    egui::CollapsingHeader::new(RichText::new("Audit by our algorithms").strong())
        .id_salt("capture-audit")
        .default_open(true)
        .show(ui, |ui| {
            status(ui, audit);
            counts(ui, audit);
            this_step(ui, cx, audit);
            rows(view, ui, audit, out);
        });
}

fn status(ui: &mut Ui, audit: &AuditRun) {
    let n = audit.findings.len();
    let s = if n == 1 { "" } else { "s" };
    let text = format!("{n} finding{s}");
    let color = if n == 0 {
        colors::NORMAL
    } else {
        colors::WARNING
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(text).strong().color(colors::egui(color)));
        let how = if let Some(why) = &audit.failed {
            format!("the audit stopped: {why}")
        } else if audit.is_working() {
            format!("auditing… {} steps so far", audit.steps)
        } else {
            format!(
                "in {} steps, {} pair checks (default tolerances)",
                audit.steps, audit.pairs_checked
            )
        };
        ui.weak(how);
    });
}

fn counts(ui: &mut Ui, audit: &AuditRun) {
    let mut per: Vec<(Check, usize)> = Check::ALL
        .iter()
        .map(|&c| (c, audit.findings.iter().filter(|f| f.check == c).count()))
        .filter(|(_, n)| *n > 0)
        .collect();
    per.sort_by_key(|(c, _)| *c);
    if per.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        for (c, n) in per {
            ui.label(RichText::new("▲").color(colors::egui(colors::audit(c))));
            ui.label(format!("{} {n}", c.name()));
        }
    });
}

/// The findings at the playhead, each with its sentence.
fn this_step(ui: &mut Ui, cx: &FamilyContext, audit: &AuditRun) {
    let Some(frame) = cx.frame() else {
        return;
    };
    let here: Vec<&Finding> = audit.at_frame(frame.index).map(|(_, f)| f).collect();
    if here.is_empty() {
        ui.weak("No finding at this step.");
        return;
    }
    for f in here {
        ui.label(
            RichText::new(format!("▲ {}: {}", f.check.name(), f.sentence))
                .color(colors::egui(colors::audit(f.check))),
        );
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("●").color(colors::egui(colors::OURS)));
        ui.label("ours (our exact narrow phase)");
        ui.label(RichText::new("●").color(colors::egui(colors::ENGINE)));
        ui.label("engine's; bars: each side's depth along its normal");
    });
}

fn rows(view: &mut CaptureView, ui: &mut Ui, audit: &AuditRun, out: &mut Vec<Command>) {
    if audit.findings.is_empty() {
        return;
    }
    egui::ScrollArea::vertical()
        .id_salt("capture-audit-rows")
        .max_height(220.0)
        .show(ui, |ui| {
            for (i, f) in audit.findings.iter().enumerate().take(ROWS) {
                let text = RichText::new(row_text(f))
                    .monospace()
                    .color(colors::egui(colors::audit(f.check)));
                let r = ui
                    .selectable_label(view.audit_pick == Some(i), text)
                    .on_hover_text(&f.sentence);
                if r.clicked() {
                    view.audit_pick = Some(i);
                    view.audit_refocus += 1;
                    out.push(Command::SeekFrame(f.frame as usize));
                    out.push(Command::Select(selection(f)));
                }
            }
            if audit.findings.len() > ROWS {
                ui.weak(format!("… and {} more", audit.findings.len() - ROWS));
            }
        });
}

/// "step 4 · depth · body B · collider c-B – body E · collider c-E · 0.1000 m vs 0.0100 m
/// (± 0.0050 m)".
pub fn row_text(f: &Finding) -> String {
    let unit = f.check.unit();
    let value = |v: Option<f64>| match v {
        Some(x) if unit.is_empty() => format!("{x}"),
        Some(x) => format!("{x:.4} {unit}"),
        None => "none".to_string(),
    };
    let tolerance = if unit.is_empty() {
        "any".to_string()
    } else {
        format!("± {:.4} {unit}", f.tolerance)
    };
    format!(
        "step {} · {} · {} · {} vs {} ({tolerance})",
        f.frame,
        f.check.name(),
        f.subject(),
        value(f.ours),
        value(f.theirs)
    )
}

pub fn selection(f: &Finding) -> Selection {
    match f.bodies[..] {
        [a, b, ..] => Selection::pair(a, b),
        [a] => Selection::Body(a),
        [] => Selection::None,
    }
}

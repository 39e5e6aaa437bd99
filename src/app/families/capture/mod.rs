//! The view of a run captured from another engine (Rapier, Jolt, a user's own) through the
//! capture stream: its bodies drawn as their shapes by the shell, and over them the step's
//! contact points, normals and impulse arrows, the broad-phase pairs and the bodies whose
//! continuous collision is active. The panel says which engine and which stages it sent
//! (the others "not captured", never zero), lists the step's pairs, contacts and bodies with
//! the engine's own ids, and jumps to the run's first contact and deepest penetration.
//!
//! - [`data`]: the engine's scene and step as the view reads them;
//! - [`draw`]: the 3D overlay; [`panel`], [`tables`]: the side panel;
//! - [`describe`]: a captured event in the inspector; [`outliner`]: the engine's bodies.

pub mod audit_draw;
pub mod audit_panel;
pub mod data;
pub mod describe;
pub mod draw;
pub mod outliner;
pub mod panel;
mod screenshot;
pub mod tables;

use super::{EventMark, FamilyContext, FamilyView, Measured, OutlinerGroup, Overlay};
use crate::app::state::Command;
use crate::app::views::colors;
use crate::capture::Captured;
use crate::record::Frame;
use crate::trace::{TraceEvent, Verdict};

#[derive(Default)]
pub struct CaptureView {
    pub toggles: draw::Toggles,
    /// What the last overlay drew, for the legend.
    pub drawn: draw::Drawn,
    /// Bumped to point the camera at the step's contacts.
    pub refocus: u64,
    focused: u64,
    /// The audit finding picked in the panel (an index in the audit's list).
    pub audit_pick: Option<usize>,
    /// Bumped to point the camera at the picked finding.
    pub audit_refocus: u64,
    audit_focused: u64,
}

impl FamilyView for CaptureView {
    fn family(&self) -> &'static str {
        <crate::capture::CaptureFamily as crate::family::EngineFamily>::NAME
    }

    /// Only where the scene carries the family's data.
    fn applies(&self, cx: &FamilyContext) -> bool {
        cx.has_data(self.family())
    }

    fn title(&self) -> &'static str {
        "Captured run"
    }

    fn about(&self) -> &'static str {
        "Another engine's run: its contacts, impulses, pairs, CCD and events, with its own ids"
    }

    fn color(&self) -> crate::app::viewport::draw_list::Rgba {
        [0.45, 0.85, 0.75, 1.0]
    }

    fn panel(&mut self, ui: &mut egui::Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
        panel::show(self, ui, cx, out);
    }

    fn overlay(&mut self, cx: &FamilyContext, out: &mut Overlay) {
        self.drawn = draw::overlay(cx, &self.toggles, &mut out.list);
        out.ghost_bodies = self.toggles.fade_bodies;
        let length = 2.0 * self.drawn.normal_m.max(0.05);
        let picked = audit_draw::overlay(cx, self.audit_pick, length, &mut out.list);
        // A row just clicked in the audit's list: the camera goes to its finding.
        let audit_focus = (self.audit_focused != self.audit_refocus && !picked.is_empty())
            .then(|| audit_draw::focus(&picked, length));
        let at = draw::current_event(cx, self.color(), &mut out.list);
        if let Some(focus) = audit_focus {
            self.audit_focused = self.audit_refocus;
            out.focus = focus;
        } else if !at.is_empty() {
            let r = draw::reference_length(cx, &[]);
            out.focus = super::Focus::around(&at, 2.0 * r);
        } else if self.focused != self.refocus {
            self.focused = self.refocus;
            out.focus = draw::contact_focus(cx);
        }
    }

    fn overlay_key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.toggles, self.refocus, self.audit_pick, self.audit_refocus).hash(&mut h);
        h.finish()
    }

    fn inspect_event(
        &mut self,
        ui: &mut egui::Ui,
        cx: &FamilyContext,
        _index: usize,
        event: &TraceEvent,
    ) {
        if let Some(ev) = data::event(event) {
            describe::show(ui, cx, event, ev);
        }
    }

    fn outliner_group(&mut self, cx: &FamilyContext) -> Option<OutlinerGroup> {
        outliner::group(cx)
    }

    fn event_marks(&mut self, cx: &FamilyContext, out: &mut Vec<EventMark>) {
        let Some(frame) = cx.frame() else {
            return;
        };
        for (i, e) in frame.trace.iter().enumerate() {
            let Some(ev) = data::event(e) else {
                continue;
            };
            let color = match e.verdict {
                Verdict::Info => self.color(),
                v => colors::verdict(v),
            };
            let summary = crate::family::FamilyEvent::summary(ev, e.verdict);
            let names: Vec<String> = ev.colliders.iter().map(|&c| cx.body_name(c)).collect();
            let text = if names.is_empty() {
                summary
            } else {
                format!("{summary} — {}", names.join(", "))
            };
            out.push(EventMark {
                event: i,
                color,
                text,
            });
        }
    }

    fn measured(&self, cx: &FamilyContext, frame: &Frame) -> Option<Measured> {
        let scene = data::scene(cx)?;
        let captured = data::captured(scene, data::frame_data(frame));
        Some(Measured {
            stage_times: false,
            narrow_tests: false,
            masses: false,
            pairs: captured.has(Captured::PAIRS),
            contacts: captured.has(Captured::CONTACTS),
        })
    }

    fn save_settings(&self) -> Option<String> {
        ron::to_string(&self.toggles).ok()
    }

    fn load_settings(&mut self, text: &str) {
        if let Ok(t) = ron::from_str(text) {
            self.toggles = t;
        }
    }

    fn prepare_screenshot(&mut self, setup: &mut super::ScreenshotSetup<'_>) {
        self.screenshot(setup);
    }
}

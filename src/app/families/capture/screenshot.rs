//! Screenshot mode for the captured-run view (see `scripts/screenshots.sh`), with
//! `COLLIDOSCOPE_SCREENSHOT_PANEL=capture` and `COLLIDOSCOPE_SCREENSHOT_CAPTURE`:
//! - `first-contact`: the run's first step with a contact;
//! - `deepest`: the step with the deepest penetration;
//! - `audit`: the first audit finding with both sides' contacts (else the first finding),
//!   picked as a click on its row picks it;
//! - `impulse` (or anything else): the step with the largest normal impulse (where a fast
//!   body meets the others).
//!
//! The camera is put on that step's contacts, and the shell's own contact dots make way for
//! the view's.

use super::CaptureView;
use super::data;
use crate::app::families::ScreenshotSetup;
use crate::app::state::Command;
use crate::record::Frame;

/// Steps read at most to find the one to show.
const SEARCHED: usize = 20_000;

fn score(which: &str, frame: &Frame) -> f64 {
    match which {
        "first-contact" => f64::from(u8::from(!frame.contacts.is_empty())),
        "deepest" => frame.counters.max_penetration_m,
        _ => data::frame_data(frame).map_or(0.0, |cf| {
            data::largest_impulse(&data::contacts(frame, cf)).unwrap_or(0.0)
        }),
    }
}

impl CaptureView {
    pub(super) fn screenshot(&mut self, setup: &mut ScreenshotSetup<'_>) {
        setup.settings.view.contacts = false;
        setup.settings.view.normals = false;
        self.refocus += 1;
        let Some(which) = setup.var("COLLIDOSCOPE_SCREENSHOT_CAPTURE") else {
            return;
        };
        if which == "audit" {
            self.screenshot_finding(setup);
            return;
        }
        let Some(session) = &setup.state.session else {
            return;
        };
        let mut best: Option<(usize, f64)> = None;
        for pos in 0..session.len().min(SEARCHED) {
            let Ok(frame) = session.frame(pos) else {
                continue;
            };
            let s = score(&which, &frame);
            if s > 0.0 && best.is_none_or(|(_, b)| s > b) {
                best = Some((pos, s));
                if which == "first-contact" {
                    break;
                }
            }
        }
        if let Some((pos, _)) = best {
            setup.state.apply(Command::SeekFrame(pos));
        }
    }

    /// Waits for the audit (a screenshot has time), then picks a finding.
    fn screenshot_finding(&mut self, setup: &mut ScreenshotSetup<'_>) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while let Some(session) = setup.state.session.as_mut() {
            session.poll_audit();
            let working = session.audit.as_ref().is_some_and(|a| a.is_working());
            if !working || std::time::Instant::now() > deadline {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let Some(audit) = setup.state.session.as_ref().and_then(|s| s.audit.as_ref()) else {
            return;
        };
        let both = |f: &&crate::audit::Finding| f.our_contact.is_some() && f.their_contact.is_some();
        let found = audit.findings.iter().position(|f| both(&f)).or((!audit.findings.is_empty()).then_some(0));
        let Some(i) = found else {
            return;
        };
        let f = &audit.findings[i];
        let (frame, selection) = (f.frame as usize, super::audit_panel::selection(f));
        self.audit_pick = Some(i);
        self.audit_refocus += 1;
        setup.state.apply(Command::SeekFrame(frame));
        setup.state.apply(Command::Select(selection));
    }
}

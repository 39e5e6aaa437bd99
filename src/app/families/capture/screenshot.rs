//! Screenshot mode for the captured-run view (see `scripts/screenshots.sh`), with
//! `COLLIDOSCOPE_SCREENSHOT_PANEL=capture` and `COLLIDOSCOPE_SCREENSHOT_CAPTURE`:
//! - `first-contact`: the run's first step with a contact;
//! - `deepest`: the step with the deepest penetration;
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
}

//! Screenshot mode for the Arka3D view (see `scripts/screenshots.sh`), with
//! `COLLIDOSCOPE_SCREENSHOT_PANEL=arka`:
//! - `COLLIDOSCOPE_SCREENSHOT_ARKA` `corner`: from the frame shown on, the first corner
//!   bounce (edge or vertex band), stepped to; `bounce`: the first bounce of any region;
//!   `recovery`: the first recovery.

use crate::app::families::ScreenshotSetup;
use crate::app::state::Command;
use crate::arka::{ArkaEvent, Region};
use crate::trace::{EventKind, TraceEvent};

pub(super) fn prepare(setup: &mut ScreenshotSetup<'_>) {
    let Some(which) = setup.var("COLLIDOSCOPE_SCREENSHOT_ARKA") else {
        return;
    };
    let wanted = |e: &TraceEvent| match &e.kind {
        EventKind::Arka(ArkaEvent::Bounce { region, .. }) => match which.as_str() {
            "corner" => *region != Region::Face,
            "bounce" => true,
            _ => false,
        },
        EventKind::Arka(ArkaEvent::Recovery { .. }) => which == "recovery",
        _ => false,
    };
    let start = setup.state.playhead.frame;
    let found = setup.state.session.as_ref().and_then(|s| {
        (start..s.len()).find_map(|f| {
            let frame = s.frame(f).ok()?;
            frame.trace.iter().position(wanted).map(|i| (f, i))
        })
    });
    if let Some((f, i)) = found {
        setup.settings.view.contacts = false;
        setup.settings.view.normals = false;
        setup.state.apply(Command::SeekFrame(f));
        setup.state.apply(Command::SeekEvent(Some(i)));
    }
}

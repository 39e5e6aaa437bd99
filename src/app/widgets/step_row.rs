//! "◀ step / step ▶": one event of the frame's trace back or on, as the timeline's event
//! buttons and Shift + ← / → do. A panel follows the pair with its own jumps on the same row
//! (the first test, the next inversion).

use crate::app::state::Command;
use egui::{RichText, Ui};

#[derive(Clone, Copy, Debug, Default)]
pub struct StepRow {
    keys_hint: bool,
}

impl StepRow {
    pub fn new() -> Self {
        Self::default()
    }

    /// Names the keys that step too, after the buttons.
    pub fn with_keys_hint(self) -> Self {
        Self { keys_hint: true }
    }

    /// Lays the row out, then `more` on it.
    pub fn show<R>(
        self,
        ui: &mut Ui,
        out: &mut Vec<Command>,
        more: impl FnOnce(&mut Ui, &mut Vec<Command>) -> R,
    ) -> R {
        ui.horizontal_wrapped(|ui| {
            if ui.button("◀ step").clicked() {
                out.push(Command::StepEvents(-1));
            }
            if ui.button("step ▶").clicked() {
                out.push(Command::StepEvents(1));
            }
            if self.keys_hint {
                ui.label(RichText::new("(Shift + ← / →)").small());
            }
            more(ui, out)
        })
        .inner
    }
}

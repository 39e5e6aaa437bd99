//! A picker for the scene's continuous-collision mode, shared by the fork dialog and the
//! continuous-collision panel (one widget, so both spell the modes alike).

use crate::scene::CcdMode;

/// Substeps offered when the user switches to `Substep` from another mode.
const DEFAULT_SUBSTEPS: u32 = 4;

/// What each mode does, for the tooltips.
pub fn explain(mode: &CcdMode) -> &'static str {
    match mode {
        CcdMode::Off => "Discrete steps: a fast body can pass through a thin one",
        CcdMode::Speculative => "Contacts within the distance a pair can close in one step",
        CcdMode::Substep(_) => "The step run n times with dt / n (supersampling)",
        CcdMode::Toi => "Fast bodies stop at their first time of impact",
    }
}

/// Radio buttons for the four modes and the substep count; true when the mode changed.
pub fn picker(ui: &mut egui::Ui, mode: &mut CcdMode) -> bool {
    let before = *mode;
    let substeps = match *mode {
        CcdMode::Substep(n) => n,
        _ => DEFAULT_SUBSTEPS,
    };
    ui.horizontal_wrapped(|ui| {
        for choice in [
            CcdMode::Off,
            CcdMode::Speculative,
            CcdMode::Substep(substeps),
            CcdMode::Toi,
        ] {
            let on = std::mem::discriminant(mode) == std::mem::discriminant(&choice);
            let name = match choice {
                CcdMode::Substep(_) => "Substep".to_string(),
                other => other.label(),
            };
            if ui.radio(on, name).on_hover_text(explain(&choice)).clicked() {
                *mode = choice;
            }
        }
        if let CcdMode::Substep(n) = mode {
            ui.add(
                egui::DragValue::new(n)
                    .range(1..=crate::scene::MAX_SUBSTEPS)
                    .suffix(" substeps"),
            )
            .on_hover_text("How many times each step is run");
        }
    });
    *mode != before
}

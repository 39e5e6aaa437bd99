//! Switches edited before a re-simulation (the BSP level's, the cloth's fixes, the NURBS
//! query's rules): the values being edited belong to the session they were made in, and the
//! row under them runs the scene again with them or puts back what the run used.

use super::FamilyContext;
use egui::Ui;

/// The edited values, tagged with the session generation they started from.
#[derive(Clone, Debug)]
pub struct SwitchEdits<T>(Option<(u64, T)>);

impl<T> Default for SwitchEdits<T> {
    fn default() -> Self {
        SwitchEdits(None)
    }
}

/// What the row under the switches asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowAction {
    Nothing,
    Resimulate,
}

impl<T: Copy + PartialEq> SwitchEdits<T> {
    /// The values being edited; a new session (another scene, or a re-simulation) starts them
    /// from what it `run` with.
    pub fn get(&mut self, cx: &FamilyContext, run: T) -> &mut T {
        let generation = cx.generation();
        if self.0.as_ref().is_none_or(|(g, _)| *g != generation) {
            self.0 = Some((generation, run));
        }
        &mut self.0.get_or_insert((generation, run)).1
    }

    /// The "Re-simulate" button (enabled when the edits differ from `run` and the session can
    /// run frames) and "reset" (shown when they differ, puts `run` back).
    pub fn row(
        &mut self,
        ui: &mut Ui,
        cx: &FamilyContext,
        run: T,
        label: &str,
        hover: &str,
    ) -> RowAction {
        let edited = *self.get(cx, run);
        let changed = edited != run;
        let replay_only = cx.session().is_none_or(|s| s.replay_only());
        let mut action = RowAction::Nothing;
        ui.horizontal_wrapped(|ui| {
            let button = ui
                .add_enabled(changed && !replay_only, egui::Button::new(label))
                .on_hover_text(hover);
            if button.clicked() {
                action = RowAction::Resimulate;
            }
            if changed && ui.small_button("reset").clicked() {
                self.0 = Some((cx.generation(), run));
            }
        });
        action
    }
}

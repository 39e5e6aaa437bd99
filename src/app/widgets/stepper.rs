//! Four buttons through a sequence of positions: to the first, one back, one on, to the last.
//! A button that would not move is greyed out.

use egui::Ui;

/// The buttons' labels and hover texts, in order: first, back, on, last.
pub struct Stepper<'a> {
    pub buttons: [(&'a str, &'a str); 4],
}

impl Stepper<'_> {
    /// The row at `position` of `0..=last`; where the pressed button goes, if one was.
    pub fn show(&self, ui: &mut Ui, position: usize, last: usize) -> Option<usize> {
        let targets = [
            0,
            position.saturating_sub(1),
            (position + 1).min(last),
            last,
        ];
        let mut to = None;
        ui.horizontal(|ui| {
            for ((text, hover), target) in self.buttons.iter().zip(targets) {
                if ui
                    .add_enabled(target != position, egui::Button::new(*text))
                    .on_hover_text(*hover)
                    .clicked()
                {
                    to = Some(target);
                }
            }
        });
        to
    }
}

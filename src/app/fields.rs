//! Name–value rows in a striped two-column grid: how the inspector and the family panels show
//! fields.

use egui::{RichText, Ui};

pub fn grid<K: AsRef<str>, V: AsRef<str>>(ui: &mut Ui, id: &str, rows: &[(K, V)]) {
    egui::Grid::new(id)
        .num_columns(2)
        .striped(true)
        .spacing([12.0, 3.0])
        .show(ui, |ui| {
            for (k, v) in rows {
                ui.label(RichText::new(k.as_ref()).weak());
                ui.label(RichText::new(v.as_ref()).monospace());
                ui.end_row();
            }
        });
}

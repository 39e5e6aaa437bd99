//! Names and their values in a striped two-column grid: how the inspector and the family
//! panels show fields. Names are quiet, values monospace so that numbers line up; a name may
//! carry what it means, shown on hovering the row.

use egui::{RichText, Ui};

/// Rows of (name, value).
pub fn grid<K: AsRef<str>, V: AsRef<str>>(ui: &mut Ui, id: &str, rows: &[(K, V)]) {
    show(
        ui,
        id,
        rows.iter().map(|(k, v)| (k.as_ref(), v.as_ref(), None)),
    );
}

/// Rows of (name, value, what the name means).
pub fn explained_grid<K, V, A>(ui: &mut Ui, id: &str, rows: &[(K, V, A)])
where
    K: AsRef<str>,
    V: AsRef<str>,
    A: AsRef<str>,
{
    show(
        ui,
        id,
        rows.iter()
            .map(|(k, v, a)| (k.as_ref(), v.as_ref(), Some(a.as_ref()))),
    );
}

fn show<'a>(
    ui: &mut Ui,
    id: &str,
    rows: impl Iterator<Item = (&'a str, &'a str, Option<&'a str>)>,
) {
    egui::Grid::new(id)
        .num_columns(2)
        .striped(true)
        .spacing([12.0, 3.0])
        .show(ui, |ui| {
            for (name, value, about) in rows {
                let name = ui.label(RichText::new(name).weak());
                let value = ui.label(RichText::new(value).monospace());
                if let Some(about) = about {
                    name.on_hover_text(about);
                    value.on_hover_text(about);
                }
                ui.end_row();
            }
        });
}

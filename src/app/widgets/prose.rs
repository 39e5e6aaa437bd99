//! Text that wraps at the side panel's visible edge. The family panel scrolls sideways for
//! wide tables, so a plain label is offered unbounded width and runs past the edge; setting
//! the wrap mode for the whole panel instead also wrapped its buttons' text (the hierarchy
//! view's "Child 1" stopped answering clicks).

/// A paragraph of the panel, wrapped at the panel's visible right edge.
pub fn prose(ui: &mut egui::Ui, text: impl Into<egui::WidgetText>) {
    within_edge(ui, |ui| ui.add(egui::Label::new(text).wrap()));
}

/// Runs `add` held to the panel's visible width, its texts wrapping (a legend row, a
/// checkbox with a sentence for its label).
pub fn within_edge<R>(ui: &mut egui::Ui, add: impl FnOnce(&mut egui::Ui) -> R) -> R {
    let width = (ui.clip_rect().right() - ui.cursor().left() - 8.0).max(160.0);
    ui.scope(|ui| {
        ui.set_max_width(width);
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
        add(ui)
    })
    .inner
}

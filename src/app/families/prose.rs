//! Text that wraps at the side panel's visible edge. The family panel scrolls sideways for
//! wide tables, so a plain label is offered unbounded width and runs past the edge; setting
//! the wrap mode for the whole panel instead also wrapped its buttons' text (the hierarchy
//! view's "Child 1" stopped answering clicks).

/// A paragraph of the panel, wrapped at the panel's visible right edge.
pub fn prose(ui: &mut egui::Ui, text: impl Into<egui::WidgetText>) {
    let width = (ui.clip_rect().right() - ui.cursor().left() - 8.0).max(160.0);
    ui.scope(|ui| {
        ui.set_max_width(width);
        ui.add(egui::Label::new(text).wrap());
    });
}

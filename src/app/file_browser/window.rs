//! The browser's window: the folder bar, recent folders beside the listing, the file name,
//! the filter and the buttons. Keys: Enter opens the selected entry (or confirms a typed
//! name), Escape cancels, the arrows move the selection.

use super::listing::{self, Filter};
use super::{Browsing, FileBrowser, Mode, Outcome};
use egui::{Key, Modifiers};
use std::path::PathBuf;

// Fixed sizes: a window sized from its available width grows a little every frame, and a
// click aimed at where a button was lands beside it.
const LIST_HEIGHT: f32 = 300.0;
const LIST_WIDTH: f32 = 540.0;
const RECENT_WIDTH: f32 = 190.0;

impl FileBrowser {
    /// Draws the browser when it is open; `Some` once the user has picked or cancelled.
    /// `recent` is the recent folders, newest first.
    pub fn show(&mut self, ctx: &egui::Context, recent: &[String]) -> Option<Outcome> {
        let b = self.current.as_mut()?;
        let mut outcome = b.keys(ctx);
        let mut open = true;
        if outcome.is_none() {
            egui::Window::new(b.title.clone())
                .id(egui::Id::unique("file-browser"))
                .open(&mut open)
                .collapsible(false)
                .resizable(false)
                .pivot(egui::Align2::CENTER_CENTER)
                .default_pos(ctx.content_rect().center())
                .show(ctx, |ui| outcome = b.ui(ui, recent));
        }
        if !open {
            outcome = Some(Outcome::Cancelled);
        }
        if outcome.is_some() {
            self.current = None;
        }
        outcome
    }
}

impl Browsing {
    /// Keys read before the widgets: those a focused text field does not take.
    fn keys(&mut self, ctx: &egui::Context) -> Option<Outcome> {
        // Escape cancels even from a text field (which it also leaves); the overwrite
        // question first, then the browser.
        if ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Escape)) {
            if self.overwrite.take().is_some() {
                return None;
            }
            return Some(Outcome::Cancelled);
        }
        if ctx.egui_wants_keyboard_input() {
            return None;
        }
        let (enter, up, down) = ctx.input_mut(|i| {
            (
                i.consume_key(Modifiers::NONE, Key::Enter),
                i.consume_key(Modifiers::NONE, Key::ArrowUp),
                i.consume_key(Modifiers::NONE, Key::ArrowDown),
            )
        });
        if up {
            self.move_selection(-1);
        }
        if down {
            self.move_selection(1);
        }
        if !enter {
            return None;
        }
        if self.overwrite.is_some() {
            return self.replace();
        }
        match self.selected {
            Some(i) => self.activate(i),
            None => self.confirm(),
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, recent: &[String]) -> Option<Outcome> {
        let mut outcome = self.folder_bar(ui);
        ui.separator();
        ui.horizontal_top(|ui| {
            self.recent_folders(ui, recent);
            // Not a separator: in a row it spans the available height, and the window grew
            // with it every frame.
            ui.add_space(12.0);
            ui.vertical(|ui| {
                ui.set_width(LIST_WIDTH);
                // The same height for a short listing as for a long one: the window does
                // not jump as the user moves between folders.
                ui.set_min_height(LIST_HEIGHT);
                if let Some(o) = self.listing(ui) {
                    outcome = Some(o);
                }
            });
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        ui.separator();
        if let Some(o) = self.name_and_filter(ui) {
            outcome = Some(o);
        }
        if let Some(o) = self.buttons(ui) {
            outcome = Some(o);
        }
        outcome
    }

    fn folder_bar(&mut self, ui: &mut egui::Ui) -> Option<Outcome> {
        let mut outcome = None;
        ui.horizontal(|ui| {
            let has_parent = self.folder.parent().is_some();
            if ui
                .add_enabled(has_parent, egui::Button::new("⬆ Up"))
                .on_hover_text("The folder above this one")
                .clicked()
            {
                self.up();
            }
            let label = ui.label("Folder");
            let field = ui
                .add(
                    egui::TextEdit::singleline(&mut self.folder_text)
                        .desired_width(LIST_WIDTH + RECENT_WIDTH - 200.0)
                        .hint_text("a folder, or a file's full path"),
                )
                .labelled_by(label.id)
                .on_hover_text("Type a folder (~ is your home) and press Enter");
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            let go = ui
                .button("Go")
                .on_hover_text("Show the typed folder")
                .clicked();
            if entered || go {
                outcome = self.go_typed();
            }
            if ui
                .button("⟳")
                .on_hover_text("Read the folder again")
                .clicked()
            {
                self.refresh();
            }
        });
        outcome
    }

    fn recent_folders(&mut self, ui: &mut egui::Ui, recent: &[String]) {
        ui.vertical(|ui| {
            ui.set_width(RECENT_WIDTH);
            ui.strong("Recent folders");
            egui::ScrollArea::vertical()
                .id_salt("file-browser-recent")
                .max_height(LIST_HEIGHT)
                .auto_shrink([false, true])
                .show(ui, |ui| {
                    if recent.is_empty() {
                        ui.weak("none yet");
                    }
                    let mut chosen = None;
                    for folder in recent {
                        let short = PathBuf::from(folder)
                            .file_name()
                            .map_or_else(|| folder.clone(), |n| n.to_string_lossy().into_owned());
                        if ui
                            .add(egui::Button::new(format!("🗀 {short}")).truncate())
                            .on_hover_text(folder)
                            .clicked()
                        {
                            chosen = Some(PathBuf::from(folder));
                        }
                    }
                    if let Some(folder) = chosen {
                        self.go(folder);
                    }
                });
        });
    }

    /// The folder's entries, only the visible rows laid out (a folder may hold thousands).
    fn listing(&mut self, ui: &mut egui::Ui) -> Option<Outcome> {
        let row = ui.spacing().interact_size.y;
        let mut clicked = None;
        let mut activated = None;
        egui::ScrollArea::vertical()
            .id_salt(("file-browser-listing", &self.folder))
            .max_height(LIST_HEIGHT)
            .auto_shrink([false, true])
            .show_rows(ui, row, self.entries.len(), |ui, rows| {
                if self.entries.is_empty() && self.error.is_none() {
                    ui.weak("no folders, and no files of this kind");
                }
                for i in rows {
                    let e = &self.entries[i];
                    let icon = if e.is_dir { "🗀" } else { "🗋" };
                    let size = e.size.map(listing::human_size).unwrap_or_default();
                    let selected = self.selected == Some(i);
                    let r = ui.add(
                        egui::Button::selectable(selected, format!("{icon} {}", e.display_name()))
                            .right_text(size)
                            .min_size(egui::vec2(LIST_WIDTH - 20.0, row)),
                    );
                    if selected && self.scroll_to_selected {
                        r.scroll_to_me(None);
                    }
                    if r.double_clicked() {
                        activated = Some(i);
                    } else if r.clicked() {
                        clicked = Some(i);
                    }
                }
            });
        self.scroll_to_selected = false;
        if let Some(i) = clicked {
            self.select(i);
        }
        activated.and_then(|i| self.activate(i))
    }

    fn name_and_filter(&mut self, ui: &mut egui::Ui) -> Option<Outcome> {
        let mut outcome = None;
        ui.horizontal(|ui| {
            let label = ui.label("File name");
            let field = ui
                .add(egui::TextEdit::singleline(&mut self.name).desired_width(300.0))
                .labelled_by(label.id);
            if std::mem::take(&mut self.focus_name) {
                field.request_focus();
            }
            if field.changed() {
                self.overwrite = None;
            }
            if field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                outcome = self.confirm();
            }
            let mut filter = self.filter;
            egui::ComboBox::from_id_salt("file-browser-filter")
                .selected_text(filter.label())
                .width(250.0)
                .show_ui(ui, |ui| {
                    for f in Filter::ALL {
                        ui.selectable_value(&mut filter, f, f.label());
                    }
                })
                .response
                .on_hover_text("Which files the folder shows");
            self.set_filter(filter);
            if ui
                .checkbox(&mut self.show_hidden, "Hidden")
                .on_hover_text("Show files and folders whose name starts with a dot")
                .changed()
            {
                self.refresh();
            }
        });
        outcome
    }

    fn buttons(&mut self, ui: &mut egui::Ui) -> Option<Outcome> {
        let mut outcome = None;
        ui.horizontal(|ui| {
            if let Some(existing) = &self.overwrite {
                let name = existing.file_name().map_or_else(
                    || existing.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!("{name} already exists. Replace it?"),
                );
                if ui
                    .button("Replace")
                    .on_hover_text("Write over the file")
                    .clicked()
                {
                    outcome = self.replace();
                }
                if ui
                    .button("Keep it")
                    .on_hover_text("Choose another name")
                    .clicked()
                {
                    self.overwrite = None;
                }
                return;
            }
            let confirm = match self.mode {
                Mode::Open => "Open",
                Mode::Save => "Save",
            };
            if ui.button(confirm).clicked() {
                outcome = self.confirm();
            }
            if ui.button("Cancel").clicked() {
                outcome = Some(Outcome::Cancelled);
            }
        });
        outcome
    }
}

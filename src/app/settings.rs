//! Settings that persist between runs (through eframe's storage), and their window.

use crate::app::families::FamilySettings;
use crate::app::state::loader::LoadOptions;
use crate::app::views::{Shading, TraceOverlay, ViewOptions};
use crate::record::History;
use crate::trace::Stage;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Theme {
    #[default]
    Dark,
    Light,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub theme: Theme,
    pub show_outliner: bool,
    pub show_inspector: bool,
    pub show_plots: bool,
    /// The algorithm families' views: which panels are open, each view's options.
    pub families: FamilySettings,
    pub view: ViewOptions,
    pub speed: f32,
    pub looping: bool,
    /// Newest first.
    pub recent: Vec<String>,
    /// Folders files were opened from or saved to, newest first: the in-app file browser
    /// lists them.
    pub recent_folders: Vec<String>,
    pub history_budget_mib: u32,
    /// Most trace events kept per stepped frame (0: no trace).
    pub trace_limit: usize,
    /// Saved recordings hold no creation time and no wall-clock timings.
    pub reproducible_saves: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            theme: Theme::Dark,
            show_outliner: true,
            show_inspector: true,
            show_plots: true,
            families: FamilySettings::default(),
            view: ViewOptions::default(),
            speed: 1.0,
            looping: false,
            recent: Vec::new(),
            recent_folders: Vec::new(),
            history_budget_mib: (History::DEFAULT_BUDGET_BYTES >> 20) as u32,
            trace_limit: crate::trace::TraceRecorder::DEFAULT_LIMIT,
            reproducible_saves: false,
        }
    }
}

pub const RECENT_MAX: usize = 10;

impl Settings {
    pub fn load_options(&self) -> LoadOptions {
        LoadOptions {
            trace_limit: self.trace_limit,
            budget_bytes: (self.history_budget_mib.max(16) as usize) << 20,
        }
    }

    pub fn add_recent(&mut self, path: &str) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_string());
        self.recent.truncate(RECENT_MAX);
    }

    /// Only absolute folders whose name is UTF-8 are kept: the list is stored as text, and a
    /// lossy name would lead nowhere.
    pub fn add_recent_folder(&mut self, folder: &std::path::Path) {
        let Some(text) = folder.to_str().filter(|_| folder.is_absolute()) else {
            return;
        };
        self.recent_folders.retain(|p| p != text);
        self.recent_folders.insert(0, text.to_string());
        self.recent_folders.truncate(RECENT_MAX);
    }

    pub fn apply_theme(&self, ctx: &egui::Context) {
        ctx.set_theme(match self.theme {
            Theme::Dark => egui::Theme::Dark,
            Theme::Light => egui::Theme::Light,
        });
    }

    /// The settings window's contents.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        egui::Grid::new("settings").num_columns(2).spacing([16.0, 6.0]).show(ui, |ui| {
            ui.label("Theme");
            ui.horizontal(|ui| {
                ui.radio_value(&mut self.theme, Theme::Dark, "Dark").on_hover_text("Dark background");
                ui.radio_value(&mut self.theme, Theme::Light, "Light").on_hover_text("Light background");
            });
            ui.end_row();
            ui.label("History budget");
            ui.add(egui::Slider::new(&mut self.history_budget_mib, 16..=8192).suffix(" MiB").logarithmic(true))
                .on_hover_text("Memory for frames stepped in the app; older frames spill to a temporary file. Applies to the next session.");
            ui.end_row();
            ui.label("Trace limit");
            ui.add(egui::Slider::new(&mut self.trace_limit, 0..=10_000_000).suffix(" events/frame").logarithmic(true))
                .on_hover_text("Most trace events kept per stepped frame; 0 keeps none. Applies to the next session.");
            ui.end_row();
            ui.label("Saving");
            ui.checkbox(&mut self.reproducible_saves, "Reproducible files")
                .on_hover_text("Save without the creation time and the wall-clock stage timings, so that two saves of the same run are the same bytes (the plots' stage times read zero when the file is opened)");
            ui.end_row();
            ui.label("Shading");
            egui::ComboBox::from_id_salt("settings-shading")
                .selected_text(self.view.shading.label())
                .show_ui(ui, |ui| {
                    for s in Shading::ALL {
                        ui.selectable_value(&mut self.view.shading, s, s.label());
                    }
                })
                .response
                .on_hover_text("How bodies are drawn");
            ui.end_row();
            ui.label("Trace overlay");
            egui::ComboBox::from_id_salt("settings-trace")
                .selected_text(self.view.trace.label())
                .show_ui(ui, |ui| {
                    for t in TraceOverlay::ALL {
                        ui.selectable_value(&mut self.view.trace, t, t.label());
                    }
                })
                .response
                .on_hover_text("Which trace events the viewport draws");
            ui.end_row();
            ui.label("Stages drawn");
            ui.horizontal_wrapped(|ui| {
                for stage in Stage::ALL {
                    let mut shown = !self.view.hidden_stages.contains(&stage);
                    if ui
                        .checkbox(&mut shown, stage.name())
                        .on_hover_text(format!("Draw the events of the {} stage (the current event is always drawn)", stage.name()))
                        .changed()
                    {
                        if shown {
                            self.view.hidden_stages.retain(|s| *s != stage);
                        } else {
                            self.view.hidden_stages.push(stage);
                        }
                    }
                }
            });
            ui.end_row();
            ui.label("Families drawn");
            ui.horizontal_wrapped(|ui| {
                for family in crate::families::FAMILY_NAMES {
                    let hidden = &mut self.view.hidden_families;
                    let mut shown = !hidden.iter().any(|f| f == family);
                    if ui
                        .checkbox(&mut shown, *family)
                        .on_hover_text(format!("Draw the events of the {family} family (the current event is always drawn)"))
                        .changed()
                    {
                        if shown {
                            hidden.retain(|f| f != family);
                        } else {
                            hidden.push(family.to_string());
                        }
                    }
                }
            });
            ui.end_row();
        });
        ui.add_space(8.0);
        if ui
            .button("Restore defaults")
            .on_hover_text("Reset every setting except the recent files and folders")
            .clicked()
        {
            let recent = std::mem::take(&mut self.recent);
            let recent_folders = std::mem::take(&mut self.recent_folders);
            *self = Settings {
                recent,
                recent_folders,
                ..Settings::default()
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_tolerate_missing_fields() {
        let mut s = Settings::default();
        s.add_recent("/a.cdrec");
        s.add_recent("/b.ron");
        s.add_recent("/a.cdrec");
        assert_eq!(s.recent, ["/a.cdrec", "/b.ron"]);
        s.add_recent_folder(std::path::Path::new("/runs"));
        s.add_recent_folder(std::path::Path::new("relative"));
        s.add_recent_folder(std::path::Path::new("/scenes"));
        s.add_recent_folder(std::path::Path::new("/runs"));
        assert_eq!(s.recent_folders, ["/runs", "/scenes"]);
        s.theme = Theme::Light;
        let text = ron::to_string(&s).expect("serialise");
        let back: Settings = ron::from_str(&text).expect("parse");
        assert_eq!(back, s);
        // Settings written by an older version lack fields: defaults fill them in.
        let old: Settings = ron::from_str("(theme: Light)").expect("parse");
        assert_eq!(old.theme, Theme::Light);
        assert!(old.show_plots);
    }

    #[test]
    fn settings_that_hid_a_family_stage_still_load() {
        // Before format v6 the hidden list held families as stages (`Bvh`).
        let old: Settings =
            ron::from_str("(theme: Light, view: (hidden_stages: [Integrate, Bvh]))")
                .expect("parse");
        assert_eq!(old.theme, Theme::Light);
        assert_eq!(old.view.hidden_stages, ViewOptions::default().hidden_stages);
        let mut s = Settings::default();
        s.view.hidden_families.push("bvh".into());
        s.view.hidden_stages.push(Stage::Response);
        let back: Settings = ron::from_str(&ron::to_string(&s).expect("serialise")).expect("parse");
        assert_eq!(back, s);
    }
}

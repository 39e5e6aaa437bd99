//! The top bar: File and View menus, the scene picker, help and the theme switch.

use crate::app::families::ViewEntry;
use crate::app::settings::{Settings, Theme};
use crate::app::state::loader::LoadRequest;
use crate::app::state::{AppState, Command};
use crate::app::views::{Shading, TraceOverlay};

use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq)]
pub enum MenuAction {
    Cmd(Command),
    OpenDialog,
    /// The "Compare with…" window: run B beside the open recording.
    CompareWindow,
    SaveDialog,
    ShowSettings,
    ShowHelp,
    FrameSelected,
    FrameAll,
    Quit,
}

pub fn show(
    ui: &mut egui::Ui,
    state: &AppState,
    settings: &mut Settings,
    families: &[ViewEntry],
) -> Vec<MenuAction> {
    let mut out = Vec::new();
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| file_menu(ui, state, settings, &mut out))
            .response
            .on_hover_text("Open, save, recent files, settings");
        ui.menu_button("View", |ui| view_menu(ui, settings, families, &mut out))
            .response
            .on_hover_text("Panels and camera");
        scene_picker(ui, state, &mut out);
        if ui
            .button("Help")
            .on_hover_text("Keyboard and mouse map (F1)")
            .clicked()
        {
            out.push(MenuAction::ShowHelp);
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            theme_switch(ui, settings);
        });
    });
    out
}

fn file_menu(
    ui: &mut egui::Ui,
    state: &AppState,
    settings: &mut Settings,
    out: &mut Vec<MenuAction>,
) {
    if ui
        .button("Open…  (Ctrl+O)")
        .on_hover_text("Open a recording (.cdrec) or a scene (.ron)")
        .clicked()
    {
        out.push(MenuAction::OpenDialog);
        ui.close();
    }
    let recording = state
        .session
        .as_ref()
        .is_some_and(|s| s.is_recording_replay());
    if ui
        .add_enabled(recording, egui::Button::new("Compare with…"))
        .on_hover_text(
            "Open another run (B) beside this recording (A): one timeline, B as a ghost, every difference listed",
        )
        .on_disabled_hover_text("Open a recording first: it is run A (a live scene can be saved as one)")
        .clicked()
    {
        out.push(MenuAction::CompareWindow);
        ui.close();
    }
    ui.add_enabled_ui(state.session.is_some(), |ui| {
        if ui
            .button("Save recording as…  (Ctrl+S)")
            .on_hover_text("Write every frame of this session to a .cdrec file")
            .clicked()
        {
            out.push(MenuAction::SaveDialog);
            ui.close();
        }
    });
    ui.menu_button("Recent files", |ui| recent_files(ui, settings, out));
    ui.separator();
    if ui
        .button("Settings…")
        .on_hover_text("Theme, history budget, trace limit, overlays")
        .clicked()
    {
        out.push(MenuAction::ShowSettings);
        ui.close();
    }
    if ui
        .button("Quit")
        .on_hover_text("Close Collidoscope")
        .clicked()
    {
        out.push(MenuAction::Quit);
    }
}

fn recent_files(ui: &mut egui::Ui, settings: &mut Settings, out: &mut Vec<MenuAction>) {
    if settings.recent.is_empty() {
        ui.weak("none yet");
    }
    for path in settings.recent.clone() {
        if ui
            .button(&path)
            .on_hover_text("Open this file again")
            .clicked()
        {
            out.push(MenuAction::Cmd(Command::Open(LoadRequest::Path(
                PathBuf::from(&path),
            ))));
            ui.close();
        }
    }
    if !settings.recent.is_empty()
        && ui
            .button("Clear the list")
            .on_hover_text("Forget the recent files")
            .clicked()
    {
        settings.recent.clear();
    }
}

fn view_menu(
    ui: &mut egui::Ui,
    settings: &mut Settings,
    families: &[ViewEntry],
    out: &mut Vec<MenuAction>,
) {
    ui.checkbox(&mut settings.show_outliner, "Outliner")
        .on_hover_text("Show the outliner on the left");
    ui.checkbox(&mut settings.show_inspector, "Inspector")
        .on_hover_text("Show the inspector on the right");
    ui.checkbox(&mut settings.show_plots, "Plots")
        .on_hover_text("Show the per-frame plots");
    if !families.is_empty() {
        ui.separator();
    }
    for entry in families {
        let mut open = settings.families.is_open(entry.family);
        if ui
            .checkbox(&mut open, entry.title)
            .on_hover_text(entry.about)
            .changed()
        {
            settings.families.choose(entry.family, open);
        }
    }
    ui.separator();
    if ui
        .button("Frame selection  (F)")
        .on_hover_text("Point the camera at the selection")
        .clicked()
    {
        out.push(MenuAction::FrameSelected);
        ui.close();
    }
    if ui
        .button("Frame all  (H)")
        .on_hover_text("Point the camera at the whole scene")
        .clicked()
    {
        out.push(MenuAction::FrameAll);
        ui.close();
    }
}

fn theme_switch(ui: &mut egui::Ui, settings: &mut Settings) {
    let (icon, tip, next) = match settings.theme {
        Theme::Dark => ("☀ Light", "Switch to the light theme", Theme::Light),
        Theme::Light => ("🌙 Dark", "Switch to the dark theme", Theme::Dark),
    };
    if ui.button(icon).on_hover_text(tip).clicked() {
        settings.theme = next;
    }
}

fn scene_picker(ui: &mut egui::Ui, state: &AppState, out: &mut Vec<MenuAction>) {
    let current = state.session.as_ref().map(|s| match &s.origin {
        crate::app::state::session::Origin::Builtin(n) => n.clone(),
        other => other.label(),
    });
    ui.menu_button("Scenes", |ui| {
        ui.label(egui::RichText::new("Built-in scenes").strong());
        for (_, title, scenes) in crate::scene::builtin_scenes_by_family() {
            // One submenu per family: 29 names in one list hid what each family shows.
            let here = scenes.iter().any(|s| current.as_deref() == Some(s.name));
            let heading = if here {
                format!("● {title}")
            } else {
                title.to_string()
            };
            ui.menu_button(heading, |ui| {
                for s in scenes {
                    let selected = current.as_deref() == Some(s.name);
                    if ui
                        .selectable_label(selected, s.name)
                        .on_hover_text(format!(
                            "{} — opens live, stepping as you play",
                            s.description
                        ))
                        .clicked()
                    {
                        out.push(MenuAction::Cmd(Command::Open(LoadRequest::Builtin(
                            s.name.to_string(),
                        ))));
                        ui.close();
                    }
                }
            });
        }
    })
    .response
    .on_hover_text("Pick one of the built-in demo scenes, family by family");
}

/// The viewport's toolbar: shading, overlays and camera buttons.
pub fn view_toolbar(ui: &mut egui::Ui, settings: &mut Settings) -> Vec<MenuAction> {
    let mut out = Vec::new();
    let v = &mut settings.view;
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 6.0;
        egui::ComboBox::from_id_salt("shading")
            .selected_text(v.shading.label())
            .width(100.0)
            .show_ui(ui, |ui| {
                for s in Shading::ALL {
                    ui.selectable_value(&mut v.shading, s, s.label());
                }
            })
            .response
            .on_hover_text("How bodies are drawn (Z cycles)");
        egui::ComboBox::from_id_salt("trace-overlay")
            .selected_text(v.trace.label())
            .width(140.0)
            .show_ui(ui, |ui| {
                for t in TraceOverlay::ALL {
                    ui.selectable_value(&mut v.trace, t, t.label());
                }
            })
            .response
            .on_hover_text(
                "Which trace events to draw: the current one, the work so far, or the whole frame",
            );
        ui.checkbox(&mut v.contacts, "Contacts")
            .on_hover_text("Contact points (red: deeper than the tolerance)");
        ui.checkbox(&mut v.normals, "Normals")
            .on_hover_text("Contact normals, from the first body to the second");
        ui.checkbox(&mut v.rays, "Rays").on_hover_text(
            "Rays of the ray-traced narrow phase (scenes with narrow: Rays): red collision, \
             green prediction, grey rejected; only the selection's when a body or pair is selected",
        );
        ui.checkbox(&mut v.grid, "Grid")
            .on_hover_text("Ground grid on y = 0");
        ui.checkbox(&mut v.axes, "Axes")
            .on_hover_text("World axes: x red, y green, z blue");
        ui.checkbox(&mut v.focus_event, "Focus")
            .on_hover_text("While stepping events, fade the bodies the event does not involve");
        ui.checkbox(&mut v.xray_selection, "X-ray")
            .on_hover_text("Show the selection's edges through other bodies");
        ui.checkbox(&mut v.labels, "Labels")
            .on_hover_text("Name the selected bodies and those of the current event");
        ui.separator();
        if ui
            .button("Frame selection")
            .on_hover_text("Point the camera at the selection (F)")
            .clicked()
        {
            out.push(MenuAction::FrameSelected);
        }
        if ui
            .button("Frame all")
            .on_hover_text("Point the camera at the whole scene (H)")
            .clicked()
        {
            out.push(MenuAction::FrameAll);
        }
    });
    out
}

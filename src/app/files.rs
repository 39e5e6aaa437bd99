//! Files: the native open/save dialogs (run on a worker thread, so a modal dialog never
//! blocks the UI), drag and drop onto the window, and the recent-files list.

use crate::app::state::Command;
use crate::app::state::loader::LoadRequest;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, channel};

enum Pending {
    Open(Receiver<Option<PathBuf>>),
    Save(Receiver<Option<PathBuf>>),
}

pub struct FileDialogs {
    /// False in tests and in the screenshot mode: a dialog would wait for a human.
    pub enabled: bool,
    pending: Option<Pending>,
}

impl FileDialogs {
    pub fn new(enabled: bool) -> Self {
        Self {
            enabled,
            pending: None,
        }
    }

    pub fn is_open(&self) -> bool {
        self.pending.is_some()
    }

    fn spawn(
        &mut self,
        ctx: &egui::Context,
        save: bool,
        suggested: Option<String>,
    ) -> Result<(), String> {
        if !self.enabled {
            return Err("file dialogs are turned off in this run; drop a file on the window or pass it on the command line".into());
        }
        if self.pending.is_some() {
            return Err("a file dialog is already open".into());
        }
        let (tx, rx) = channel();
        let ctx = ctx.clone();
        std::thread::Builder::new()
            .name("file dialog".into())
            .spawn(move || {
                let dialog = rfd::FileDialog::new()
                    .add_filter(
                        "Recordings, scenes and capture streams",
                        &["cdrec", "ron", "jsonl", "ndjson"],
                    )
                    .add_filter("Recordings", &["cdrec"])
                    .add_filter("Scenes", &["ron"])
                    .add_filter("Capture streams", &["jsonl", "ndjson"])
                    .add_filter("All files", &["*"]);
                let picked = if save {
                    dialog
                        .set_file_name(suggested.unwrap_or_else(|| "recording.cdrec".into()))
                        .save_file()
                } else {
                    dialog.pick_file()
                };
                let _ = tx.send(picked);
                ctx.request_repaint();
            })
            .map_err(|e| format!("cannot open a file dialog: {e}"))?;
        self.pending = Some(if save {
            Pending::Save(rx)
        } else {
            Pending::Open(rx)
        });
        Ok(())
    }

    pub fn open(&mut self, ctx: &egui::Context) -> Result<(), String> {
        self.spawn(ctx, false, None)
    }

    pub fn save(&mut self, ctx: &egui::Context, suggested: String) -> Result<(), String> {
        self.spawn(ctx, true, Some(suggested))
    }

    /// The command a finished dialog asks for.
    pub fn poll(&mut self) -> Option<Command> {
        let (result, save) = match &self.pending {
            Some(Pending::Open(rx)) => (rx.try_recv().ok(), false),
            Some(Pending::Save(rx)) => (rx.try_recv().ok(), true),
            None => return None,
        };
        let picked = result?;
        self.pending = None;
        let path = picked?;
        Some(if save {
            let path = if path.extension().is_none() {
                path.with_extension("cdrec")
            } else {
                path
            };
            Command::Save(path)
        } else {
            Command::Open(LoadRequest::Path(path))
        })
    }
}

/// Files dropped on the window this frame: the first one is opened.
pub fn dropped_file(ctx: &egui::Context) -> Option<Command> {
    ctx.input(|i| {
        i.raw
            .dropped_files
            .iter()
            .map(|f| f.path().to_path_buf())
            .find(|p| !p.as_os_str().is_empty())
            .map(|p| Command::Open(LoadRequest::Path(p)))
    })
}

/// While files hover over the window, say what dropping them does.
pub fn paint_drop_hint(ctx: &egui::Context) {
    let hovering = ctx.input(|i| !i.raw.hovered_files.is_empty());
    if !hovering {
        return;
    }
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        egui::Id::unique("drop-hint"),
    ));
    let rect = ctx.content_rect();
    painter.rect_filled(rect, 0.0, egui::Color32::from_black_alpha(170));
    painter.text(
        rect.center(),
        egui::Align2::CENTER_CENTER,
        "Drop a recording (.cdrec), a scene (.ron) or a capture stream (.jsonl) to open it",
        egui::FontId::proportional(22.0),
        egui::Color32::WHITE,
    );
}

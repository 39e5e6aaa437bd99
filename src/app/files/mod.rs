//! Files: the native open/save dialogs (run on a worker thread, so a modal dialog never
//! blocks the UI), drag and drop onto the window, and the recent-files list.

use crate::app::state::Command;
use crate::app::state::comparing::CompareCommand;
use crate::app::state::loader::LoadRequest;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, channel};

#[derive(Clone, Copy, PartialEq)]
enum Purpose {
    Open,
    Save,
    /// Run B of a comparison.
    Compare,
}

struct Pending {
    purpose: Purpose,
    rx: Receiver<Option<PathBuf>>,
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
        purpose: Purpose,
        suggested: Option<String>,
    ) -> Result<(), String> {
        let save = purpose == Purpose::Save;
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
        self.pending = Some(Pending { purpose, rx });
        Ok(())
    }

    pub fn open(&mut self, ctx: &egui::Context) -> Result<(), String> {
        self.spawn(ctx, Purpose::Open, None)
    }

    /// Picks run B of a comparison.
    pub fn compare(&mut self, ctx: &egui::Context) -> Result<(), String> {
        self.spawn(ctx, Purpose::Compare, None)
    }

    pub fn save(&mut self, ctx: &egui::Context, suggested: String) -> Result<(), String> {
        self.spawn(ctx, Purpose::Save, Some(suggested))
    }

    /// The command a finished dialog asks for.
    pub fn poll(&mut self) -> Option<Command> {
        let pending = self.pending.as_ref()?;
        let picked = pending.rx.try_recv().ok()?;
        let purpose = pending.purpose;
        self.pending = None;
        let path = picked?;
        Some(match purpose {
            Purpose::Save => {
                let path = if path.extension().is_none() {
                    path.with_extension("cdrec")
                } else {
                    path
                };
                Command::Save(path)
            }
            Purpose::Open => Command::Open(LoadRequest::Path(path)),
            Purpose::Compare => Command::Compare(CompareCommand::Open(path)),
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

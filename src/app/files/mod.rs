//! Files: the open and save dialogs, and drag and drop onto the window. The desktop's own
//! dialog (rfd, on a worker thread so a modal dialog never blocks the UI) where the desktop
//! has one ([`system_dialog`] asks), Collidoscope's file browser where it has not: pressing
//! Open always shows something.

pub mod system_dialog;

use crate::app::file_browser::listing::{self, Filter};
use crate::app::file_browser::{self, FileBrowser, Mode, Outcome, Request};
use crate::app::settings::Settings;
use crate::app::state::Command;
use crate::app::state::comparing::CompareCommand;
use crate::app::state::loader::LoadRequest;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};
use system_dialog::{DialogChoice, SystemDialog};

/// A system dialog that answers "nothing" sooner than this never showed: no one sees a
/// dialog and cancels it that fast. rfd returns the same `None` for a cancel and for a portal
/// (or zenity) that failed, so the time is the only sign of the failure.
const TOO_FAST_FOR_A_CANCEL: Duration = Duration::from_millis(300);
/// How long a request waits for the probe of the desktop's dialog before the browser opens.
const PROBE_PATIENCE: Duration = Duration::from_secs(5);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Purpose {
    Open,
    Save,
    /// Run B of a comparison.
    Compare,
}

#[derive(Clone, Debug)]
struct Ask {
    purpose: Purpose,
    /// The file name offered when saving.
    suggested: Option<String>,
    at: Instant,
}

struct Pending {
    ask: Ask,
    rx: Receiver<Option<PathBuf>>,
    started: Instant,
}

pub struct FileDialogs {
    system: SystemDialog,
    /// Asked before the probe answered.
    waiting: Option<Ask>,
    /// The desktop's dialog, open on its thread.
    pending: Option<Pending>,
    browser: FileBrowser,
    /// What the open browser was opened for.
    browsing: Option<Purpose>,
    /// Why the browser replaces the desktop's dialog is said once a run.
    told: bool,
    notices: Vec<String>,
}

impl FileDialogs {
    /// `enabled: false` (tests, screenshots) never starts the desktop's dialog, which would
    /// wait for a human; the browser, drawn in the window, still opens.
    pub fn new(enabled: bool, choice: DialogChoice) -> Self {
        Self {
            system: SystemDialog::new(enabled, choice),
            waiting: None,
            pending: None,
            browser: FileBrowser::default(),
            browsing: None,
            told: false,
            notices: Vec::new(),
        }
    }

    pub fn is_open(&self) -> bool {
        self.waiting.is_some() || self.pending.is_some() || self.browser.is_open()
    }

    /// The in-app browser is open: it has the keyboard (Enter, Escape, the arrows).
    pub fn browsing(&self) -> bool {
        self.browser.is_open()
    }

    /// The folder the browser shows, when open.
    pub fn browser_folder(&self) -> Option<&Path> {
        self.browser.folder()
    }

    pub fn open(&mut self) -> Result<(), String> {
        self.ask(Purpose::Open, None)
    }

    /// Picks run B of a comparison.
    pub fn compare(&mut self) -> Result<(), String> {
        self.ask(Purpose::Compare, None)
    }

    pub fn save(&mut self, suggested: String) -> Result<(), String> {
        self.ask(Purpose::Save, Some(suggested))
    }

    fn ask(&mut self, purpose: Purpose, suggested: Option<String>) -> Result<(), String> {
        if self.is_open() {
            return Err("a file dialog is already open".into());
        }
        self.waiting = Some(Ask {
            purpose,
            suggested,
            at: Instant::now(),
        });
        Ok(())
    }

    /// What to tell the user (why the browser opened instead of the desktop's dialog).
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// Every frame: starts what was asked, collects the desktop dialog's answer, draws the
    /// browser. The command is the same whichever dialog picked the file; the file's folder
    /// joins the recent folders.
    pub fn frame(&mut self, ctx: &egui::Context, settings: &mut Settings) -> Option<Command> {
        self.start_waiting(ctx, settings);
        let (purpose, path) = match self.poll_system(settings) {
            Some(picked) => picked,
            None => {
                let outcome = self.browser.show(ctx, &settings.recent_folders)?;
                let purpose = self.browsing.take()?;
                match outcome {
                    Outcome::Picked(path) => (purpose, path),
                    Outcome::Cancelled => return None,
                }
            }
        };
        if let Some(folder) = path.parent() {
            settings.add_recent_folder(folder);
        }
        Some(command_for(purpose, path))
    }

    /// A request waiting for the probe goes to the desktop's dialog or to the browser once
    /// the probe answers (or is given up on).
    fn start_waiting(&mut self, ctx: &egui::Context, settings: &Settings) {
        let Some(ask) = self.waiting.clone() else {
            return;
        };
        if self.system.answer().is_none() {
            if ask.at.elapsed() < PROBE_PATIENCE {
                return;
            }
            self.system.give_up(format!(
                "the session bus did not answer in {} s",
                PROBE_PATIENCE.as_secs()
            ));
        }
        self.waiting = None;
        if self.system.answer().is_some_and(|a| a.is_ok()) {
            match spawn_system(ctx, &ask) {
                Ok(rx) => {
                    self.pending = Some(Pending {
                        ask,
                        rx,
                        started: Instant::now(),
                    });
                    return;
                }
                Err(e) => self.system.failed(e),
            }
        }
        self.browse(ask, settings);
    }

    /// The desktop dialog's answer: a file, a cancel (nothing), or a failure to show, after
    /// which the browser opens for the same request.
    fn poll_system(&mut self, settings: &Settings) -> Option<(Purpose, PathBuf)> {
        let picked = match self.pending.as_ref()?.rx.try_recv() {
            Ok(picked) => Ok(picked),
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => Err("it stopped with an error"),
        };
        let pending = self.pending.take()?;
        let failed = match picked {
            Ok(Some(path)) => return Some((pending.ask.purpose, path)),
            Ok(None) if pending.started.elapsed() < TOO_FAST_FOR_A_CANCEL => {
                "it closed at once, without a choice"
            }
            Ok(None) => return None,
            Err(why) => why,
        };
        self.system.failed(failed.into());
        self.browse(pending.ask, settings);
        None
    }

    fn browse(&mut self, ask: Ask, settings: &Settings) {
        if !self.told
            && let Some(Err(why)) = self.system.answer()
            && let Some(notice) = why.notice()
        {
            self.notices.push(notice);
            self.told = true;
        }
        let (mode, title, filter) = match ask.purpose {
            Purpose::Open => (
                Mode::Open,
                "Open a recording, scene or capture stream",
                Filter::Openable,
            ),
            Purpose::Save => (
                Mode::Save,
                "Save the session as a recording",
                Filter::Recordings,
            ),
            Purpose::Compare => (Mode::Open, "Compare with: pick run B", Filter::Openable),
        };
        let folder = listing::start_folder(
            &settings.recent_folders,
            std::env::current_dir().ok(),
            listing::home(),
        );
        self.browser.open(Request {
            mode,
            title: title.into(),
            folder,
            name: ask.suggested.unwrap_or_default(),
            filter,
        });
        self.browsing = Some(ask.purpose);
    }
}

/// The desktop's dialog on a worker thread; its answer arrives on the channel.
fn spawn_system(ctx: &egui::Context, ask: &Ask) -> Result<Receiver<Option<PathBuf>>, String> {
    let (tx, rx) = channel();
    let ctx = ctx.clone();
    let save = ask.purpose == Purpose::Save;
    let suggested = ask.suggested.clone();
    std::thread::Builder::new()
        .name("file dialog".into())
        .spawn(move || {
            let mut dialog = rfd::FileDialog::new();
            for f in Filter::ALL {
                let extensions = match f.extensions() {
                    [] => &["*"][..],
                    some => some,
                };
                dialog = dialog.add_filter(f.label(), extensions);
            }
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
        .map_err(|e| format!("cannot start its thread: {e}"))?;
    Ok(rx)
}

/// What a picked file asks for; a saved recording without an extension gets `.cdrec`.
fn command_for(purpose: Purpose, path: PathBuf) -> Command {
    match purpose {
        Purpose::Save => Command::Save(listing::with_default_extension(
            path,
            file_browser::SAVE_EXTENSION,
        )),
        Purpose::Open => Command::Open(LoadRequest::Path(path)),
        Purpose::Compare => Command::Compare(CompareCommand::Open(path)),
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

#[cfg(test)]
mod tests {
    use super::*;
    use system_dialog::Unavailable;

    /// The desktop's dialog as if started `ago` and answered `picked`.
    fn answered(purpose: Purpose, picked: Option<PathBuf>, ago: Duration) -> FileDialogs {
        let mut d = FileDialogs::new(true, DialogChoice::System);
        let (tx, rx) = channel();
        tx.send(picked).expect("send");
        let started = Instant::now() - ago;
        d.pending = Some(Pending {
            ask: Ask {
                purpose,
                suggested: None,
                at: started,
            },
            rx,
            started,
        });
        d
    }

    #[test]
    fn a_dialog_that_closes_at_once_falls_back_to_the_browser_and_says_so_once() {
        let settings = Settings::default();
        let mut d = answered(Purpose::Open, None, Duration::ZERO);
        assert_eq!(d.poll_system(&settings), None);
        assert!(d.browsing(), "the browser opened for the same request");
        assert_eq!(d.browsing, Some(Purpose::Open));
        let notices = d.take_notices();
        assert_eq!(notices.len(), 1);
        assert!(notices[0].contains("closed at once"), "{notices:?}");
        assert_eq!(
            d.system.answer().cloned(),
            Some(Err(Unavailable::Failed(
                "it closed at once, without a choice".into()
            )))
        );
        // From now on the browser, without a second notice.
        d.browser = FileBrowser::default();
        d.browsing = None;
        d.ask(Purpose::Save, Some("x.cdrec".into())).expect("asked");
        let ask = d.waiting.take().expect("waiting for the probe's answer");
        d.browse(ask, &settings);
        assert!(d.browsing());
        assert!(d.take_notices().is_empty());
    }

    #[test]
    fn nothing_after_a_while_is_a_cancel_and_a_file_is_a_command() {
        let settings = Settings::default();
        let mut d = answered(Purpose::Save, None, Duration::from_secs(2));
        assert_eq!(d.poll_system(&settings), None);
        assert!(
            !d.is_open() && d.take_notices().is_empty(),
            "a cancel is quiet"
        );
        let mut d = answered(Purpose::Save, Some("/tmp/run".into()), Duration::ZERO);
        let (purpose, path) = d.poll_system(&settings).expect("picked");
        assert_eq!(
            command_for(purpose, path),
            Command::Save("/tmp/run.cdrec".into())
        );
        assert_eq!(
            command_for(Purpose::Compare, "/b.jsonl".into()),
            Command::Compare(CompareCommand::Open("/b.jsonl".into()))
        );
    }

    #[test]
    fn a_second_request_while_one_is_open_is_refused() {
        let mut d = FileDialogs::new(false, DialogChoice::Auto);
        d.open().expect("first");
        assert_eq!(d.compare(), Err("a file dialog is already open".into()));
    }
}

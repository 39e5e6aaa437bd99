//! Whether the desktop's own file dialog can open here. rfd shows it through the xdg desktop
//! portal (zenity when the portal fails) and, when neither works (a plain X session, a bare
//! window manager, a remote desktop), returns nothing without a word: the user pressed Ctrl+O
//! and nothing happened. Asking first lets the app use its own browser instead.

use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// Which file dialog to use (`COLLIDOSCOPE_FILE_DIALOG`): for desktops the probe misjudges,
/// and for tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DialogChoice {
    /// The desktop's dialog when the probe finds one, the in-app browser otherwise.
    #[default]
    Auto,
    Builtin,
    System,
}

impl DialogChoice {
    pub const ENV: &'static str = "COLLIDOSCOPE_FILE_DIALOG";

    pub fn parse(value: &str) -> Result<Self, String> {
        match value.trim().to_ascii_lowercase().as_str() {
            "" | "auto" => Ok(Self::Auto),
            "builtin" => Ok(Self::Builtin),
            "system" => Ok(Self::System),
            other => Err(format!(
                "{}={other:?}: expected builtin, system or auto",
                Self::ENV
            )),
        }
    }

    /// Unset reads as `Auto`; a value that is not UTF-8 is an error like any unknown value.
    pub fn from_env() -> Result<Self, String> {
        match std::env::var(Self::ENV) {
            Ok(v) => Self::parse(&v),
            Err(std::env::VarError::NotPresent) => Ok(Self::Auto),
            Err(e) => Err(format!("{}: {e}", Self::ENV)),
        }
    }
}

/// Why the desktop's dialog is not used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// Tests and screenshots: a dialog would wait for a human.
    Off,
    /// `COLLIDOSCOPE_FILE_DIALOG=builtin`.
    Chosen,
    /// The probe found none; the reason is for the status line.
    NotFound(String),
    /// It was tried and did not open.
    Failed(String),
}

impl Unavailable {
    /// What the status line says once when the browser opens instead; nothing when the user
    /// asked for it.
    pub fn notice(&self) -> Option<String> {
        match self {
            Self::Off | Self::Chosen => None,
            Self::NotFound(why) => Some(format!(
                "no desktop file dialog here ({why}): using Collidoscope's file browser"
            )),
            Self::Failed(why) => Some(format!(
                "the desktop file dialog did not open ({why}): using Collidoscope's file browser from now on"
            )),
        }
    }
}

pub type Availability = Result<(), Unavailable>;

/// The answer for this run: probed once, on a worker thread (a D-Bus call can take seconds
/// when it starts the portal), then kept.
pub struct SystemDialog {
    answer: Option<Availability>,
    probe: Option<Receiver<Availability>>,
}

impl SystemDialog {
    pub fn new(enabled: bool, choice: DialogChoice) -> Self {
        let fixed = |answer| Self {
            answer: Some(answer),
            probe: None,
        };
        match (enabled, choice) {
            (false, _) => fixed(Err(Unavailable::Off)),
            (true, DialogChoice::Builtin) => fixed(Err(Unavailable::Chosen)),
            (true, DialogChoice::System) => fixed(Ok(())),
            (true, DialogChoice::Auto) => {
                let (tx, rx) = channel();
                let spawned = std::thread::Builder::new()
                    .name("file dialog probe".into())
                    .spawn(move || {
                        let _ = tx.send(detect());
                    });
                match spawned {
                    Ok(_) => Self {
                        answer: None,
                        probe: Some(rx),
                    },
                    Err(e) => fixed(Err(Unavailable::NotFound(format!(
                        "cannot start the probe: {e}"
                    )))),
                }
            }
        }
    }

    /// The answer, or `None` while the probe is still out.
    pub fn answer(&mut self) -> Option<&Availability> {
        if self.answer.is_none()
            && let Some(rx) = &self.probe
        {
            match rx.try_recv() {
                Ok(a) => self.answer = Some(a),
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => {
                    self.answer = Some(Err(Unavailable::NotFound("the probe stopped".into())));
                }
            }
            self.probe = None;
        }
        self.answer.as_ref()
    }

    /// Gives up on a probe that has not answered (a session bus that never replies would
    /// leave the dialog hanging the same way).
    pub fn give_up(&mut self, why: String) {
        if self.answer().is_none() {
            self.answer = Some(Err(Unavailable::NotFound(why)));
            self.probe = None;
        }
    }

    /// The dialog was tried and did not open: the browser for the rest of the run.
    pub fn failed(&mut self, why: String) {
        self.answer = Some(Err(Unavailable::Failed(why)));
        self.probe = None;
    }
}

/// The portal with a file chooser, or else zenity (rfd's own fallback).
fn detect() -> Availability {
    #[cfg(target_os = "linux")]
    {
        let portal = linux::portal();
        if portal.is_ok() || linux::on_path("zenity", std::env::var_os("PATH").as_deref()) {
            return Ok(());
        }
        portal.map_err(|why| Unavailable::NotFound(format!("{why}; no zenity either")))
    }
    // Elsewhere rfd calls the platform's own dialogs, which are always there.
    #[cfg(not(target_os = "linux"))]
    Ok(())
}

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::OsStr;
    use std::path::Path;
    use std::time::Duration;

    const PORTAL: &str = "org.freedesktop.portal.Desktop";
    const BUS: &str = "org.freedesktop.DBus";
    /// Long enough for the bus to start the portal on the first call, short enough that a
    /// bus that never answers is given up.
    const CALL_TIMEOUT: Duration = Duration::from_secs(4);

    /// The session bus can start or reach the portal, and the portal offers a file chooser.
    pub fn portal() -> Result<(), String> {
        let address = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").filter(|a| !a.is_empty());
        let runtime_bus = std::env::var_os("XDG_RUNTIME_DIR")
            .map(|d| Path::new(&d).join("bus"))
            .filter(|p| p.exists());
        if address.is_none() && runtime_bus.is_none() {
            return Err("no D-Bus session bus".into());
        }
        let conn = zbus::blocking::connection::Builder::session()
            .map(|b| b.method_timeout(CALL_TIMEOUT))
            .and_then(|b| b.build())
            .map_err(|e| format!("cannot reach the D-Bus session bus: {e}"))?;
        let running = conn
            .call_method(
                Some(BUS),
                "/org/freedesktop/DBus",
                Some(BUS),
                "NameHasOwner",
                &(PORTAL,),
            )
            .and_then(|m| m.body().deserialize::<bool>())
            .unwrap_or(false);
        if !running {
            let names = conn
                .call_method(
                    Some(BUS),
                    "/org/freedesktop/DBus",
                    Some(BUS),
                    "ListActivatableNames",
                    &(),
                )
                .and_then(|m| m.body().deserialize::<Vec<String>>())
                .map_err(|e| format!("the session bus lists no services: {e}"))?;
            if !names.iter().any(|n| n == PORTAL) {
                return Err("no xdg desktop portal on the session bus".into());
            }
        }
        // A portal can run without a file chooser back end (some desktops install it for
        // screenshots or settings only); rfd's call would then fail.
        conn.call_method(
            Some(PORTAL),
            "/org/freedesktop/portal/desktop",
            Some("org.freedesktop.DBus.Properties"),
            "Get",
            &("org.freedesktop.portal.FileChooser", "version"),
        )
        .map(|_| ())
        .map_err(|e| format!("the desktop portal offers no file chooser: {e}"))
    }

    /// An executable file named `program` in one of `path`'s folders.
    pub fn on_path(program: &str, path: Option<&OsStr>) -> bool {
        use std::os::unix::fs::PermissionsExt;
        path.is_some_and(|p| {
            std::env::split_paths(p).any(|dir| {
                std::fs::metadata(dir.join(program))
                    .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_override_reads_builtin_system_and_auto() {
        assert_eq!(DialogChoice::parse("builtin"), Ok(DialogChoice::Builtin));
        assert_eq!(DialogChoice::parse(" System "), Ok(DialogChoice::System));
        assert_eq!(DialogChoice::parse(""), Ok(DialogChoice::Auto));
        let err = DialogChoice::parse("gtk").expect_err("unknown value");
        assert!(err.contains("COLLIDOSCOPE_FILE_DIALOG"), "{err}");
    }

    #[test]
    fn turned_off_or_chosen_answers_at_once_and_quietly() {
        let mut off = SystemDialog::new(false, DialogChoice::System);
        assert_eq!(off.answer(), Some(&Err(Unavailable::Off)));
        let mut builtin = SystemDialog::new(true, DialogChoice::Builtin);
        assert_eq!(builtin.answer(), Some(&Err(Unavailable::Chosen)));
        assert_eq!(Unavailable::Chosen.notice(), None);
        let mut system = SystemDialog::new(true, DialogChoice::System);
        assert_eq!(system.answer(), Some(&Ok(())));
        system.failed("closed at once".into());
        let said = system
            .answer()
            .cloned()
            .expect("answered")
            .expect_err("failed");
        assert!(said.notice().is_some_and(|n| n.contains("closed at once")));
    }

    #[test]
    fn the_probe_answers_without_panicking() {
        // Whatever this machine has: the probe must come back with an answer.
        let mut probe = SystemDialog::new(true, DialogChoice::Auto);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while probe.answer().is_none() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        probe.give_up("too slow".into());
        // Shown with --nocapture: what this machine's desktop offers.
        eprintln!("file dialog probe: {:?}", probe.answer());
        assert!(probe.answer().is_some());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn zenity_is_looked_for_among_executables_on_the_path() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let tool = dir.path().join("zenity");
        std::fs::write(&tool, "#!/bin/sh\n").expect("write");
        let path = std::env::join_paths([dir.path()]).expect("path");
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        assert!(!linux::on_path("zenity", Some(&path)), "not executable");
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        assert!(linux::on_path("zenity", Some(&path)));
        assert!(!linux::on_path("zenity", None));
    }
}

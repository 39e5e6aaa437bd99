//! Collidoscope's own file browser, for desktops where the system dialog cannot open (see
//! `files::system_dialog`). An egui window: a folder's listing ([`listing`]), its path,
//! recent folders, a file name for saving, the filters the system dialog has. It draws in
//! [`window`]; what its buttons and keys do is here, testable without egui.

pub mod listing;
mod window;

use listing::{Entry, Filter};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Open,
    /// Asks before replacing a file; a name without an extension gets `.cdrec`.
    Save,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Picked(PathBuf),
    Cancelled,
}

/// What to browse for.
#[derive(Clone, Debug)]
pub struct Request {
    pub mode: Mode,
    pub title: String,
    pub folder: PathBuf,
    /// The file name offered when saving.
    pub name: String,
    pub filter: Filter,
}

/// The extension a saved file gets when the name has none.
pub const SAVE_EXTENSION: &str = "cdrec";

/// The browser, open or not.
#[derive(Default)]
pub struct FileBrowser {
    current: Option<Browsing>,
}

impl FileBrowser {
    pub fn open(&mut self, request: Request) {
        self.current = Some(Browsing::new(request));
    }

    pub fn is_open(&self) -> bool {
        self.current.is_some()
    }

    /// The folder shown (for tests and the status line).
    pub fn folder(&self) -> Option<&Path> {
        self.current.as_ref().map(|b| b.folder.as_path())
    }
}

/// One browsing: where it is, what it lists, what the user typed.
struct Browsing {
    mode: Mode,
    title: String,
    folder: PathBuf,
    entries: Vec<Entry>,
    /// Why the folder shows nothing, or why the last action was refused.
    error: Option<String>,
    filter: Filter,
    show_hidden: bool,
    /// The folder field; read back only when the user edits it (a folder whose name is not
    /// UTF-8 shows lossily, and must not be replaced by its lossy text).
    folder_text: String,
    name: String,
    selected: Option<usize>,
    /// A save target that exists, waiting for "Replace".
    overwrite: Option<PathBuf>,
    /// One-shot: the keyboard moved the selection, bring it into view.
    scroll_to_selected: bool,
    /// One-shot: saving starts with the name field focused, ready to type.
    focus_name: bool,
}

impl Browsing {
    fn new(r: Request) -> Self {
        let mut b = Self {
            mode: r.mode,
            title: r.title,
            folder: PathBuf::new(),
            entries: Vec::new(),
            error: None,
            filter: r.filter,
            show_hidden: false,
            folder_text: String::new(),
            name: r.name,
            selected: None,
            overwrite: None,
            scroll_to_selected: false,
            focus_name: r.mode == Mode::Save,
        };
        b.go(r.folder);
        b
    }

    /// Shows `folder`; one that cannot be listed is still entered, its error in place of the
    /// listing, so the user sees where they are and goes up from there.
    fn go(&mut self, folder: PathBuf) {
        self.folder_text = folder.display().to_string();
        self.folder = folder;
        self.selected = None;
        self.overwrite = None;
        match listing::list(&self.folder, self.filter, self.show_hidden) {
            Ok(entries) => {
                self.entries = entries;
                self.error = None;
            }
            Err(e) => {
                self.entries.clear();
                self.error = Some(e);
            }
        }
    }

    fn refresh(&mut self) {
        self.go(self.folder.clone());
    }

    fn up(&mut self) {
        if let Some(parent) = self.folder.parent() {
            self.go(parent.to_path_buf());
        }
    }

    fn select(&mut self, i: usize) {
        let Some(entry) = self.entries.get(i) else {
            return;
        };
        self.selected = Some(i);
        self.overwrite = None;
        if !entry.is_dir {
            self.name = entry.display_name();
        }
    }

    fn move_selection(&mut self, delta: isize) {
        if self.entries.is_empty() {
            return;
        }
        let last = self.entries.len() - 1;
        let next = match self.selected {
            None if delta > 0 => 0,
            None => last,
            Some(i) => i.saturating_add_signed(delta).min(last),
        };
        self.select(next);
        self.scroll_to_selected = true;
    }

    /// A double click or Enter on an entry: a folder opens, a file is picked.
    fn activate(&mut self, i: usize) -> Option<Outcome> {
        let entry = self.entries.get(i)?;
        let path = self.folder.join(&entry.name);
        if entry.is_dir {
            self.go(path);
            return None;
        }
        self.select(i);
        self.confirm()
    }

    /// The name field as a path: the selected entry's real name when the field still shows
    /// it, else the text under the folder.
    fn target(&self) -> Option<PathBuf> {
        if let Some(e) = self.selected.and_then(|i| self.entries.get(i))
            && !e.is_dir
            && e.display_name() == self.name
        {
            return Some(self.folder.join(&e.name));
        }
        listing::resolve_typed(&self.name, &self.folder, listing::home().as_deref())
    }

    /// The Open or Save button, or Enter in the name field.
    fn confirm(&mut self) -> Option<Outcome> {
        let selected_dir = self
            .selected
            .and_then(|i| self.entries.get(i))
            .filter(|e| e.is_dir)
            .map(|e| self.folder.join(&e.name));
        let Some(target) = self.target() else {
            match selected_dir {
                Some(dir) => self.go(dir),
                None => self.refuse(match self.mode {
                    Mode::Open => "pick a file to open".into(),
                    Mode::Save => "type a name for the file".into(),
                }),
            }
            return None;
        };
        match self.mode {
            Mode::Open => self.confirm_open(target),
            Mode::Save => self.confirm_save(target),
        }
    }

    fn confirm_open(&mut self, target: PathBuf) -> Option<Outcome> {
        match std::fs::metadata(&target) {
            Ok(m) if m.is_dir() => {
                self.name.clear();
                self.go(target);
                None
            }
            // Anything else that exists goes to the loader, which says what it refuses.
            Ok(_) => Some(Outcome::Picked(target)),
            Err(e) => {
                self.refuse(listing::describe(&target, &e));
                None
            }
        }
    }

    fn confirm_save(&mut self, target: PathBuf) -> Option<Outcome> {
        if target.is_dir() {
            self.name.clear();
            self.go(target);
            return None;
        }
        let target = listing::with_default_extension(target, SAVE_EXTENSION);
        let parent = target.parent().unwrap_or(Path::new("/"));
        if !parent.is_dir() {
            self.refuse(format!("the folder {} does not exist", parent.display()));
            return None;
        }
        if target.is_dir() {
            self.refuse(format!("{} is a folder", target.display()));
            return None;
        }
        if target.exists() && self.overwrite.as_ref() != Some(&target) {
            self.overwrite = Some(target);
            return None;
        }
        Some(Outcome::Picked(target))
    }

    /// "Replace" on the overwrite question.
    fn replace(&mut self) -> Option<Outcome> {
        self.overwrite.take().map(Outcome::Picked)
    }

    /// Enter in the folder field, or its Go button: a folder opens; a file typed in full is
    /// picked (Open) or named (Save) the way the name field would.
    fn go_typed(&mut self) -> Option<Outcome> {
        let Some(path) =
            listing::resolve_typed(&self.folder_text, &self.folder, listing::home().as_deref())
        else {
            self.folder_text = self.folder.display().to_string();
            return None;
        };
        if path.is_dir() {
            self.go(path);
            return None;
        }
        if let (Some(parent), Some(name)) = (path.parent(), path.file_name())
            && (path.exists() || self.mode == Mode::Save)
            && parent.is_dir()
        {
            self.go(parent.to_path_buf());
            self.name = name.to_string_lossy().into_owned();
            return self.confirm();
        }
        self.refuse(format!("{} does not exist", path.display()));
        None
    }

    fn set_filter(&mut self, filter: Filter) {
        if filter != self.filter {
            self.filter = filter;
            self.refresh();
        }
    }

    fn refuse(&mut self, why: String) {
        self.error = Some(why);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn browse(mode: Mode, folder: &Path) -> Browsing {
        Browsing::new(Request {
            mode,
            title: "test".into(),
            folder: folder.to_path_buf(),
            name: String::new(),
            filter: Filter::Openable,
        })
    }

    fn index_of(b: &Browsing, name: &str) -> usize {
        b.entries
            .iter()
            .position(|e| e.display_name() == name)
            .unwrap_or_else(|| panic!("{name} listed"))
    }

    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("runs")).expect("mkdir");
        std::fs::write(dir.path().join("runs/a.cdrec"), b"x").expect("write");
        std::fs::write(dir.path().join("notes.txt"), b"x").expect("write");
        dir
    }

    #[test]
    fn open_walks_into_a_folder_and_picks_a_file() {
        let dir = tree();
        let mut b = browse(Mode::Open, dir.path());
        assert_eq!(b.entries.len(), 1, "notes.txt is filtered out");
        assert_eq!(b.activate(index_of(&b, "runs")), None);
        assert_eq!(b.folder, dir.path().join("runs"));
        let picked = b.activate(index_of(&b, "a.cdrec"));
        assert_eq!(
            picked,
            Some(Outcome::Picked(dir.path().join("runs/a.cdrec")))
        );
        b.up();
        assert_eq!(b.folder, dir.path());
    }

    #[test]
    fn open_refuses_a_missing_file_and_an_empty_name_with_a_message() {
        let dir = tree();
        let mut b = browse(Mode::Open, dir.path());
        assert_eq!(b.confirm(), None);
        assert_eq!(b.error.as_deref(), Some("pick a file to open"));
        b.name = "missing.cdrec".into();
        assert_eq!(b.confirm(), None);
        assert!(
            b.error
                .as_deref()
                .is_some_and(|e| e.ends_with("does not exist"))
        );
        // A folder selected and Open pressed enters it.
        b.name.clear();
        b.select(index_of(&b, "runs"));
        assert_eq!(b.confirm(), None);
        assert_eq!(b.folder, dir.path().join("runs"));
    }

    #[test]
    fn an_unreadable_folder_is_entered_with_its_error_and_left_by_up() {
        let dir = tree();
        let mut b = browse(Mode::Open, &dir.path().join("runs/a.cdrec"));
        assert!(b.entries.is_empty());
        assert!(
            b.error
                .as_deref()
                .is_some_and(|e| e.ends_with("is not a folder"))
        );
        b.up();
        assert_eq!(b.folder, dir.path().join("runs"));
        assert_eq!((b.error.as_deref(), b.entries.len()), (None, 1));
    }

    #[test]
    fn save_adds_the_extension_and_asks_before_replacing() {
        let dir = tree();
        let mut b = browse(Mode::Save, &dir.path().join("runs"));
        b.name = "new".into();
        assert_eq!(
            b.confirm(),
            Some(Outcome::Picked(dir.path().join("runs/new.cdrec")))
        );
        b.name = "a".into();
        assert_eq!(b.confirm(), None, "a.cdrec exists");
        assert_eq!(b.overwrite, Some(dir.path().join("runs/a.cdrec")));
        assert_eq!(
            b.replace(),
            Some(Outcome::Picked(dir.path().join("runs/a.cdrec")))
        );
        b.name = "../nowhere/x".into();
        assert_eq!(b.confirm(), None);
        assert!(
            b.error
                .as_deref()
                .is_some_and(|e| e.contains("does not exist"))
        );
    }

    #[test]
    fn a_typed_folder_opens_and_a_typed_file_is_picked() {
        let dir = tree();
        let mut b = browse(Mode::Open, Path::new("/"));
        b.folder_text = dir.path().join("runs").display().to_string();
        assert_eq!(b.go_typed(), None);
        assert_eq!(b.folder, dir.path().join("runs"));
        b.folder_text = "a.cdrec".into();
        assert_eq!(
            b.go_typed(),
            Some(Outcome::Picked(dir.path().join("runs/a.cdrec")))
        );
        b.folder_text = "gone/deeper".into();
        assert_eq!(b.go_typed(), None);
        assert!(
            b.error
                .as_deref()
                .is_some_and(|e| e.ends_with("does not exist"))
        );
    }

    #[test]
    fn arrows_move_the_selection_within_the_listing() {
        let dir = tree();
        std::fs::write(dir.path().join("b.ron"), b"x").expect("write");
        let mut b = browse(Mode::Open, dir.path());
        b.move_selection(-1);
        assert_eq!(b.selected, Some(1));
        assert_eq!(b.name, "b.ron");
        b.move_selection(5);
        assert_eq!(b.selected, Some(1));
        b.move_selection(-3);
        assert_eq!(b.selected, Some(0));
        b.set_filter(Filter::All);
        assert_eq!(b.entries.len(), 3);
        assert_eq!(b.selected, None, "a new listing clears the selection");
    }
}

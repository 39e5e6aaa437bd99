//! What the browser lists: a folder's entries, folders first, files of the chosen kind. Paths
//! come from the user and from the disk: every failure is a sentence, never a panic.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The kinds of file the viewer opens, as rfd's filters name them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Filter {
    #[default]
    Openable,
    Recordings,
    Scenes,
    Streams,
    All,
}

impl Filter {
    pub const ALL: [Filter; 5] = [
        Filter::Openable,
        Filter::Recordings,
        Filter::Scenes,
        Filter::Streams,
        Filter::All,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Filter::Openable => "Recordings, scenes and capture streams",
            Filter::Recordings => "Recordings",
            Filter::Scenes => "Scenes",
            Filter::Streams => "Capture streams",
            Filter::All => "All files",
        }
    }

    /// Empty for every file.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Filter::Openable => &["cdrec", "ron", "jsonl", "ndjson"],
            Filter::Recordings => &["cdrec"],
            Filter::Scenes => &["ron"],
            Filter::Streams => &["jsonl", "ndjson"],
            Filter::All => &[],
        }
    }

    /// By extension, in any case (`RUN.CDREC` is a recording too).
    pub fn accepts(self, name: &Path) -> bool {
        let wanted = self.extensions();
        wanted.is_empty()
            || name
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| wanted.iter().any(|w| w.eq_ignore_ascii_case(e)))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// As the disk has it (not necessarily UTF-8): joined to the folder, it names the file.
    pub name: OsString,
    pub is_dir: bool,
    /// Bytes, for regular files.
    pub size: Option<u64>,
}

impl Entry {
    pub fn display_name(&self) -> String {
        self.name.to_string_lossy().into_owned()
    }
}

/// The folder's entries, folders first then by name ignoring case. Entries that vanish while
/// being read are left out; a link is listed as what it points to (a link to a folder is
/// browsed like one), a broken link as a file.
pub fn list(folder: &Path, filter: Filter, show_hidden: bool) -> Result<Vec<Entry>, String> {
    let read = std::fs::read_dir(folder).map_err(|e| describe(folder, &e))?;
    let mut entries = Vec::new();
    for item in read.flatten() {
        let name = item.file_name();
        if !show_hidden && name.as_encoded_bytes().first() == Some(&b'.') {
            continue;
        }
        let meta = std::fs::metadata(item.path()).ok();
        let is_dir = meta.as_ref().is_some_and(|m| m.is_dir());
        if !is_dir && !filter.accepts(Path::new(&name)) {
            continue;
        }
        let size = meta.filter(|m| m.is_file()).map(|m| m.len());
        entries.push(Entry { name, is_dir, size });
    }
    entries.sort_by_cached_key(|e| {
        (
            !e.is_dir,
            e.name.to_string_lossy().to_lowercase(),
            e.name.clone(),
        )
    });
    Ok(entries)
}

/// A folder that cannot be listed, said the way a user would fix it.
pub fn describe(folder: &Path, e: &std::io::Error) -> String {
    let at = folder.display();
    match e.kind() {
        std::io::ErrorKind::PermissionDenied => {
            format!("cannot read {at}: permission denied")
        }
        std::io::ErrorKind::NotFound => format!("{at} does not exist"),
        std::io::ErrorKind::NotADirectory => format!("{at} is not a folder"),
        _ => format!("cannot read {at}: {e}"),
    }
}

/// A path typed by the user: `~` is the home folder, a relative path is under `base`.
pub fn resolve_typed(text: &str, base: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let under_home = match text {
        "~" => Some(""),
        _ => text.strip_prefix("~/"),
    };
    if let (Some(rest), Some(home)) = (under_home, home) {
        return Some(home.join(rest));
    }
    Some(base.join(text))
}

/// A saved recording without an extension gets `.cdrec`, as the system dialog's answer does.
pub fn with_default_extension(path: PathBuf, extension: &str) -> PathBuf {
    if path.extension().is_none() {
        path.with_extension(extension)
    } else {
        path
    }
}

/// Where the browser starts: the newest recent folder that still exists, else the working
/// folder, else home, else the root.
pub fn start_folder(recent: &[String], current: Option<PathBuf>, home: Option<PathBuf>) -> PathBuf {
    recent
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_absolute() && p.is_dir())
        .or(current.filter(|p| p.is_dir()))
        .or(home.filter(|p| p.is_dir()))
        .unwrap_or_else(|| PathBuf::from("/"))
}

pub fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// 1536 → "1.5 KiB".
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(entries: &[Entry]) -> Vec<String> {
        entries.iter().map(Entry::display_name).collect()
    }

    fn folder_with_files() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        for f in [
            "b.cdrec",
            "A.CDREC",
            "scene.ron",
            "run.jsonl",
            "run.ndjson",
            "notes.txt",
            ".hidden.cdrec",
        ] {
            std::fs::write(dir.path().join(f), b"x").expect("write");
        }
        for d in ["zeta", "Alpha", ".git"] {
            std::fs::create_dir(dir.path().join(d)).expect("mkdir");
        }
        dir
    }

    #[test]
    fn folders_come_first_then_files_by_name_ignoring_case() {
        let dir = folder_with_files();
        let all = list(dir.path(), Filter::All, false).expect("listed");
        assert_eq!(
            names(&all),
            [
                "Alpha",
                "zeta",
                "A.CDREC",
                "b.cdrec",
                "notes.txt",
                "run.jsonl",
                "run.ndjson",
                "scene.ron"
            ]
        );
        assert!(all[0].is_dir && all[0].size.is_none());
        assert_eq!(all[2].size, Some(1));
        let hidden = list(dir.path(), Filter::All, true).expect("listed");
        assert_eq!(names(&hidden)[..3], [".git", "Alpha", "zeta"]);
        assert!(names(&hidden).contains(&".hidden.cdrec".to_string()));
    }

    #[test]
    fn each_filter_keeps_its_files_and_every_folder() {
        let dir = folder_with_files();
        let files = |f: Filter| {
            let e = list(dir.path(), f, false).expect("listed");
            assert_eq!(
                e.iter().filter(|e| e.is_dir).count(),
                2,
                "{f:?} keeps the folders"
            );
            e.into_iter()
                .filter(|e| !e.is_dir)
                .map(|e| e.display_name())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            files(Filter::Openable),
            ["A.CDREC", "b.cdrec", "run.jsonl", "run.ndjson", "scene.ron"]
        );
        assert_eq!(files(Filter::Recordings), ["A.CDREC", "b.cdrec"]);
        assert_eq!(files(Filter::Scenes), ["scene.ron"]);
        assert_eq!(files(Filter::Streams), ["run.jsonl", "run.ndjson"]);
        assert_eq!(files(Filter::All).len(), 6);
        assert!(
            !Filter::Recordings.accepts(Path::new("cdrec")),
            "a bare name has no extension"
        );
    }

    #[test]
    fn an_unreadable_missing_or_non_folder_path_is_a_message() {
        use std::os::unix::fs::PermissionsExt;
        let dir = folder_with_files();
        let locked = dir.path().join("locked");
        std::fs::create_dir(&locked).expect("mkdir");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
        let result = list(&locked, Filter::All, false);
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        // Root reads any folder: the permission case only shows for other users.
        if let Err(e) = result {
            assert!(
                e.contains("permission denied") && e.contains("locked"),
                "{e}"
            );
        }
        let missing = list(&dir.path().join("gone"), Filter::All, false).expect_err("missing");
        assert!(missing.ends_with("does not exist"), "{missing}");
        let file = list(&dir.path().join("b.cdrec"), Filter::All, false).expect_err("a file");
        assert!(file.ends_with("is not a folder"), "{file}");
        let nul = list(Path::new("bad\0path"), Filter::All, false).expect_err("a NUL byte");
        assert!(nul.starts_with("cannot read"), "{nul}");
    }

    #[test]
    fn an_unreadable_folder_error_names_the_permission() {
        let e = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        assert_eq!(
            describe(Path::new("/srv/x"), &e),
            "cannot read /srv/x: permission denied"
        );
    }

    #[test]
    fn names_that_are_not_utf8_are_listed_and_still_name_their_file() {
        use std::os::unix::ffi::OsStringExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let raw = OsString::from_vec(b"caf\xe9.cdrec".to_vec());
        std::fs::write(dir.path().join(&raw), b"x").expect("write");
        let e = list(dir.path(), Filter::Recordings, false).expect("listed");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].display_name(), "caf\u{fffd}.cdrec");
        assert!(dir.path().join(&e[0].name).is_file());
    }

    #[test]
    fn a_link_to_a_folder_is_a_folder_and_a_broken_link_a_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("real")).expect("mkdir");
        std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("link")).expect("link");
        std::os::unix::fs::symlink(
            dir.path().join("nowhere.cdrec"),
            dir.path().join("dead.cdrec"),
        )
        .expect("link");
        let e = list(dir.path(), Filter::All, false).expect("listed");
        assert_eq!(names(&e), ["link", "real", "dead.cdrec"]);
        assert!(e[0].is_dir && !e[2].is_dir && e[2].size.is_none());
    }

    #[test]
    fn typed_paths_resolve_against_the_folder_and_home() {
        let home = Path::new("/home/u");
        let base = Path::new("/data");
        assert_eq!(
            resolve_typed(" runs ", base, Some(home)),
            Some(PathBuf::from("/data/runs"))
        );
        assert_eq!(
            resolve_typed("/tmp", base, Some(home)),
            Some(PathBuf::from("/tmp"))
        );
        assert_eq!(
            resolve_typed("~", base, Some(home)),
            Some(PathBuf::from("/home/u"))
        );
        assert_eq!(
            resolve_typed("~/x", base, Some(home)),
            Some(PathBuf::from("/home/u/x"))
        );
        assert_eq!(
            resolve_typed("~/x", base, None),
            Some(PathBuf::from("/data/~/x"))
        );
        assert_eq!(resolve_typed("  ", base, Some(home)), None);
    }

    #[test]
    fn saving_adds_cdrec_only_without_an_extension() {
        assert_eq!(
            with_default_extension("/a/run".into(), "cdrec"),
            PathBuf::from("/a/run.cdrec")
        );
        assert_eq!(
            with_default_extension("/a/run.bin".into(), "cdrec"),
            PathBuf::from("/a/run.bin")
        );
    }

    #[test]
    fn the_start_folder_is_the_newest_recent_one_that_exists() {
        let dir = tempfile::tempdir().expect("temp dir");
        let here = dir.path().display().to_string();
        let recent = [
            "/no/such/folder".to_string(),
            "relative".to_string(),
            here.clone(),
        ];
        assert_eq!(start_folder(&recent, None, None), dir.path());
        assert_eq!(start_folder(&[], Some(dir.path().into()), None), dir.path());
        assert_eq!(
            start_folder(&[], Some("/no/such".into()), None),
            PathBuf::from("/")
        );
    }

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(human_size(12), "12 B");
        assert_eq!(human_size(1536), "1.5 KiB");
        assert_eq!(human_size(5 << 30), "5.0 GiB");
    }
}

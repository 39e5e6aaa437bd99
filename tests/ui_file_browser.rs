//! The in-app file browser, used where the desktop has no file dialog (here chosen with the
//! `COLLIDOSCOPE_FILE_DIALOG=builtin` override, as `StartOptions`): Ctrl+O shows it, a typed
//! folder and a clicked entry open a recording into the session; Ctrl+S writes the session
//! through it, asking before replacing a file; Compare picks run B; a folder that cannot be
//! read says so; Escape closes it.

use super::diff_runs::record;
use crate::ui_harness::settle;
use collidoscope::app::files::system_dialog::DialogChoice;
use collidoscope::app::state::Level;
use collidoscope::app::{CollidoscopeApp, StartOptions};
use collidoscope::record::RecordingReader;
use collidoscope::world::builtin_scene;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};

const OPEN_TITLE: &str = "Open a recording, scene or capture stream";
const SAVE_TITLE: &str = "Save the session as a recording";

/// The app with the desktop's dialogs allowed but the in-app browser chosen.
fn harness(file: Option<PathBuf>) -> Harness<'static, CollidoscopeApp> {
    crate::ui_harness::app_with(
        [1500.0, 950.0],
        StartOptions {
            file: file.as_ref().map(|f| f.display().to_string()),
            dialogs: true,
            file_dialog: DialogChoice::Builtin,
            ..StartOptions::headless()
        },
    )
}

/// A folder `runs` holding a short recording of the box stack, and a text file beside it.
fn folder_with_a_recording(root: &Path) -> PathBuf {
    let runs = root.join("runs");
    std::fs::create_dir(&runs).expect("mkdir");
    let scene = builtin_scene("box-stack").expect("built-in scene");
    record(&scene, 12, &runs.join("stack.cdrec"));
    std::fs::write(root.join("notes.txt"), "not a recording").expect("write");
    runs
}

/// Replaces the text of the field labelled `label` and presses Enter.
fn type_into(h: &mut Harness<'_, CollidoscopeApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label(label).type_text(text);
    h.run();
    h.key_press(Key::Enter);
    h.run_steps(2);
}

fn last_message(h: &Harness<'_, CollidoscopeApp>) -> (Level, String) {
    let m = h.state().state.messages.last().expect("a message");
    (m.level.clone(), m.text.clone())
}

#[test]
fn ctrl_o_opens_the_browser_which_opens_a_recording() {
    let dir = tempfile::tempdir().expect("temp dir");
    let runs = folder_with_a_recording(dir.path());
    let mut h = harness(None);
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(2);
    h.get_by_label(OPEN_TITLE);
    type_into(&mut h, "Folder", &dir.path().display().to_string());
    assert_eq!(
        h.state().file_browser_folder(),
        Some(dir.path().to_path_buf())
    );
    // Folders first; the text file is not a kind the viewer opens.
    h.get_by_label_contains("🗀 runs");
    assert!(h.query_by_label_contains("notes.txt").is_none());
    h.get_by_label_contains("🗀 runs").click();
    h.run();
    h.get_by_label("Open").click();
    h.run_steps(2);
    assert_eq!(h.state().file_browser_folder(), Some(runs.clone()));
    h.get_by_label_contains("🗋 stack.cdrec").click();
    h.run();
    h.get_by_label("Open").click();
    settle(&mut h);
    assert!(h.query_by_label(OPEN_TITLE).is_none(), "the browser closed");
    let session = h.state().state.session.as_ref().expect("a session");
    assert_eq!(
        session.origin.label(),
        runs.join("stack.cdrec").display().to_string()
    );
    assert_eq!(h.state().state.frame_count(), 13);
    assert_eq!(
        h.state().settings.recent_folders.first(),
        Some(&runs.display().to_string())
    );
    assert_eq!(
        h.state().settings.recent.first(),
        Some(&runs.join("stack.cdrec").display().to_string())
    );
}

#[test]
fn ctrl_s_saves_through_the_browser_and_asks_before_replacing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = harness(None);
    h.key_press(Key::ArrowRight);
    h.run_steps(2);
    let frames = h.state().state.frame_count();
    assert!(frames >= 2, "a live scene stepped: {frames} frames");
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    h.get_by_label(SAVE_TITLE);
    type_into(&mut h, "Folder", &dir.path().display().to_string());
    // No extension: .cdrec is added.
    type_into(&mut h, "File name", "mine");
    settle(&mut h);
    let saved = dir.path().join("mine.cdrec");
    let reader = RecordingReader::open(&saved).expect("a recording was written");
    assert_eq!(reader.len(), frames);
    assert!(h.query_by_label(SAVE_TITLE).is_none(), "the browser closed");

    // Two more frames, then saving again starts in the recent folder; the same name asks
    // first.
    h.key_press(Key::ArrowRight);
    h.run_steps(2);
    h.key_press(Key::ArrowRight);
    h.run_steps(2);
    assert_eq!(
        h.state().state.frame_count(),
        frames + 2,
        "the keys are the app's again"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    assert_eq!(
        h.state().file_browser_folder(),
        Some(dir.path().to_path_buf())
    );
    type_into(&mut h, "File name", "mine.cdrec");
    h.get_by_label_contains("mine.cdrec already exists");
    h.get_by_label("Keep it").click();
    h.run();
    assert!(h.query_by_label_contains("already exists").is_none());
    h.get_by_label("Save").click();
    h.run();
    h.get_by_label("Replace").click();
    settle(&mut h);
    assert!(h.query_by_label(SAVE_TITLE).is_none());
    let (level, text) = last_message(&h);
    assert_eq!(level, Level::Info, "{text}");
    let replaced = RecordingReader::open(&saved).expect("the replaced recording");
    assert_eq!(
        replaced.len(),
        frames + 2,
        "the second save wrote the longer session"
    );
}

#[test]
fn a_folder_that_cannot_be_read_says_why_and_escape_closes_the_browser() {
    let dir = tempfile::tempdir().expect("temp dir");
    let runs = folder_with_a_recording(dir.path());
    let mut h = harness(None);
    let before = h.state().state.session_generation;
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open…  (Ctrl+O)").click();
    h.run_steps(2);
    h.get_by_label(OPEN_TITLE);
    let missing = dir.path().join("gone");
    type_into(&mut h, "Folder", &missing.display().to_string());
    h.get_by_label_contains("gone does not exist");
    // A file typed as the folder: the browser stays, saying so.
    type_into(
        &mut h,
        "Folder",
        &runs.join("stack.cdrec/deeper").display().to_string(),
    );
    h.get_by_label_contains("does not exist");
    h.key_press(Key::Escape);
    h.run_steps(2);
    assert!(h.query_by_label(OPEN_TITLE).is_none(), "Escape closed it");
    assert_eq!(h.state().state.session_generation, before, "nothing opened");
    // The keys are the app's again.
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(2);
    h.get_by_label(OPEN_TITLE);
    h.get_by_label("Cancel").click();
    h.run();
    assert!(h.query_by_label(OPEN_TITLE).is_none());
}

#[test]
fn compare_browse_picks_run_b_in_the_browser() {
    let dir = tempfile::tempdir().expect("temp dir");
    let runs = folder_with_a_recording(dir.path());
    let scene = builtin_scene("box-stack").expect("built-in scene");
    let b = record(&scene, 12, &dir.path().join("b.cdrec"));
    let mut h = harness(Some(runs.join("stack.cdrec")));
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Compare with…").click();
    h.run();
    h.get_by_label("Browse…").click();
    h.run_steps(2);
    h.get_by_label("Compare with: pick run B");
    // A full path typed in the folder field picks the file.
    type_into(&mut h, "Folder", &b.display().to_string());
    settle(&mut h);
    let st = &h.state().state;
    let c = st.compare.as_ref().expect("B compared");
    assert_eq!(c.label(), b.display().to_string());
}

#[test]
fn the_keyboard_walks_the_listing_and_opens_with_enter() {
    let dir = tempfile::tempdir().expect("temp dir");
    let runs = folder_with_a_recording(dir.path());
    let mut h = harness(None);
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(2);
    type_into(&mut h, "Folder", &dir.path().display().to_string());
    // The arrows select (the app's ArrowRight would have stepped the scene), Enter opens.
    let frames = h.state().state.frame_count();
    h.key_press(Key::ArrowDown);
    h.run_steps(2);
    h.key_press(Key::Enter);
    h.run_steps(2);
    assert_eq!(h.state().file_browser_folder(), Some(runs.clone()));
    h.key_press(Key::ArrowRight);
    h.key_press(Key::ArrowDown);
    h.run_steps(2);
    assert_eq!(
        h.state().state.frame_count(),
        frames,
        "the browser has the keys"
    );
    h.key_press(Key::Enter);
    settle(&mut h);
    let session = h.state().state.session.as_ref().expect("a session");
    assert_eq!(
        session.origin.label(),
        runs.join("stack.cdrec").display().to_string()
    );
}

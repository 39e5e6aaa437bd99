//! The keyboard map. Keys are consumed before the panels run, so Space never also presses a
//! focused button; nothing is read while a text field has the keyboard.

use crate::app::state::{Command, Selection};
use egui::{Key, Modifiers};

#[derive(Clone, Debug, PartialEq)]
pub enum KeyAction {
    Cmd(Command),
    /// Radians.
    Orbit(f64, f64),
    /// Fractions of the view height.
    Pan(f64, f64),
    Zoom(f64),
    FrameSelected,
    FrameAll,
    CycleShading,
    OpenDialog,
    SaveDialog,
    ToggleHelp,
}

/// (keys, what they do) for the help window.
pub const KEY_MAP: &[(&str, &str)] = &[
    ("Space", "play / pause"),
    (
        "← / →",
        "one frame back / forward (forward at the end of a live session steps the engine)",
    ),
    ("Shift + ← / →", "one trace event back / forward"),
    ("Page Up / Page Down", "ten frames back / forward"),
    ("Home / End", "first / last frame"),
    ("[ / ]", "previous / next marker"),
    ("Esc", "clear the selection"),
    ("F / H", "frame the selection / frame everything"),
    ("W A S D", "orbit the camera"),
    ("Shift + W A S D", "pan the camera"),
    ("Q / E", "zoom out / in"),
    ("Z", "cycle shading: solid + edges, wireframe, solid"),
    (
        "Ctrl + O / Ctrl + S",
        "open a file / save the session as a recording",
    ),
    ("F1", "this help"),
    ("Mouse: drag", "orbit"),
    ("Mouse: right or middle drag, Shift + drag", "pan"),
    ("Mouse: wheel", "zoom"),
    ("Mouse: click / double-click", "select a body / frame it"),
];

pub fn read(ctx: &egui::Context) -> Vec<KeyAction> {
    if ctx.egui_wants_keyboard_input() {
        return Vec::new();
    }
    let mut out = Vec::new();
    ctx.input_mut(|i| {
        let mut press = |m: Modifiers, k: Key| i.consume_key(m, k);
        if press(Modifiers::NONE, Key::Space) {
            out.push(KeyAction::Cmd(Command::TogglePlay));
        }
        if press(Modifiers::SHIFT, Key::ArrowLeft) {
            out.push(KeyAction::Cmd(Command::StepEvents(-1)));
        }
        if press(Modifiers::SHIFT, Key::ArrowRight) {
            out.push(KeyAction::Cmd(Command::StepEvents(1)));
        }
        if press(Modifiers::NONE, Key::ArrowLeft) {
            out.push(KeyAction::Cmd(Command::StepFrames(-1)));
        }
        if press(Modifiers::NONE, Key::ArrowRight) {
            out.push(KeyAction::Cmd(Command::StepFrames(1)));
        }
        if press(Modifiers::NONE, Key::PageUp) {
            out.push(KeyAction::Cmd(Command::StepFrames(-10)));
        }
        if press(Modifiers::NONE, Key::PageDown) {
            out.push(KeyAction::Cmd(Command::StepFrames(10)));
        }
        if press(Modifiers::NONE, Key::Home) {
            out.push(KeyAction::Cmd(Command::FirstFrame));
        }
        if press(Modifiers::NONE, Key::End) {
            out.push(KeyAction::Cmd(Command::LastFrame));
        }
        if press(Modifiers::NONE, Key::OpenBracket) {
            out.push(KeyAction::Cmd(Command::PreviousMarker));
        }
        if press(Modifiers::NONE, Key::CloseBracket) {
            out.push(KeyAction::Cmd(Command::NextMarker));
        }
        if press(Modifiers::NONE, Key::Escape) {
            out.push(KeyAction::Cmd(Command::Select(Selection::None)));
        }
        if press(Modifiers::NONE, Key::F) {
            out.push(KeyAction::FrameSelected);
        }
        if press(Modifiers::NONE, Key::H) {
            out.push(KeyAction::FrameAll);
        }
        if press(Modifiers::NONE, Key::Z) {
            out.push(KeyAction::CycleShading);
        }
        if press(Modifiers::COMMAND, Key::O) {
            out.push(KeyAction::OpenDialog);
        }
        if press(Modifiers::COMMAND, Key::S) {
            out.push(KeyAction::SaveDialog);
        }
        if press(Modifiers::NONE, Key::F1) {
            out.push(KeyAction::ToggleHelp);
        }
        // Held keys move the camera smoothly, scaled by the frame time.
        let dt = i.stable_dt.min(0.1) as f64;
        let held = |k: Key| i.key_down(k) as i32 as f64;
        let (x, y) = (held(Key::D) - held(Key::A), held(Key::W) - held(Key::S));
        if x != 0.0 || y != 0.0 {
            if i.modifiers.shift {
                out.push(KeyAction::Pan(x * dt, y * dt));
            } else {
                out.push(KeyAction::Orbit(-x * dt * 1.8, y * dt * 1.2));
            }
        }
        let z = held(Key::Q) - held(Key::E);
        if z != 0.0 {
            out.push(KeyAction::Zoom((z * dt * 1.5).exp()));
        }
    });
    out
}

/// True while a camera key is held: the view must keep repainting.
pub fn camera_key_held(ctx: &egui::Context) -> bool {
    ctx.input(|i| {
        [Key::W, Key::A, Key::S, Key::D, Key::Q, Key::E]
            .iter()
            .any(|k| i.key_down(*k))
    })
}

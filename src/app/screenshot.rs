//! The self-screenshot mode: `COLLIDOSCOPE_SCREENSHOT=out.png` opens a scene or recording,
//! moves to a frame and event, sets up the view, saves a PNG of the whole window and exits.
//! `scripts/screenshots.sh` drives it under Xvfb.
//!
//! Options (environment variables, all optional):
//! - `COLLIDOSCOPE_SCREENSHOT_SCENE`   built-in scene name or file (default: the file argument
//!   or the default scene)
//! - `COLLIDOSCOPE_SCREENSHOT_FRAME`   frame to show; a live scene is stepped up to it
//! - `COLLIDOSCOPE_SCREENSHOT_STEPS`   frames to simulate first (default: up to the frame shown)
//! - `COLLIDOSCOPE_SCREENSHOT_EVENT`   event index in that frame, or `contact` / `test` for the
//!   first contact / the first shape test that hit, or `moving-contact` for the first contact
//!   between two moving bodies
//! - `COLLIDOSCOPE_SCREENSHOT_SELECT`  body id or name to select
//! - `COLLIDOSCOPE_SCREENSHOT_THEME`   `dark` or `light`
//! - `COLLIDOSCOPE_SCREENSHOT_SHADING` `solid`, `edges` or `wire`
//! - `COLLIDOSCOPE_SCREENSHOT_TRACE`   `off`, `current`, `upto` or `frame`
//! - `COLLIDOSCOPE_SCREENSHOT_CAMERA`  `yaw,pitch,zoom` added to the framed camera (radians, factor)
//! - `COLLIDOSCOPE_SCREENSHOT_FOCUS`   `selected` to frame the selection instead of the scene
//! - `COLLIDOSCOPE_SCREENSHOT_SIZE`    window size, `WIDTHxHEIGHT` (default 1600x1000)
//! - `COLLIDOSCOPE_SCREENSHOT_FORK`    `1` to open the "Resume from here" dialog
//! - `COLLIDOSCOPE_SCREENSHOT_PANEL`   a family view to open alone (its name, spaces as dashes:
//!   `hierarchy`, `broad-phase`); the view reads its own variables (see its `screenshot` module)
//! - `COLLIDOSCOPE_SCREENSHOT_HELP`    `1` to open the keyboard help window
//! - `COLLIDOSCOPE_SCREENSHOT_COMPARE` run B to compare the recording with (as `--compare`);
//!   the view opens at the first frame where they part
//! - `COLLIDOSCOPE_SCREENSHOT_DIFF_ROW` a row of the diff panel to pick (0 the first)

use crate::app::views::{Shading, TraceOverlay};
use std::path::PathBuf;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScreenshotPlan {
    pub output: PathBuf,
    pub scene: Option<String>,
    pub frame: Option<usize>,
    pub steps: Option<usize>,
    pub event: Option<EventPick>,
    pub select: Option<String>,
    pub light: bool,
    pub shading: Option<Shading>,
    pub trace: Option<TraceOverlay>,
    pub camera: Option<[f64; 3]>,
    pub focus_selected: bool,
    pub size: [f32; 2],
    pub fork_dialog: bool,
    pub panel: Option<String>,
    pub help: bool,
    pub compare: Option<PathBuf>,
    pub diff_row: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum EventPick {
    Index(usize),
    FirstContact,
    FirstHitTest,
    FirstContactBetweenMoving,
}

impl EventPick {
    /// The event to show; `fixed` tells which bodies do not move.
    pub fn find(
        &self,
        trace: &[crate::trace::TraceEvent],
        fixed: impl Fn(u32) -> bool,
    ) -> Option<usize> {
        match self {
            EventPick::FirstContactBetweenMoving => trace.iter().position(|e| {
                e.kind
                    .contact()
                    .is_some_and(|([a, b], touching)| touching && !fixed(a) && !fixed(b))
            }),
            EventPick::Index(i) => (*i < trace.len()).then_some(*i),
            EventPick::FirstContact => trace.iter().position(|e| e.kind.contact().is_some()),
            // The first narrow-phase test that said yes, whichever family ran it.
            EventPick::FirstHitTest => trace.iter().position(|e| {
                e.stage == crate::trace::Stage::NarrowPhase
                    && e.verdict == crate::trace::Verdict::Hit
                    && e.kind.contact().is_none()
            }),
        }
    }
}

impl ScreenshotPlan {
    /// The plan from the environment, or `None` when not in screenshot mode. Bad values are
    /// errors that name the variable.
    pub fn from_env() -> Result<Option<Self>, String> {
        Self::from_vars(|name| std::env::var(name).ok())
    }

    /// The plan from variables looked up by name, as [`ScreenshotPlan::from_env`] reads them.
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<Option<Self>, String> {
        let vars = Vars { lookup };
        let Some(output) = vars.get("COLLIDOSCOPE_SCREENSHOT") else {
            return Ok(None);
        };
        // Read in this order, so the first bad variable is the one reported.
        Ok(Some(ScreenshotPlan {
            output: PathBuf::from(output),
            scene: vars.get("COLLIDOSCOPE_SCREENSHOT_SCENE"),
            frame: vars.read("COLLIDOSCOPE_SCREENSHOT_FRAME", "a frame number", |v| {
                v.parse().ok()
            })?,
            steps: vars.read("COLLIDOSCOPE_SCREENSHOT_STEPS", "a number of frames", |v| {
                v.parse().ok()
            })?,
            event: vars.read(
                "COLLIDOSCOPE_SCREENSHOT_EVENT",
                "an index, contact or test",
                event_pick,
            )?,
            select: vars.get("COLLIDOSCOPE_SCREENSHOT_SELECT"),
            light: vars
                .read(
                    "COLLIDOSCOPE_SCREENSHOT_THEME",
                    "dark or light",
                    |v| match v {
                        "light" => Some(true),
                        "dark" => Some(false),
                        _ => None,
                    },
                )?
                .unwrap_or(false),
            shading: vars.read(
                "COLLIDOSCOPE_SCREENSHOT_SHADING",
                "solid, edges or wire",
                shading,
            )?,
            trace: vars.read(
                "COLLIDOSCOPE_SCREENSHOT_TRACE",
                "off, current, upto or frame",
                trace_overlay,
            )?,
            camera: vars.read("COLLIDOSCOPE_SCREENSHOT_CAMERA", "yaw,pitch,zoom", camera)?,
            focus_selected: vars.is("COLLIDOSCOPE_SCREENSHOT_FOCUS", "selected"),
            size: vars
                .read(
                    "COLLIDOSCOPE_SCREENSHOT_SIZE",
                    "WIDTHxHEIGHT between 320x240 and 8192x8192",
                    window_size,
                )?
                .unwrap_or([1600.0, 1000.0]),
            fork_dialog: vars.is("COLLIDOSCOPE_SCREENSHOT_FORK", "1"),
            panel: vars.get("COLLIDOSCOPE_SCREENSHOT_PANEL"),
            help: vars.is("COLLIDOSCOPE_SCREENSHOT_HELP", "1"),
            compare: vars
                .get("COLLIDOSCOPE_SCREENSHOT_COMPARE")
                .map(PathBuf::from),
            diff_row: vars.read("COLLIDOSCOPE_SCREENSHOT_DIFF_ROW", "a row number", |v| {
                v.parse().ok()
            })?,
        }))
    }
}

/// The screenshot variables by name; a blank value counts as unset.
struct Vars<F> {
    lookup: F,
}

impl<F: Fn(&str) -> Option<String>> Vars<F> {
    fn get(&self, name: &str) -> Option<String> {
        (self.lookup)(name).filter(|v| !v.trim().is_empty())
    }

    fn is(&self, name: &str, value: &str) -> bool {
        self.get(name).as_deref() == Some(value)
    }

    /// A set variable as `parse` reads it; a value it rejects is an error naming the variable
    /// and what it expects.
    fn read<T>(
        &self,
        name: &str,
        want: &str,
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<Option<T>, String> {
        let Some(v) = self.get(name) else {
            return Ok(None);
        };
        match parse(&v) {
            Some(x) => Ok(Some(x)),
            None => Err(format!("{name}={v:?}: expected {want}")),
        }
    }
}

fn event_pick(v: &str) -> Option<EventPick> {
    Some(match v {
        "contact" => EventPick::FirstContact,
        "test" => EventPick::FirstHitTest,
        "moving-contact" => EventPick::FirstContactBetweenMoving,
        n => EventPick::Index(n.parse().ok()?),
    })
}

fn shading(v: &str) -> Option<Shading> {
    match v {
        "solid" => Some(Shading::Solid),
        "edges" => Some(Shading::SolidWithEdges),
        "wire" => Some(Shading::Wireframe),
        _ => None,
    }
}

fn trace_overlay(v: &str) -> Option<TraceOverlay> {
    match v {
        "off" => Some(TraceOverlay::Off),
        "current" => Some(TraceOverlay::Current),
        "upto" => Some(TraceOverlay::UpToCurrent),
        "frame" => Some(TraceOverlay::WholeFrame),
        _ => None,
    }
}

/// `yaw,pitch,zoom`; parts that are not numbers are skipped.
fn camera(v: &str) -> Option<[f64; 3]> {
    let parts: Vec<f64> = v.split(',').filter_map(|p| p.trim().parse().ok()).collect();
    let [yaw, pitch, zoom] = parts[..] else {
        return None;
    };
    Some([yaw, pitch, zoom])
}

/// `WIDTHxHEIGHT`, within what a window can be.
fn window_size(v: &str) -> Option<[f32; 2]> {
    let (w, h) = v.split_once('x')?;
    let size: [f32; 2] = [w.trim().parse().ok()?, h.trim().parse().ok()?];
    (size[0] >= 320.0 && size[1] >= 240.0 && size[0] <= 8192.0 && size[1] <= 8192.0).then_some(size)
}

/// Writes an egui screenshot as a PNG.
pub fn save_png(image: &egui::ColorImage, path: &std::path::Path) -> Result<(), String> {
    let [w, h] = image.size;
    let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    let img = image::RgbaImage::from_raw(w as u32, h as u32, bytes)
        .ok_or_else(|| format!("{}: the screenshot has the wrong size", path.display()))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    img.save(path)
        .map_err(|e| format!("{}: cannot write the PNG: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(vars: &[(&str, &str)]) -> Result<Option<ScreenshotPlan>, String> {
        ScreenshotPlan::from_vars(|name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn without_an_output_there_is_no_plan() {
        assert_eq!(plan(&[]), Ok(None));
        assert_eq!(plan(&[("COLLIDOSCOPE_SCREENSHOT", "  ")]), Ok(None));
    }

    #[test]
    fn every_variable_is_read() {
        let p = plan(&[
            ("COLLIDOSCOPE_SCREENSHOT", "out.png"),
            ("COLLIDOSCOPE_SCREENSHOT_SCENE", "stack"),
            ("COLLIDOSCOPE_SCREENSHOT_FRAME", "12"),
            ("COLLIDOSCOPE_SCREENSHOT_STEPS", "40"),
            ("COLLIDOSCOPE_SCREENSHOT_EVENT", "moving-contact"),
            ("COLLIDOSCOPE_SCREENSHOT_SELECT", "box"),
            ("COLLIDOSCOPE_SCREENSHOT_THEME", "light"),
            ("COLLIDOSCOPE_SCREENSHOT_SHADING", "wire"),
            ("COLLIDOSCOPE_SCREENSHOT_TRACE", "upto"),
            ("COLLIDOSCOPE_SCREENSHOT_CAMERA", "0.5, -0.25,x, 2"),
            ("COLLIDOSCOPE_SCREENSHOT_FOCUS", "selected"),
            ("COLLIDOSCOPE_SCREENSHOT_SIZE", "800 x 600"),
            ("COLLIDOSCOPE_SCREENSHOT_FORK", "1"),
            ("COLLIDOSCOPE_SCREENSHOT_PANEL", "hierarchy"),
            ("COLLIDOSCOPE_SCREENSHOT_HELP", "1"),
            ("COLLIDOSCOPE_SCREENSHOT_COMPARE", "b.cdrec"),
            ("COLLIDOSCOPE_SCREENSHOT_DIFF_ROW", "2"),
        ]);
        let want = ScreenshotPlan {
            output: PathBuf::from("out.png"),
            scene: Some("stack".into()),
            frame: Some(12),
            steps: Some(40),
            event: Some(EventPick::FirstContactBetweenMoving),
            select: Some("box".into()),
            light: true,
            shading: Some(Shading::Wireframe),
            trace: Some(TraceOverlay::UpToCurrent),
            camera: Some([0.5, -0.25, 2.0]),
            focus_selected: true,
            size: [800.0, 600.0],
            fork_dialog: true,
            panel: Some("hierarchy".into()),
            help: true,
            compare: Some(PathBuf::from("b.cdrec")),
            diff_row: Some(2),
        };
        assert_eq!(p, Ok(Some(want)));
    }

    #[test]
    fn unset_variables_keep_the_defaults() {
        let p = plan(&[("COLLIDOSCOPE_SCREENSHOT", "out.png")]);
        let want = ScreenshotPlan {
            output: PathBuf::from("out.png"),
            size: [1600.0, 1000.0],
            ..Default::default()
        };
        assert_eq!(p, Ok(Some(want)));
        let p = plan(&[
            ("COLLIDOSCOPE_SCREENSHOT", "out.png"),
            ("COLLIDOSCOPE_SCREENSHOT_EVENT", "7"),
            ("COLLIDOSCOPE_SCREENSHOT_THEME", "dark"),
        ])
        .ok()
        .flatten()
        .expect("a plan");
        assert_eq!((p.event, p.light), (Some(EventPick::Index(7)), false));
    }

    #[test]
    fn a_bad_value_names_its_variable_and_what_it_expects() {
        for (name, value, want) in [
            ("COLLIDOSCOPE_SCREENSHOT_FRAME", "last", "a frame number"),
            ("COLLIDOSCOPE_SCREENSHOT_STEPS", "-3", "a number of frames"),
            (
                "COLLIDOSCOPE_SCREENSHOT_EVENT",
                "first",
                "an index, contact or test",
            ),
            ("COLLIDOSCOPE_SCREENSHOT_THEME", "sepia", "dark or light"),
            (
                "COLLIDOSCOPE_SCREENSHOT_SHADING",
                "flat",
                "solid, edges or wire",
            ),
            (
                "COLLIDOSCOPE_SCREENSHOT_TRACE",
                "all",
                "off, current, upto or frame",
            ),
            ("COLLIDOSCOPE_SCREENSHOT_CAMERA", "1,2", "yaw,pitch,zoom"),
            (
                "COLLIDOSCOPE_SCREENSHOT_SIZE",
                "100x100",
                "WIDTHxHEIGHT between 320x240 and 8192x8192",
            ),
        ] {
            assert_eq!(
                plan(&[("COLLIDOSCOPE_SCREENSHOT", "out.png"), (name, value)]),
                Err(format!("{name}={value:?}: expected {want}"))
            );
        }
        // The first bad variable in reading order is the one reported.
        let both = plan(&[
            ("COLLIDOSCOPE_SCREENSHOT", "out.png"),
            ("COLLIDOSCOPE_SCREENSHOT_SIZE", "1x1"),
            ("COLLIDOSCOPE_SCREENSHOT_FRAME", "x"),
        ]);
        assert!(both.is_err_and(|e| e.starts_with("COLLIDOSCOPE_SCREENSHOT_FRAME")));
    }
}

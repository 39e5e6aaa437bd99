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
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let Some(output) = var("COLLIDOSCOPE_SCREENSHOT") else {
            return Ok(None);
        };
        let bad = |name: &str, v: &str, want: &str| format!("{name}={v:?}: expected {want}");
        let mut plan = ScreenshotPlan {
            output: PathBuf::from(output),
            size: [1600.0, 1000.0],
            scene: var("COLLIDOSCOPE_SCREENSHOT_SCENE"),
            select: var("COLLIDOSCOPE_SCREENSHOT_SELECT"),
            focus_selected: var("COLLIDOSCOPE_SCREENSHOT_FOCUS").as_deref() == Some("selected"),
            fork_dialog: var("COLLIDOSCOPE_SCREENSHOT_FORK").as_deref() == Some("1"),
            panel: var("COLLIDOSCOPE_SCREENSHOT_PANEL"),
            help: var("COLLIDOSCOPE_SCREENSHOT_HELP").as_deref() == Some("1"),
            ..Default::default()
        };
        if let Some(v) = var("COLLIDOSCOPE_SCREENSHOT_FRAME") {
            plan.frame = Some(
                v.parse()
                    .map_err(|_| bad("COLLIDOSCOPE_SCREENSHOT_FRAME", &v, "a frame number"))?,
            );
        }
        if let Some(v) = var("COLLIDOSCOPE_SCREENSHOT_STEPS") {
            plan.steps = Some(
                v.parse()
                    .map_err(|_| bad("COLLIDOSCOPE_SCREENSHOT_STEPS", &v, "a number of frames"))?,
            );
        }
        if let Some(v) = var("COLLIDOSCOPE_SCREENSHOT_EVENT") {
            plan.event = Some(match v.as_str() {
                "contact" => EventPick::FirstContact,
                "test" => EventPick::FirstHitTest,
                "moving-contact" => EventPick::FirstContactBetweenMoving,
                n => EventPick::Index(n.parse().map_err(|_| {
                    bad(
                        "COLLIDOSCOPE_SCREENSHOT_EVENT",
                        &v,
                        "an index, contact or test",
                    )
                })?),
            });
        }
        if let Some(v) = var("COLLIDOSCOPE_SCREENSHOT_THEME") {
            plan.light = match v.as_str() {
                "light" => true,
                "dark" => false,
                _ => return Err(bad("COLLIDOSCOPE_SCREENSHOT_THEME", &v, "dark or light")),
            };
        }
        if let Some(v) = var("COLLIDOSCOPE_SCREENSHOT_SHADING") {
            plan.shading = Some(match v.as_str() {
                "solid" => Shading::Solid,
                "edges" => Shading::SolidWithEdges,
                "wire" => Shading::Wireframe,
                _ => {
                    return Err(bad(
                        "COLLIDOSCOPE_SCREENSHOT_SHADING",
                        &v,
                        "solid, edges or wire",
                    ));
                }
            });
        }
        if let Some(v) = var("COLLIDOSCOPE_SCREENSHOT_TRACE") {
            plan.trace = Some(match v.as_str() {
                "off" => TraceOverlay::Off,
                "current" => TraceOverlay::Current,
                "upto" => TraceOverlay::UpToCurrent,
                "frame" => TraceOverlay::WholeFrame,
                _ => {
                    return Err(bad(
                        "COLLIDOSCOPE_SCREENSHOT_TRACE",
                        &v,
                        "off, current, upto or frame",
                    ));
                }
            });
        }
        if let Some(v) = var("COLLIDOSCOPE_SCREENSHOT_CAMERA") {
            let parts: Vec<f64> = v.split(',').filter_map(|p| p.trim().parse().ok()).collect();
            let [yaw, pitch, zoom] = parts[..] else {
                return Err(bad("COLLIDOSCOPE_SCREENSHOT_CAMERA", &v, "yaw,pitch,zoom"));
            };
            plan.camera = Some([yaw, pitch, zoom]);
        }
        if let Some(v) = var("COLLIDOSCOPE_SCREENSHOT_SIZE") {
            let parse = || -> Option<[f32; 2]> {
                let (w, h) = v.split_once('x')?;
                Some([w.trim().parse().ok()?, h.trim().parse().ok()?])
            };
            plan.size = parse()
                .filter(|s| s[0] >= 320.0 && s[1] >= 240.0 && s[0] <= 8192.0 && s[1] <= 8192.0)
                .ok_or_else(|| {
                    bad(
                        "COLLIDOSCOPE_SCREENSHOT_SIZE",
                        &v,
                        "WIDTHxHEIGHT between 320x240 and 8192x8192",
                    )
                })?;
        }
        Ok(Some(plan))
    }
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

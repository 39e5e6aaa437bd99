//! The viewer: an eframe application with three-d drawing inside egui's GL context.
//!
//! - [`state`]: everything the viewer knows and decides, testable without a renderer;
//! - [`families`]: one folder per algorithm family (side panel, overlay, inspector section,
//!   outliner group, event marks, settings, screenshot set-up) behind one trait;
//! - [`views`]: the draw data every scene gets (guides, bodies, the trace's own shapes);
//! - [`viewport`]: the 3D panel (camera, draw list, three-d renderer);
//! - one module per panel: [`timeline`], [`outliner`], [`inspector`], [`plots`],
//!   [`status_bar`], [`menu`], plus [`files`] (with the in-app [`file_browser`]), [`keys`],
//!   [`settings`], [`screenshot`].

#[allow(clippy::module_inception)]
pub mod app;
pub mod compare;
pub mod families;
pub mod fields;
pub mod file_browser;
pub mod files;
pub mod inspector;
pub mod keys;
pub mod menu;
pub mod outliner;
pub mod plots;
pub mod render_mesh;
pub mod screenshot;
pub mod settings;
pub mod state;
pub mod status_bar;
pub mod timeline;
pub mod viewport;
pub mod views;
pub mod widgets;

pub use app::{CollidoscopeApp, StartOptions};

/// Opens the viewer on a scene, a recording, a capture stream or the default scene
/// (`collidoscope [FILE]`), or waiting for engines on a bound socket (`--listen`). With
/// `COLLIDOSCOPE_SCREENSHOT` set, renders one screenshot and exits (see [`screenshot`]).
pub fn run(
    file: Option<String>,
    listen: Option<std::net::TcpListener>,
    compare: Option<std::path::PathBuf>,
) -> Result<(), String> {
    let plan = screenshot::ScreenshotPlan::from_env()?;
    let size = plan.as_ref().map_or([1600.0, 1000.0], |p| p.size);
    let mut viewport = egui::ViewportBuilder::default()
        .with_title("Collidoscope")
        .with_inner_size(size)
        .with_min_inner_size([720.0, 480.0])
        .with_drag_and_drop(true);
    if plan.is_some() {
        viewport = viewport.with_resizable(false);
    }
    let screenshot_mode = plan.is_some();
    let mut options = eframe::NativeOptions {
        viewport,
        renderer: eframe::Renderer::Glow,
        depth_buffer: 24,
        // Smooth edges; `COLLIDOSCOPE_MSAA=0` saves a software renderer (llvmpipe) most of its
        // fill cost.
        multisampling: std::env::var("COLLIDOSCOPE_MSAA")
            .ok()
            .and_then(|v| v.parse::<u16>().ok())
            .filter(|n| [0, 2, 4, 8, 16].contains(n))
            .unwrap_or(4),
        // A screenshot must not depend on (or change) the user's saved layout.
        persist_window: !screenshot_mode,
        ..Default::default()
    };
    if screenshot_mode {
        options.persistence_path = Some(
            std::env::temp_dir().join(format!("collidoscope-screenshot-{}", std::process::id())),
        );
    }
    let start = StartOptions {
        file,
        screenshot: plan,
        dialogs: !screenshot_mode,
        file_dialog: files::system_dialog::DialogChoice::from_env()?,
        persist: !screenshot_mode,
        listen: listen.map(std::sync::Arc::new),
        compare,
    };
    eframe::run_native(
        "Collidoscope",
        options,
        Box::new(move |cc| Ok(Box::new(CollidoscopeApp::new(cc, start)))),
    )
    .map_err(|e| format!("cannot open the viewer window: {e}"))
}

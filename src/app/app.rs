//! The eframe application: lays out the panels, routes their commands to the state, handles
//! keys, files, persistence and the self-screenshot.

use crate::app::compare::{CompareAction, CompareUi};
use crate::app::families::FamilyViews;
use crate::app::files::system_dialog::DialogChoice;
use crate::app::files::{self, FileDialogs};
use crate::app::inspector;
use crate::app::keys::{self, KEY_MAP, KeyAction};
use crate::app::menu::{self, MenuAction};
use crate::app::outliner::OutlinerUi;
use crate::app::plots::PlotsUi;
use crate::app::screenshot::ScreenshotPlan;
use crate::app::settings::{Settings, Theme};
use crate::app::state::comparing::CompareCommand;
use crate::app::state::loader::LoadRequest;
use crate::app::state::{AppState, Command, Selection};
use crate::app::status_bar;
use crate::app::timeline::TimelineUi;
use crate::app::viewport::ViewportUi;
use crate::app::views::Shading;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How the app starts.
#[derive(Clone, Debug, Default)]
pub struct StartOptions {
    /// A scene file, a recording or a built-in scene name; `None` opens the default scene.
    pub file: Option<String>,
    pub screenshot: Option<ScreenshotPlan>,
    /// The desktop's file dialogs (off in tests and screenshots: they would wait for a
    /// human); the in-app browser opens instead.
    pub dialogs: bool,
    /// Which file dialog, when `dialogs` allows the desktop's (`COLLIDOSCOPE_FILE_DIALOG`).
    pub file_dialog: DialogChoice,
    /// Read and write settings in eframe's storage.
    pub persist: bool,
    /// Accept engines streaming their runs on this bound socket (`--listen`); nothing else
    /// is opened then, unless `file` names something.
    pub listen: Option<Arc<std::net::TcpListener>>,
    /// Run B, compared with `file` (`collidoscope A.cdrec --compare B.cdrec`).
    pub compare: Option<std::path::PathBuf>,
}

impl StartOptions {
    /// For tests: the default scene, no dialogs, no persisted settings.
    pub fn headless() -> Self {
        Self::default()
    }
}

struct ScreenshotRun {
    plan: ScreenshotPlan,
    frames_shown: u32,
    requested: bool,
    saved: Arc<AtomicBool>,
    error: Arc<std::sync::Mutex<Option<String>>>,
    started: Instant,
}

pub struct CollidoscopeApp {
    pub state: AppState,
    pub settings: Settings,
    pub viewport: ViewportUi,
    timeline: TimelineUi,
    outliner: OutlinerUi,
    plots: PlotsUi,
    /// The "Compare with…" window and the diff panel.
    pub compare: CompareUi,
    /// The registered algorithm families' views (side panel, overlays, inspector sections).
    pub families: FamilyViews,
    dialogs: FileDialogs,
    gl_available: bool,
    persist: bool,
    show_settings: bool,
    show_help: bool,
    screenshot: Option<ScreenshotRun>,
    /// CPU time of the last `ui` call, milliseconds.
    pub ui_ms: f32,
    applied_theme: Option<Theme>,
    titled_generation: u64,
    /// The session whose families' panels were opened for it (see `open_replay_panels`).
    panels_opened_for: Option<(String, Option<u64>)>,
}

fn request_for(name_or_path: &str) -> LoadRequest {
    if crate::world::builtin_scenes()
        .iter()
        .any(|(n, _)| *n == name_or_path)
    {
        LoadRequest::Builtin(name_or_path.to_string())
    } else {
        LoadRequest::Path(name_or_path.into())
    }
}

/// egui's fonts, with Hack (already bundled for monospace) as a fallback of the
/// proportional family: it has the geometric shapes the timeline and outliner use (◀ ▶ ◆ ●).
pub fn install_fonts(ctx: &egui::Context) {
    let mut defs = egui::FontDefinitions::default();
    if let Some(family) = defs.families.get_mut(&egui::FontFamily::Proportional)
        && !family.iter().any(|f| f == "Hack")
    {
        family.insert(1.min(family.len()), "Hack".to_string());
    }
    ctx.set_fonts(defs);
}

impl CollidoscopeApp {
    pub fn new(cc: &eframe::CreationContext<'_>, options: StartOptions) -> Self {
        let mut settings = Settings::default();
        if options.persist
            && let Some(storage) = cc.storage
            && let Some(saved) = eframe::get_value::<Settings>(storage, eframe::APP_KEY)
        {
            settings = saved;
        }
        let app = Self::with_settings(cc.egui_ctx.clone(), settings, cc.gl.is_some(), options);
        app.settings.apply_theme(&cc.egui_ctx);
        app
    }

    /// Builds the app around an egui context (also used by benches, without eframe).
    pub fn with_settings(
        ctx: egui::Context,
        settings: Settings,
        gl_available: bool,
        options: StartOptions,
    ) -> Self {
        install_fonts(&ctx);
        let mut state = AppState::new(settings.load_options());
        state.playback.set_speed(settings.speed);
        state.playback.looping = settings.looping;
        let waker = ctx.clone();
        state.set_waker(move || waker.request_repaint());
        let viewport = ViewportUi::default();
        let mut settings = settings;
        if let Some(plan) = &options.screenshot {
            if plan.light {
                settings.theme = Theme::Light;
            }
            if let Some(s) = plan.shading {
                settings.view.shading = s;
            }
            if let Some(t) = plan.trace {
                settings.view.trace = t;
            }
        }
        let mut families = FamilyViews::default();
        families.load_settings(&settings.families);
        let mut app = Self {
            state,
            settings,
            viewport,
            timeline: TimelineUi::default(),
            outliner: OutlinerUi::default(),
            plots: PlotsUi::default(),
            compare: CompareUi::default(),
            families,
            dialogs: FileDialogs::new(options.dialogs, options.file_dialog),
            gl_available,
            persist: options.persist,
            show_settings: false,
            show_help: false,
            screenshot: None,
            ui_ms: 0.0,
            applied_theme: None,
            titled_generation: 0,
            panels_opened_for: None,
        };
        if let Some(listener) = &options.listen {
            let started = listener
                .try_clone()
                .map_err(|e| format!("cannot listen: {e}"))
                .and_then(|l| app.state.listen(l));
            if let Err(e) = started {
                app.state.error(e);
            }
        }
        let target = options
            .screenshot
            .as_ref()
            .and_then(|p| p.scene.clone())
            .or(options.file.clone())
            .unwrap_or_else(|| crate::world::DEFAULT_SCENE.to_string());
        let request = request_for(&target);
        let waiting_for_engine = options.listen.is_some() && options.file.is_none();
        match (&options.screenshot, &request) {
            _ if waiting_for_engine && options.screenshot.is_none() => {}
            // Built-ins open at once so the first frame shows them; files load in the
            // background, except for a screenshot, which waits anyway.
            (Some(_), _) | (None, LoadRequest::Builtin(_)) => {
                app.state.open_blocking(request);
            }
            (None, LoadRequest::Path(_)) => app.state.open(request),
        }
        let compare = options
            .compare
            .clone()
            .or_else(|| options.screenshot.as_ref().and_then(|p| p.compare.clone()));
        if let Some(b) = compare {
            // A screenshot waits for the comparison like it waits for A; otherwise B opens
            // once A has (see `AppState::start_pending_compare`).
            if options.screenshot.is_some() {
                app.state.compare_blocking(b);
            } else {
                app.state.apply(Command::Compare(CompareCommand::Open(b)));
            }
        }
        if let Some(plan) = options.screenshot {
            // The scene's own views first, as a user would see them: the plan's panel then
            // opens over them and is not closed at the first frame.
            app.show_scene_views();
            // The shell's set-up first (frame, selection): a family's builds on it.
            app.prepare_screenshot(&plan);
            if let Some(panel) = &plan.panel {
                app.families.prepare_screenshot(
                    panel,
                    &mut app.state,
                    &mut app.settings,
                    &mut app.viewport.camera,
                );
            }
            app.screenshot = Some(ScreenshotRun {
                plan,
                frames_shown: 0,
                requested: false,
                saved: Arc::new(AtomicBool::new(false)),
                error: Arc::new(std::sync::Mutex::new(None)),
                started: Instant::now(),
            });
        }
        app
    }

    /// Sets the state up as the screenshot plan asks (runs once, before the first frame).
    fn prepare_screenshot(&mut self, plan: &ScreenshotPlan) {
        let last = plan.steps.max(plan.frame);
        if let Some(last) = last {
            let have = self.state.frame_count();
            if last >= have {
                self.state.apply(Command::LastFrame);
                self.state
                    .apply(Command::StepFrames((last + 1 - have) as i64));
            }
        }
        if let Some(f) = plan.frame {
            self.state.apply(Command::SeekFrame(f));
        }
        if let Some(pick) = &plan.event
            && let Some(session) = &self.state.session
        {
            let catalog = session.catalog.clone();
            let fixed = |id: u32| catalog.body(id).is_some_and(|b| b.fixed);
            if let Some(i) = self
                .state
                .current_frame()
                .and_then(|fr| pick.find(&fr.trace, fixed))
            {
                self.state.apply(Command::SeekEvent(Some(i)));
            }
        }
        if let Some(sel) = &plan.select
            && let Some(session) = &self.state.session
        {
            let id = sel.parse::<u32>().ok().or_else(|| {
                session
                    .catalog
                    .bodies
                    .iter()
                    .find(|b| &b.name == sel)
                    .map(|b| b.id)
            });
            if let Some(id) = id {
                self.state
                    .apply(Command::Select(crate::app::state::Selection::Body(id)));
            }
        }
        if let Some(row) = plan.diff_row {
            self.state
                .apply(Command::Compare(CompareCommand::Focus(row)));
        }
        if plan.fork_dialog {
            self.timeline.open_fork_dialog(&self.state);
        }
        self.show_help = plan.help;
        // The families' bodies are framed with the rest.
        self.viewport.overlay = self.families.overlay(&self.state, &self.settings.families);
        self.viewport.refresh(&self.state, &self.settings.view);
        if plan.focus_selected {
            self.viewport.frame_selected(&self.state);
        }
        if let Some([yaw, pitch, zoom]) = plan.camera {
            self.viewport.camera.orbit(yaw, pitch);
            self.viewport.camera.zoom(zoom);
        }
    }

    /// The folder the in-app file browser shows, while it is open.
    pub fn file_browser_folder(&self) -> Option<std::path::PathBuf> {
        self.dialogs.browser_folder().map(|p| p.to_path_buf())
    }

    pub fn apply(&mut self, command: Command) {
        self.state.apply(command);
    }

    fn apply_all(&mut self, commands: Vec<Command>) {
        for c in commands {
            self.state.apply(c);
        }
    }

    fn menu_action(&mut self, ctx: &egui::Context, action: MenuAction) {
        match action {
            MenuAction::Cmd(c) => self.state.apply(c),
            MenuAction::OpenDialog => {
                if let Err(e) = self.dialogs.open() {
                    self.state.error(e);
                }
            }
            MenuAction::CompareWindow => {
                if self.compare.path_text.is_empty()
                    && let Some(c) = &self.state.compare
                {
                    self.compare.path_text = c.label();
                }
                self.compare.window_open = true;
            }
            MenuAction::SaveDialog => {
                let name = self.state.session.as_ref().map_or_else(
                    || "recording".to_string(),
                    |s| s.scene.name.replace(['/', '\\', ' '], "_"),
                );
                if let Err(e) = self.dialogs.save(format!("{name}.cdrec")) {
                    self.state.error(e);
                }
            }
            MenuAction::ShowSettings => self.show_settings = true,
            MenuAction::ShowHelp => self.show_help = !self.show_help,
            MenuAction::FrameSelected => self.viewport.frame_selected(&self.state),
            MenuAction::FrameAll => self.viewport.frame_all(&self.state),
            MenuAction::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
        }
    }

    fn key_action(&mut self, ctx: &egui::Context, action: KeyAction) {
        match action {
            KeyAction::Cmd(c) => self.state.apply(c),
            KeyAction::Orbit(y, p) => self.viewport.camera.orbit(y, p),
            KeyAction::Pan(x, y) => self.viewport.camera.pan(x, y),
            KeyAction::Zoom(f) => self.viewport.camera.zoom(f),
            KeyAction::FrameSelected => self.viewport.frame_selected(&self.state),
            KeyAction::FrameAll => self.viewport.frame_all(&self.state),
            KeyAction::CycleShading => {
                self.settings.view.shading = match self.settings.view.shading {
                    Shading::SolidWithEdges => Shading::Wireframe,
                    Shading::Wireframe => Shading::Solid,
                    Shading::Solid => Shading::SolidWithEdges,
                }
            }
            KeyAction::OpenDialog => self.menu_action(ctx, MenuAction::OpenDialog),
            KeyAction::SaveDialog => self.menu_action(ctx, MenuAction::SaveDialog),
            KeyAction::ToggleHelp => self.show_help = !self.show_help,
        }
    }

    /// Keeps the settings in step with the state (speed, loop, recent files).
    fn sync_settings(&mut self) {
        self.settings.speed = self.state.playback.speed;
        self.settings.looping = self.state.playback.looping;
        self.state.reproducible_saves = self.settings.reproducible_saves;
        for p in self.state.opened_paths.drain(..).rev() {
            let s = p.display().to_string();
            self.settings.add_recent(&s);
        }
    }

    fn windows(&mut self, ctx: &egui::Context) {
        for a in self.compare.window(ctx, &self.state) {
            match a {
                CompareAction::Cmd(c) => self.state.apply(c),
                CompareAction::Browse => {
                    if let Err(e) = self.dialogs.compare() {
                        self.state.error(e);
                    }
                }
            }
        }
        if let Some(c) = self.dialogs.frame(ctx, &mut self.settings) {
            self.state.apply(c);
        }
        for notice in self.dialogs.take_notices() {
            self.state.info(notice);
        }
        if self.show_settings {
            let mut open = true;
            egui::Window::new("Settings")
                .open(&mut open)
                .resizable(false)
                .show(ctx, |ui| self.settings.ui(ui));
            self.show_settings = open;
        }
        if self.show_help {
            let mut open = true;
            // Centred and without a collapse button: placed at the top left, the window sat
            // over the outliner, whose section arrows showed beside its rows.
            egui::Window::new("Keyboard and mouse")
                .open(&mut open)
                .resizable(false)
                .collapsible(false)
                .pivot(egui::Align2::CENTER_CENTER)
                .default_pos(ctx.content_rect().center())
                .show(ctx, |ui| {
                    egui::Grid::new("keys")
                        .num_columns(2)
                        .striped(true)
                        .show(ui, |ui| {
                            for (k, what) in KEY_MAP {
                                ui.label(egui::RichText::new(*k).monospace().strong());
                                ui.label(*what);
                                ui.end_row();
                            }
                        });
                });
            self.show_help = open;
        }
    }

    fn screenshot_step(&mut self, ctx: &egui::Context) {
        let Some(run) = &mut self.screenshot else {
            return;
        };
        ctx.request_repaint();
        if let Some(e) = run.error.lock().ok().and_then(|mut e| e.take()) {
            eprintln!("collidoscope: screenshot failed: {e}");
            std::process::exit(1);
        }
        if run.saved.load(Ordering::SeqCst) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        }
        // Let a recording's background scan finish (plots, markers), within reason.
        let waiting = self.state.is_busy() && run.started.elapsed().as_secs() < 120;
        run.frames_shown += 1;
        if run.requested || waiting || run.frames_shown < 6 {
            return;
        }
        run.requested = true;
        let (path, saved, error) = (
            run.plan.output.clone(),
            run.saved.clone(),
            run.error.clone(),
        );
        let waker = ctx.clone();
        ctx.request_screenshot(move |image| {
            match crate::app::screenshot::save_png(&image, &path) {
                Ok(()) => {
                    println!("wrote {}", path.display());
                    saved.store(true, Ordering::SeqCst);
                }
                Err(e) => {
                    if let Ok(mut slot) = error.lock() {
                        *slot = Some(e);
                    }
                }
            }
            waker.request_repaint();
        });
    }

    /// One UI frame (the body of `eframe::App::ui`, callable without eframe).
    pub fn frame(&mut self, ui: &mut egui::Ui) {
        let started = Instant::now();
        let ctx = ui.ctx().clone();
        self.sync_window(&ctx);
        self.read_input(&ctx);
        // Read before the menu: a theme switched there applies from the next frame on.
        let dark = self.settings.theme == Theme::Dark;
        self.edge_panels(ui, &ctx);
        self.side_panels(ui);
        egui::CentralPanel::default().show(ui, |ui| self.central_panel(ui, &ctx, dark));
        self.windows(&ctx);
        files::paint_drop_hint(&ctx);
        self.sync_settings();

        if self.state.playback.playing || keys::camera_key_held(&ctx) {
            ctx.request_repaint();
        } else if self.state.is_busy() || self.dialogs.is_open() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        self.screenshot_step(&ctx);
        self.ui_ms = started.elapsed().as_secs_f32() * 1e3;
    }

    /// A new session shows itself: the views of the families its scene uses open, those
    /// that do not apply close (see `FamilyViews::show_scene`). Once per session: a live run
    /// growing, or a seek, leaves the user's panels alone.
    fn show_scene_views(&mut self) {
        let Some(s) = &self.state.session else {
            return;
        };
        let key = (s.origin.label(), s.live_run);
        if self.panels_opened_for.as_ref() == Some(&key) {
            return;
        }
        self.panels_opened_for = Some(key);
        self.families
            .show_scene(&self.state, &mut self.settings.families);
    }

    /// The theme the settings ask for, and the open session's name in the window title.
    fn sync_window(&mut self, ctx: &egui::Context) {
        if self.applied_theme != Some(self.settings.theme) {
            self.settings.apply_theme(ctx);
            self.applied_theme = Some(self.settings.theme);
        }
        if self.titled_generation != self.state.session_generation {
            self.titled_generation = self.state.session_generation;
            self.show_scene_views();
            if let Some(s) = &self.state.session {
                let title = format!("Collidoscope — {}", s.origin.label());
                ctx.send_viewport_cmd(egui::ViewportCommand::Title(title));
            }
        }
    }

    /// Input that is not a widget's: dropped files, keys; then the playback clock.
    fn read_input(&mut self, ctx: &egui::Context) {
        if let Some(c) = files::dropped_file(ctx) {
            self.state.apply(c);
        }
        // The browser is a dialog: Escape, Enter and the arrows are its own while it is open.
        if !self.dialogs.browsing() {
            let forward = -self.viewport.camera.back();
            let cmds = self.families.keys(
                ctx,
                &self.state,
                &self.settings.families,
                [forward.x, forward.y, forward.z],
            );
            self.apply_all(cmds);
            for a in keys::read(ctx) {
                self.key_action(ctx, a);
            }
        }
        let elapsed = ctx.input(|i| i.stable_dt).clamp(0.0, 0.25) as f64;
        self.state.tick(elapsed);
    }

    /// The menu bar on top; the status bar, the timeline and the plots below.
    fn edge_panels(&mut self, ui: &mut egui::Ui, ctx: &egui::Context) {
        egui::Panel::top("menu").show(ui, |ui| {
            let entries = self.families.entries();
            for a in menu::show(ui, &self.state, &mut self.settings, &entries) {
                self.menu_action(ctx, a);
            }
        });
        egui::Panel::bottom("status").show(ui, |ui| status_bar::show(ui, &self.state, self.ui_ms));
        egui::Panel::bottom("timeline")
            .resizable(false)
            .show(ui, |ui| {
                ui.add_space(3.0);
                let marks = self
                    .families
                    .event_marks(&self.state, &self.settings.families);
                let palette = self.families.palette();
                let cmds = self.timeline.show(ui, &self.state, &marks, palette);
                self.apply_all(cmds);
                ui.add_space(2.0);
            });
        if self.settings.show_plots {
            egui::Panel::bottom("plots")
                .resizable(true)
                .default_size(190.0)
                .min_size(110.0)
                .show(ui, |ui| {
                    let measured = self.families.run_measured(&self.state);
                    let cmds = self.plots.show(ui, &self.state, measured);
                    self.apply_all(cmds);
                });
        }
    }

    /// The outliner on the left; the inspector and the open family views on the right.
    fn side_panels(&mut self, ui: &mut egui::Ui) {
        if self.state.compare.is_some() || self.state.comparing.is_some() {
            egui::Panel::right("compare")
                .resizable(true)
                .default_size(430.0)
                .min_size(240.0)
                .show(ui, |ui| {
                    let cmds = self.compare.panel(ui, &self.state);
                    self.apply_all(cmds);
                });
        }
        if self.settings.show_outliner {
            egui::Panel::left("outliner")
                .resizable(true)
                .default_size(270.0)
                .min_size(160.0)
                .show(ui, |ui| {
                    let groups = self
                        .families
                        .outliner_groups(&self.state, &self.settings.families);
                    let palette = self.families.palette();
                    let cmds = self.outliner.show(ui, &self.state, &groups, palette);
                    self.apply_all(cmds);
                });
        }
        if self.settings.show_inspector {
            egui::Panel::right("inspector")
                .resizable(true)
                .default_size(330.0)
                .min_size(200.0)
                .show(ui, |ui| {
                    let out = inspector::show(ui, &self.state, &mut self.families);
                    self.apply_all(out.commands);
                    if out.frame_selected {
                        self.viewport.frame_selected(&self.state);
                    }
                });
        }
        if self.families.any_open(&self.settings.families) {
            egui::Panel::right("families")
                .resizable(true)
                .default_size(420.0)
                .min_size(260.0)
                .show(ui, |ui| {
                    let cmds = self
                        .families
                        .panel(ui, &self.state, &self.settings.families);
                    self.apply_all(cmds);
                });
        }
    }

    /// The view's toolbar and the 3D view with the shown family view's overlay.
    fn central_panel(&mut self, ui: &mut egui::Ui, ctx: &egui::Context, dark: bool) {
        for a in menu::view_toolbar(ui, &mut self.settings) {
            self.menu_action(ctx, a);
        }
        self.viewport.overlay = self.families.overlay(&self.state, &self.settings.families);
        if let Some(f) = self.families.take_focus() {
            self.viewport.camera.frame_sphere(f.center, f.radius);
        }
        self.viewport.refresh(&self.state, &self.settings.view);
        let cmds = self.viewport.show(ui, &self.state, self.gl_available, dark);
        self.apply_all(cmds);
        self.viewport_pointer(ctx);
    }

    /// The 3D view's click, hover and Ctrl + drag: the family views first, then the shell.
    fn viewport_pointer(&mut self, ctx: &egui::Context) {
        if let Some(click) = self.viewport.take_click() {
            let cmds = self
                .families
                .click(&self.state, &self.settings.families, &click.ray)
                .unwrap_or_else(|| {
                    vec![Command::Select(
                        click.body.map_or(Selection::None, Selection::Body),
                    )]
                });
            self.apply_all(cmds);
        }
        let hover = self.viewport.hover_ray();
        if self
            .families
            .hover(&self.state, &self.settings.families, hover.as_ref())
        {
            ctx.request_repaint();
        }
        if let Some(drag) = self.viewport.take_drag() {
            let cmds = self
                .families
                .drag(&self.state, &self.settings.families, &drag);
            self.apply_all(cmds);
        }
    }
}

impl eframe::App for CollidoscopeApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frame(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.persist {
            self.families.store_settings(&mut self.settings.families);
            eframe::set_value(storage, eframe::APP_KEY, &self.settings);
        }
    }

    /// The panels' colour: a gap between panels must not show eframe's default near-black.
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn persist_egui_memory(&self) -> bool {
        self.persist
    }
}

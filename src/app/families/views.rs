//! The registered family views as the shell sees them: one handle that asks each view for
//! its panel, overlay, inspector section, outliner group, event marks, menu entry, settings
//! and screenshot set-up.
//!
//! Hooks about what is on screen (panel, overlay, outliner group, event marks, 3D clicks)
//! go to the views whose panel is open; the inspector asks the view owning the event, the
//! View menu, settings and screenshots ask every view.

use super::{
    Drag, EventMark, FamilyBody, FamilyContext, FamilySettings, FamilyView, Focus, Measured,
    OutlinerGroup, Overlay, SceneStatics, SceneUse, ScreenshotSetup, ViewEntry, registered,
};
use crate::app::settings::Settings;
use crate::app::state::{AppState, Command};
use crate::app::viewport::camera::OrbitCamera;
use crate::app::viewport::draw_list::DrawList;
use crate::app::views::colors::EventPalette;
use crate::geom::Ray;
use crate::trace::TraceEvent;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The overlay of the panel shown, as the viewport merges it.
#[derive(Clone)]
pub struct ShownOverlay {
    /// Changes whenever the list does.
    pub key: u64,
    pub list: Arc<DrawList>,
    pub ghost_bodies: bool,
    /// Every family's bodies in the frame (see [`FamilyBody`]), whichever panel is shown.
    pub bodies: Arc<Vec<FamilyBody>>,
}

/// What a frame's marks depend on: the session and the open families, the frame.
type MarksKey = (u64, usize);

pub struct FamilyViews {
    views: Vec<Box<dyn FamilyView>>,
    statics: SceneStatics,
    /// The family whose panel is shown when several are open.
    active: Option<&'static str>,
    overlay: Option<ShownOverlay>,
    last_focus: Option<Focus>,
    pending_focus: Option<Focus>,
    /// Set when a scene opens: the camera frames all of it first, and the shown view's focus
    /// moves it only once it changes after that.
    quiet_focus: bool,
    marks: Option<(MarksKey, Arc<Vec<EventMark>>)>,
    palette: EventPalette,
    /// What the whole run holds, by session and frame count.
    run_measured: Option<((u64, usize), Measured)>,
}

impl Default for FamilyViews {
    fn default() -> Self {
        Self::new(registered())
    }
}

impl FamilyViews {
    pub fn new(views: Vec<Box<dyn FamilyView>>) -> Self {
        let palette = EventPalette::new(views.iter().map(|v| (v.family(), v.color())).collect());
        Self {
            palette,
            views,
            statics: SceneStatics::default(),
            active: None,
            overlay: None,
            last_focus: None,
            pending_focus: None,
            quiet_focus: false,
            marks: None,
            run_measured: None,
        }
    }

    /// The colour of each family's events.
    pub fn palette(&self) -> &EventPalette {
        &self.palette
    }

    pub fn statics(&self) -> &SceneStatics {
        &self.statics
    }

    /// Rebuilds the scene's static data when a new session arrived.
    pub fn sync(&mut self, state: &AppState) {
        self.statics.sync(state);
    }

    pub fn context<'a>(&'a self, state: &'a AppState) -> FamilyContext<'a> {
        FamilyContext::new(state, &self.statics)
    }

    /// The View menu's entries, in registration order.
    pub fn entries(&self) -> Vec<ViewEntry> {
        self.views
            .iter()
            .map(|v| ViewEntry {
                family: v.family(),
                title: v.title(),
                about: v.about(),
            })
            .collect()
    }

    /// A registered view by its type (tests, and a view reaching another).
    pub fn view<T: FamilyView>(&self) -> Option<&T> {
        self.views
            .iter()
            .find_map(|v| (**v).as_any().downcast_ref())
    }

    pub fn view_mut<T: FamilyView>(&mut self) -> Option<&mut T> {
        self.views
            .iter_mut()
            .find_map(|v| (**v).as_any_mut().downcast_mut())
    }

    /// The families' bodies in the frame last drawn (see [`FamilyBody`]).
    pub fn family_bodies(&self) -> Arc<Vec<FamilyBody>> {
        self.overlay
            .as_ref()
            .map_or_else(Default::default, |o| o.bodies.clone())
    }

    /// A scene was opened (menu, command line, drop, recent file): the views of the families
    /// it uses open and the first of them is shown, views it does not apply to close, and
    /// the user's own choices per family stand (see [`FamilySettings::show_scene`]).
    pub fn show_scene(&mut self, state: &AppState, open: &mut FamilySettings) {
        self.statics.sync(state);
        let cx = FamilyContext::new(state, &self.statics);
        let Some(scene) = cx.scene() else {
            return;
        };
        let own = crate::scene::builtin_scene_family(&scene.name);
        let uses: Vec<(&'static str, SceneUse)> = self
            .views
            .iter()
            .map(|v| {
                let used = own == Some(v.family()) || cx.has_data(v.family());
                let applies = used || v.applies(&cx);
                (v.family(), SceneUse { used, applies })
            })
            .collect();
        open.show_scene(&uses);
        self.quiet_focus = true;
        let first_used = uses.iter().find(|(_, u)| u.used).map(|(f, _)| *f);
        if let Some(f) = own.filter(|f| open.is_open(f)).or(first_used) {
            self.active = Some(f);
        }
    }

    /// Index of the view whose panel is shown: the active one if open, else the last opened.
    fn shown(&mut self, open: &FamilySettings) -> Option<usize> {
        let by_name = |name: &str| self.views.iter().position(|v| v.family() == name);
        let i = self
            .active
            .filter(|a| open.is_open(a))
            .and_then(by_name)
            .or_else(|| open.open.iter().rev().find_map(|n| by_name(n)))?;
        self.active = Some(self.views[i].family());
        Some(i)
    }

    /// Whether a registered family's panel is open (a saved name may be of a family this
    /// build no longer has).
    pub fn any_open(&self, open: &FamilySettings) -> bool {
        self.views.iter().any(|v| open.is_open(v.family()))
    }

    fn open_indices(&self, open: &FamilySettings) -> Vec<usize> {
        (0..self.views.len())
            .filter(|&i| open.is_open(self.views[i].family()))
            .collect()
    }

    /// The side panel: a tab per open family, then the shown family's panel.
    pub fn panel(
        &mut self,
        ui: &mut egui::Ui,
        state: &AppState,
        open: &FamilySettings,
    ) -> Vec<Command> {
        self.statics.sync(state);
        let mut out = Vec::new();
        let Some(shown) = self.shown(open) else {
            return out;
        };
        let tabs = self.open_indices(open);
        if tabs.len() > 1 {
            ui.horizontal_wrapped(|ui| {
                for &i in &tabs {
                    let v = &self.views[i];
                    if ui
                        .selectable_label(i == shown, v.title())
                        .on_hover_text(v.about())
                        .clicked()
                    {
                        self.active = Some(v.family());
                    }
                }
            });
        }
        let view = &mut self.views[shown];
        ui.heading(view.title());
        let cx = FamilyContext::new(state, &self.statics);
        // Both ways: a wide row scrolls instead of widening the panel (the 3D view keeps its size).
        // Content is held to the panel's visible width so labels that wrap do so at its edge.
        let visible_width = ui.available_width();
        egui::ScrollArea::both()
            .id_salt("family-panel-scroll")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.set_max_width(visible_width);
                view.panel(ui, &cx, &mut out)
            });
        out
    }

    /// The shown family's overlay, with the bodies of the other families' scenes (a cloth
    /// stays on screen while the hierarchy panel is shown), rebuilt only when what it depends
    /// on changed.
    pub fn overlay(&mut self, state: &AppState, open: &FamilySettings) -> Option<ShownOverlay> {
        self.statics.sync(state);
        let shown = self.shown(open);
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (
            state.session_generation,
            state.playhead.frame,
            state.playhead.event,
            state.selection,
            // Findings arrive from the audit's worker while the frame stays.
            state
                .session
                .as_ref()
                .and_then(|s| s.audit.as_ref())
                .map(|a| a.findings.len()),
        )
            .hash(&mut h);
        if let Some(i) = shown {
            (i, self.views[i].family(), self.views[i].overlay_key()).hash(&mut h);
        }
        let key = h.finish();
        if let Some(o) = &self.overlay
            && o.key == key
        {
            return Some(o.clone());
        }
        let mut overlay = Overlay::default();
        let cx = FamilyContext::new(state, &self.statics);
        let mut bodies = Vec::new();
        for (i, view) in self.views.iter_mut().enumerate() {
            if Some(i) != shown {
                view.scene_bodies(&cx, &mut overlay.list);
            }
            view.family_bodies(&cx, &mut bodies);
        }
        if let Some(i) = shown {
            self.views[i].overlay(&cx, &mut overlay);
        } else if overlay.list.is_empty() && bodies.is_empty() {
            self.overlay = None;
            return None;
        }
        if std::mem::take(&mut self.quiet_focus) {
            self.pending_focus = None;
        } else if overlay.focus.is_some() && overlay.focus != self.last_focus {
            self.pending_focus = overlay.focus;
        }
        self.last_focus = overlay.focus;
        let shown = ShownOverlay {
            key,
            list: Arc::new(overlay.list),
            ghost_bodies: overlay.ghost_bodies,
            bodies: Arc::new(bodies),
        };
        self.overlay = Some(shown.clone());
        Some(shown)
    }

    /// Which measures `frame` holds (see [`FamilyView::measured`]): asked of the views
    /// whose family has data in the session's scene.
    pub fn measured(&mut self, state: &AppState, frame: &crate::record::Frame) -> Measured {
        self.statics.sync(state);
        let cx = FamilyContext::new(state, &self.statics);
        let families: Vec<&str> = cx.scene_data().iter().map(|d| d.family()).collect();
        self.views
            .iter()
            .filter(|v| families.contains(&v.family()))
            .filter_map(|v| v.measured(&cx, frame))
            .fold(Measured::ALL, Measured::and)
    }

    /// Which measures the run holds up to its last frame (the plots' series).
    pub fn run_measured(&mut self, state: &AppState) -> Measured {
        let len = state.frame_count();
        let key = (state.session_generation, len);
        if let Some((k, m)) = self.run_measured
            && k == key
        {
            return m;
        }
        let last = state
            .session
            .as_ref()
            .and_then(|s| s.frame(len.checked_sub(1)?).ok());
        let m = last.map_or(Measured::ALL, |f| self.measured(state, &f));
        self.run_measured = Some((key, m));
        m
    }

    /// Where the camera should go, once per new focus of the overlay.
    pub fn take_focus(&mut self) -> Option<Focus> {
        self.pending_focus.take()
    }

    /// The inspector section of the family owning the event.
    pub fn inspect_event(
        &mut self,
        ui: &mut egui::Ui,
        state: &AppState,
        index: usize,
        event: &TraceEvent,
    ) {
        self.statics.sync(state);
        let family = event.kind.family();
        let cx = FamilyContext::new(state, &self.statics);
        for v in self.views.iter_mut().filter(|v| v.family() == family) {
            v.inspect_event(ui, &cx, index, event);
        }
    }

    /// The outliner groups of the open families.
    pub fn outliner_groups(
        &mut self,
        state: &AppState,
        open: &FamilySettings,
    ) -> Vec<OutlinerGroup> {
        self.statics.sync(state);
        let cx = FamilyContext::new(state, &self.statics);
        let mut groups = Vec::new();
        for v in self.views.iter_mut() {
            if open.is_open(v.family())
                && let Some(g) = v.outliner_group(&cx)
            {
                groups.push(g);
            }
        }
        groups
    }

    /// The open families' marks on the event strip of the frame under the playhead, sorted
    /// by event.
    pub fn event_marks(&mut self, state: &AppState, open: &FamilySettings) -> Arc<Vec<EventMark>> {
        self.statics.sync(state);
        let mut h = std::collections::hash_map::DefaultHasher::new();
        open.open.hash(&mut h);
        let key = (state.session_generation ^ h.finish(), state.playhead.frame);
        if let Some((k, marks)) = &self.marks
            && *k == key
            && state.current_frame().is_some()
        {
            return marks.clone();
        }
        let cx = FamilyContext::new(state, &self.statics);
        let mut marks = Vec::new();
        for v in self.views.iter_mut() {
            if open.is_open(v.family()) {
                v.event_marks(&cx, &mut marks);
            }
        }
        marks.sort_by_key(|m| m.event);
        let marks = Arc::new(marks);
        self.marks = Some((key, marks.clone()));
        marks
    }

    /// Keys for the shown family (see [`FamilyView::keys`]); nothing while a text field has
    /// the keyboard.
    pub fn keys(
        &mut self,
        ctx: &egui::Context,
        state: &AppState,
        open: &FamilySettings,
        forward: [f64; 3],
    ) -> Vec<Command> {
        if ctx.egui_wants_keyboard_input() {
            return Vec::new();
        }
        self.statics.sync(state);
        let Some(shown) = self.shown(open) else {
            return Vec::new();
        };
        let cx = FamilyContext::new(state, &self.statics);
        let view = &mut self.views[shown];
        ctx.input_mut(|i| view.keys(&cx, i, forward))
    }

    /// A click in the 3D view, offered to the shown family first.
    pub fn click(
        &mut self,
        state: &AppState,
        open: &FamilySettings,
        ray: &Ray,
    ) -> Option<Vec<Command>> {
        self.statics.sync(state);
        let shown = self.shown(open)?;
        let cx = FamilyContext::new(state, &self.statics);
        self.views[shown].click(&cx, ray)
    }

    /// The pointer's ray over the 3D view, for the shown family (see [`FamilyView::hover`]).
    pub fn hover(&mut self, state: &AppState, open: &FamilySettings, ray: Option<&Ray>) -> bool {
        self.statics.sync(state);
        let Some(shown) = self.shown(open) else {
            return false;
        };
        let cx = FamilyContext::new(state, &self.statics);
        self.views[shown].hover(&cx, ray)
    }

    /// A Ctrl + drag in the 3D view, for the shown family (see [`FamilyView::drag`]).
    pub fn drag(&mut self, state: &AppState, open: &FamilySettings, drag: &Drag) -> Vec<Command> {
        self.statics.sync(state);
        let Some(shown) = self.shown(open) else {
            return Vec::new();
        };
        let cx = FamilyContext::new(state, &self.statics);
        self.views[shown].drag(&cx, drag)
    }

    /// Gives each view the options it saved.
    pub fn load_settings(&mut self, settings: &FamilySettings) {
        for v in self.views.iter_mut() {
            if let Some(text) = settings.options.get(v.family()) {
                v.load_settings(text);
            }
        }
    }

    /// Collects each view's options for saving.
    pub fn store_settings(&self, settings: &mut FamilySettings) {
        for v in &self.views {
            if let Some(text) = v.save_settings() {
                settings.options.insert(v.family().to_string(), text);
            }
        }
    }

    /// Screenshot mode: `panel` (`COLLIDOSCOPE_SCREENSHOT_PANEL`) names a family
    /// (`hierarchy`, `broad-phase`: spaces may be written as dashes). Its panel opens alone,
    /// the outliner and the plots make way, and the view sets itself up from its own
    /// variables.
    pub fn prepare_screenshot(
        &mut self,
        panel: &str,
        state: &mut AppState,
        settings: &mut Settings,
        camera: &mut OrbitCamera,
    ) {
        let Some(i) = self
            .views
            .iter()
            .position(|v| v.family() == panel || v.family().replace(' ', "-") == panel)
        else {
            state.error(format!(
                "COLLIDOSCOPE_SCREENSHOT_PANEL={panel:?}: no such family view"
            ));
            return;
        };
        settings.families.set_open(self.views[i].family(), true);
        settings.show_outliner = false;
        settings.show_plots = false;
        self.active = Some(self.views[i].family());
        self.statics.sync(state);
        let mut setup = ScreenshotSetup {
            state,
            statics: &self.statics,
            settings,
            camera,
        };
        self.views[i].prepare_screenshot(&mut setup);
    }
}

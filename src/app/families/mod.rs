//! The viewer side of the algorithm families: one folder per family, one line in
//! [`registered`]. Each family's view implements [`FamilyView`]; the shell (app, menu,
//! settings, inspector, outliner, timeline, status bar, screenshot) asks the registered views
//! through [`FamilyViews`] and names no family.
//!
//! Like egui's demo app (one small trait per demo, a list that owns them) and Rerun's view
//! classes (a view is registered once and asked for its parts), the shell never matches on a
//! family: it calls the hooks of the trait. `docs/adding-a-family.md` ("The viewer") walks
//! through the hierarchy view as the worked example.

mod context;
mod hooks;
mod settings;
pub mod switch_edits;
mod views;

#[cfg(test)]
mod test_family;

pub use context::{FamilyContext, SceneStatics};
pub use hooks::{
    Drag, EventMark, FamilyBody, Focus, Measured, NOT_CAPTURED, OutlinerGroup, OutlinerRow,
    Overlay, ScreenshotSetup, ViewEntry, count_family_bodies, measured_or,
};
pub use settings::{FamilySettings, SceneUse};
pub use views::{FamilyViews, ShownOverlay};

use crate::app::state::Command;
use crate::app::viewport::draw_list::DrawList;
use crate::geom::Ray;
use crate::trace::TraceEvent;
use std::any::Any;

/// Declares each family's folder and lists its view, so a family is one line here.
macro_rules! family_views {
    ($($folder:ident :: $view:ident),+ $(,)?) => {
        $(pub mod $folder;)+

        /// The registered family views, in View-menu order.
        pub fn registered() -> Vec<Box<dyn FamilyView>> {
            vec![$(Box::new($folder::$view::default())),+]
        }
    };
}

// The registered family views: one line per family (its folder and its view type).
family_views! {
    hierarchy::HierarchyView,
    broad_phase::BroadPhaseView,
    ccd::CcdView,
    bsp::BspView,
    convex::ConvexView,
    cloth::ClothView,
    nurbs::NurbsView,
    capture::CaptureView,
    arka::ArkaView,
}

/// The viewer of one algorithm family. Only [`family`](FamilyView::family),
/// [`title`](FamilyView::title), [`about`](FamilyView::about) and
/// [`panel`](FamilyView::panel) are required; every other hook has a default that adds
/// nothing, so a family starts with a side panel and grows hook by hook.
///
/// Every hook receives a [`FamilyContext`]: the state (session, recorded scene, frame under
/// the playhead, current event, selection) and the scene's static data rebuilt by the engine
/// (bodies with their meshes, hierarchies, each family's scene data), so that a family
/// resolves its compact events (ids) into geometry and draws only what the engine recorded.
pub trait FamilyView: AsAny {
    /// The engine family whose events this view explains: its `EngineFamily::NAME`, which
    /// is also `EventKind::family()` of its events.
    fn family(&self) -> &'static str;

    /// The View-menu entry and the side panel's tab ("Hierarchy").
    fn title(&self) -> &'static str;

    /// One line for the View-menu entry's tooltip.
    fn about(&self) -> &'static str;

    /// The colour of the family's events, wherever the shell lists or marks them (the
    /// outliner, the event strip, the inspector). By default a hue picked from the name.
    fn color(&self) -> crate::app::viewport::draw_list::Rgba {
        crate::app::views::colors::from_name(self.family())
    }

    /// Whether the view has anything to show on the session's scene: by default any scene
    /// with rigid bodies (the pipeline's views); a family living in its own scene data
    /// (a BSP level, a cloth) applies only where the scene carries it. A scene that does not
    /// apply closes the view when it opens.
    fn applies(&self, cx: &FamilyContext) -> bool {
        cx.scene().is_some_and(|s| !s.bodies.is_empty()) || cx.has_data(self.family())
    }

    /// The side panel's content (below the tab bar, inside a scroll area).
    fn panel(&mut self, ui: &mut egui::Ui, cx: &FamilyContext, out: &mut Vec<Command>);

    /// What the view adds to the 3D view for the recorded frame and the current event, while
    /// its panel is the one shown. Called again only when the playhead, the selection or
    /// [`overlay_key`](FamilyView::overlay_key) change.
    fn overlay(&mut self, cx: &FamilyContext, out: &mut Overlay) {
        let _ = (cx, out);
    }

    /// What the view draws of the recorded frame while its panel is NOT the one shown: the
    /// bodies its family simulates and the shell does not know (cloth sheets, NURBS
    /// surfaces), so that they stay on screen whichever panel is chosen. Plain and faint: the
    /// [`overlay`](FamilyView::overlay) draws them in the view's own style when it is shown.
    fn scene_bodies(&mut self, cx: &FamilyContext, list: &mut DrawList) {
        let _ = (cx, list);
    }

    /// The bodies the family simulates in the recorded frame besides the rigid ones (see
    /// [`FamilyBody`]): framed by `H` with the rest and counted in the frame header, whether
    /// the panel is open or not.
    fn family_bodies(&mut self, cx: &FamilyContext, out: &mut Vec<FamilyBody>) {
        let _ = (cx, out);
    }

    /// A hash of the view's own options the overlay depends on (depth range, colours).
    fn overlay_key(&self) -> u64 {
        0
    }

    /// The inspector's section for an event of this family (the shell shows the summary,
    /// verdict, bodies and raw fields of every event; this adds what the ids mean).
    fn inspect_event(
        &mut self,
        ui: &mut egui::Ui,
        cx: &FamilyContext,
        index: usize,
        event: &TraceEvent,
    ) {
        let _ = (ui, cx, index, event);
    }

    /// A group of rows in the outliner (mesh hierarchies, BSP brushes, cloths), or `None`.
    fn outliner_group(&mut self, cx: &FamilyContext) -> Option<OutlinerGroup> {
        let _ = cx;
        None
    }

    /// Marks on the timeline's event strip for the frame under the playhead (an
    /// intersection found, a pair added): where in the trace a reader should look.
    fn event_marks(&mut self, cx: &FamilyContext, out: &mut Vec<EventMark>) {
        let _ = (cx, out);
    }

    /// A click in the 3D view while this view's panel is shown: `Some(commands)` when the
    /// view took the click (a hierarchy node picked), `None` to let the shell pick a body.
    fn click(&mut self, cx: &FamilyContext, ray: &Ray) -> Option<Vec<Command>> {
        let _ = (cx, ray);
        None
    }

    /// The pointer over the 3D view (`None` when it left) while this view's panel is shown:
    /// what lies under it may be previewed (the brush face a click would pick). True when
    /// what the view draws changed: the overlay is rebuilt when
    /// [`overlay_key`](FamilyView::overlay_key) changes and the UI repaints.
    fn hover(&mut self, cx: &FamilyContext, ray: Option<&Ray>) -> bool {
        let _ = (cx, ray);
        false
    }

    /// A Ctrl + drag in the 3D view while this view's panel is shown (moving what the view
    /// draws, as a body whose query it re-runs); the camera stays still meanwhile.
    fn drag(&mut self, cx: &FamilyContext, drag: &Drag) -> Vec<Command> {
        let _ = (cx, drag);
        Vec::new()
    }

    /// Keys over the 3D view while this view's panel is shown, read before the shell's key
    /// map: a view that drives its simulation (walk mode) consumes its keys and returns the
    /// commands. `forward` is the camera's view direction.
    fn keys(
        &mut self,
        cx: &FamilyContext,
        input: &mut egui::InputState,
        forward: [f64; 3],
    ) -> Vec<Command> {
        let _ = (cx, input, forward);
        Vec::new()
    }

    /// Which of the shell's measures (stage times, counts, masses) `frame` holds, when the
    /// session's scene has this family's data; `None` for all of them (our own engine's
    /// frames). Asked whether the panel is open or not: the plots and the inspector say
    /// "not captured" for what is not held.
    fn measured(&self, cx: &FamilyContext, frame: &crate::record::Frame) -> Option<Measured> {
        let _ = (cx, frame);
        None
    }

    /// The view's options to persist between runs (RON text), or `None`.
    fn save_settings(&self) -> Option<String> {
        None
    }

    /// Options saved by [`save_settings`](FamilyView::save_settings), possibly by an older
    /// version: ignore what does not parse.
    fn load_settings(&mut self, text: &str) {
        let _ = text;
    }

    /// Screenshot mode (`COLLIDOSCOPE_SCREENSHOT_PANEL` names this family): set the view up
    /// from the `COLLIDOSCOPE_SCREENSHOT_*` variables it documents.
    fn prepare_screenshot(&mut self, setup: &mut ScreenshotSetup<'_>) {
        let _ = setup;
    }
}

/// Lets the shell and tests reach a registered view's concrete type.
pub trait AsAny: Any {
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any> AsAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

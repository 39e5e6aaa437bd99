//! A small family view registered beside the real ones: every hook is called by the shell's
//! handle ([`FamilyViews`]) exactly when it should be, and what it returns arrives.

use super::*;
use crate::app::settings::Settings;
use crate::app::state::loader::{LoadOptions, LoadRequest};
use crate::app::state::{AppState, Selection};
use crate::app::viewport::camera::OrbitCamera;

/// Claims the rigid pipeline's events (contacts, shape tests) and counts its calls.
#[derive(Default)]
struct CountingView {
    panels: u32,
    overlays: u32,
    inspected: Vec<usize>,
    clicks: u32,
    drags: u32,
    keys: u32,
    screenshots: u32,
    option: String,
    measured: std::cell::Cell<u32>,
}

const FAMILY: &str = "pipeline";

impl FamilyView for CountingView {
    fn family(&self) -> &'static str {
        FAMILY
    }
    fn title(&self) -> &'static str {
        "Counting"
    }
    fn about(&self) -> &'static str {
        "A view for tests"
    }
    fn panel(&mut self, ui: &mut egui::Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
        self.panels += 1;
        ui.label(format!(
            "{} bodies",
            cx.frame().map_or(0, |f| f.bodies.len())
        ));
        out.push(Command::Select(Selection::Body(1)));
    }
    fn overlay(&mut self, cx: &FamilyContext, out: &mut Overlay) {
        self.overlays += 1;
        let p = cx.pose(1).expect("body 1 has a pose").translation.vector;
        out.list.point(&p.into(), 5.0, [1.0; 4]);
        out.ghost_bodies = true;
        out.focus = Some(Focus {
            center: [p.x, p.y, p.z],
            radius: 0.5,
        });
    }
    fn scene_bodies(&mut self, _: &FamilyContext, list: &mut DrawList) {
        list.labels.push(crate::app::viewport::draw_list::Label {
            position: [0.0; 3],
            text: "counted body".into(),
            color: [1.0; 4],
        });
    }
    fn overlay_key(&self) -> u64 {
        self.option.len() as u64
    }
    fn inspect_event(&mut self, ui: &mut egui::Ui, _: &FamilyContext, i: usize, e: &TraceEvent) {
        assert_eq!(e.kind.family(), FAMILY, "only the events it owns");
        self.inspected.push(i);
        ui.label("counted");
    }
    fn outliner_group(&mut self, cx: &FamilyContext) -> Option<OutlinerGroup> {
        let n = cx.world().map_or(0, |w| w.bodies.len());
        Some(OutlinerGroup {
            title: "Counted bodies".into(),
            rows: (0..n as u32)
                .map(|b| OutlinerRow {
                    text: cx.body_name(b),
                    hover: String::new(),
                    selected: false,
                    command: Command::Select(Selection::Body(b)),
                })
                .collect(),
        })
    }
    fn event_marks(&mut self, cx: &FamilyContext, out: &mut Vec<EventMark>) {
        let n = cx.frame().map_or(0, |f| f.trace.len());
        for event in [n.saturating_sub(1), 0] {
            out.push(EventMark {
                event,
                color: [1.0; 4],
                text: "mark".into(),
            });
        }
    }
    fn click(&mut self, _: &FamilyContext, ray: &Ray) -> Option<Vec<Command>> {
        self.clicks += 1;
        (ray.dir.y < 0.0).then(|| vec![Command::Select(Selection::Body(0))])
    }
    fn drag(&mut self, _: &FamilyContext, drag: &Drag) -> Vec<Command> {
        self.drags += 1;
        if drag.start {
            vec![Command::Select(Selection::Body(2))]
        } else {
            Vec::new()
        }
    }
    fn keys(
        &mut self,
        _: &FamilyContext,
        input: &mut egui::InputState,
        _forward: [f64; 3],
    ) -> Vec<Command> {
        self.keys += 1;
        if input.consume_key(egui::Modifiers::NONE, egui::Key::W) {
            vec![Command::StepFrames(1)]
        } else {
            Vec::new()
        }
    }
    fn save_settings(&self) -> Option<String> {
        Some(format!("{:?}", self.option))
    }
    fn load_settings(&mut self, text: &str) {
        if let Ok(s) = ron::from_str::<String>(text) {
            self.option = s;
        }
    }
    fn measured(&self, _: &FamilyContext, _: &crate::record::Frame) -> Option<Measured> {
        self.measured.set(self.measured.get() + 1);
        Some(Measured {
            contacts: false,
            ..Measured::ALL
        })
    }
    fn prepare_screenshot(&mut self, setup: &mut ScreenshotSetup<'_>) {
        self.screenshots += 1;
        setup.settings.view.grid = false;
        setup.camera.distance = 42.0;
        assert!(setup.context().frame().is_some());
    }
}

fn views() -> FamilyViews {
    FamilyViews::new(vec![
        Box::new(hierarchy::HierarchyView::default()),
        Box::new(CountingView::default()),
    ])
}

fn state() -> AppState {
    let mut st = AppState::new(LoadOptions {
        trace_limit: 50_000,
        budget_bytes: 64 << 20,
    });
    assert!(st.open_blocking(LoadRequest::Builtin("interlocked-tori".into())));
    st.apply(Command::StepFrames(12));
    st
}

fn counting(v: &FamilyViews) -> &CountingView {
    v.view::<CountingView>().expect("registered")
}

fn in_ui(f: impl FnMut(&mut egui::Ui)) {
    let ctx = egui::Context::default();
    let mut out = ctx.run_ui(egui::RawInput::default(), f);
    out.textures_delta.clear();
}

/// A pick ray straight down onto the scene (the view takes it) and one straight up (it
/// leaves that to the shell).
fn down_and_up() -> (Ray, Ray) {
    (
        Ray::new([0.0, 5.0, 0.0].into(), [0.0, -1.0, 0.0].into()),
        Ray::new([0.0, 5.0, 0.0].into(), [0.0, 1.0, 0.0].into()),
    )
}

fn opened() -> FamilySettings {
    let mut open = FamilySettings::default();
    open.set_open(FAMILY, true);
    open
}

#[test]
fn the_view_menu_lists_it_after_the_hierarchy() {
    let entries = views().entries();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[1].title, "Counting");
    assert_eq!(entries[1].family, FAMILY);
}

#[test]
fn closed_it_shows_only_its_scene_bodies() {
    let st = state();
    let mut v = views();
    let mut open = FamilySettings::default();
    // A saved name of a family this build lacks opens nothing.
    open.set_open("no-such-family", true);
    assert!(!v.any_open(&open));
    // Its scene's bodies are drawn all the same, so they do not vanish with its panel.
    let closed = v.overlay(&st, &open).expect("the family's scene bodies");
    assert_eq!((closed.list.labels.len(), closed.list.points.len()), (1, 0));
    assert!(!closed.ghost_bodies);
    assert!(v.outliner_groups(&st, &open).is_empty());
    assert!(v.event_marks(&st, &open).is_empty());
    assert!(v.click(&st, &open, &down_and_up().0).is_none());
    assert_eq!(counting(&v).clicks, 0);
    assert_eq!(counting(&v).overlays, 0);
}

#[test]
fn open_its_panel_is_shown_with_the_commands_it_sends() {
    let st = state();
    let mut v = views();
    let open = opened();
    assert!(v.any_open(&open));
    let mut cmds = Vec::new();
    in_ui(|ui| cmds = v.panel(ui, &st, &open));
    assert_eq!(counting(&v).panels, 1);
    assert_eq!(cmds, vec![Command::Select(Selection::Body(1))]);
}

#[test]
fn its_overlay_is_rebuilt_only_when_what_it_shows_changes() {
    let mut st = state();
    let mut v = views();
    let open = opened();
    let o = v.overlay(&st, &open).expect("overlay");
    assert_eq!((o.list.points.len(), o.list.labels.len()), (1, 0));
    assert!(o.ghost_bodies);
    // Its focus, once.
    assert_eq!(v.take_focus().map(|f| f.radius), Some(0.5));
    assert_eq!(v.take_focus(), None);
    let again = v.overlay(&st, &open).expect("overlay");
    assert_eq!((again.key, counting(&v).overlays), (o.key, 1));
    st.apply(Command::StepFrames(-1));
    let moved = v.overlay(&st, &open).expect("overlay");
    assert_ne!(moved.key, o.key);
    assert_eq!(counting(&v).overlays, 2);
}

#[test]
fn the_inspector_asks_it_about_its_own_events_only() {
    let st = state();
    let mut v = views();
    let frame = st.current_frame().expect("frame").clone();
    let own = frame.trace.iter().position(|e| e.kind.family() == FAMILY);
    let other = frame.trace.iter().position(|e| e.kind.family() != FAMILY);
    let (own, other) = (own.expect("pipeline events"), other.expect("other events"));
    in_ui(|ui| {
        v.inspect_event(ui, &st, other, &frame.trace[other]);
        v.inspect_event(ui, &st, own, &frame.trace[own]);
    });
    assert_eq!(counting(&v).inspected, vec![own]);
}

#[test]
fn its_outliner_group_and_timeline_marks_arrive() {
    let st = state();
    let mut v = views();
    let open = opened();
    // Its outliner group names the scene's bodies, resolved from the static data.
    let groups = v.outliner_groups(&st, &open);
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].title, "Counted bodies");
    assert_eq!(groups[0].rows[2].text, "hanging torus");
    // Its marks, sorted by event.
    let marks = v.event_marks(&st, &open);
    assert_eq!(marks.len(), 2);
    assert!(marks[0].event <= marks[1].event);
}

#[test]
fn clicks_and_drags_in_the_3d_view_reach_it() {
    let st = state();
    let mut v = views();
    let open = opened();
    let (down, up) = down_and_up();
    // A click: taken (downwards ray) or left to the shell.
    assert_eq!(
        v.click(&st, &open, &down),
        Some(vec![Command::Select(Selection::Body(0))])
    );
    assert_eq!(v.click(&st, &open, &up), None);
    assert_eq!(counting(&v).clicks, 2);
    // A drag goes to the shown view, with its commands back.
    let drag = |start| Drag {
        previous: down,
        now: up,
        start,
    };
    assert_eq!(
        v.drag(&st, &open, &drag(true)),
        vec![Command::Select(Selection::Body(2))]
    );
    assert!(v.drag(&st, &open, &drag(false)).is_empty());
    assert_eq!(counting(&v).drags, 2);
}

#[test]
fn keys_over_the_3d_view_reach_it_before_the_shell() {
    let st = state();
    let mut v = views();
    let open = opened();
    let ctx = egui::Context::default();
    let mut input = egui::RawInput::default();
    input.events.push(egui::Event::Key {
        key: egui::Key::W,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    });
    let mut out = ctx.run_ui(input, |_| {});
    out.textures_delta.clear();
    let keyed = v.keys(&ctx, &st, &open, [0.0, 0.0, -1.0]);
    assert_eq!(keyed, vec![Command::StepFrames(1)]);
    // Consumed: asked again in the same frame, the view finds no key.
    assert!(v.keys(&ctx, &st, &open, [0.0, 0.0, -1.0]).is_empty());
    assert_eq!(counting(&v).keys, 2);
}

#[test]
fn its_settings_round_trip_through_the_shells_map() {
    let mut v = views();
    v.view_mut::<CountingView>().expect("registered").option = "kept".into();
    let mut saved = FamilySettings::default();
    v.store_settings(&mut saved);
    assert_eq!(
        saved.options.get(FAMILY).map(String::as_str),
        Some("\"kept\"")
    );
    let mut fresh = views();
    fresh.load_settings(&saved);
    assert_eq!(counting(&fresh).option, "kept");
}

#[test]
fn a_screenshot_opens_its_panel_alone_and_lets_it_set_the_view() {
    let mut st = state();
    let mut v = views();
    let mut settings = Settings::default();
    let mut camera = OrbitCamera::default();
    v.prepare_screenshot(FAMILY, &mut st, &mut settings, &mut camera);
    assert_eq!(counting(&v).screenshots, 1);
    assert!(settings.families.is_open(FAMILY));
    assert!(!settings.show_outliner && !settings.view.grid);
    assert_eq!(camera.distance, 42.0);
    // An unknown name is an error message, not a panic.
    v.prepare_screenshot("no-such-family", &mut st, &mut settings, &mut camera);
    assert!(
        st.messages
            .iter()
            .any(|m| m.text.contains("no-such-family"))
    );
}

#[test]
fn what_frames_hold_is_asked_only_of_the_families_in_the_scene() {
    // The scene has no data of the counting view's family: its answer does not count, and
    // it is not asked, panel open or not.
    let st = state();
    let mut v = views();
    let frame = st.current_frame().expect("a frame").clone();
    assert_eq!(v.measured(&st, &frame), Measured::ALL);
    assert_eq!(v.run_measured(&st), Measured::ALL);
    assert_eq!(counting(&v).measured.get(), 0);
    let both = Measured {
        contacts: false,
        ..Measured::ALL
    }
    .and(Measured {
        stage_times: false,
        ..Measured::ALL
    });
    assert!(!both.contacts && !both.stage_times && both.pairs && both.masses);
}

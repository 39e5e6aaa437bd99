//! The convex family's viewer: closest-feature tracking made visible. The two closest
//! features and points of each tracked pair, the Voronoi region of any feature as a bounded
//! translucent volume, the V-Clip walk one move at a time (the pair, the reason, the clip,
//! the state chart, the distance per move, the two containment checks), and a live walk
//! when a body of the pair is dragged.
//!
//! - [`shapes`]: the bodies' polyhedra and the scene's pairs; [`walk`]: events into a walk;
//! - [`current`]: the pair, poses, walk and position shown; [`live`]: the re-run under a drag;
//! - [`region`]: a region cut to a display box; [`draw`], [`overlay`]: the 3D view;
//! - [`panel`], [`state_chart`], [`plot`], [`checks`], [`palette`]: the side panel;
//! - [`gjk_steps`]: GJK's and EPA's events rebuilt into simplices; [`gjk_panel`],
//!   [`gjk_inset`]: their step view beside the walk; [`penetration`]: overlapping pairs;
//! - [`pick`]: a click to a feature; [`describe`]: the inspector; [`feature_word`]: a
//!   feature's kind in a word; [`screenshot`].

pub mod checks;
pub mod current;
pub mod describe;
pub mod draw;
pub mod feature_word;
pub mod gjk_inset;
pub mod gjk_panel;
pub mod gjk_steps;
pub mod live;
pub mod overlay;
pub mod palette;
pub mod panel;
pub mod penetration;
pub mod pick;
pub mod plot;
pub mod region;
pub mod screenshot;
pub mod shapes;
pub mod state_chart;
pub mod walk;

use super::{Drag, EventMark, FamilyContext, FamilyView, OutlinerGroup, OutlinerRow, Overlay};
use crate::app::state::{Command, Selection};
use crate::app::views::colors;
use crate::convex::{ConvexEvent, Feature, Outcome};
use crate::geom::Ray;
use crate::trace::{BodyId, EventKind, TraceEvent};
use current::Current;
use gjk_steps::GjkSteps;
use live::Live;
use shapes::ShapeCache;
use std::hash::{Hash, Hasher};
use walk::Walk;

/// A walk this long (moves in one frame) is worth a mark on the timeline: coherent motion
/// should take one or two.
pub const LONG_WALK: usize = 6;

/// A feature chosen for its region to be drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Picked {
    pub body: BodyId,
    pub feature: Feature,
}

#[derive(Default)]
pub struct ConvexView {
    pub shapes: ShapeCache,
    /// Index of the pair shown, in the scene's list.
    pub pair: usize,
    /// The feature whose region is drawn.
    pub picked: Option<Picked>,
    /// Draw every region of this body (26 for a cube).
    pub all_regions_of: Option<BodyId>,
    /// Draw the regions of the current pair's two features (Fig. 1.14).
    pub pair_regions: bool,
    pub live: Live,
    /// Frame the pair with the camera at the next overlay.
    pub frame_request: bool,
    /// The 3D drag under way hit this side of the pair.
    dragging: Option<usize>,
    /// The GJK step shown when the steps are the viewer's own re-run (`None`: the end); a
    /// recorded query's step follows the step scrubber instead.
    pub gjk_position: Option<usize>,
    /// Keep GJK's support and witness points out of the 3D view.
    pub hide_gjk_3d: bool,
    /// Scroll the panel to the GJK section once (for a screenshot).
    pub scroll_to_gjk: bool,
    /// The hull of A − B for the GJK inset.
    pub minkowski: gjk_panel::DifferenceCache,
    /// The GJK inset's view direction (yaw, pitch in radians, offsets from a default tilt).
    pub inset_turn: [f32; 2],
    /// The walk's start is shown: the step scrubber sits on its first move's event (the start
    /// pair has no event of its own), at this (session, frame, event).
    start_shown: Option<(u64, usize, usize)>,
}

impl ConvexView {
    /// The pair shown: the selected pair when the scene tracks it, else the panel's choice.
    pub fn pair_index(&self, cx: &FamilyContext) -> Option<usize> {
        let pairs = shapes::pairs(cx);
        if pairs.is_empty() {
            return None;
        }
        let selected = match cx.selection() {
            Selection::Pair(a, b) => pairs
                .iter()
                .position(|p| Selection::pair(p[0], p[1]) == Selection::Pair(a, b)),
            Selection::Body(x) => pairs.iter().position(|p| p.contains(&x)),
            Selection::None => None,
        };
        Some(selected.unwrap_or(self.pair.min(pairs.len() - 1)))
    }

    /// The pair, poses, walk and position shown now.
    pub fn current(&mut self, cx: &FamilyContext) -> Option<Current> {
        let k = self.pair_index(cx)?;
        let [ia, ib] = *shapes::pairs(cx).get(k)?;
        let mut a = self.shapes.posed(cx, ia)?;
        let mut b = self.shapes.posed(cx, ib)?;
        if self.live.active() {
            let moved = if self.live.side == 0 { &mut a } else { &mut b };
            moved.pose = self.live.pose(&moved.pose);
            let start = shapes::record(cx, k).map(|r| r.features);
            let (walk, _) = live::run(&a, &b, start);
            let position = self.live.position.unwrap_or(walk.last()).min(walk.last());
            let gjk = GjkSteps::rerun(&a, &b);
            let gjk_position = self.gjk_position.unwrap_or(gjk.last()).min(gjk.last());
            return Some(Current {
                pair: k,
                a,
                b,
                walk,
                position,
                live: true,
                gjk,
                gjk_position,
            });
        }
        let walk = cx
            .frame()
            .map_or_else(Walk::default, |f| Walk::of_pair(&f.trace, [ia, ib]));
        let event = cx.event().map(|(i, _)| i);
        let at_start = event.is_some_and(|i| {
            self.start_shown == Some((cx.generation(), cx.state.playhead.frame, i))
        });
        let position = if at_start {
            0
        } else {
            event
                .and_then(|i| walk.position_of_event(i))
                .unwrap_or(walk.last())
        };
        let gjk = GjkSteps::of_pair(&a, &b, cx.frame().map(|f| f.trace.as_slice()));
        let gjk_position = match gjk.source {
            gjk_steps::Source::Recorded => event.and_then(|i| gjk.position_of(i)),
            gjk_steps::Source::Rerun => self.gjk_position,
        }
        .unwrap_or(gjk.last())
        .min(gjk.last());
        Some(Current {
            pair: k,
            a,
            b,
            walk,
            position,
            live: false,
            gjk,
            gjk_position,
        })
    }

    /// Moves to a GJK step: through the step scrubber for recorded events, in the view for a
    /// re-run's.
    pub fn go_to_gjk(&mut self, current: &Current, position: usize, out: &mut Vec<Command>) {
        let position = position.min(current.gjk.last());
        match (current.gjk.source, current.gjk.event_of(position)) {
            (gjk_steps::Source::Recorded, Some(e)) => out.push(Command::SeekEvent(Some(e))),
            _ => self.gjk_position = Some(position),
        }
    }

    /// Moves to a position of the walk: through the step scrubber for a recorded walk (so the
    /// timeline and inspector follow), in the view for a live one.
    pub fn go_to(
        &mut self,
        cx: &FamilyContext,
        current: &Current,
        position: usize,
        out: &mut Vec<Command>,
    ) {
        let position = position.min(current.walk.last());
        if current.live {
            self.live.position = Some(position);
        } else if let Some(e) = current.walk.event_of_position(position) {
            self.start_shown =
                (position == 0).then(|| (cx.generation(), cx.state.playhead.frame, e));
            out.push(Command::SeekEvent(Some(e)));
        }
    }
}

/// The frame's convex events, with their index in the trace.
fn events<'a>(cx: &FamilyContext<'a>) -> Vec<(usize, &'a ConvexEvent)> {
    cx.frame().map_or_else(Vec::new, |f| {
        f.trace
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match &e.kind {
                EventKind::Convex(c) => Some((i, c)),
                _ => None,
            })
            .collect()
    })
}

impl FamilyView for ConvexView {
    fn family(&self) -> &'static str {
        <crate::convex::family::ConvexFamily as crate::family::EngineFamily>::NAME
    }

    fn title(&self) -> &'static str {
        "Closest features"
    }

    fn about(&self) -> &'static str {
        "Convex pairs: the closest features, their Voronoi regions and the V-Clip walk, move by move"
    }

    fn color(&self) -> crate::app::viewport::draw_list::Rgba {
        [1.0, 0.45, 0.6, 1.0]
    }

    fn panel(&mut self, ui: &mut egui::Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
        panel::show(self, ui, cx, out);
    }

    fn overlay_key(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (
            self.pair,
            self.picked,
            self.all_regions_of,
            self.pair_regions,
            self.live.side,
            self.live.position,
            self.frame_request,
            self.gjk_position,
            self.hide_gjk_3d,
        )
            .hash(&mut h);
        for c in self.live.offset {
            c.to_bits().hash(&mut h);
        }
        h.finish()
    }

    fn overlay(&mut self, cx: &FamilyContext, out: &mut Overlay) {
        overlay::draw(self, cx, out);
    }

    fn inspect_event(
        &mut self,
        ui: &mut egui::Ui,
        cx: &FamilyContext,
        _index: usize,
        event: &TraceEvent,
    ) {
        if let EventKind::Convex(e) = &event.kind {
            describe::inspect(ui, cx, &mut self.shapes, e);
        }
    }

    fn outliner_group(&mut self, cx: &FamilyContext) -> Option<OutlinerGroup> {
        let pairs = shapes::pairs(cx);
        if pairs.is_empty() {
            return None;
        }
        let shown = self.pair_index(cx);
        let rows = pairs
            .iter()
            .enumerate()
            .map(|(k, &[a, b])| {
                let state = shapes::record(cx, k).map_or_else(String::new, |r| {
                    format!(
                        " · {}–{} · {}",
                        r.features[0],
                        r.features[1],
                        match r.outcome {
                            Outcome::Separated => format!("d {:.4}", r.distance),
                            other => format!("{other:?}").to_lowercase(),
                        }
                    )
                });
                OutlinerRow {
                    text: format!("{} × {}{state}", cx.body_name(a), cx.body_name(b)),
                    hover: "Show this pair's closest features and walk".into(),
                    selected: shown == Some(k),
                    command: Command::Select(Selection::pair(a, b)),
                }
            })
            .collect();
        Some(OutlinerGroup {
            title: "Convex pairs".into(),
            rows,
        })
    }

    fn event_marks(&mut self, cx: &FamilyContext, out: &mut Vec<EventMark>) {
        for (i, e) in events(cx) {
            if let ConvexEvent::End {
                bodies,
                outcome,
                iterations,
                ..
            } = e
            {
                let names = format!("{} × {}", cx.body_name(bodies[0]), cx.body_name(bodies[1]));
                let mark = match outcome {
                    Outcome::Penetrating => Some((colors::WARNING, format!("{names} penetrate"))),
                    Outcome::IterationCap => {
                        Some((colors::WARNING, format!("{names}: iteration cap hit")))
                    }
                    _ if *iterations as usize >= LONG_WALK => Some((
                        colors::RESULT,
                        format!("{names}: a long walk ({iterations} steps)"),
                    )),
                    _ => None,
                };
                if let Some((color, text)) = mark {
                    out.push(EventMark {
                        event: i,
                        color,
                        text,
                    });
                }
            }
        }
    }

    fn click(&mut self, cx: &FamilyContext, ray: &Ray) -> Option<Vec<Command>> {
        let current = self.current(cx)?;
        let (side, feature) = pick::pick(&[&current.a, &current.b], ray)?;
        let body = current.bodies()[side];
        self.picked = Some(Picked { body, feature });
        let [a, b] = current.bodies();
        Some(vec![Command::Select(Selection::pair(a, b))])
    }

    /// Ctrl + drag on a body of the pair moves it in the plane facing the camera through its
    /// centre; the live walk re-runs at each motion.
    fn drag(&mut self, cx: &FamilyContext, drag: &Drag) -> Vec<Command> {
        let Some(current) = self.current(cx) else {
            return Vec::new();
        };
        if drag.start {
            self.dragging = pick::pick(&[&current.a, &current.b], &drag.now).map(|(k, _)| k);
            if let Some(k) = self.dragging
                && k != self.live.side
            {
                // Switching bodies starts from the recording: the other body's offset goes.
                self.live.reset();
                self.live.side = k;
            }
        }
        let Some(k) = self.dragging else {
            return Vec::new();
        };
        let body = if k == 0 { &current.a } else { &current.b };
        let centre = body.pose.translation.vector;
        let Some(n) = drag.now.dir.try_normalize(1e-300) else {
            return Vec::new();
        };
        let on_plane = |r: &Ray| {
            let denom = n.dot(&r.dir);
            (denom.abs() > 1e-12)
                .then(|| r.origin + r.dir * (n.dot(&(centre - r.origin.coords)) / denom))
        };
        if let (Some(p), Some(q)) = (on_plane(&drag.previous), on_plane(&drag.now)) {
            self.live.nudge(q - p);
            self.gjk_position = None;
        }
        let [a, b] = current.bodies();
        vec![Command::Select(Selection::pair(a, b))]
    }

    fn prepare_screenshot(&mut self, setup: &mut super::ScreenshotSetup<'_>) {
        self.screenshot(setup);
    }
}

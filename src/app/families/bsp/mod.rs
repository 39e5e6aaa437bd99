//! The BSP view: a level of brushes and the walker's slide through it. The side panel shows
//! the frame's slide as a table (one row per iteration, the colour of its drawing), the step
//! under the scrubber in words, the walk mode, and the tree as a collapsible list with its
//! statistics. The 3D view draws the brushes, the slide iteration by iteration (start, stop,
//! contact point, hit plane with its normal, remaining move) and the plane picked by a click.
//!
//! Events carry ids only (node, brush, plane index); the view resolves them against the level
//! the engine rebuilds from the recorded scene (`level.rs`).

pub mod describe;
pub mod draw;
pub mod face_tree_view;
pub mod level;
pub mod log;
mod pick;
mod screenshot;
pub mod skin_view;
pub mod switches;
pub mod table;
pub mod tree_list;
pub mod walk;

use super::{EventMark, FamilyBody, FamilyContext, FamilyView, Focus, Overlay, ScreenshotSetup};
use crate::app::state::Command;
use crate::app::views::colors;
use crate::app::widgets::prose::prose;
use crate::app::widgets::step_row::StepRow;
use crate::bsp::{BspEvent, SlideBranch, SlideEnd};
use crate::geom::Ray;
use crate::trace::{EventKind, TraceEvent};
use level::LevelCache;
use log::SlideLog;

/// Frames of the walker's path drawn before the one shown.
const TRAIL_FRAMES: usize = 40;

/// What the user picked to look at: a node's splitting plane or a brush's plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pick {
    Node(u32),
    Plane(u32, u16),
}

#[derive(Default)]
pub struct BspView {
    level: LevelCache,
    pub picked: Option<Pick>,
    /// The brush face under the mouse: (brush, face).
    pub hovered: Option<(u32, u16)>,
    pub walk: walk::Walk,
    /// Draw the brushes (off: the slide alone).
    pub hide_brushes: bool,
    /// Label the face-insertion tree's faces in the 3D view.
    pub show_face_tree: bool,
    /// Open the face-insertion tree's section once (screenshots).
    pub face_tree_open: bool,
    /// The level switches being edited, for the session of that generation.
    pub switch_edits: crate::app::families::switch_edits::SwitchEdits<switches::Switches>,
}

impl BspView {
    /// The node the step scrubber is on (a `Node` event), for the list and the tests.
    pub fn current_node(cx: &FamilyContext) -> Option<u32> {
        match cx.event()? {
            (
                _,
                TraceEvent {
                    kind: EventKind::Bsp(BspEvent::Node { node, .. }),
                    ..
                },
            ) => Some(*node),
            _ => None,
        }
    }
}

/// The iteration the step scrubber is in.
fn current_iteration(cx: &FamilyContext, log: &SlideLog) -> Option<usize> {
    let (i, _) = cx.event()?;
    log.owner(i).map(|it| it.index as usize)
}

/// The skin of the iteration stepped on, else of the frame's first hit.
fn skin_section(ui: &mut egui::Ui, cx: &FamilyContext, log: &SlideLog, level: &level::Level) {
    let stepped = cx.event().and_then(|(i, _)| log.owner(i));
    let Some(it) = stepped.or_else(|| log.iterations.iter().find(|it| it.hit.is_some())) else {
        return;
    };
    egui::CollapsingHeader::new(format!(
        "Skin close-up (MIN_DISTANCE), iteration {}",
        it.index + 1
    ))
    .id_salt("bsp-skin")
    .default_open(true)
    .show(ui, |ui| skin_view::show(ui, it, level));
}

impl FamilyView for BspView {
    fn family(&self) -> &'static str {
        <crate::bsp::BspFamily as crate::family::EngineFamily>::NAME
    }

    /// Only where the scene carries the family's data.
    fn applies(&self, cx: &FamilyContext) -> bool {
        cx.has_data(self.family())
    }

    fn title(&self) -> &'static str {
        "BSP slide"
    }

    fn about(&self) -> &'static str {
        "Brush levels, the BSP tree, and a shape sliding along their walls, iteration by iteration"
    }

    fn color(&self) -> crate::app::viewport::draw_list::Rgba {
        [0.35, 0.9, 0.85, 1.0]
    }

    fn panel(&mut self, ui: &mut egui::Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
        let Some(level) = self.level.get(cx) else {
            ui.label(self.level.problem.clone().unwrap_or_default());
            return;
        };
        let log = SlideLog::of(cx);
        let current = current_iteration(cx, &log);
        ui.strong(format!(
            "Slide of frame {} ({} shape)",
            cx.state.playhead.frame,
            level.shape.name()
        ));
        let in_other = cx.event().is_some_and(|(i, _)| log.in_other(i));
        table::slide_table(
            ui,
            &log,
            &level,
            (current.filter(|_| !in_other), None),
            out,
        );
        if let Some((mode, other)) = &log.other {
            ui.strong(format!(
                "The {} slide of the same move, from the same start (red)",
                mode.name()
            ));
            table::slide_table(
                ui,
                other,
                &level,
                (current.filter(|_| in_other), Some(draw::OTHER)),
                out,
            );
        }
        StepRow::new().with_keys_hint().show(ui, out, |_, _| ());
        if let Some((
            i,
            TraceEvent {
                kind: EventKind::Bsp(e),
                ..
            },
        )) = cx.event()
        {
            describe::describe(e, &level, &log, i).show(ui);
        } else {
            prose(
                ui,
                "Step through the events to follow the sweep down the tree.",
            );
        }
        ui.separator();
        self.walk.panel(ui, cx, out);
        ui.separator();
        ui.checkbox(&mut self.hide_brushes, "Hide the brushes");
        match self.picked {
            Some(Pick::Plane(b, p)) => {
                if let Some(pl) = level.plane(b, p) {
                    ui.label(format!(
                        "Picked: brush {b} plane {p}, normal {}, d = {:.3}",
                        describe::v3(&pl.normal),
                        pl.d
                    ));
                }
            }
            Some(Pick::Node(n)) => {
                ui.label(format!("Picked: the splitting plane of node {n}"));
            }
            None => {
                ui.label("Hover a brush face in the 3D view to see its plane; click to keep it.");
            }
        }
        egui::CollapsingHeader::new("BSP tree")
            .id_salt("bsp-tree")
            .default_open(true)
            .show(ui, |ui| {
                tree_list::stats(ui, &level);
                ui.separator();
                tree_list::tree(ui, &level, Self::current_node(cx), &mut self.picked);
            });
        egui::CollapsingHeader::new("Face-insertion BSP (the article's tree)")
            .id_salt("bsp-face-tree-header")
            .default_open(false)
            .open(std::mem::take(&mut self.face_tree_open).then_some(true))
            .show(ui, |ui| {
                ui.checkbox(&mut self.show_face_tree, "label the faces in the 3D view");
                face_tree_view::panel(ui, &level);
            });
        // Below the tree: the tree scrolls to its current row, and the step row above must
        // stay in view.
        skin_section(ui, cx, &log, &level);
        ui.separator();
        switches::show(self, ui, cx, out);
    }

    fn scene_bodies(&mut self, cx: &FamilyContext, list: &mut crate::app::viewport::draw_list::DrawList) {
        let Some(level) = self.level.get(cx) else {
            return;
        };
        draw::brushes(&level, &[], list);
        if let Some(p) = log::walker_position(cx) {
            draw::walker(&level, &p, list);
        }
    }

    fn family_bodies(&mut self, cx: &FamilyContext, out: &mut Vec<FamilyBody>) {
        let Some(level) = self.level.get(cx) else {
            return;
        };
        let corners = level.faces.iter().flatten().flatten().copied();
        out.extend(FamilyBody::around("BSP level", corners));
        if let Some(p) = log::walker_position(cx) {
            let r = level.shape.half_extents().norm().max(0.05);
            out.push(FamilyBody {
                kind: "walker",
                focus: Focus {
                    center: [p.x, p.y, p.z],
                    radius: r,
                },
            });
        }
    }

    fn overlay(&mut self, cx: &FamilyContext, out: &mut Overlay) {
        let Some(level) = self.level.get(cx) else {
            return;
        };
        let log = SlideLog::of(cx);
        let current = current_iteration(cx, &log);
        let mut hot = Vec::new();
        if let Some((
            _,
            TraceEvent {
                kind: EventKind::Bsp(BspEvent::Clip { brush, .. }),
                ..
            },
        )) = cx.event()
        {
            hot.push(*brush);
        }
        if let Some(n) = Self::current_node(cx)
            && let Some(node) = level.tree.nodes.get(n as usize)
        {
            // The brushes the node's children hold: what the choice keeps or skips.
            draw::brushes_under(&level, node.front, &mut hot);
            let near = cx.event().and_then(|(i, _)| log.owner(i)).map_or_else(
                || level.tree.brushes[node.from_brush as usize].bounds.min,
                |it| it.start,
            );
            draw::node_plane(&level, n, &near, &mut out.list);
        }
        if !self.hide_brushes {
            draw::brushes(&level, &hot, &mut out.list);
        }
        let own = level::bsp_scene(cx).filter(|d| d.compare).map(|d| d.sweep);
        let in_other = cx.event().is_some_and(|(i, _)| log.in_other(i));
        draw::slide(&log, &level, (current, in_other), own, &mut out.list);
        if self.show_face_tree {
            face_tree_view::draw(&level, &mut out.list);
        }
        if let Some(p) = log::walker_position(cx) {
            draw::walker(&level, &p, &mut out.list);
        }
        let trail = log::trail(cx, TRAIL_FRAMES);
        draw::trail(&trail, &mut out.list);
        if let Some((b, p)) = self.hovered
            && self.picked != Some(Pick::Plane(b, p))
        {
            draw::hovered(&level, b, p, &mut out.list);
        }
        match self.picked {
            Some(Pick::Plane(b, p)) => draw::picked(&level, b, p, &mut out.list),
            Some(Pick::Node(n)) => {
                if let Some(node) = level.tree.nodes.get(n as usize) {
                    draw::picked(&level, node.from_brush, face_of(&level, n), &mut out.list);
                }
            }
            None => {}
        }
        // The slide and the path that led to it: both must be in view.
        let mut points: Vec<[f64; 3]> = trail.iter().map(|p| (*p).into()).collect();
        let other = log.other.as_ref().map(|(_, o)| &o.iterations[..]).unwrap_or(&[]);
        for it in log.iterations.iter().chain(other) {
            points.push(it.start.into());
            points.push(it.target().into());
            if it.frac_impact.is_finite() {
                points.push(it.stop().into());
            }
        }
        out.focus = Focus::around(&points, level.shape.half_extents().amax() * 4.0);
    }

    fn overlay_key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (
            self.picked,
            self.hovered,
            self.hide_brushes,
            self.show_face_tree,
            self.walk.frames_added,
        )
            .hash(&mut h);
        h.finish()
    }

    fn inspect_event(
        &mut self,
        ui: &mut egui::Ui,
        cx: &FamilyContext,
        index: usize,
        event: &TraceEvent,
    ) {
        let (Some(level), EventKind::Bsp(e)) = (self.level.get(cx), &event.kind) else {
            return;
        };
        describe::describe(e, &level, &SlideLog::of(cx), index).show(ui);
    }

    fn event_marks(&mut self, cx: &FamilyContext, out: &mut Vec<EventMark>) {
        for (i, e) in log::bsp_events(cx) {
            let (color, text) = match *e {
                BspEvent::Iteration {
                    branch: SlideBranch::StartSolid,
                    ..
                }
                | BspEvent::End {
                    reason: SlideEnd::StartSolid,
                    ..
                } => (colors::WARNING, "shape starts inside solid".to_string()),
                BspEvent::End {
                    reason: SlideEnd::Corner,
                    ..
                } => (colors::WARNING, "stopped by 3+ walls".to_string()),
                BspEvent::Iteration {
                    index,
                    hit: Some((b, p)),
                    ..
                } => (
                    draw::iteration_color(index as usize),
                    format!("slide {}: hit brush {b} plane {p}", index + 1),
                ),
                _ => continue,
            };
            out.push(EventMark {
                event: i,
                color,
                text,
            });
        }
    }

    fn hover(&mut self, cx: &FamilyContext, ray: Option<&Ray>) -> bool {
        let level = self.level.get(cx);
        let under = match (ray, level) {
            (Some(r), Some(level)) => pick::face_under(&level, r),
            _ => None,
        };
        std::mem::replace(&mut self.hovered, under) != under
    }

    fn click(&mut self, cx: &FamilyContext, ray: &Ray) -> Option<Vec<Command>> {
        let level = self.level.get(cx)?;
        let (b, p) = pick::face_under(&level, ray)?;
        self.picked = Some(Pick::Plane(b, p));
        Some(Vec::new())
    }

    fn keys(
        &mut self,
        _cx: &FamilyContext,
        input: &mut egui::InputState,
        forward: [f64; 3],
    ) -> Vec<Command> {
        self.walk
            .keys(input, &crate::geom::Vec3::from(forward))
            .into_iter()
            .collect()
    }

    fn prepare_screenshot(&mut self, setup: &mut ScreenshotSetup<'_>) {
        self.screenshot(setup);
    }
}

/// The face index of the node's plane in the brush it came from (for drawing it picked).
fn face_of(level: &level::Level, node: u32) -> u16 {
    let Some(n) = level.tree.nodes.get(node as usize) else {
        return 0;
    };
    level
        .tree
        .brushes
        .get(n.from_brush as usize)
        .and_then(|b| b.planes.iter().position(|p| p == &n.plane))
        .unwrap_or(0) as u16
}

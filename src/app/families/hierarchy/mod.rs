//! The hierarchy family's viewer: the bounding-volume hierarchy of the selected mesh body
//! and the steps of tree-versus-tree traversals. The worked example of
//! `docs/adding-a-family.md`.
//!
//! - [`panel`]: the side panel (with [`table`], [`metrics`], [`node_inspector`], [`work`]);
//! - [`draw`]: the tree's volumes as draw data; [`pick`]: a click in the 3D view to a node;
//! - [`step`], [`step_3d`], [`step_diagram`], [`traversal`]: the traversal step under the
//!   step scrubber, read from the trace, described with two tree diagrams, drawn in 3D;
//! - [`resolve`]: a node or triangle id to geometry, from the recorded scene and poses;
//! - [`describe`]: events in words for the inspector; [`screenshot`]: screenshot set-up.

pub mod describe;
pub mod draw;
pub mod metrics;
pub mod node_inspector;
pub mod panel;
pub mod pick;
pub mod resolve;
pub mod screenshot;
pub mod step;
pub mod step_3d;
pub mod step_diagram;
pub mod table;
pub mod traversal;
pub mod trees;
pub mod work;

use super::{EventMark, FamilyContext, FamilyView, OutlinerGroup, OutlinerRow, Overlay};
use crate::app::state::{Command, Selection};
use crate::app::views::colors;
use crate::geom::Ray;
use crate::trace::{EventKind, TraceEvent};
use draw::HierarchyDrawing;
use panel::{HierarchyPanel, SavedOptions};
use std::hash::{Hash, Hasher};
use trees::{TreeStatsCache, mesh_bodies};

/// The colour of the family's events and of its marks.
pub(super) const COLOR: crate::app::viewport::draw_list::Rgba = [0.75, 0.5, 1.0, 1.0];

#[derive(Default)]
pub struct HierarchyView {
    pub panel: HierarchyPanel,
    pub trees: TreeStatsCache,
}

/// The two bodies of a traversal step.
pub fn traversal_bodies(e: &TraceEvent) -> Vec<crate::trace::BodyId> {
    if is_traversal_step(e) {
        e.bodies()
    } else {
        vec![]
    }
}

/// Whether an event is a step of a tree-versus-tree traversal.
pub fn is_traversal_step(e: &TraceEvent) -> bool {
    matches!(
        e.kind,
        EventKind::Bvh(crate::bvh::BvhEvent::NodePair { .. })
            | EventKind::Bvh(crate::bvh::BvhEvent::TrianglePair { .. })
    )
}

impl FamilyView for HierarchyView {
    fn family(&self) -> &'static str {
        <crate::bvh::family::BvhFamily as crate::family::EngineFamily>::NAME
    }

    fn title(&self) -> &'static str {
        "Hierarchy"
    }

    fn about(&self) -> &'static str {
        "The selected mesh body's bounding-volume hierarchy"
    }

    fn color(&self) -> crate::app::viewport::draw_list::Rgba {
        COLOR
    }

    fn panel(&mut self, ui: &mut egui::Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
        self.panel.show(ui, cx, &mut self.trees, out);
    }

    fn overlay_key(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let p = &self.panel;
        (p.range, p.mode, p.selected_node, p.follow_step).hash(&mut h);
        h.finish()
    }

    fn overlay(&mut self, cx: &FamilyContext, out: &mut Overlay) {
        self.panel.follow_selection(cx, &mut self.trees);
        let step = cx.event().filter(|(_, e)| is_traversal_step(e));
        if let Some((_, e)) = step {
            step_3d::draw_step(cx, e, out);
            if !self.panel.follow_step {
                out.focus = None;
            }
        }
        let Some(body) = self.panel.body else {
            return;
        };
        let (Some(tree), Some(stats), Some(pose)) = (
            cx.statics.tree(body),
            self.trees.stats(cx, body),
            cx.pose(body),
        ) else {
            return;
        };
        let tested = self.panel.tested(cx, body, stats.per_node.len());
        HierarchyDrawing {
            tree,
            nodes: &stats.per_node,
            pose,
            range: self.panel.range,
            mode: self.panel.mode,
            tested: &tested,
            selected: self.panel.selected_node,
            dim: step.is_some(),
        }
        .draw(&mut out.list);
    }

    fn inspect_event(
        &mut self,
        ui: &mut egui::Ui,
        cx: &FamilyContext,
        _index: usize,
        event: &TraceEvent,
    ) {
        describe::inspect_traversal_event(ui, cx, event);
    }

    fn outliner_group(&mut self, cx: &FamilyContext) -> Option<OutlinerGroup> {
        let bodies = mesh_bodies(cx);
        if bodies.is_empty() {
            return None;
        }
        let rows = bodies
            .into_iter()
            .map(|b| {
                let nodes = cx.statics.tree(b).map_or(0, |t| t.node_count());
                OutlinerRow {
                    text: format!("#{b} {} · {nodes} nodes", cx.body_name(b)),
                    hover: "Select this body and show its hierarchy".into(),
                    selected: self.panel.body == Some(b),
                    command: Command::Select(Selection::Body(b)),
                }
            })
            .collect();
        Some(OutlinerGroup {
            title: "Mesh hierarchies".into(),
            rows,
        })
    }

    fn event_marks(&mut self, cx: &FamilyContext, out: &mut Vec<EventMark>) {
        let Some(frame) = cx.frame() else {
            return;
        };
        for (i, e) in frame.trace.iter().enumerate() {
            if let EventKind::Bvh(crate::bvh::BvhEvent::TrianglePair {
                a,
                b,
                tri_a,
                tri_b,
                segment: Some(_),
                ..
            }) = &e.kind
            {
                out.push(EventMark {
                    event: i,
                    color: colors::RESULT,
                    text: format!("triangles {a}:{tri_a} × {b}:{tri_b} intersect"),
                });
            }
        }
    }

    fn click(&mut self, cx: &FamilyContext, ray: &Ray) -> Option<Vec<Command>> {
        self.panel.follow_selection(cx, &mut self.trees);
        let body = self.panel.body?;
        let stats = self.trees.stats(cx, body)?;
        let node = pick::pick_node(cx, body, &stats.per_node, self.panel.range, ray)?;
        self.panel.selected_node = Some(node);
        Some(vec![Command::Select(Selection::Body(body))])
    }

    fn save_settings(&self) -> Option<String> {
        let saved = SavedOptions {
            mode: self.panel.mode,
            follow_step: Some(self.panel.follow_step),
        };
        ron::to_string(&saved).ok()
    }

    fn load_settings(&mut self, text: &str) {
        if let Ok(saved) = ron::from_str::<SavedOptions>(text) {
            self.panel.mode = saved.mode;
            if let Some(f) = saved.follow_step {
                self.panel.follow_step = f;
            }
        }
    }

    fn prepare_screenshot(&mut self, setup: &mut super::ScreenshotSetup<'_>) {
        self.screenshot(setup);
    }
}

/// A node of a made-up tree for tests: one triangle, unit area and volume, no parent.
#[cfg(test)]
pub(crate) fn test_node(id: u32, depth: u32) -> crate::bvh::NodeStats {
    crate::bvh::NodeStats {
        id,
        parent: None,
        depth,
        triangles: 1,
        leaf: false,
        surface_area: 1.0,
        volume: 1.0,
        sah_contribution: 0.0,
        children_overlap_volume: 0.0,
        sibling_overlap_volume: 0.0,
        tested: 0,
    }
}

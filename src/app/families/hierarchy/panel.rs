//! The hierarchy panel: the tree of the selected mesh body (depth range, colour mode,
//! metrics, histograms, the node table and the node inspector), the traversal step under the
//! step scrubber and the traversal work per frame.

use super::draw::{ColorMode, DepthRange, tested_counts};
use super::metrics::metrics;
use super::step::{StepCache, traversal_step};
use super::table::{NodeTable, SortKey, sort_nodes};
use super::trees::{TreeStatsCache, mesh_bodies};
use crate::app::families::FamilyContext;
use crate::app::state::{Command, Selection};
use crate::app::views::colors;
use crate::bvh::TreeStats;
use crate::trace::BodyId;
use egui::{RichText, Ui};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub struct HierarchyPanel {
    pub range: DepthRange,
    pub mode: ColorMode,
    pub sort: SortKey,
    pub descending: bool,
    pub selected_node: Option<u32>,
    /// The body whose tree is shown (follows the selection).
    pub body: Option<BodyId>,
    /// Frame the camera on each traversal step stepped onto.
    pub follow_step: bool,
    pub(super) step_cache: StepCache,
    /// Node and triangle tests per frame position, counted from the traces.
    pub(super) work: Vec<Option<(u32, u32)>>,
    pub(super) work_generation: u64,
    /// The first frame whose work is not counted yet.
    pub(super) work_next: usize,
    tested: (u64, usize, BodyId, Arc<Vec<u32>>),
    sorted: Option<(SortCacheKey, Arc<Vec<u32>>)>,
}

/// What a sorted node order depends on: body, column, direction, frame (for the tested
/// column), session generation.
type SortCacheKey = (BodyId, SortKey, bool, usize, u64);

impl Default for HierarchyPanel {
    fn default() -> Self {
        Self {
            range: DepthRange { lo: 0, hi: 4 },
            mode: ColorMode::Depth,
            sort: SortKey::Id,
            descending: false,
            selected_node: None,
            body: None,
            follow_step: true,
            step_cache: Default::default(),
            work: Vec::new(),
            work_generation: u64::MAX,
            work_next: 0,
            tested: (u64::MAX, 0, 0, Arc::new(Vec::new())),
            sorted: None,
        }
    }
}

/// The panel's options that persist between runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedOptions {
    pub mode: ColorMode,
    pub follow_step: Option<bool>,
}

impl HierarchyPanel {
    /// Follows the selection to a mesh body; resets the node and range for a new tree.
    pub fn follow_selection(&mut self, cx: &FamilyContext, trees: &mut TreeStatsCache) {
        let candidates = match cx.selection() {
            Selection::Body(b) => vec![b],
            Selection::Pair(a, b) => vec![a, b],
            Selection::None => vec![],
        };
        let body = candidates
            .into_iter()
            .find(|&b| cx.statics.tree(b).is_some());
        if let Some(b) = body
            && self.body != Some(b)
        {
            self.body = Some(b);
            self.selected_node = None;
            let depth_max = trees.stats(cx, b).map_or(0, |s| s.summary.depth_max);
            self.range = DepthRange {
                lo: 0,
                hi: depth_max.min(4),
            };
        }
        if self.body.is_some_and(|b| cx.statics.tree(b).is_none()) {
            self.body = None;
        }
    }

    /// How often each node of `body`'s tree was tested in the frame under the playhead.
    pub fn tested(&mut self, cx: &FamilyContext, body: BodyId, nodes: usize) -> Arc<Vec<u32>> {
        let key = (cx.generation(), cx.state.playhead.frame, body);
        if (self.tested.0, self.tested.1, self.tested.2) != key {
            let counts = cx
                .frame()
                .map_or_else(|| vec![0; nodes], |f| tested_counts(&f.trace, body, nodes));
            self.tested = (key.0, key.1, key.2, Arc::new(counts));
        }
        self.tested.3.clone()
    }

    fn sorted(
        &mut self,
        cx: &FamilyContext,
        body: BodyId,
        stats: &TreeStats,
        tested: &[u32],
    ) -> Arc<Vec<u32>> {
        // The tested column changes with the frame; the others only with the tree.
        let frame = if self.sort == SortKey::Tested {
            cx.state.playhead.frame
        } else {
            0
        };
        let key = (body, self.sort, self.descending, frame, cx.generation());
        if let Some((k, v)) = &self.sorted
            && *k == key
        {
            return v.clone();
        }
        let v = Arc::new(sort_nodes(
            &stats.per_node,
            tested,
            self.sort,
            self.descending,
        ));
        self.sorted = Some((key, v.clone()));
        v
    }

    pub fn show(
        &mut self,
        ui: &mut Ui,
        cx: &FamilyContext,
        trees: &mut TreeStatsCache,
        out: &mut Vec<Command>,
    ) {
        self.follow_selection(cx, trees);
        self.update_work(cx);
        if let Some(p) = &cx.statics.problem {
            ui.colored_label(colors::egui(colors::WARNING), p);
        }
        let meshes = mesh_bodies(cx);
        ui.horizontal_wrapped(|ui| {
            ui.label("Mesh bodies:");
            if meshes.is_empty() {
                ui.weak("none in this scene");
            }
            for &b in &meshes {
                let name = cx.body_name(b);
                if ui
                    .selectable_label(self.body == Some(b), format!("{name} (#{b})"))
                    .on_hover_text("Select this body and show its hierarchy")
                    .clicked()
                {
                    out.push(Command::Select(Selection::Body(b)));
                }
            }
        });
        traversal_step(ui, cx, trees, &mut self.step_cache, &mut self.follow_step);
        let Some(body) = self.body else {
            ui.weak("Select a triangle-mesh body to see its bounding-volume hierarchy.");
            self.work_plot(ui, cx, None);
            return;
        };
        let (Some(tree), Some(stats)) = (cx.statics.tree(body), trees.stats(cx, body)) else {
            return;
        };
        let tested = self.tested(cx, body, stats.per_node.len());
        let s = &stats.summary;
        ui.separator();
        ui.label(
            RichText::new(format!(
                "Hierarchy of body #{body}: {} tree, {:?} build",
                s.kind.name(),
                s.strategy
            ))
            .strong(),
        );
        self.controls(ui, s.depth_max);
        egui::CollapsingHeader::new("Tree metrics")
            .default_open(true)
            .show(ui, |ui| metrics(ui, &stats, &tested));
        egui::CollapsingHeader::new("Node table")
            .default_open(true)
            .show(ui, |ui| {
                let order = self.sorted(cx, body, &stats, &tested);
                NodeTable {
                    sort: &mut self.sort,
                    descending: &mut self.descending,
                    selected: &mut self.selected_node,
                }
                .show(ui, &stats, &tested, &order);
            });
        if let Some(id) = self.selected_node {
            egui::CollapsingHeader::new(format!("Node {id}"))
                .id_salt("node-inspector")
                .default_open(true)
                .show(ui, |ui| {
                    self.node_inspector(ui, cx, tree, &stats, &tested, body, id)
                });
        }
        self.work_plot(ui, cx, Some(s.sah_cost));
    }

    fn controls(&mut self, ui: &mut Ui, depth_max: u32) {
        ui.horizontal(|ui| {
            ui.spacing_mut().slider_width = 80.0;
            ui.label("Depths");
            ui.add(egui::Slider::new(&mut self.range.lo, 0..=depth_max).text("from"))
                .on_hover_text("Shallowest level drawn");
            ui.add(egui::Slider::new(&mut self.range.hi, 0..=depth_max).text("to"))
                .on_hover_text("Deepest level drawn");
        });
        ui.horizontal(|ui| {
            if ui
                .button("◀ Shallower")
                .on_hover_text("Move the depth range one level up")
                .clicked()
                && self.range.lo > 0
            {
                self.range.lo -= 1;
                self.range.hi -= 1;
            }
            if ui
                .button("Deeper ▶")
                .on_hover_text("Move the depth range one level down")
                .clicked()
                && self.range.hi < depth_max
            {
                self.range.lo += 1;
                self.range.hi += 1;
            }
            if ui
                .button("All levels")
                .on_hover_text("Draw every level")
                .clicked()
            {
                self.range = DepthRange {
                    lo: 0,
                    hi: depth_max,
                };
            }
        });
        if self.range.lo > self.range.hi {
            self.range.hi = self.range.lo;
        }
        ui.horizontal_wrapped(|ui| {
            ui.label("Colour by");
            for m in ColorMode::ALL {
                ui.selectable_value(&mut self.mode, m, m.label());
            }
        });
    }
}

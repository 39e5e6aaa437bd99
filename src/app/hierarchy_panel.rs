//! The hierarchy panel: the tree of the selected mesh body (depth range, colour mode,
//! metrics, histograms, a sortable node table and a node inspector), the current
//! tree-versus-tree traversal step, and the traversal work per frame. With the broad-phase
//! panel it shares one side panel ([`BvhPanels`]) and one viewport overlay.
//!
//! The trees are the engine's: a `World` rebuilt from the session's scene (for a recording,
//! the scene it embeds), exactly as the session builds its bodies.

use crate::app::broad_panel::BroadPanel;
use crate::app::state::{AppState, Command, Selection};
use crate::app::viewport::draw_list::DrawList;
use crate::app::views::colors;
use crate::app::views::hierarchy::{
    ColorMode, DepthRange, HierarchyDrawing, tested_counts, traversal_counts,
};
use crate::bvh::{AnyBvh, BvKind, NodeStats, SAT_AXIS_NAMES, TreeStats};
use crate::geom::Pose;
use crate::trace::{BodyId, EventKind, TraceEvent, Volume};
use crate::world::World;
use egui::{RichText, Ui};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The engine's trees for the open session, rebuilt when a new session arrives.
#[derive(Default)]
pub struct TreeCache {
    generation: Option<u64>,
    world: Option<World>,
    pub problem: Option<String>,
    stats: HashMap<BodyId, Arc<TreeStats>>,
}

impl TreeCache {
    pub fn sync(&mut self, state: &AppState) {
        if self.generation == Some(state.session_generation) {
            return;
        }
        self.generation = Some(state.session_generation);
        self.stats.clear();
        self.world = None;
        self.problem = None;
        if let Some(session) = &state.session {
            match World::with_origin(session.scene.clone(), std::path::Path::new("<viewer>")) {
                Ok(w) => self.world = Some(w),
                Err(e) => self.problem = Some(format!("cannot rebuild the scene's trees: {e}")),
            }
        }
    }

    pub fn tree(&self, body: BodyId) -> Option<&AnyBvh> {
        self.world.as_ref()?.tree(body)
    }

    /// Bodies with a hierarchy, in id order.
    pub fn mesh_bodies(&self) -> Vec<BodyId> {
        let Some(w) = &self.world else {
            return vec![];
        };
        (0..w.bodies.len() as u32)
            .filter(|&b| w.tree(b).is_some())
            .collect()
    }

    pub fn stats(&mut self, body: BodyId) -> Option<Arc<TreeStats>> {
        if let Some(s) = self.stats.get(&body) {
            return Some(s.clone());
        }
        let s = Arc::new(self.tree(body)?.stats_with_tests(&[]));
        self.stats.insert(body, s.clone());
        Some(s)
    }
}

/// Node table columns, each sortable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SortKey {
    #[default]
    Id,
    Depth,
    Triangles,
    Sah,
    SiblingOverlap,
    Tested,
}

impl SortKey {
    pub const ALL: [SortKey; 6] = [
        SortKey::Id,
        SortKey::Depth,
        SortKey::Triangles,
        SortKey::Sah,
        SortKey::SiblingOverlap,
        SortKey::Tested,
    ];

    pub fn header(self) -> &'static str {
        match self {
            SortKey::Id => "node",
            SortKey::Depth => "depth",
            SortKey::Triangles => "tris",
            SortKey::Sah => "SAH",
            SortKey::SiblingOverlap => "overlap",
            SortKey::Tested => "tested",
        }
    }

    /// Characters the column takes in the monospace rows.
    fn width(self) -> usize {
        match self {
            SortKey::Id => 6,
            SortKey::Depth => 5,
            SortKey::Triangles => 6,
            SortKey::Sah => 9,
            SortKey::SiblingOverlap => 9,
            SortKey::Tested => 6,
        }
    }
}

/// Node ids ordered by a column (ties by id, so the order is total and stable).
pub fn sort_nodes(nodes: &[NodeStats], tested: &[u32], key: SortKey, descending: bool) -> Vec<u32> {
    let t = |n: &NodeStats| tested.get(n.id as usize).copied().unwrap_or(0);
    let mut order: Vec<&NodeStats> = nodes.iter().collect();
    order.sort_by(|a, b| {
        let primary = match key {
            SortKey::Id => a.id.cmp(&b.id),
            SortKey::Depth => a.depth.cmp(&b.depth),
            SortKey::Triangles => a.triangles.cmp(&b.triangles),
            SortKey::Sah => a.sah_contribution.total_cmp(&b.sah_contribution),
            SortKey::SiblingOverlap => a
                .sibling_overlap_volume
                .total_cmp(&b.sibling_overlap_volume),
            SortKey::Tested => t(a).cmp(&t(b)),
        };
        let primary = if descending {
            primary.reverse()
        } else {
            primary
        };
        primary.then(a.id.cmp(&b.id))
    });
    order.into_iter().map(|n| n.id).collect()
}

/// One node table row, aligned to the column widths.
pub fn row_text(n: &NodeStats, tested: u32) -> String {
    format!(
        "{:>w0$} {:>w1$} {:>w2$} {:>w3$.4} {:>w4$.4} {:>w5$}",
        n.id,
        n.depth,
        n.triangles,
        n.sah_contribution,
        n.sibling_overlap_volume,
        tested,
        w0 = SortKey::Id.width(),
        w1 = SortKey::Depth.width(),
        w2 = SortKey::Triangles.width(),
        w3 = SortKey::Sah.width(),
        w4 = SortKey::SiblingOverlap.width(),
        w5 = SortKey::Tested.width(),
    )
}

/// The name of a node pair's separating axis for a tree kind.
pub fn axis_name(kind: BvKind, axis: u8) -> String {
    match kind {
        BvKind::Obb => SAT_AXIS_NAMES.get(axis as usize).map_or_else(
            || format!("axis {axis}"),
            |n| format!("{n} (RAPID axis {axis})"),
        ),
        BvKind::Aabb => match axis {
            0 => "x of tree A".into(),
            1 => "y of tree A".into(),
            2 => "z of tree A".into(),
            _ => format!("axis {axis}"),
        },
        BvKind::Kdop14 | BvKind::Kdop18 | BvKind::Kdop26 => {
            format!("slab direction {axis} of tree A")
        }
        BvKind::Sphere => format!("axis {axis}"),
    }
}

fn volume_text(v: &Volume) -> String {
    match v {
        Volume::Aabb(b) => {
            let e = b.max - b.min;
            format!("AABB {:.3} × {:.3} × {:.3} m", e.x, e.y, e.z)
        }
        Volume::Obb(o) => {
            let e = o.half_extents * 2.0;
            format!("OBB {:.3} × {:.3} × {:.3} m", e.x, e.y, e.z)
        }
        Volume::Sphere(s) => format!("sphere r = {:.3} m", s.radius),
        Volume::Kdop { axes, .. } => format!("{}-DOP", axes.len() * 2),
    }
}

/// Rows describing a traversal event (node pair or triangle pair), for the inspector.
pub fn traversal_rows(kind: BvKind, e: &TraceEvent) -> Vec<(String, String)> {
    let mut rows = Vec::new();
    match &e.kind {
        EventKind::Bvh(crate::bvh::BvhEvent::NodePair {
            a,
            b,
            node_a,
            node_b,
            volume_a,
            volume_b,
            separating_axis,
        }) => {
            rows.push((
                "tree A".into(),
                format!("body {a}, node {node_a}: {}", volume_text(volume_a)),
            ));
            rows.push((
                "tree B".into(),
                format!("body {b}, node {node_b}: {}", volume_text(volume_b)),
            ));
            let verdict = match separating_axis {
                Some(axis) => format!("separated along {}", axis_name(kind, *axis)),
                None if e.verdict == crate::trace::Verdict::Hit => {
                    "volumes overlap: descend".into()
                }
                None => "separated".into(),
            };
            rows.push(("result".into(), verdict));
        }
        EventKind::Bvh(crate::bvh::BvhEvent::TrianglePair {
            a,
            b,
            tri_a,
            tri_b,
            segment,
            ..
        }) => {
            rows.push(("triangle A".into(), format!("body {a}, triangle {tri_a}")));
            rows.push(("triangle B".into(), format!("body {b}, triangle {tri_b}")));
            match segment {
                Some(s) => {
                    let p =
                        |p: &crate::geom::Point3| format!("({:.3}, {:.3}, {:.3})", p.x, p.y, p.z);
                    rows.push((
                        "result".into(),
                        format!("intersect: a {:.4} m segment", (s.b - s.a).norm()),
                    ));
                    rows.push(("segment from".into(), p(&s.a)));
                    rows.push(("segment to".into(), p(&s.b)));
                }
                None => rows.push(("result".into(), "no intersection".into())),
            }
        }
        _ => {}
    }
    rows
}

/// The inspector's part for a traversal event: what was tested and why it ended.
pub fn describe_traversal_event(ui: &mut Ui, state: &AppState, e: &TraceEvent) {
    let kind = state
        .session
        .as_ref()
        .map_or(BvKind::Aabb, |s| s.scene.mesh_bv);
    let rows = traversal_rows(kind, e);
    if rows.is_empty() {
        return;
    }
    ui.label(
        RichText::new(format!(
            "Tree-versus-tree traversal ({} trees)",
            kind.name()
        ))
        .strong(),
    );
    egui::Grid::new("traversal-step")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for (k, v) in rows {
                ui.label(RichText::new(k).weak());
                ui.label(RichText::new(v).monospace());
                ui.end_row();
            }
        });
}

/// Which of the two views the side panel shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tab {
    #[default]
    Hierarchy,
    BroadPhase,
}

pub struct HierarchyPanel {
    pub range: DepthRange,
    pub mode: ColorMode,
    pub sort: SortKey,
    pub descending: bool,
    pub selected_node: Option<u32>,
    /// The body whose tree is shown (follows the selection).
    pub body: Option<BodyId>,
    /// Node and triangle tests per frame position, counted from the traces.
    work: Vec<Option<(u32, u32)>>,
    work_generation: u64,
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
            work: Vec::new(),
            work_generation: u64::MAX,
            tested: (u64::MAX, 0, 0, Arc::new(Vec::new())),
            sorted: None,
        }
    }
}

/// The side panel with the hierarchy and broad-phase views, and their viewport overlay.
#[derive(Default)]
pub struct BvhPanels {
    pub tab: Tab,
    pub hierarchy: HierarchyPanel,
    pub broad: BroadPanel,
    pub trees: TreeCache,
    overlay: Option<(u64, Arc<DrawList>)>,
}

fn pose_of(state: &AppState, body: BodyId) -> Option<Pose> {
    let b = state.current_frame()?.body(body)?;
    Some(Pose::from_parts(b.position.coords.into(), b.rotation))
}

impl HierarchyPanel {
    /// Follows the selection to a mesh body; resets the node and range for a new tree.
    fn follow_selection(&mut self, state: &AppState, trees: &mut TreeCache) {
        let candidates = match state.selection {
            Selection::Body(b) => vec![b],
            Selection::Pair(a, b) => vec![a, b],
            Selection::None => vec![],
        };
        let body = candidates.into_iter().find(|&b| trees.tree(b).is_some());
        if let Some(b) = body
            && self.body != Some(b)
        {
            self.body = Some(b);
            self.selected_node = None;
            let depth_max = trees.stats(b).map_or(0, |s| s.summary.depth_max);
            self.range = DepthRange {
                lo: 0,
                hi: depth_max.min(4),
            };
        }
        if self.body.is_some_and(|b| trees.tree(b).is_none()) {
            self.body = None;
        }
    }

    fn tested(&mut self, state: &AppState, body: BodyId, nodes: usize) -> Arc<Vec<u32>> {
        let key = (state.session_generation, state.playhead.frame, body);
        if (self.tested.0, self.tested.1, self.tested.2) != key {
            let counts = state
                .current_frame()
                .map_or_else(|| vec![0; nodes], |f| tested_counts(&f.trace, body, nodes));
            self.tested = (key.0, key.1, key.2, Arc::new(counts));
        }
        self.tested.3.clone()
    }

    fn sorted(
        &mut self,
        state: &AppState,
        body: BodyId,
        stats: &TreeStats,
        tested: &[u32],
    ) -> Arc<Vec<u32>> {
        // The tested column changes with the frame; the others only with the tree.
        let frame = if self.sort == SortKey::Tested {
            state.playhead.frame
        } else {
            0
        };
        let key = (
            body,
            self.sort,
            self.descending,
            frame,
            state.session_generation,
        );
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

    /// Counts node and triangle tests of frames not seen yet (a bounded number per call).
    fn update_work(&mut self, state: &AppState) {
        let Some(session) = &state.session else {
            return;
        };
        if self.work_generation != state.session_generation {
            self.work_generation = state.session_generation;
            self.work.clear();
        }
        self.work.resize(session.len(), None);
        let mut budget = 200;
        for i in 0..self.work.len() {
            if self.work[i].is_some() {
                continue;
            }
            if budget == 0 {
                break;
            }
            budget -= 1;
            if let Ok(f) = session.frame(i) {
                self.work[i] = Some(traversal_counts(&f.trace));
            }
        }
    }

    fn show(
        &mut self,
        ui: &mut Ui,
        state: &AppState,
        trees: &mut TreeCache,
        out: &mut Vec<Command>,
    ) {
        self.follow_selection(state, trees);
        self.update_work(state);
        if let Some(p) = &trees.problem {
            ui.colored_label(colors::egui(colors::WARNING), p);
        }
        let meshes = trees.mesh_bodies();
        ui.horizontal_wrapped(|ui| {
            ui.label("Mesh bodies:");
            if meshes.is_empty() {
                ui.weak("none in this scene");
            }
            for &b in &meshes {
                let name = state
                    .session
                    .as_ref()
                    .map_or_else(|| format!("body {b}"), |s| s.catalog.name(b));
                if ui
                    .selectable_label(self.body == Some(b), format!("{name} (#{b})"))
                    .on_hover_text("Select this body and show its hierarchy")
                    .clicked()
                {
                    out.push(Command::Select(Selection::Body(b)));
                }
            }
        });
        self.traversal_step(ui, state, trees);
        let Some(body) = self.body else {
            ui.weak("Select a triangle-mesh body to see its bounding-volume hierarchy.");
            self.work_plot(ui, state, None);
            return;
        };
        let (Some(tree), Some(stats)) = (trees.tree(body).cloned(), trees.stats(body)) else {
            return;
        };
        let tested = self.tested(state, body, stats.per_node.len());
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
                let order = self.sorted(state, body, &stats, &tested);
                self.node_table(ui, &stats, &tested, &order);
            });
        if let Some(id) = self.selected_node {
            egui::CollapsingHeader::new(format!("Node {id}"))
                .id_salt("node-inspector")
                .default_open(true)
                .show(ui, |ui| {
                    self.node_inspector(ui, state, &tree, &stats, &tested, body, id)
                });
        }
        self.work_plot(ui, state, Some(s.sah_cost));
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

    fn node_table(&mut self, ui: &mut Ui, stats: &TreeStats, tested: &[u32], order: &[u32]) {
        let font = egui::FontId::monospace(12.0);
        let char_w = ui.fonts_mut(|f| f.glyph_width(&font, '0'));
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = char_w;
            for key in SortKey::ALL {
                let arrow = match (self.sort == key, self.descending) {
                    (true, false) => " ▲",
                    (true, true) => " ▼",
                    _ => "",
                };
                let text = RichText::new(format!("{}{arrow}", key.header()))
                    .font(font.clone())
                    .strong();
                let resp = ui
                    .add_sized(
                        [char_w * key.width() as f32, 18.0],
                        egui::Button::new(text).frame(false),
                    )
                    .on_hover_text(format!("Sort by {}", key.header()));
                if resp.clicked() {
                    if self.sort == key {
                        self.descending = !self.descending;
                    } else {
                        self.sort = key;
                        self.descending = !matches!(key, SortKey::Id | SortKey::Depth);
                    }
                }
            }
        });
        let row_h = 17.0;
        egui::ScrollArea::vertical()
            .id_salt("node-table")
            .max_height(200.0)
            .auto_shrink([false, true])
            .show_rows(ui, row_h, order.len(), |ui, rows| {
                for &id in &order[rows] {
                    let Some(n) = stats.per_node.get(id as usize) else {
                        continue;
                    };
                    let t = tested.get(id as usize).copied().unwrap_or(0);
                    let text = RichText::new(row_text(n, t)).font(font.clone());
                    let resp = ui
                        .selectable_label(self.selected_node == Some(id), text)
                        .on_hover_text(if n.leaf {
                            "leaf: click to inspect"
                        } else {
                            "click to inspect"
                        });
                    if resp.clicked() {
                        self.selected_node = Some(id);
                    }
                }
            });
    }

    #[allow(clippy::too_many_arguments)]
    fn node_inspector(
        &mut self,
        ui: &mut Ui,
        state: &AppState,
        tree: &AnyBvh,
        stats: &TreeStats,
        tested: &[u32],
        body: BodyId,
        id: u32,
    ) {
        let Some(n) = stats.per_node.get(id as usize) else {
            return;
        };
        let mut rows: Vec<(String, String)> = vec![
            (
                "kind".into(),
                if n.leaf {
                    "leaf".into()
                } else {
                    "internal".into()
                },
            ),
            ("depth".into(), n.depth.to_string()),
            ("triangles under".into(), n.triangles.to_string()),
            ("surface area (m²)".into(), format!("{:.5}", n.surface_area)),
            ("volume (m³)".into(), format!("{:.6}", n.volume)),
            (
                "SAH contribution".into(),
                format!("{:.5}", n.sah_contribution),
            ),
            (
                "children overlap (m³)".into(),
                format!("{:.6}", n.children_overlap_volume),
            ),
            (
                "sibling overlap (m³)".into(),
                format!("{:.6}", n.sibling_overlap_volume),
            ),
            (
                "tested this frame".into(),
                tested.get(id as usize).copied().unwrap_or(0).to_string(),
            ),
        ];
        if let Some(v) = pose_of(state, body).and_then(|p| tree.node_world_volume(id, &p)) {
            rows.push(("volume (world)".into(), volume_text(&v)));
        }
        if n.leaf {
            let tris = tree.leaf_triangles(id);
            let shown: Vec<String> = tris.iter().take(12).map(|t| t.to_string()).collect();
            let more = if tris.len() > 12 { " …" } else { "" };
            rows.push((
                "leaf triangles".into(),
                format!("{}{more}", shown.join(", ")),
            ));
        }
        egui::Grid::new("node-fields")
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                for (k, v) in rows {
                    ui.label(RichText::new(k).weak());
                    ui.label(RichText::new(v).monospace());
                    ui.end_row();
                }
            });
        ui.horizontal(|ui| {
            if let Some(p) = n.parent
                && ui.button(format!("Parent {p}")).clicked()
            {
                self.selected_node = Some(p);
            }
            if let Some((l, r)) = tree.children(id) {
                for c in [l, r] {
                    if ui.button(format!("Child {c}")).clicked() {
                        self.selected_node = Some(c);
                    }
                }
            }
            if ui
                .button("Clear")
                .on_hover_text("Stop inspecting this node")
                .clicked()
            {
                self.selected_node = None;
            }
        });
    }

    /// The current event when it is a step of a tree-versus-tree traversal.
    fn traversal_step(&self, ui: &mut Ui, state: &AppState, trees: &mut TreeCache) {
        let Some((i, e)) = state.current_event() else {
            return;
        };
        let (a, b, na, nb) = match &e.kind {
            EventKind::Bvh(crate::bvh::BvhEvent::NodePair {
                a,
                b,
                node_a,
                node_b,
                ..
            }) => (*a, *b, Some(*node_a), Some(*node_b)),
            EventKind::Bvh(crate::bvh::BvhEvent::TrianglePair { a, b, .. }) => (*a, *b, None, None),
            _ => return,
        };
        ui.separator();
        ui.label(
            RichText::new(format!("Traversal step (event {})", i + 1))
                .strong()
                .color(colors::egui(colors::verdict(e.verdict))),
        );
        ui.label(RichText::new(e.summary()).monospace());
        for (label, body, node) in [("A", a, na), ("B", b, nb)] {
            if let Some(node) = node
                && let Some(stats) = trees.stats(body)
                && let Some(n) = stats.per_node.get(node as usize)
            {
                ui.label(format!(
                    "{label}: node {node} of body #{body}, depth {}, {} triangles{}",
                    n.depth,
                    n.triangles,
                    if n.leaf { ", leaf" } else { "" }
                ));
            }
        }
        let kind = state
            .session
            .as_ref()
            .map_or(BvKind::Aabb, |s| s.scene.mesh_bv);
        if let Some((_, v)) = traversal_rows(kind, e)
            .into_iter()
            .find(|(k, _)| k == "result")
        {
            ui.label(v);
        }
    }

    fn work_plot(&self, ui: &mut Ui, state: &AppState, sah: Option<f64>) {
        egui::CollapsingHeader::new("Traversal work per frame")
            .default_open(true)
            .show(ui, |ui| {
                let pts = |f: fn((u32, u32)) -> u32| -> Vec<[f64; 2]> {
                    self.work
                        .iter()
                        .enumerate()
                        .filter_map(|(i, w)| w.map(|w| [i as f64, f(w) as f64]))
                        .collect()
                };
                let nodes = pts(|w| w.0);
                let tris = pts(|w| w.1);
                if let Some(sah) = sah {
                    ui.label(format!(
                        "SAH cost of this tree: {sah:.3} (rigid: the same every frame)"
                    ));
                }
                let cursor = state.playhead.frame as f64;
                egui_plot::Plot::new("bvh-work")
                    .height(120.0)
                    .legend(egui_plot::Legend::default().position(egui_plot::Corner::LeftTop))
                    .include_y(0.0)
                    .allow_scroll(false)
                    .show(ui, |p| {
                        p.line(
                            egui_plot::Line::new("node tests", nodes)
                                .color(colors::egui(colors::FIRST)),
                        );
                        p.line(
                            egui_plot::Line::new("triangle tests", tris)
                                .color(colors::egui(colors::SECOND)),
                        );
                        p.add(
                            egui_plot::VLine::new("", cursor)
                                .color(colors::egui(colors::SELECTION)),
                        );
                    });
            });
    }

    /// The tree's volumes for the viewport (empty when no mesh body is shown).
    fn draw(&mut self, state: &AppState, trees: &mut TreeCache, out: &mut DrawList) {
        self.follow_selection(state, trees);
        let Some(body) = self.body else {
            return;
        };
        let (Some(tree), Some(stats), Some(pose)) = (
            trees.tree(body).cloned(),
            trees.stats(body),
            pose_of(state, body),
        ) else {
            return;
        };
        let tested = self.tested(state, body, stats.per_node.len());
        let stepping = state.current_event().is_some_and(|(_, e)| {
            matches!(
                e.kind,
                EventKind::Bvh(crate::bvh::BvhEvent::NodePair { .. })
                    | EventKind::Bvh(crate::bvh::BvhEvent::TrianglePair { .. })
            )
        });
        HierarchyDrawing {
            tree: &tree,
            nodes: &stats.per_node,
            pose,
            range: self.range,
            mode: self.mode,
            tested: &tested,
            selected: self.selected_node,
            dim: stepping,
        }
        .draw(out);
    }
}

fn metrics(ui: &mut Ui, stats: &TreeStats, tested: &[u32]) {
    let s = &stats.summary;
    let touched = tested.iter().filter(|&&t| t > 0).count();
    let rows = [
        ("nodes / leaves", format!("{} / {}", s.nodes, s.leaves)),
        (
            "depth max / mean",
            format!("{} / {:.2}", s.depth_max, s.depth_mean),
        ),
        ("SAH cost", format!("{:.4}", s.sah_cost)),
        (
            "sibling overlap (m³)",
            format!("{:.5}", s.sibling_overlap_volume),
        ),
        (
            "memory",
            format!("{:.1} KiB", s.memory_bytes as f64 / 1024.0),
        ),
        ("nodes tested this frame", format!("{touched}")),
    ];
    egui::Grid::new("tree-metrics")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for (k, v) in rows {
                ui.label(RichText::new(k).weak());
                ui.label(RichText::new(v).monospace());
                ui.end_row();
            }
        });
    ui.columns(2, |cols| {
        histogram(
            &mut cols[0],
            "depth-hist",
            "Leaves per depth",
            &stats.depth_histogram,
        );
        histogram(
            &mut cols[1],
            "size-hist",
            "Leaves per size (triangles)",
            &stats.leaf_size_histogram,
        );
    });
}

fn histogram(ui: &mut Ui, id: &str, title: &str, counts: &[u32]) {
    ui.label(RichText::new(title).small());
    let bars: Vec<egui_plot::Bar> = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| egui_plot::Bar::new(i as f64, c as f64).width(0.8))
        .collect();
    egui_plot::Plot::new(id)
        .height(80.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .include_y(0.0)
        .show_x(true)
        .show(ui, |p| {
            p.bar_chart(
                egui_plot::BarChart::new(title, bars)
                    .color(colors::egui(colors::stage(crate::trace::Stage::Bvh))),
            );
        });
}

impl BvhPanels {
    /// The side panel's content; `show_hierarchy` / `show_broad` are the View menu's toggles.
    pub fn show(
        &mut self,
        ui: &mut Ui,
        state: &AppState,
        show_hierarchy: bool,
        show_broad: bool,
    ) -> Vec<Command> {
        let mut out = Vec::new();
        self.trees.sync(state);
        self.tab = match (show_hierarchy, show_broad) {
            (true, false) => Tab::Hierarchy,
            (false, true) => Tab::BroadPhase,
            _ => self.tab,
        };
        if show_hierarchy && show_broad {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut self.tab, Tab::Hierarchy, "Hierarchy");
                ui.selectable_value(&mut self.tab, Tab::BroadPhase, "Broad phase");
            });
        }
        ui.heading(match self.tab {
            Tab::Hierarchy => "Hierarchy",
            Tab::BroadPhase => "Broad phase",
        });
        egui::ScrollArea::vertical()
            .id_salt("bvh-panel-scroll")
            .auto_shrink([false, false])
            .show(ui, |ui| match self.tab {
                Tab::Hierarchy => self.hierarchy.show(ui, state, &mut self.trees, &mut out),
                Tab::BroadPhase => self.broad.show(ui, state, &mut out),
            });
        out
    }

    /// What the open view adds to the viewport, with a key that changes when it does.
    pub fn overlay(
        &mut self,
        state: &AppState,
        show_hierarchy: bool,
        show_broad: bool,
    ) -> Option<(u64, Arc<DrawList>)> {
        if !show_hierarchy && !show_broad {
            self.overlay = None;
            return None;
        }
        self.trees.sync(state);
        let tab = match (show_hierarchy, show_broad) {
            (true, false) => Tab::Hierarchy,
            (false, true) => Tab::BroadPhase,
            _ => self.tab,
        };
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (
            state.session_generation,
            state.playhead.frame,
            state.playhead.event,
        )
            .hash(&mut h);
        (state.selection, tab).hash(&mut h);
        let p = &self.hierarchy;
        (p.range, p.mode, p.selected_node).hash(&mut h);
        self.broad.key().hash(&mut h);
        let key = h.finish();
        if let Some((k, list)) = &self.overlay
            && *k == key
        {
            return Some((key, list.clone()));
        }
        let mut list = DrawList::default();
        match tab {
            Tab::Hierarchy => self.hierarchy.draw(state, &mut self.trees, &mut list),
            Tab::BroadPhase => self.broad.draw(state, &mut list),
        }
        let list = Arc::new(list);
        self.overlay = Some((key, list.clone()));
        Some((key, list))
    }
}

/// Screenshot mode for these views (see `scripts/screenshots.sh`):
/// - `COLLIDOSCOPE_SCREENSHOT_PANEL`  `hierarchy` or `broad`: opens that view (and hides the
///   outliner, to give the viewport room)
/// - `COLLIDOSCOPE_SCREENSHOT_COLOR`  `depth`, `sah`, `overlap` or `tested`
/// - `COLLIDOSCOPE_SCREENSHOT_DEPTH`  `LO,HI`: the depth range
/// - `COLLIDOSCOPE_SCREENSHOT_NODE`   a node id to inspect
/// - `COLLIDOSCOPE_SCREENSHOT_TRAVERSAL` `node` (first overlapping node pair) or `triangle`
///   (first triangle pair that intersects) of the current frame: puts the step scrubber on it
pub fn prepare_screenshot(
    panels: &mut BvhPanels,
    settings: &mut crate::app::settings::Settings,
    state: &mut AppState,
    viewport: &mut crate::app::viewport::ViewportUi,
) {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    match var("COLLIDOSCOPE_SCREENSHOT_PANEL").as_deref() {
        // The outliner and the plots make way: the shot is about this panel and the view.
        Some("hierarchy") => {
            settings.show_hierarchy = true;
            settings.show_outliner = false;
            settings.show_plots = false;
            settings.view.xray_selection = false;
        }
        Some("broad") => {
            settings.show_broad_phase = true;
            settings.show_outliner = false;
            settings.show_plots = false;
        }
        _ => {}
    }
    panels.trees.sync(state);
    panels.hierarchy.follow_selection(state, &mut panels.trees);
    if let Some(m) = var("COLLIDOSCOPE_SCREENSHOT_COLOR") {
        panels.hierarchy.mode = match m.as_str() {
            "sah" => ColorMode::Sah,
            "overlap" => ColorMode::SiblingOverlap,
            "tested" => ColorMode::Tested,
            _ => ColorMode::Depth,
        };
    }
    if let Some(d) = var("COLLIDOSCOPE_SCREENSHOT_DEPTH")
        && let Some((lo, hi)) = d.split_once(',')
        && let (Ok(lo), Ok(hi)) = (lo.trim().parse(), hi.trim().parse())
    {
        panels.hierarchy.range = DepthRange { lo, hi };
    }
    if let Some(n) = var("COLLIDOSCOPE_SCREENSHOT_NODE").and_then(|n| n.parse().ok()) {
        panels.hierarchy.selected_node = Some(n);
    }
    if let Some(t) = var("COLLIDOSCOPE_SCREENSHOT_TRAVERSAL") {
        // From the frame shown onwards, the first frame that has such a step.
        let pick = |e: &TraceEvent| match (&e.kind, t.as_str()) {
            (EventKind::Bvh(crate::bvh::BvhEvent::NodePair { .. }), "node") => {
                e.verdict == crate::trace::Verdict::Hit
            }
            (EventKind::Bvh(crate::bvh::BvhEvent::TrianglePair { segment, .. }), "triangle") => {
                segment.is_some()
            }
            _ => false,
        };
        let start = state.playhead.frame;
        // Within it, the longest intersection segment (the clearest to see).
        let length = |e: &TraceEvent| match &e.kind {
            EventKind::Bvh(crate::bvh::BvhEvent::TrianglePair {
                segment: Some(s), ..
            }) => (s.b - s.a).norm(),
            _ => 0.0,
        };
        let found = state.session.as_ref().and_then(|s| {
            (start..s.len()).find_map(|f| {
                let frame = s.frame(f).ok()?;
                let best = frame
                    .trace
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| pick(e))
                    .max_by(|a, b| length(a.1).total_cmp(&length(b.1)).then(b.0.cmp(&a.0)))?;
                Some((f, best.0))
            })
        });
        if let Some((f, i)) = found {
            // The step alone: contact points and normals would hide its triangles.
            settings.view.contacts = false;
            settings.view.normals = false;
            state.apply(Command::SeekFrame(f));
            state.apply(Command::SeekEvent(Some(i)));
            // A close-up of the step: its shapes fill the view.
            if let Some((_, e)) = state.current_event() {
                let points: Vec<[f64; 3]> = e
                    .shapes()
                    .iter()
                    .flat_map(|sh| match sh {
                        crate::trace::DebugShape::Triangle(t, _) => vec![t.a, t.b, t.c],
                        crate::trace::DebugShape::Box(b, _) => vec![b.min, b.max],
                        crate::trace::DebugShape::Obb(o, _) => vec![o.center],
                        _ => vec![],
                    })
                    .map(|p| [p.x, p.y, p.z])
                    .collect();
                if !points.is_empty() {
                    let n = points.len() as f64;
                    let c = [0, 1, 2].map(|k| points.iter().map(|p| p[k]).sum::<f64>() / n);
                    let r = points
                        .iter()
                        .map(|p| (0..3).map(|k| (p[k] - c[k]).powi(2)).sum::<f64>().sqrt())
                        .fold(0.05, f64::max);
                    viewport.camera.frame_sphere(c, r * 3.0);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: u32, depth: u32, triangles: u32, sah: f64, overlap: f64) -> NodeStats {
        NodeStats {
            id,
            parent: None,
            depth,
            triangles,
            leaf: false,
            surface_area: 1.0,
            volume: 1.0,
            sah_contribution: sah,
            children_overlap_volume: 0.0,
            sibling_overlap_volume: overlap,
            tested: 0,
        }
    }

    fn nodes() -> Vec<NodeStats> {
        vec![
            node(0, 0, 8, 1.0, 0.0),
            node(1, 1, 4, 0.5, 0.2),
            node(2, 1, 4, 0.7, 0.2),
            node(3, 2, 2, f64::NAN, 0.0),
        ]
    }

    #[test]
    fn sorting_orders_by_the_column_then_by_id() {
        let n = nodes();
        let tested = [3, 0, 7];
        assert_eq!(sort_nodes(&n, &tested, SortKey::Id, true), vec![3, 2, 1, 0]);
        assert_eq!(
            sort_nodes(&n, &tested, SortKey::Depth, false),
            vec![0, 1, 2, 3]
        );
        assert_eq!(
            sort_nodes(&n, &tested, SortKey::Depth, true),
            vec![3, 1, 2, 0]
        );
        assert_eq!(
            sort_nodes(&n, &tested, SortKey::Triangles, true),
            vec![0, 1, 2, 3]
        );
        // NaN sorts after every number (total order), so it never scrambles the table.
        assert_eq!(
            sort_nodes(&n, &tested, SortKey::Sah, false),
            vec![1, 2, 0, 3]
        );
        assert_eq!(
            sort_nodes(&n, &tested, SortKey::SiblingOverlap, true),
            vec![1, 2, 0, 3]
        );
        // Missing counts are 0.
        assert_eq!(
            sort_nodes(&n, &tested, SortKey::Tested, true),
            vec![2, 0, 1, 3]
        );
    }

    #[test]
    fn rows_line_up_with_the_headers() {
        let width: usize = SortKey::ALL.iter().map(|k| k.width() + 1).sum::<usize>() - 1;
        for n in nodes() {
            assert_eq!(
                row_text(&n, 12).chars().count(),
                width,
                "{:?}",
                row_text(&n, 12)
            );
        }
    }

    #[test]
    fn separating_axes_are_named_by_tree_kind() {
        assert_eq!(axis_name(BvKind::Obb, 6), "A0×B0 (RAPID axis 6)");
        assert_eq!(axis_name(BvKind::Obb, 99), "axis 99");
        assert_eq!(axis_name(BvKind::Aabb, 1), "y of tree A");
        assert!(axis_name(BvKind::Kdop18, 5).contains('5'));
    }

    #[test]
    fn trees_come_from_the_session_scene() {
        let mut st = AppState::new(crate::app::state::loader::LoadOptions {
            trace_limit: 50_000,
            budget_bytes: 64 << 20,
        });
        assert!(
            st.open_blocking(crate::app::state::loader::LoadRequest::Builtin(
                "interlocked-tori".into()
            ))
        );
        let mut cache = TreeCache::default();
        cache.sync(&st);
        let meshes = cache.mesh_bodies();
        assert_eq!(meshes, vec![1, 2], "the two tori");
        let stats = cache.stats(2).expect("stats");
        assert_eq!(
            stats.per_node.len(),
            cache.tree(2).map_or(0, |t| t.node_count())
        );
        // A step of the engine traverses the two trees: the counts come from that trace.
        st.apply(Command::StepFrames(1));
        let f = st.current_frame().expect("frame");
        let (node_tests, _) = traversal_counts(&f.trace);
        assert!(node_tests > 0);
        let counts = tested_counts(&f.trace, 2, stats.per_node.len());
        assert!(counts[0] > 0, "the root is tested first");
    }
}

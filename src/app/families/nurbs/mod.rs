//! The NURBS view: the thesis' OBB subdivision made visible (`spec/000-nurbs-obb.md`). The
//! surfaces and their control nets, the boxes of one level of the subdivision, the recursion
//! tree of a query, each surface's (u, v) square with the sub-patches tested and the hits, the
//! separating-axis inspector, the step view, and the bench's timing curves.
//!
//! - [`queries`]: the frame's events read back into queries and their recursion trees;
//! - [`geometry`]: the surfaces where the query saw them and the sub-patches events name;
//! - [`draw`], [`overlay`]: the 3D view; [`palette`]: colours shared with the panels;
//! - [`panel`], [`uv`], [`sat`], [`tree_list`], [`bench_view`]: the side panel;
//! - [`rule_switches`]: the query's rules (Algorithms 2.1–2.3), re-simulated on a change;
//! - [`thesis_view`]: the thesis' experiments (Figs 3.2–3.8) from their CSVs
//!   ([`bench`], [`precision_csv`]);
//! - [`describe`]: events in words; [`bench`]: the CSV; [`screenshot`].
//!
//! The view draws only what the engine recorded: events carry surface ids and paths of
//! halvings, resolved with the engine's own split rule and box builder under the scene's rules.

pub mod bench;
pub mod bench_view;
pub mod describe;
pub mod draw;
pub mod geometry;
pub mod overlay;
pub mod palette;
pub mod panel;
pub mod precision_csv;
pub mod queries;
pub mod rule_switches;
pub mod sat;
mod screenshot;
mod springs;
pub mod thesis_view;
pub mod tree_list;
pub mod uv;

use super::{EventMark, FamilyBody, FamilyContext, FamilyView, OutlinerGroup, OutlinerRow, Overlay};
use crate::app::state::Command;
use crate::app::viewport::draw_list::DrawList;
use crate::trace::{EventKind, TraceEvent};
use geometry::FrameGeometry;
use std::hash::{Hash, Hasher};

/// Hits marked on the timeline per frame, at most (all-hits queries can report hundreds).
const MAX_MARKS: usize = 24;

pub struct NurbsView {
    pub geometry: FrameGeometry,
    pub show_surfaces: bool,
    pub show_nets: bool,
    /// Draw the boxes of the sub-patches halved `level` times.
    pub show_level: bool,
    pub level: u8,
    /// Every sub-patch of the level, not only those the query tested.
    pub whole_level: bool,
    /// The surface pair chosen in the panel (the step's query wins while stepping).
    pub chosen: Option<(u32, u32)>,
    pub tree: tree_list::TreeState,
    pub bench: bench_view::BenchView,
    pub thesis: thesis_view::ThesisView,
    /// Section states forced once (screenshots), then left to the user.
    pub force_sections: Option<panel::Sections>,
    /// The query rules chosen in the panel, before a re-simulation runs them.
    pub rule_edits: rule_switches::RuleEdits,
}

impl Default for NurbsView {
    fn default() -> Self {
        Self {
            geometry: FrameGeometry::default(),
            show_surfaces: true,
            show_nets: true,
            show_level: true,
            level: 1,
            whole_level: false,
            chosen: None,
            tree: tree_list::TreeState::default(),
            bench: bench_view::BenchView::default(),
            thesis: thesis_view::ThesisView::default(),
            force_sections: None,
            rule_edits: rule_switches::RuleEdits::default(),
        }
    }
}

impl NurbsView {
    /// The query shown: the step's, else the chosen pair's, else the first with a hit, else
    /// the one with the most tests.
    pub fn shown_query(&mut self, cx: &FamilyContext) -> Option<usize> {
        if !self.geometry.sync(cx) {
            return None;
        }
        let qs = &self.geometry.queries;
        if let Some((i, _)) = cx.event()
            && let Some(q) = self.geometry.query_of_event(i)
        {
            return Some(q);
        }
        if let Some((a, b)) = self.chosen
            && let Some(q) = qs.iter().position(|q| (q.surface_a, q.surface_b) == (a, b))
        {
            return Some(q);
        }
        qs.iter()
            .position(|q| !q.hits.is_empty())
            .or_else(|| (0..qs.len()).max_by_key(|&k| (qs[k].tests.len(), usize::MAX - k)))
    }

    /// The test under the step scrubber, if it is in query `q`.
    pub fn current_test(&self, cx: &FamilyContext, q: usize) -> Option<usize> {
        let (i, _) = cx.event()?;
        self.geometry.queries.get(q)?.test_of_event(i)
    }

    /// The level shown, within the query's range.
    pub fn level_in(&self, q: usize) -> u8 {
        let max = self.geometry.queries.get(q).map_or(0, |x| x.max_level());
        self.level.min(max)
    }
}

impl FamilyView for NurbsView {
    fn family(&self) -> &'static str {
        <crate::nurbs::NurbsFamily as crate::family::EngineFamily>::NAME
    }

    /// Only where the scene carries the family's data.
    fn applies(&self, cx: &FamilyContext) -> bool {
        cx.has_data(self.family())
    }

    fn title(&self) -> &'static str {
        "NURBS boxes"
    }

    fn about(&self) -> &'static str {
        "NURBS surfaces queried by subdivision: control-point boxes by level, the recursion \
         tree, the (u, v) sub-patches and the separating axes"
    }

    fn color(&self) -> crate::app::viewport::draw_list::Rgba {
        [0.95, 0.9, 0.35, 1.0]
    }

    fn panel(&mut self, ui: &mut egui::Ui, cx: &FamilyContext, out: &mut Vec<Command>) {
        panel::show(self, ui, cx, out);
    }

    fn overlay(&mut self, cx: &FamilyContext, out: &mut Overlay) {
        overlay::draw(self, cx, out);
        springs::draw(cx, &mut out.list);
    }

    fn scene_bodies(&mut self, cx: &FamilyContext, list: &mut DrawList) {
        if self.geometry.sync(cx) {
            overlay::bodies(&self.geometry, list);
            springs::draw(cx, list);
        }
    }

    fn family_bodies(&mut self, cx: &FamilyContext, out: &mut Vec<FamilyBody>) {
        if self.geometry.sync(cx) {
            for s in &self.geometry.surfaces {
                out.extend(FamilyBody::around("NURBS surface", s.world.cartesian_points()));
            }
        }
    }

    fn overlay_key(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (
            self.show_surfaces,
            self.show_nets,
            self.show_level,
            self.level,
            self.whole_level,
            self.chosen,
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
        let EventKind::Nurbs(e) = &event.kind else {
            return;
        };
        if !self.geometry.sync(cx) {
            return;
        }
        let Some(q) = self.geometry.query_of_event(index) else {
            return;
        };
        describe::describe(&mut self.geometry, q, index, e).show(ui);
    }

    fn outliner_group(&mut self, cx: &FamilyContext) -> Option<OutlinerGroup> {
        let shown = self.shown_query(cx);
        let g = &self.geometry;
        if g.queries.is_empty() {
            return None;
        }
        // A query settled by its two root boxes says little: list those that went deeper.
        let rows = g
            .queries
            .iter()
            .enumerate()
            .filter(|(_, q)| q.tests.len() > 1)
            .take(60)
            .map(|(k, q)| OutlinerRow {
                text: format!(
                    "{} × {} · {} tests{}",
                    g.name(q.surface_a),
                    g.name(q.surface_b),
                    q.tests.len(),
                    if q.hits.is_empty() { "" } else { " · hit" }
                ),
                hover: "Step onto this query's first box test".into(),
                selected: shown == Some(k),
                command: Command::SeekEvent(Some(q.first_event())),
            })
            .collect();
        Some(OutlinerGroup {
            title: "NURBS queries".into(),
            rows,
        })
    }

    fn event_marks(&mut self, cx: &FamilyContext, out: &mut Vec<EventMark>) {
        if !self.geometry.sync(cx) {
            return;
        }
        let g = &self.geometry;
        for q in &g.queries {
            if let Some(&k) = q.hits.first()
                && let Some(e) = q.tests[k].hit
            {
                out.push(EventMark {
                    event: e,
                    color: palette::HIT,
                    text: format!("hit: {} × {}", g.name(q.surface_a), g.name(q.surface_b)),
                });
            }
            if out.len() >= MAX_MARKS {
                break;
            }
        }
    }

    fn prepare_screenshot(&mut self, setup: &mut super::ScreenshotSetup<'_>) {
        self.screenshot(setup);
    }
}

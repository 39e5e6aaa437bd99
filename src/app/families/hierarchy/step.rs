//! The traversal step under the step scrubber, in the panel: the two nodes (or triangles)
//! under test, where they sit in their trees (two small diagrams), how far the traversal has
//! gone and what waits on its stack, and the verdict. The 3D side is [`super::step_3d`].

use super::describe::{traversal_rows, tree_kind};
use super::step_diagram::{TreeDiagram, legend};
use super::traversal::{NodeMark, TraversalStep};
use super::trees::TreeStatsCache;
use crate::app::families::FamilyContext;
use crate::app::views::colors;
use crate::bvh::TreeStats;
use egui::{RichText, Ui};
use std::collections::HashMap;
use std::sync::Arc;

/// A tree's metrics and its icicle spans.
pub type TreeData = (Arc<TreeStats>, Arc<Vec<(f32, f32)>>);

/// A traversal step with what its diagrams show.
pub struct StepView {
    pub step: TraversalStep,
    /// Per tree (A, B): metrics, icicle spans, node marks.
    pub trees: [Option<TreeData>; 2],
    pub marks: [HashMap<u32, NodeMark>; 2],
}

/// The step view of the event under the playhead, computed once per event.
#[derive(Default)]
pub struct StepCache {
    key: Option<(u64, usize, usize)>,
    view: Option<Arc<StepView>>,
}

impl StepCache {
    pub fn get(&mut self, cx: &FamilyContext, trees: &mut TreeStatsCache) -> Option<Arc<StepView>> {
        let (i, _) = cx.event()?;
        let key = (cx.generation(), cx.state.playhead.frame, i);
        if self.key != Some(key) {
            self.key = Some(key);
            self.view = compute(cx, trees, i).map(Arc::new);
        }
        self.view.clone()
    }
}

fn compute(cx: &FamilyContext, trees: &mut TreeStatsCache, i: usize) -> Option<StepView> {
    let trace = &cx.frame()?.trace;
    let leaves: HashMap<u32, Arc<Vec<u32>>> = super::traversal_bodies(trace.get(i)?)
        .into_iter()
        .filter_map(|b| Some((b, trees.leaf_of_triangle(cx, b)?)))
        .collect();
    let leaf_of = |body: u32, tri: u32| {
        leaves
            .get(&body)?
            .get(tri as usize)
            .copied()
            .filter(|&l| l != u32::MAX)
    };
    let mut step = TraversalStep::at(trace, i, leaf_of)?;
    let tree_of =
        |trees: &mut TreeStatsCache, body| Some((trees.stats(cx, body)?, trees.layout(cx, body)?));
    let tree_data = [tree_of(trees, step.a), tree_of(trees, step.b)];
    if let [Some((sa, _)), Some((sb, _))] = &tree_data {
        step.find_pending(trace, [&sa.per_node, &sb.per_node]);
    }
    let marks = [0, 1].map(|side| {
        tree_data[side]
            .as_ref()
            .map(|(s, _)| step.marks(trace, side, &s.per_node))
            .unwrap_or_default()
    });
    Some(StepView {
        step,
        trees: tree_data,
        marks,
    })
}

/// The current event when it is a step of a tree-versus-tree traversal; `follow` is the
/// panel's "frame each step" option.
pub fn traversal_step(
    ui: &mut Ui,
    cx: &FamilyContext,
    trees: &mut TreeStatsCache,
    cache: &mut StepCache,
    follow: &mut bool,
) {
    let Some((i, e)) = cx.event().filter(|(_, e)| super::is_traversal_step(e)) else {
        return;
    };
    let Some(view) = cache.get(cx, trees) else {
        return;
    };
    let s = &view.step;
    ui.separator();
    ui.label(
        RichText::new(format!("Traversal step (event {})", i + 1))
            .strong()
            .color(colors::egui(colors::verdict(e.verdict))),
    );
    ui.label(RichText::new(e.summary()).monospace());
    ui.label(format!(
            "Step {} of {} in the traversal of {} × {}: {} node pairs tested so far, {} overlapping, {} waiting on the stack.",
            i - s.start + 1,
            s.len(),
            cx.body_name(s.a),
            cx.body_name(s.b),
            s.tested,
            s.overlapping,
            s.pending.len()
        ));
    for (side, label, body, node) in [(0, "A", s.a, s.node_a), (1, "B", s.b, s.node_b)] {
        if let Some(node) = node
            && let Some((stats, _)) = &view.trees[side]
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
    if let Some((_, v)) = traversal_rows(tree_kind(cx), e, None)
        .into_iter()
        .find(|(k, _)| k == "result")
    {
        ui.label(RichText::new(v).strong());
    }
    ui.columns(2, |cols| {
        for (side, ui) in cols.iter_mut().enumerate() {
            let (name, body, color) = if side == 0 {
                ("A", s.a, colors::FIRST)
            } else {
                ("B", s.b, colors::SECOND)
            };
            ui.label(
                RichText::new(format!("Tree {name}: #{body}"))
                    .small()
                    .color(colors::egui(color)),
            );
            if let Some((stats, spans)) = &view.trees[side] {
                let culled = view.marks[side]
                    .values()
                    .filter(|m| **m == NodeMark::Culled)
                    .count();
                TreeDiagram {
                    label: format!(
                        "Tree {name} diagram: node {} under test, {culled} subtrees culled",
                        if side == 0 { s.node_a } else { s.node_b }
                            .map_or_else(|| "?".into(), |n| n.to_string())
                    ),
                    nodes: &stats.per_node,
                    spans,
                    marks: &view.marks[side],
                    side: color,
                }
                .show(ui, 110.0);
            }
        }
    });
    legend(ui);
    ui.checkbox(follow, "Frame each step in the 3D view")
        .on_hover_text("Move the camera to the two volumes or triangles under test at each step");
}

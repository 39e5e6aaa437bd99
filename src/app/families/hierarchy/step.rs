//! The traversal step under the step scrubber, in words: the two nodes (or triangles) under
//! test, where they sit in their trees, and the verdict.

use super::describe::{traversal_rows, tree_kind};
use super::draw::draw_volume;
use super::panel::HierarchyPanel;
use super::trees::TreeStatsCache;
use crate::app::families::{FamilyContext, Focus, Overlay};
use crate::app::viewport::draw_list::to_f32;
use crate::app::views::colors;
use crate::bvh::BvhEvent;
use crate::trace::{EventKind, TraceEvent, Volume};
use egui::{RichText, Ui};

impl HierarchyPanel {
    /// The current event when it is a step of a tree-versus-tree traversal.
    pub(super) fn traversal_step(
        &self,
        ui: &mut Ui,
        cx: &FamilyContext,
        trees: &mut TreeStatsCache,
    ) {
        let Some((i, e)) = cx.event() else {
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
                && let Some(stats) = trees.stats(cx, body)
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
        if let Some((_, v)) = traversal_rows(tree_kind(cx), e)
            .into_iter()
            .find(|(k, _)| k == "result")
        {
            ui.label(v);
        }
    }
}

/// The step drawn for a newcomer: the two volumes or triangles under test filled and bright,
/// the intersection segment thick, the bodies ghosted, the camera framing the pair.
pub fn draw_step(cx: &FamilyContext, index: usize, e: &TraceEvent, out: &mut Overlay) {
    let _ = (cx, index);
    out.ghost_bodies = true;
    let mut points: Vec<[f64; 3]> = Vec::new();
    match &e.kind {
        EventKind::Bvh(BvhEvent::NodePair {
            volume_a, volume_b, ..
        }) => {
            for (v, c) in [(volume_a, colors::FIRST), (volume_b, colors::SECOND)] {
                draw_volume(v, c, true, &mut out.list);
                points.extend(volume_points(v));
            }
        }
        EventKind::Bvh(BvhEvent::TrianglePair {
            triangle_a,
            triangle_b,
            segment,
            ..
        }) => {
            for (t, c) in [(triangle_a, colors::FIRST), (triangle_b, colors::SECOND)] {
                let [a, b, cc] = [to_f32(&t.a), to_f32(&t.b), to_f32(&t.c)];
                for (p, q) in [(a, b), (b, cc), (cc, a)] {
                    out.list.line_on_top(p, q, c);
                }
                points.extend([t.a, t.b, t.c].map(|p| [p.x, p.y, p.z]));
            }
            if let Some(s) = segment {
                out.list
                    .line_on_top(to_f32(&s.a), to_f32(&s.b), colors::RESULT);
            }
        }
        _ => return,
    }
    out.focus = Focus::around(&points, 1e-3).map(|f| Focus {
        radius: f.radius * 1.6,
        ..f
    });
}

/// Points that bound a volume, for framing it.
fn volume_points(v: &Volume) -> Vec<[f64; 3]> {
    match v {
        Volume::Aabb(b) => vec![b.min.into(), b.max.into()],
        Volume::Obb(o) => {
            let r = o.half_extents.norm();
            let c = o.center;
            vec![[c.x - r, c.y, c.z], [c.x + r, c.y, c.z]]
        }
        Volume::Sphere(s) => {
            let c = s.center;
            vec![[c.x - s.radius, c.y, c.z], [c.x + s.radius, c.y, c.z]]
        }
        Volume::Kdop { axes, min, max } => {
            crate::bvh::polytope::Polytope::from_slabs(axes, min, max)
                .map(|p| {
                    p.edges()
                        .flat_map(|(a, b)| [a, b])
                        .map(|p| [p.x, p.y, p.z])
                        .collect()
                })
                .unwrap_or_default()
        }
    }
}

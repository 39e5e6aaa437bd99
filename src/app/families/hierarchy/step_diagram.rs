//! A small picture of one tree during a traversal: an icicle diagram (the root is the top
//! row, each node spans its triangles' share of the width, depth goes down), with the path
//! from the root to the node under test, the subtrees already culled, the nodes waiting on
//! the stack and those the traversal went below.

use super::traversal::NodeMark;
use crate::app::viewport::draw_list::Rgba;
use crate::app::views::colors::{self, with_alpha};
use crate::bvh::NodeStats;
use egui::{Pos2, Rect, Sense, Stroke, Ui, Vec2};
use std::collections::HashMap;

/// Colour of a mark; `side` is the tree's colour (A or B, as in the 3D view).
pub fn mark_color(mark: NodeMark, side: Rgba) -> Rgba {
    match mark {
        NodeMark::Current => side,
        NodeMark::Path => with_alpha(side, 0.55),
        NodeMark::OnStack => colors::RESULT,
        NodeMark::Culled => [0.85, 0.3, 0.25, 0.55],
        NodeMark::Descended => with_alpha(super::COLOR, 0.6),
    }
}

pub struct TreeDiagram<'a> {
    /// Read by assistive technology and tests.
    pub label: String,
    pub nodes: &'a [NodeStats],
    pub spans: &'a [(f32, f32)],
    pub marks: &'a HashMap<u32, NodeMark>,
    pub side: Rgba,
}

impl TreeDiagram<'_> {
    pub fn show(&self, ui: &mut Ui, height: f32) -> egui::Response {
        let width = ui.available_width().max(60.0);
        let (rect, response) = ui.allocate_exact_size(Vec2::new(width, height), Sense::hover());
        let label = self.label.clone();
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
        let depth_max = self.nodes.iter().map(|n| n.depth).max().unwrap_or(0);
        let inner = rect.shrink(3.0);
        let row = (inner.height() / (depth_max + 1) as f32).max(1.0);
        let node_rect = |id: u32, to_bottom: bool| -> Option<Rect> {
            let n = self.nodes.get(id as usize)?;
            let &(x0, x1) = self.spans.get(id as usize)?;
            let y0 = inner.top() + n.depth as f32 * row;
            let y1 = if to_bottom { inner.bottom() } else { y0 + row };
            let (l, r) = (
                inner.left() + x0 * inner.width(),
                inner.left() + x1 * inner.width(),
            );
            // Narrow nodes stay visible: at least 2 px, centred on their span.
            let (l, r) = if r - l < 2.0 {
                let c = (l + r) / 2.0;
                (c - 1.0, c + 1.0)
            } else {
                (l, r)
            };
            Some(Rect::from_min_max(Pos2::new(l, y0), Pos2::new(r, y1 - 0.5)))
        };
        // The tree itself, faint: nodes wide enough to see.
        let faint = ui.visuals().weak_text_color().gamma_multiply(0.35);
        for n in self.nodes {
            if let Some(&(x0, x1)) = self.spans.get(n.id as usize)
                && (x1 - x0) * inner.width() >= 3.0
                && let Some(r) = node_rect(n.id, false)
            {
                painter.rect_stroke(
                    r.shrink2(Vec2::new(0.5, 0.0)),
                    0.0,
                    Stroke::new(1.0, faint),
                    egui::StrokeKind::Inside,
                );
            }
        }
        // Culled subtrees first (they reach the bottom), then the rest by importance.
        let mut marked: Vec<(&u32, &NodeMark)> = self.marks.iter().collect();
        marked.sort_by_key(|(id, m)| (**m, **id));
        for (&id, &m) in marked {
            let Some(r) = node_rect(id, m == NodeMark::Culled) else {
                continue;
            };
            painter.rect_filled(r, 0.0, colors::egui(mark_color(m, self.side)));
            if m == NodeMark::Current {
                painter.rect_stroke(
                    r.expand(1.5),
                    1.0,
                    Stroke::new(1.5, ui.visuals().strong_text_color()),
                    egui::StrokeKind::Outside,
                );
            }
        }
        response
    }
}

/// The legend under the two diagrams.
pub fn legend(ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        let entries = [
            (colors::FIRST, "node under test (A)"),
            (colors::SECOND, "(B)"),
            (with_alpha(colors::FIRST, 0.55), "path from the root"),
            (
                mark_color(NodeMark::Culled, colors::FIRST),
                "culled subtree",
            ),
            (mark_color(NodeMark::OnStack, colors::FIRST), "on the stack"),
            (mark_color(NodeMark::Descended, colors::FIRST), "overlapped"),
        ];
        for (c, text) in entries {
            let (r, _) = ui.allocate_exact_size(Vec2::splat(10.0), Sense::hover());
            ui.painter().rect_filled(r, 2.0, colors::egui(c));
            ui.label(egui::RichText::new(text).small());
            ui.add_space(4.0);
        }
    });
}

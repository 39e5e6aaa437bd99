//! The inset's labels, laid out together at the end: points of A − B crowd each other (the
//! new support point sat on the EPA depth's label), so each label takes the nearest free slot
//! by priority, with a leader line back to its point when moved.

use crate::app::viewport::label_layout::place_labels;
use egui::{Color32, FontId, Pos2, Rect, Stroke, Vec2};

#[derive(Default)]
pub struct Labels {
    /// (priority, point, offset of the label's top left from it, text, colour)
    wanted: Vec<(u8, Pos2, Vec2, String, Color32)>,
}

impl Labels {
    /// Lower `priority` is placed first and keeps its spot.
    pub fn push(&mut self, priority: u8, point: Pos2, offset: Vec2, text: String, color: Color32) {
        self.wanted.push((priority, point, offset, text, color));
    }

    pub fn paint(mut self, painter: &egui::Painter, bounds: Rect) {
        self.wanted.sort_by_key(|w| w.0);
        let galleys: Vec<_> = self
            .wanted
            .iter()
            .map(|(_, _, _, text, color)| {
                painter.layout_no_wrap(text.clone(), FontId::proportional(12.0), *color)
            })
            .collect();
        let rects: Vec<Rect> = self
            .wanted
            .iter()
            .zip(&galleys)
            .map(|((_, point, offset, _, _), g)| {
                Rect::from_min_size(*point + *offset, g.size()).expand(2.0)
            })
            .collect();
        let placed = place_labels(&rects, bounds);
        for (((r, want), galley), (_, point, _, _, color)) in
            placed.iter().zip(&rects).zip(galleys).zip(&self.wanted)
        {
            if r != want {
                let end = if r.center().y < point.y {
                    r.center_bottom()
                } else {
                    r.center_top()
                };
                painter.line_segment([*point, end], Stroke::new(1.0, color.gamma_multiply(0.7)));
            }
            painter.rect_filled(*r, 2.0, Color32::from_black_alpha(110));
            painter.galley(r.min + Vec2::splat(2.0), galley, *color);
        }
    }
}

//! The separating-axis inspector (the thesis' Fig. 2.3): for the step's box pair, each box's
//! shadow on an axis is an interval `[c·L − r, c·L + r]` with `r = Σ hᵢ |Aᵢ·L|`; the boxes are
//! apart on that axis when the intervals are. The engine stops at the first separating axis in
//! RAPID's order and records its index: that axis is drawn large, the 15 are listed below it,
//! those after it greyed as never tried.

use super::palette;
use crate::bvh::sat_obb::{SAT_AXIS_NAMES, sat_axis_direction};
use crate::geom::{Obb, Vec3};
use egui::{Color32, Pos2, Rect, Sense, Stroke, Ui, Vec2};

/// One of the 15 axes with both boxes' shadows on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisRow {
    pub index: u8,
    /// `None` for an edge × edge axis of parallel edges (no direction: the test skips it).
    pub a: Option<(f64, f64)>,
    pub b: Option<(f64, f64)>,
}

impl AxisRow {
    /// The gap between the shadows (negative: they overlap by that much).
    pub fn gap(&self) -> Option<f64> {
        let ((a0, a1), (b0, b1)) = (self.a?, self.b?);
        Some((b0 - a1).max(a0 - b1))
    }

    pub fn name(&self) -> &'static str {
        SAT_AXIS_NAMES
            .get(self.index as usize)
            .copied()
            .unwrap_or("?")
    }
}

/// A box's shadow on a unit direction.
pub fn shadow(b: &Obb, l: &Vec3) -> (f64, f64) {
    let c = b.center.coords.dot(l);
    let r: f64 = (0..3)
        .map(|i| b.half_extents[i] * b.axes.column(i).dot(l).abs())
        .sum();
    (c - r, c + r)
}

/// The 15 axes in the engine's order with both shadows.
pub fn axes(a: &Obb, b: &Obb) -> Vec<AxisRow> {
    (0..15u8)
        .map(|index| {
            let d = sat_axis_direction(a, b, index);
            // Unit axes: parallel edges give a cross product of rounding size, no axis.
            match d.try_normalize(1e-9) {
                Some(l) => AxisRow {
                    index,
                    a: Some(shadow(a, &l)),
                    b: Some(shadow(b, &l)),
                },
                None => AxisRow {
                    index,
                    a: None,
                    b: None,
                },
            }
        })
        .collect()
}

/// The inspector for one box pair and its recorded verdict.
pub fn show(ui: &mut Ui, a: &Obb, b: &Obb, recorded: Option<u8>) {
    let rows = axes(a, b);
    match recorded {
        Some(k) => {
            let Some(row) = rows.get(k as usize) else {
                return;
            };
            ui.label(format!(
                "Separated on {}: the engine tried {} of the 15 axes and stopped at this one.",
                super::describe::axis_words(k),
                k + 1
            ));
            big(ui, row);
            if row.gap().is_some_and(|g| g < -1e-9 * scale(a, b)) {
                ui.colored_label(
                    palette::egui(crate::app::views::colors::WARNING),
                    "These shadows overlap: the recorded axis does not separate the boxes \
                     rebuilt here (a defect in the view or the recording).",
                );
            }
        }
        None => {
            ui.label(
                "Overlap: on every one of the 15 axes the two shadows overlap, so no plane \
                 separates the boxes. The tightest axis:",
            );
            if let Some(row) = rows
                .iter()
                .filter(|r| r.gap().is_some())
                .max_by(|x, y| x.gap().unwrap_or(0.0).total_cmp(&y.gap().unwrap_or(0.0)))
            {
                big(ui, row);
            }
        }
    }
    egui::CollapsingHeader::new("All 15 axes")
        .id_salt("nurbs-sat-all")
        .default_open(true)
        .show(ui, |ui| {
            for row in &rows {
                let tried = recorded.is_none_or(|k| row.index <= k);
                small(ui, row, tried, recorded == Some(row.index));
            }
            ui.label(
                egui::RichText::new(
                    "Order: A's face normals and B's as RAPID interleaves them, then the nine \
                     edge × edge axes. Grey: not tried (the test stops at the first gap).",
                )
                .small(),
            );
        });
}

fn scale(a: &Obb, b: &Obb) -> f64 {
    (a.half_extents.norm() + b.half_extents.norm()).max(1e-300)
}

fn with_alpha(c: Color32, alpha: f32) -> Color32 {
    c.gamma_multiply(alpha)
}

/// One axis drawn large: the line, A's shadow above it, B's below, the gap between.
fn big(ui: &mut Ui, row: &AxisRow) {
    let (Some(a), Some(b)) = (row.a, row.b) else {
        ui.label("(parallel edges: this axis has no direction)");
        return;
    };
    let width = ui.available_width().min(420.0);
    let (rect, response) = ui.allocate_exact_size(Vec2::new(width, 62.0), Sense::hover());
    let gap = row.gap().unwrap_or(0.0);
    let label = format!(
        "axis {}: A [{:.4}, {:.4}], B [{:.4}, {:.4}], {} {:.4}",
        row.name(),
        a.0,
        a.1,
        b.0,
        b.1,
        if gap > 0.0 { "gap" } else { "overlap" },
        gap.abs()
    );
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    let inner = rect.shrink2(Vec2::new(10.0, 6.0));
    let x = scaler(inner, a, b);
    let mid = inner.center().y;
    let text = ui.visuals().text_color();
    painter.line_segment(
        [Pos2::new(inner.left(), mid), Pos2::new(inner.right(), mid)],
        Stroke::new(1.0, with_alpha(text, 0.6)),
    );
    let font = egui::FontId::proportional(10.0);
    for (iv, color, up, name) in [(a, palette::A, true, "A"), (b, palette::B, false, "B")] {
        let c = palette::egui(color);
        let y = if up { mid - 9.0 } else { mid + 9.0 };
        painter.line_segment(
            [Pos2::new(x(iv.0), y), Pos2::new(x(iv.1), y)],
            Stroke::new(6.0, c),
        );
        for e in [iv.0, iv.1] {
            painter.line_segment(
                [Pos2::new(x(e), mid - 3.0), Pos2::new(x(e), mid + 3.0)],
                Stroke::new(1.0, c),
            );
        }
        let ty = if up { inner.top() } else { inner.bottom() };
        let align = if up {
            egui::Align2::CENTER_TOP
        } else {
            egui::Align2::CENTER_BOTTOM
        };
        painter.text(
            Pos2::new((x(iv.0) + x(iv.1)) / 2.0, ty),
            align,
            format!("{name} [{:.3}, {:.3}]", iv.0, iv.1),
            font.clone(),
            c,
        );
    }
    if gap > 0.0 {
        let (l, r) = if a.1 < b.0 { (a.1, b.0) } else { (b.1, a.0) };
        let warn = palette::egui(palette::HIT);
        painter.line_segment(
            [Pos2::new(x(l), mid), Pos2::new(x(r), mid)],
            Stroke::new(3.0, warn),
        );
    }
    response.on_hover_text(label);
}

/// Maps axis coordinates into the rectangle, the union of both shadows filling it.
fn scaler(inner: Rect, a: (f64, f64), b: (f64, f64)) -> impl Fn(f64) -> f32 {
    let lo = a.0.min(b.0);
    let hi = a.1.max(b.1);
    let span = (hi - lo).max(1e-300);
    let (lo, span) = (lo - 0.05 * span, span * 1.1);
    move |t: f64| inner.left() + (((t - lo) / span) as f32) * inner.width()
}

/// One axis as a row: its name, the two shadows small, and the gap or overlap.
fn small(ui: &mut Ui, row: &AxisRow, tried: bool, separating: bool) {
    ui.horizontal(|ui| {
        let name = egui::RichText::new(format!("{:<6}", row.name())).monospace();
        let name = if separating { name.strong() } else { name };
        ui.label(if tried { name } else { name.weak() });
        let (rect, _) = ui.allocate_exact_size(Vec2::new(120.0, 14.0), Sense::hover());
        let painter = ui.painter_at(rect);
        let fade = if tried { 1.0 } else { 0.3 };
        if let (Some(a), Some(b)) = (row.a, row.b) {
            let x = scaler(rect.shrink2(Vec2::new(2.0, 0.0)), a, b);
            for (iv, color, y) in [
                (a, palette::A, rect.top() + 4.0),
                (b, palette::B, rect.bottom() - 4.0),
            ] {
                painter.line_segment(
                    [Pos2::new(x(iv.0), y), Pos2::new(x(iv.1), y)],
                    Stroke::new(4.0, with_alpha(palette::egui(color), fade)),
                );
            }
        }
        let words = match row.gap() {
            None => "parallel edges".to_string(),
            Some(g) if g > 0.0 => format!("gap {g:.4}"),
            Some(g) => format!("overlap {:.4}", -g),
        };
        let words = egui::RichText::new(words).small();
        ui.label(if tried { words } else { words.weak() });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bvh::sat_obb::obb_separating_axis;
    use crate::geom::{Mat3, Point3};

    fn boxed(c: [f64; 3], h: [f64; 3], turn: [f64; 3]) -> Obb {
        Obb {
            center: Point3::from(c),
            axes: *nalgebra::Rotation3::new(Vec3::from(turn)).matrix(),
            half_extents: Vec3::from(h),
        }
    }

    /// The recorded axis shows a positive gap, and overlapping boxes show none anywhere:
    /// the view's shadows agree with the engine's test.
    #[test]
    fn shadows_agree_with_the_engines_verdict() {
        let a = boxed([0.0; 3], [1.0, 0.5, 0.2], [0.1, 0.2, 0.3]);
        for (c, turn) in [
            ([2.5, 0.0, 0.0], [0.0, 0.0, 0.0]),
            ([1.2, 1.1, 0.3], [0.5, -0.2, 0.9]),
            ([0.3, 0.2, 0.1], [0.3, 0.3, 0.3]),
            ([0.0, 0.0, 0.75], [0.0, 0.0, 0.0]),
        ] {
            let b = boxed(c, [0.4, 0.4, 0.4], turn);
            let rows = axes(&a, &b);
            assert_eq!(rows.len(), 15);
            match obb_separating_axis(&a, &b, 0.0) {
                Some(k) => {
                    let g = rows[k as usize].gap().expect("an axis");
                    assert!(g > 0.0, "axis {k} gap {g}");
                }
                None => {
                    for r in &rows {
                        assert!(r.gap().is_none_or(|g| g <= 1e-12), "{r:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn parallel_edges_give_no_axis() {
        let a = Obb {
            center: Point3::origin(),
            axes: Mat3::identity(),
            half_extents: Vec3::new(1.0, 1.0, 1.0),
        };
        let rows = axes(&a, &a);
        // A0×B0 of two aligned boxes: parallel edges.
        assert!(rows[6].a.is_none());
        assert_eq!(rows[0].gap(), Some(-2.0));
    }
}

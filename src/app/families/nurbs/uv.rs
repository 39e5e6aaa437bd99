//! The parameter-space panels: for each surface of the query, its whole (u, v) domain as a
//! square with every sub-patch the query tested drawn as its exact rectangle, coloured by what
//! became of it (separated, still overlapping, hit), and the step's rectangle outlined. This
//! is the thesis' Algorithm 2.4 output made visible: where on each surface the contact is.

use super::geometry::FrameGeometry;
use super::palette;
use crate::nurbs::PatchPath;
use egui::{Color32, Pos2, Rect, Sense, Stroke, StrokeKind, Ui, Vec2};
use std::collections::HashMap;

/// What became of a sub-patch over the query, the strongest outcome kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fate {
    /// Every test of its box found a separating axis.
    Separated,
    /// Its box overlapped the other one at least once (it was split or went on).
    Overlapped,
    /// It is a leaf of a hit.
    Hit,
}

/// One rectangle to draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatchRect {
    pub path: PatchPath,
    pub rect: [f64; 4],
    pub fate: Fate,
}

/// The sub-patches of one side (A: `a_side`) tested in query `q`, shallowest first.
pub fn patches(g: &mut FrameGeometry, q: usize, a_side: bool) -> Vec<PatchRect> {
    let Some(query) = g.queries.get(q) else {
        return Vec::new();
    };
    let id = if a_side {
        query.surface_a
    } else {
        query.surface_b
    };
    let mut fates: HashMap<PatchPath, Fate> = HashMap::new();
    for t in &query.tests {
        let path = if a_side { t.path_a } else { t.path_b };
        let fate = if t.hit.is_some() {
            Fate::Hit
        } else if t.separated() {
            Fate::Separated
        } else {
            Fate::Overlapped
        };
        let e = fates.entry(path).or_insert(fate);
        *e = (*e).max(fate);
    }
    let mut out: Vec<PatchRect> = fates
        .into_iter()
        .filter_map(|(path, fate)| {
            let rect = g.piece(id, path)?.rect;
            Some(PatchRect { path, rect, fate })
        })
        .collect();
    out.sort_by_key(|p| (p.path.depth, p.fate, p.path.bits));
    out
}

/// Both panels side by side, with the step's sub-patches (`current`, A then B) outlined.
pub fn show(ui: &mut Ui, g: &mut FrameGeometry, q: usize, current: Option<(PatchPath, PatchPath)>) {
    let Some(query) = g.queries.get(q) else {
        return;
    };
    let ids = [query.surface_a, query.surface_b];
    let gap = ui.spacing().item_spacing.x * 2.0;
    let side = ((ui.available_width() - gap) / 2.0).clamp(90.0, 260.0);
    ui.horizontal_top(|ui| {
        for (k, id) in ids.into_iter().enumerate() {
            let a_side = k == 0;
            let list = patches(g, q, a_side);
            let domain = g.domain(id).unwrap_or([0.0, 1.0, 0.0, 1.0]);
            let name = g.name(id);
            let here = current.map(|(pa, pb)| if a_side { pa } else { pb });
            let here_rect = here.and_then(|p| g.piece(id, p).map(|x| x.rect));
            let curve: Vec<[[f64; 2]; 2]> = g.queries.get(q).map_or_else(Vec::new, |query| {
                let side = |s: &super::queries::CurveSegment| if a_side { s.uv_a } else { s.uv_b };
                query.segments.iter().map(side).collect()
            });
            ui.vertical(|ui| {
                ui.set_width(side);
                let letter = if a_side { "A" } else { "B" };
                ui.label(
                    egui::RichText::new(format!("{letter}: {name}"))
                        .color(palette::egui(palette::side(a_side)))
                        .small(),
                );
                square(ui, side, domain, (&list, &curve), here_rect, a_side, letter);
                let hits = list.iter().filter(|p| p.fate == Fate::Hit).count();
                ui.label(
                    egui::RichText::new(format!("{} sub-patches tested · {hits} hit", list.len()))
                        .small(),
                );
            });
        }
    });
}

/// Maps a parameter rectangle into the square (v upwards).
fn to_screen(square: Rect, domain: [f64; 4], r: [f64; 4]) -> Rect {
    let (du, dv) = (
        (domain[1] - domain[0]).max(1e-300),
        (domain[3] - domain[2]).max(1e-300),
    );
    let x = |u: f64| square.left() + (((u - domain[0]) / du) as f32) * square.width();
    let y = |v: f64| square.bottom() - (((v - domain[2]) / dv) as f32) * square.height();
    Rect::from_min_max(Pos2::new(x(r[0]), y(r[3])), Pos2::new(x(r[1]), y(r[2])))
}

fn square(
    ui: &mut Ui,
    side: f32,
    domain: [f64; 4],
    (list, curve): (&[PatchRect], &[[[f64; 2]; 2]]),
    here: Option<[f64; 4]>,
    a_side: bool,
    letter: &str,
) {
    let (outer, response) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let hits = list.iter().filter(|p| p.fate == Fate::Hit).count();
    let text = format!(
        "parameter space of {letter}: {} sub-patches, {hits} hit{}",
        list.len(),
        if here.is_some() {
            ", this step outlined"
        } else {
            ""
        }
    );
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &text));
    let painter = ui.painter_at(outer);
    let sq = outer
        .shrink2(Vec2::new(14.0, 12.0))
        .translate(Vec2::new(6.0, -4.0));
    painter.rect_filled(sq, 0.0, ui.visuals().extreme_bg_color);
    let col = palette::side(a_side);
    let tint = |alpha: u8| {
        let c = palette::egui(col);
        Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), alpha)
    };
    let grey = palette::egui(palette::SEPARATED).gamma_multiply(0.55);
    for p in list {
        let r = to_screen(sq, domain, p.rect);
        match p.fate {
            Fate::Separated => {
                painter.rect_stroke(r, 0.0, Stroke::new(0.8, grey), StrokeKind::Inside);
            }
            Fate::Overlapped => {
                painter.rect_filled(r, 0.0, tint(38));
                painter.rect_stroke(r, 0.0, Stroke::new(0.8, tint(160)), StrokeKind::Inside);
            }
            Fate::Hit => {}
        }
    }
    // Hits last and never smaller than a dot: a leaf at depth 20 is a fraction of a pixel.
    let hit = palette::egui(palette::HIT);
    for p in list.iter().filter(|p| p.fate == Fate::Hit) {
        let r = to_screen(sq, domain, p.rect);
        painter.rect_filled(r, 0.0, hit);
        if r.width().min(r.height()) < 6.0 {
            painter.circle_stroke(r.center(), 5.0, Stroke::new(2.0, hit));
        }
    }
    // The intersection curve over the hits: each segment's ends in this surface's (u, v).
    let green = palette::egui(palette::CURVE);
    for [e0, e1] in curve {
        let a = to_screen(sq, domain, [e0[0], e0[0], e0[1], e0[1]]).min;
        let b = to_screen(sq, domain, [e1[0], e1[0], e1[1], e1[1]]).min;
        painter.line_segment([a, b], Stroke::new(2.0, green));
    }
    if let Some(h) = here {
        let r = to_screen(sq, domain, h);
        let white = palette::egui(palette::CURRENT);
        painter.rect_filled(r, 0.0, tint(120));
        painter.rect_stroke(r, 0.0, Stroke::new(2.0, white), StrokeKind::Outside);
        if r.width().min(r.height()) < 6.0 {
            painter.circle_stroke(r.center(), 8.0, Stroke::new(1.5, white));
        }
    }
    painter.rect_stroke(
        sq,
        0.0,
        Stroke::new(1.0, ui.visuals().text_color()),
        StrokeKind::Outside,
    );
    let small = egui::FontId::proportional(10.0);
    let text_col = ui.visuals().weak_text_color();
    painter.text(
        Pos2::new(sq.center().x, sq.bottom() + 1.0),
        egui::Align2::CENTER_TOP,
        "u →",
        small.clone(),
        text_col,
    );
    painter.text(
        Pos2::new(sq.left() - 2.0, sq.center().y),
        egui::Align2::RIGHT_CENTER,
        "v",
        small,
        text_col,
    );
    if let Some(pos) = response.hover_pos()
        && sq.contains(pos)
    {
        let u = domain[0] + (domain[1] - domain[0]) * ((pos.x - sq.left()) / sq.width()) as f64;
        let v = domain[2] + (domain[3] - domain[2]) * ((sq.bottom() - pos.y) / sq.height()) as f64;
        response.on_hover_text(format!("u = {u:.4}, v = {v:.4}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangles_map_with_v_upwards() {
        let sq = Rect::from_min_size(Pos2::new(10.0, 20.0), Vec2::splat(100.0));
        let r = to_screen(sq, [0.0, 2.0, 0.0, 1.0], [0.0, 1.0, 0.5, 1.0]);
        assert_eq!(r.min, Pos2::new(10.0, 20.0));
        assert_eq!(r.max, Pos2::new(60.0, 70.0));
        // The order of fates keeps the strongest outcome.
        assert!(Fate::Hit > Fate::Overlapped && Fate::Overlapped > Fate::Separated);
    }
}

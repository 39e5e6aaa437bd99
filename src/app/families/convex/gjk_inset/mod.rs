//! The GJK inset: the Minkowski difference A − B seen from a tilted camera (drag to turn
//! it), with the origin marked. The bodies overlap exactly when the origin is inside A − B,
//! and they are apart by its distance to it; GJK closes in on that with a simplex of one to
//! four points of A − B. Drawn: the step's simplex (filled), the one it came from (faint), the
//! search direction from the origin, the support point just added, the nearest point v with
//! |v|; for EPA, the polytope grown so far, its face nearest the origin and that face's normal.
//!
//! - `step_shapes`: what a step draws; `projection`: the tilted camera;
//! - `paint`: the drawing, back to front; `labels`: the labels, laid out together.

mod labels;
mod paint;
mod projection;
mod step_shapes;

use super::current::Current;
use super::gjk_steps::Step;
use crate::geom::{ConvexPolyhedron, Real};
use egui::{Color32, Sense, Ui, Vec2};
use labels::Labels;
use paint::Canvas;
use projection::{PITCH, Projection};
use step_shapes::StepShapes;

/// What the inset shows in words, for the accessibility tree (and the tests).
pub fn describe(current: &Current) -> String {
    match current.gjk.step(current.gjk_position) {
        Step::Iteration(it) => format!(
            "GJK inset: iteration {}, simplex of {} point(s) ({}), |v| = {:.4}, origin marked",
            it.number,
            it.after.len(),
            simplex_word(it.after.len()),
            it.distance
        ),
        Step::Expansion(ex) => format!(
            "GJK inset: EPA expansion {}, polytope of {} point(s), nearest face at depth {:.4}, origin marked",
            ex.number,
            ex.polytope.len() + 1,
            ex.depth
        ),
        Step::End => format!(
            "GJK inset: the end, final simplex of {} point(s), origin marked",
            current.gjk.final_simplex().len()
        ),
    }
}

pub fn simplex_word(n: usize) -> &'static str {
    match n {
        1 => "a point",
        2 => "a segment",
        3 => "a triangle",
        _ => "a tetrahedron",
    }
}

/// Draws the inset `height` points tall across the panel; `turn` is changed by dragging.
/// `difference` is the hull of A − B when it was small enough to build.
pub fn show(
    ui: &mut Ui,
    current: &Current,
    difference: Option<&ConvexPolyhedron>,
    turn: &mut [f32; 2],
    height: f32,
) {
    let width = ui.available_width().clamp(200.0, 520.0);
    let (rect, response) = ui.allocate_exact_size(Vec2::new(width, height), Sense::drag());
    let text = describe(current);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, text.clone()));
    if response.dragged() {
        let d = response.drag_delta();
        turn[0] += d.x * 0.01;
        turn[1] = (turn[1] + d.y * 0.01).clamp(-1.4 - PITCH, 1.4 - PITCH);
    }
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 4.0, Color32::from_gray(18));
    let shapes = StepShapes::of(current);
    let mut points = shapes.framed(difference);
    // The search arrow's length, from the extent of what is drawn; its tip is framed too.
    let extent = points.iter().map(|p| p.norm()).fold(1e-6, Real::max);
    let arrow = shapes
        .direction
        .and_then(|d| d.try_normalize(1e-300))
        .map(|d| d * (extent * 0.35));
    points.extend(arrow);
    let (proj, size) = Projection::fit(rect, *turn, &points);
    let mut canvas = Canvas {
        painter,
        proj,
        labels: Labels::default(),
    };
    if let Some(h) = difference {
        canvas.difference(h);
    }
    canvas.axes(size);
    canvas.polytope(&shapes.polytope);
    if let Some((face, normal, depth)) = shapes.epa_face {
        canvas.epa_face(face, normal, depth);
    }
    canvas.simplices(&shapes.before, &shapes.after);
    if let Some(tip) = arrow {
        canvas.search(tip);
    }
    if let Some(w) = &shapes.added {
        canvas.support(w);
    }
    if let Some(v) = shapes.nearest
        && !shapes.penetrating
    {
        canvas.nearest(v);
    }
    canvas.origin();
    canvas.finish(rect);
}

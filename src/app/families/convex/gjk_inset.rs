//! The GJK inset: the Minkowski difference A − B seen from a tilted camera (drag to turn
//! it), with the origin marked. The bodies overlap exactly when the origin is inside A − B,
//! and they are apart by its distance to it; GJK closes in on that with a simplex of one to
//! four points of A − B. Drawn: the step's simplex (filled), the one it came from (faint), the
//! search direction from the origin, the support point just added, the nearest point v with
//! |v|; for EPA, the polytope grown so far, its face nearest the origin and that face's normal.

use super::current::Current;
use super::gjk_steps::Step;
use super::palette;
use crate::app::views::colors::{self, with_alpha};
use crate::convex::gjk::simplex::SimplexVertex;
use crate::geom::{ConvexPolyhedron, Point3, Real, Vec3};
use crate::app::viewport::label_layout::place_labels;
use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, Ui, Vec2};

/// The default tilt: a little from the side and from above, so that a tetrahedron reads as
/// one.
const YAW: f32 = 0.6;
const PITCH: f32 = 0.4;

/// A step's simplex before and after, the point added, the search direction, and v.
type Drawn = (
    Vec<SimplexVertex>,
    Vec<SimplexVertex>,
    Option<SimplexVertex>,
    Option<Vec3>,
    Option<Vec3>,
);

struct Projection {
    yaw: Real,
    pitch: Real,
    scale: f32,
    centre: Pos2,
    mid: (f32, f32),
}

impl Projection {
    fn turn(&self, p: &Vec3) -> (f32, f32) {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        let x = cy * p.x + sy * p.z;
        let z = -sy * p.x + cy * p.z;
        let y = cp * p.y - sp * z;
        (x as f32, -y as f32)
    }

    fn at(&self, p: &Vec3) -> Pos2 {
        let (x, y) = self.turn(p);
        self.centre + Vec2::new(x - self.mid.0, y - self.mid.1) * self.scale
    }
}

fn c(rgba: [f32; 4]) -> Color32 {
    colors::egui(rgba)
}

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
    let mut labels = Labels::default();
    painter.rect_filled(rect, 4.0, Color32::from_gray(18));
    let steps = &current.gjk;
    let step = steps.step(current.gjk_position);

    // What this step draws, as points of A − B.
    let (before, after, added, direction, nearest): Drawn = match &step {
        Step::Iteration(it) => (
            it.before.clone(),
            it.after.clone(),
            it.added,
            Some(it.direction),
            Some(it.nearest),
        ),
        Step::Expansion(_) => (Vec::new(), steps.final_simplex(), None, None, None),
        Step::End => {
            let last = steps.final_simplex();
            let v = steps.iterations.last().map(|it| it.nearest);
            (Vec::new(), last, None, None, v)
        }
    };
    let polytope: Vec<Vec3> = match &step {
        Step::Expansion(ex) => ex
            .polytope
            .iter()
            .map(|v| v.w)
            .chain(std::iter::once(ex.added.w))
            .collect(),
        Step::End if !steps.expansions.is_empty() => {
            let mut all: Vec<Vec3> = steps
                .expansions
                .last()
                .map(|ex| ex.polytope.iter().map(|v| v.w).collect())
                .unwrap_or_default();
            all.extend(steps.expansions.iter().map(|ex| ex.added.w));
            all
        }
        _ => Vec::new(),
    };

    // Frame A − B and the origin.
    let mut pts: Vec<Vec3> = vec![Vec3::zeros()];
    match difference {
        Some(h) => pts.extend(h.vertices.iter().map(|p| p.coords)),
        None => pts.extend(before.iter().chain(&after).map(|v| v.w)),
    }
    pts.extend(polytope.iter().copied());
    // The search arrow's length, from the extent of what is drawn; its tip is framed too.
    let extent = pts.iter().map(|p| p.norm()).fold(1e-6, Real::max);
    let arrow = direction
        .and_then(|d| d.try_normalize(1e-300))
        .map(|d| d * (extent * 0.35));
    pts.extend(arrow);
    let mut proj = Projection {
        yaw: (YAW + turn[0]) as Real,
        pitch: (PITCH + turn[1]) as Real,
        scale: 1.0,
        centre: rect.center() + Vec2::new(0.0, 8.0),
        mid: (0.0, 0.0),
    };
    let (mut lo, mut hi) = ((f32::MAX, f32::MAX), (f32::MIN, f32::MIN));
    for p in &pts {
        let (x, y) = proj.turn(p);
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    }
    let (dx, dy) = ((hi.0 - lo.0).max(1e-6), (hi.1 - lo.1).max(1e-6));
    proj.scale = ((rect.width() - 80.0) / dx).min((rect.height() - 70.0) / dy);
    proj.mid = ((lo.0 + hi.0) / 2.0, (lo.1 + hi.1) / 2.0);
    let size = dx.max(dy) as Real;

    // A − B itself, faint: its edges, or its points.
    if let Some(h) = difference {
        for e in &h.edges {
            let (p, q) = (h.vertices[e[0] as usize], h.vertices[e[1] as usize]);
            painter.line_segment(
                [proj.at(&p.coords), proj.at(&q.coords)],
                Stroke::new(1.0, Color32::from_gray(80)),
            );
        }
    }
    // Axes at the origin, for the tilt.
    let axis = size * 0.12;
    for (k, col) in [
        Color32::from_rgb(170, 70, 70),
        Color32::from_rgb(70, 160, 70),
        Color32::from_rgb(70, 90, 190),
    ]
    .into_iter()
    .enumerate()
    {
        let mut u = Vec3::zeros();
        u[k] = axis;
        painter.line_segment(
            [proj.at(&Vec3::zeros()), proj.at(&u)],
            Stroke::new(1.0, col),
        );
    }

    // EPA's polytope: its hull, the face nearest the origin, the normal to it.
    if polytope.len() >= 4 {
        let points: Vec<Point3> = polytope.iter().map(|w| Point3::from(*w)).collect();
        if let Ok(h) = ConvexPolyhedron::hull(&points) {
            for f in &h.faces {
                let poly: Vec<Pos2> = f
                    .iter()
                    .map(|&i| proj.at(&h.vertices[i as usize].coords))
                    .collect();
                painter.add(Shape::closed_line(
                    poly,
                    Stroke::new(1.0, c(with_alpha(palette::OVERLAP, 0.7))),
                ));
            }
        }
    }
    let epa_face: Option<(Option<[Vec3; 3]>, Vec3, Real)> = match &step {
        Step::Expansion(ex) => Some((Some(ex.face.map(|v| v.w)), ex.normal, ex.depth)),
        Step::End => steps.answer.epa.map(|e| (None, e.normal, e.depth)),
        _ => None,
    };
    if let Some((face, normal, depth)) = epa_face {
        if let Some(face) = face {
            let tri: Vec<Pos2> = face.iter().map(|w| proj.at(w)).collect();
            painter.add(Shape::convex_polygon(
                tri,
                c(with_alpha(palette::OVERLAP, 0.35)),
                Stroke::new(2.0, c(palette::OVERLAP)),
            ));
        }
        let foot = normal * depth;
        painter.line_segment(
            [proj.at(&Vec3::zeros()), proj.at(&foot)],
            Stroke::new(3.0, c(palette::OVERLAP)),
        );
        painter.circle_filled(proj.at(&foot), 4.0, c(palette::OVERLAP));
        labels.push(
            1,
            proj.at(&foot),
            Vec2::new(8.0, 10.0),
            format!("depth {depth:.4}"),
            c(palette::OVERLAP),
        );
    }

    // The simplex it came from, faint; the new one, filled.
    draw_simplex(&painter, &proj, &before, c(palette::GHOST), false);
    draw_simplex(&painter, &proj, &after, c(palette::SIMPLEX), true);
    for (k, v) in after.iter().enumerate() {
        labels.push(
            4,
            proj.at(&v.w),
            Vec2::new(6.0, -12.0),
            format!("w{k}"),
            c(palette::SIMPLEX),
        );
    }

    // The search direction, from the origin.
    if let Some(tip) = arrow {
        let from = proj.at(&Vec3::zeros());
        painter.arrow(
            from,
            proj.at(&tip) - from,
            Stroke::new(2.0, c(palette::SEARCH)),
        );
        labels.push(
            3,
            proj.at(&tip),
            Vec2::new(4.0, 4.0),
            "search −v".into(),
            c(palette::SEARCH),
        );
    }
    let added_w = match &step {
        Step::Expansion(ex) => Some(ex.added),
        _ => added,
    };
    if let Some(w) = added_w {
        let at = proj.at(&w.w);
        painter.circle_stroke(at, 8.0, Stroke::new(2.5, c(palette::SUPPORT)));
        labels.push(
            0,
            at,
            Vec2::new(10.0, 2.0),
            "new support point".into(),
            c(palette::SUPPORT),
        );
    }
    // v, the simplex's point nearest the origin: |v| is the distance so far.
    if let Some(v) = nearest
        && !steps.penetrating()
    {
        let (o, p) = (proj.at(&Vec3::zeros()), proj.at(&v));
        painter.extend(Shape::dashed_line(
            &[o, p],
            Stroke::new(2.0, c(palette::CLOSEST)),
            6.0,
            4.0,
        ));
        painter.circle_filled(p, 4.5, c(palette::CLOSEST));
        labels.push(
            1,
            o + (p - o) * 0.5,
            Vec2::new(-20.0, 10.0),
            format!("|v| = {:.4}", v.norm()),
            c(palette::CLOSEST),
        );
        labels.push(
            4,
            p,
            Vec2::new(-14.0, -16.0),
            "v".into(),
            c(palette::CLOSEST),
        );
    }

    // The origin, on top of everything.
    let o = proj.at(&Vec3::zeros());
    let white = c(palette::ORIGIN);
    painter.circle_stroke(o, 7.0, Stroke::new(2.0, white));
    painter.line_segment(
        [o - Vec2::X * 11.0, o + Vec2::X * 11.0],
        Stroke::new(1.5, white),
    );
    painter.line_segment(
        [o - Vec2::Y * 11.0, o + Vec2::Y * 11.0],
        Stroke::new(1.5, white),
    );
    labels.push(2, o, Vec2::new(-48.0, -20.0), "origin".into(), white);
    labels.paint(&painter, rect);

    painter.text(
        rect.left_top() + Vec2::new(8.0, 6.0),
        Align2::LEFT_TOP,
        "A − B (drag to turn) · inside it ⇔ the bodies overlap",
        FontId::proportional(12.0),
        Color32::from_gray(200),
    );
}

/// The inset's labels, laid out together at the end: points of A − B crowd each other (the
/// new support point sat on the EPA depth's label), so each label takes the nearest free slot
/// by priority, with a leader line back to its point when moved.
#[derive(Default)]
struct Labels {
    /// (priority, point, offset of the label's top left from it, text, colour)
    wanted: Vec<(u8, Pos2, Vec2, String, Color32)>,
}

impl Labels {
    /// Lower `priority` is placed first and keeps its spot.
    fn push(&mut self, priority: u8, point: Pos2, offset: Vec2, text: String, color: Color32) {
        self.wanted.push((priority, point, offset, text, color));
    }

    fn paint(mut self, painter: &egui::Painter, bounds: Rect) {
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

/// A simplex's points, edges and (for `fill`) its faces.
fn draw_simplex(
    painter: &egui::Painter,
    proj: &Projection,
    verts: &[SimplexVertex],
    color: Color32,
    fill: bool,
) {
    let at: Vec<Pos2> = verts.iter().map(|v| proj.at(&v.w)).collect();
    let faint = color.gamma_multiply(0.22);
    if fill && at.len() >= 3 {
        for i in 0..at.len() {
            for j in i + 1..at.len() {
                for k in j + 1..at.len() {
                    painter.add(Shape::convex_polygon(
                        vec![at[i], at[j], at[k]],
                        faint,
                        Stroke::NONE,
                    ));
                }
            }
        }
    }
    let width = if fill { 2.5 } else { 1.5 };
    for i in 0..at.len() {
        for j in i + 1..at.len() {
            painter.line_segment([at[i], at[j]], Stroke::new(width, color));
        }
    }
    for p in &at {
        painter.circle_filled(*p, if fill { 5.0 } else { 3.5 }, color);
    }
}

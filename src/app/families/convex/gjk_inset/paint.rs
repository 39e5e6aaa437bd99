//! Painting the inset, back to front: A − B, the axes, EPA's polytope and nearest face, the
//! simplices, the search direction, the support point added, v, and the origin on top.

use super::labels::Labels;
use super::projection::Projection;
use crate::app::families::convex::palette;
use crate::app::views::colors::{self, with_alpha};
use crate::convex::gjk::simplex::SimplexVertex;
use crate::geom::{ConvexPolyhedron, Point3, Real, Vec3};
use egui::{Align2, Color32, FontId, Pos2, Rect, Shape, Stroke, Vec2};

fn c(rgba: [f32; 4]) -> Color32 {
    colors::egui(rgba)
}

/// The inset's painter, its projection, and the labels gathered for the end.
pub struct Canvas {
    pub painter: egui::Painter,
    pub proj: Projection,
    pub labels: Labels,
}

impl Canvas {
    /// A − B itself, faint: its edges.
    pub fn difference(&self, h: &ConvexPolyhedron) {
        for e in &h.edges {
            let (p, q) = (h.vertices[e[0] as usize], h.vertices[e[1] as usize]);
            self.painter.line_segment(
                [self.proj.at(&p.coords), self.proj.at(&q.coords)],
                Stroke::new(1.0, Color32::from_gray(80)),
            );
        }
    }

    /// Axes at the origin, `size` long, for the tilt.
    pub fn axes(&self, size: Real) {
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
            self.painter.line_segment(
                [self.proj.at(&Vec3::zeros()), self.proj.at(&u)],
                Stroke::new(1.0, col),
            );
        }
    }

    /// EPA's polytope, as the outline of its hull's faces.
    pub fn polytope(&self, polytope: &[Vec3]) {
        if polytope.len() < 4 {
            return;
        }
        let points: Vec<Point3> = polytope.iter().map(|w| Point3::from(*w)).collect();
        if let Ok(h) = ConvexPolyhedron::hull(&points) {
            for f in &h.faces {
                let poly: Vec<Pos2> = f
                    .iter()
                    .map(|&i| self.proj.at(&h.vertices[i as usize].coords))
                    .collect();
                self.painter.add(Shape::closed_line(
                    poly,
                    Stroke::new(1.0, c(with_alpha(palette::OVERLAP, 0.7))),
                ));
            }
        }
    }

    /// EPA's face nearest the origin (filled, when known) and the normal to it, `depth` long.
    pub fn epa_face(&mut self, face: Option<[Vec3; 3]>, normal: Vec3, depth: Real) {
        let proj = &self.proj;
        if let Some(face) = face {
            let tri: Vec<Pos2> = face.iter().map(|w| proj.at(w)).collect();
            self.painter.add(Shape::convex_polygon(
                tri,
                c(with_alpha(palette::OVERLAP, 0.35)),
                Stroke::new(2.0, c(palette::OVERLAP)),
            ));
        }
        let foot = normal * depth;
        self.painter.line_segment(
            [proj.at(&Vec3::zeros()), proj.at(&foot)],
            Stroke::new(3.0, c(palette::OVERLAP)),
        );
        self.painter
            .circle_filled(proj.at(&foot), 4.0, c(palette::OVERLAP));
        self.labels.push(
            1,
            proj.at(&foot),
            Vec2::new(8.0, 10.0),
            format!("depth {depth:.4}"),
            c(palette::OVERLAP),
        );
    }

    /// The simplex the step came from, faint; the new one, filled, its points named.
    pub fn simplices(&mut self, before: &[SimplexVertex], after: &[SimplexVertex]) {
        draw_simplex(&self.painter, &self.proj, before, c(palette::GHOST), false);
        draw_simplex(&self.painter, &self.proj, after, c(palette::SIMPLEX), true);
        for (k, v) in after.iter().enumerate() {
            self.labels.push(
                4,
                self.proj.at(&v.w),
                Vec2::new(6.0, -12.0),
                format!("w{k}"),
                c(palette::SIMPLEX),
            );
        }
    }

    /// The search direction, from the origin to `tip`.
    pub fn search(&mut self, tip: Vec3) {
        let from = self.proj.at(&Vec3::zeros());
        self.painter.arrow(
            from,
            self.proj.at(&tip) - from,
            Stroke::new(2.0, c(palette::SEARCH)),
        );
        self.labels.push(
            3,
            self.proj.at(&tip),
            Vec2::new(4.0, 4.0),
            "search −v".into(),
            c(palette::SEARCH),
        );
    }

    /// The support point the step added, ringed.
    pub fn support(&mut self, w: &SimplexVertex) {
        let at = self.proj.at(&w.w);
        self.painter
            .circle_stroke(at, 8.0, Stroke::new(2.5, c(palette::SUPPORT)));
        self.labels.push(
            0,
            at,
            Vec2::new(10.0, 2.0),
            "new support point".into(),
            c(palette::SUPPORT),
        );
    }

    /// v, the simplex's point nearest the origin: |v| is the distance so far.
    pub fn nearest(&mut self, v: Vec3) {
        let (o, p) = (self.proj.at(&Vec3::zeros()), self.proj.at(&v));
        self.painter.extend(Shape::dashed_line(
            &[o, p],
            Stroke::new(2.0, c(palette::CLOSEST)),
            6.0,
            4.0,
        ));
        self.painter.circle_filled(p, 4.5, c(palette::CLOSEST));
        self.labels.push(
            1,
            o + (p - o) * 0.5,
            Vec2::new(-20.0, 10.0),
            format!("|v| = {:.4}", v.norm()),
            c(palette::CLOSEST),
        );
        self.labels.push(
            4,
            p,
            Vec2::new(-14.0, -16.0),
            "v".into(),
            c(palette::CLOSEST),
        );
    }

    /// The origin, on top of everything.
    pub fn origin(&mut self) {
        let o = self.proj.at(&Vec3::zeros());
        let white = c(palette::ORIGIN);
        self.painter.circle_stroke(o, 7.0, Stroke::new(2.0, white));
        self.painter.line_segment(
            [o - Vec2::X * 11.0, o + Vec2::X * 11.0],
            Stroke::new(1.5, white),
        );
        self.painter.line_segment(
            [o - Vec2::Y * 11.0, o + Vec2::Y * 11.0],
            Stroke::new(1.5, white),
        );
        self.labels
            .push(2, o, Vec2::new(-48.0, -20.0), "origin".into(), white);
    }

    /// The labels, laid out within `rect`, and the inset's title.
    pub fn finish(self, rect: Rect) {
        self.labels.paint(&self.painter, rect);
        self.painter.text(
            rect.left_top() + Vec2::new(8.0, 6.0),
            Align2::LEFT_TOP,
            "A − B (drag to turn) · inside it ⇔ the bodies overlap",
            FontId::proportional(12.0),
            Color32::from_gray(200),
        );
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

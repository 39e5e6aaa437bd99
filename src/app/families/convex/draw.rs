//! Drawing features, regions and closest points in the 3D view. A vertex is a big dot, an
//! edge a thick bar, a face a filled polygon lifted a hair off the body (so it never fights
//! the body's own face for depth); each labelled "A: V3" in its kind's colour.

use super::palette;
use super::region::Polygon;
use crate::app::viewport::draw_list::{DrawList, Label, Rgba, Style, to_f32};
use crate::app::views::colors::with_alpha;
use crate::convex::{Feature, Placed};
use crate::geom::{Point3, Real, Vec3};

/// Sizes in the scene's units, from the size of the bodies drawn.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    pub size: Real,
}

impl Scale {
    fn bar(&self) -> Real {
        self.size * 0.035
    }
    fn lift(&self) -> Real {
        self.size * 0.004
    }
}

pub fn label(list: &mut DrawList, at: &Point3, text: String, color: Rgba) {
    list.labels.push(Label {
        position: [at.x, at.y, at.z],
        text,
        color,
    });
}

/// A feature highlighted; `strong` for the current pair, faint for the one just left.
pub fn feature(list: &mut DrawList, p: &Placed, f: Feature, color: Rgba, strong: bool, s: Scale) {
    if !p.shape.contains(f) {
        return;
    }
    match f {
        Feature::Vertex(v) => {
            let at = p.vertex(v);
            list.point(&at, if strong { 18.0 } else { 11.0 }, color);
        }
        Feature::Edge(e) => {
            let seg = p.edge(e);
            if strong {
                list.bar(&seg.a, &seg.b, s.bar(), color);
            }
            list.line_on_top(to_f32(&seg.a), to_f32(&seg.b), color);
        }
        Feature::Face(fi) => {
            let lift = p.normal(fi) * s.lift();
            let fill = with_alpha(color, if strong { 0.75 } else { 0.3 });
            for t in p.face_triangles(fi) {
                let [a, b, c] = [t.a + lift, t.b + lift, t.c + lift];
                list.triangle([&a, &b, &c], fill, Style::Translucent);
            }
            let face = &p.shape.faces[fi as usize];
            for k in 0..face.len() {
                let a = p.vertex(face[k]) + lift;
                let b = p.vertex(face[(k + 1) % face.len()]) + lift;
                list.line_on_top(to_f32(&a), to_f32(&b), color);
            }
        }
    }
}

/// The closest points of the pair and the segment between them, its length written on it.
pub fn closest(list: &mut DrawList, x: &Point3, y: &Point3, s: Scale) {
    let c = palette::CLOSEST;
    list.point(x, 12.0, c);
    list.point(y, 12.0, c);
    let d = (y - x).norm();
    if d > 1e-12 {
        list.bar(x, y, s.bar() * 0.45, c);
        list.line_on_top(to_f32(x), to_f32(y), c);
    }
    label(list, &nalgebra::center(x, y), format!("distance {d:.4}"), c);
}

/// The part of an edge inside the region it was clipped against (`[lo, hi]` along it), the
/// rest drawn thin: where the clip cut is the point of the move.
/// `away` moves the label off the edge (the feature labels sit at the edge's middle).
pub fn clip(list: &mut DrawList, p: &Placed, edge: u32, [lo, hi]: [f32; 2], away: Vec3, s: Scale) {
    if !p.shape.contains(Feature::Edge(edge)) {
        return;
    }
    let seg = p.edge(edge);
    let (lo, hi) = (lo.clamp(0.0, 1.0) as Real, hi.clamp(0.0, 1.0) as Real);
    list.line_on_top(to_f32(&seg.a), to_f32(&seg.b), palette::GHOST);
    if hi >= lo {
        let (a, b) = (seg.at(lo), seg.at(hi));
        list.bar(&a, &b, s.bar() * 0.6, palette::CLIP);
        list.line_on_top(to_f32(&a), to_f32(&b), palette::CLIP);
        list.point(&a, 8.0, palette::CLIP);
        list.point(&b, 8.0, palette::CLIP);
        label(
            list,
            &(seg.at(lo + (hi - lo) * 0.85) + away),
            format!("clipped to [{lo:.2}, {hi:.2}]"),
            palette::CLIP,
        );
    } else {
        label(
            list,
            &(seg.at(0.85) + away),
            "clipped away".into(),
            palette::CLIP,
        );
    }
}

/// A bounded region: translucent faces and their outlines.
pub fn region(list: &mut DrawList, polys: &[Polygon], fill: Rgba, edge: Rgba) {
    for poly in polys {
        let Some(first) = poly.points.first() else {
            continue;
        };
        for i in 1..poly.points.len().saturating_sub(1) {
            list.triangle(
                [first, &poly.points[i], &poly.points[i + 1]],
                fill,
                Style::Translucent,
            );
        }
        for i in 0..poly.points.len() {
            let (a, b) = (poly.points[i], poly.points[(i + 1) % poly.points.len()]);
            list.line(to_f32(&a), to_f32(&b), edge);
        }
    }
}

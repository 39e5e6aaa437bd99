//! A penetrating pair in the 3D view: the overlap of the two bodies as a red translucent
//! volume (outlined through everything, since it lies inside both), the features V-Clip
//! proved the overlap with (an edge through a face: the point where it enters; a vertex
//! inside the other body), and EPA's way out: the depth along its normal between its two
//! witness points.

use super::current::Current;
use super::draw::{self, Scale};
use super::feature_word::kind_word;
use super::palette;
use super::region::{Polygon, overlap};
use crate::app::viewport::draw_list::{DrawList, Style, to_f32};
use crate::app::views::colors::with_alpha;
use crate::convex::{Feature, Outcome, Placed};
use crate::geom::Point3;

/// Whether the walk shown ended in penetration.
pub fn penetrating(current: &Current) -> bool {
    current
        .walk
        .end
        .as_ref()
        .is_some_and(|e| e.outcome == Outcome::Penetrating)
}

/// The point that proves the overlap and what it says: where an edge crosses a face, or the
/// vertex that lies inside the other body.
pub fn witness(current: &Current, pair: [Feature; 2]) -> Option<(Point3, String)> {
    let sides = [current.a.placed(), current.b.placed()];
    let names = ["A", "B"];
    for k in 0..2 {
        let (p, q) = (&sides[k], &sides[1 - k]);
        let (f, g) = (pair[k], pair[1 - k]);
        if !p.shape.contains(f) || !q.shape.contains(g) {
            continue;
        }
        match (f, g) {
            (Feature::Edge(e), Feature::Face(j)) => {
                let seg = p.edge(e);
                let (n, d) = q.face_plane(j);
                let (da, db) = (n.dot(&seg.a.coords) - d, n.dot(&seg.b.coords) - d);
                let t = if (da - db).abs() > 1e-300 {
                    (da / (da - db)).clamp(0.0, 1.0)
                } else {
                    0.5
                };
                return Some((
                    seg.at(t),
                    format!(
                        "{}'s edge {e} enters {}'s face {j} here",
                        names[k],
                        names[1 - k]
                    ),
                ));
            }
            (Feature::Vertex(v), Feature::Face(_)) => {
                return Some((
                    p.vertex(v),
                    format!("{}'s vertex {v} is inside {}", names[k], names[1 - k]),
                ));
            }
            _ => {}
        }
    }
    None
}

/// The words of the penetrating pair, for the panel: "A's E3 (edge) passes through B's F1
/// (face)", or a vertex inside the other body below one of its faces.
pub fn features_text(pair: [Feature; 2]) -> String {
    let names = ["A", "B"];
    // The side whose feature is not the face.
    let k = usize::from(!matches!(pair[1], Feature::Face(_)));
    let (f, g) = (pair[k], pair[1 - k]);
    let (p, q) = (names[k], names[1 - k]);
    match f {
        Feature::Edge(_) => format!("{p}'s {f} (edge) passes through {q}'s {g} (face)"),
        Feature::Vertex(_) => format!("{p}'s {f} (vertex) lies inside {q}, below its {g} (face)"),
        Feature::Face(_) => format!(
            "A's {} ({}) and B's {} ({})",
            pair[0],
            kind_word(pair[0]),
            pair[1],
            kind_word(pair[1])
        ),
    }
}

pub fn draw(current: &Current, list: &mut DrawList, s: Scale) {
    if !penetrating(current) {
        return;
    }
    let (a, b) = (current.a.placed(), current.b.placed());
    let polys = overlap(&a, &b);
    overlap_volume(list, &polys);
    if let Some(centre) = centre(&polys) {
        draw::label(
            list,
            &(centre + up(&a, &b) * 0.6 * s.size),
            "overlap of A and B".into(),
            palette::OVERLAP,
        );
    }
    if current.at_end()
        && let Some(end) = &current.walk.end
    {
        // The features are drawn by the walk's overlay; here they are drawn again through
        // the bodies, since the one inside is hidden by the other.
        for (k, f) in end.features.into_iter().enumerate() {
            let placed = if k == 0 { &a } else { &b };
            through(list, placed, f);
        }
        if let Some((at, text)) = witness(current, end.features) {
            list.point(&at, 20.0, palette::SUPPORT);
            draw::label(
                list,
                &(at - up(&a, &b) * 0.25 * s.size),
                text,
                palette::SUPPORT,
            );
        }
    }
    if let Some(e) = current.gjk.answer.epa {
        let (pa, pb) = (e.point_a, e.point_b);
        list.point(&pa, 10.0, palette::OVERLAP);
        list.point(&pb, 10.0, palette::OVERLAP);
        let way = e.normal * e.depth;
        list.arrow(&pb, &way, palette::OVERLAP);
        list.line_on_top(to_f32(&pb), to_f32(&(pb + way)), palette::OVERLAP);
        draw::label(
            list,
            &(pb + way * 0.5 + e.normal.cross(&up(&a, &b)) * 0.9 * s.size),
            format!(
                "EPA depth {:.4}, normal ({:.2}, {:.2}, {:.2})",
                e.depth, e.normal.x, e.normal.y, e.normal.z
            ),
            palette::OVERLAP,
        );
    }
}

/// The overlap's faces: a translucent fill and an outline seen through both bodies.
fn overlap_volume(list: &mut DrawList, polys: &[Polygon]) {
    let fill = with_alpha(palette::OVERLAP, 0.35);
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
            let (p, q) = (poly.points[i], poly.points[(i + 1) % poly.points.len()]);
            list.line_on_top(to_f32(&p), to_f32(&q), palette::OVERLAP);
        }
    }
}

fn centre(polys: &[Polygon]) -> Option<Point3> {
    let pts: Vec<&Point3> = polys.iter().flat_map(|p| &p.points).collect();
    if pts.is_empty() {
        return None;
    }
    let sum = pts.iter().map(|p| p.coords).sum::<crate::geom::Vec3>();
    Some(Point3::from(sum / pts.len() as f64))
}

/// A feature outlined on top of everything in its kind's colour.
fn through(list: &mut DrawList, p: &Placed, f: Feature) {
    if !p.shape.contains(f) {
        return;
    }
    let color = palette::kind(f.kind());
    match f {
        Feature::Vertex(v) => list.point(&p.vertex(v), 18.0, color),
        Feature::Edge(e) => {
            let seg = p.edge(e);
            list.line_on_top(to_f32(&seg.a), to_f32(&seg.b), color);
        }
        Feature::Face(j) => {
            let face = &p.shape.faces[j as usize];
            for k in 0..face.len() {
                let (x, y) = (p.vertex(face[k]), p.vertex(face[(k + 1) % face.len()]));
                list.line_on_top(to_f32(&x), to_f32(&y), color);
            }
        }
    }
}

/// A unit direction across the pair, to set labels apart.
fn up(a: &Placed, b: &Placed) -> crate::geom::Vec3 {
    let d = b.pose.translation.vector - a.pose.translation.vector;
    let side = d.cross(&crate::geom::Vec3::z());
    side.try_normalize(1e-12)
        .unwrap_or_else(crate::geom::Vec3::y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_name_both_features_and_how_they_meet() {
        assert_eq!(
            features_text([Feature::Edge(3), Feature::Face(1)]),
            "A's E3 (edge) passes through B's F1 (face)"
        );
        assert_eq!(
            features_text([Feature::Face(2), Feature::Vertex(0)]),
            "B's V0 (vertex) lies inside A, below its F2 (face)"
        );
    }
}

//! The traversal step in the 3D view, drawn for a newcomer: the two volumes or triangles
//! under test filled and bright, their intersection segment thick, every body ghosted, the
//! camera framing the pair. Geometry is resolved from the event's ids against the recorded
//! scene and the traversal's poses (see [`super::resolve`]); a step that cannot be resolved
//! (its scene could not be rebuilt) is not drawn.

use super::draw::{draw_volume, fill_volume};
use super::resolve;
use crate::app::families::{FamilyContext, Focus, Overlay};
use crate::app::viewport::draw_list::{Label, Style, to_f32};
use crate::app::views::colors::{self, with_alpha};
use crate::bvh::BvhEvent;
use crate::geom::Triangle;
use crate::trace::{EventKind, TraceEvent, Volume};

pub fn draw_step(cx: &FamilyContext, e: &TraceEvent, out: &mut Overlay) {
    let mut points: Vec<[f64; 3]> = Vec::new();
    match &e.kind {
        EventKind::Bvh(BvhEvent::NodePair {
            a,
            b,
            node_a,
            node_b,
            ..
        }) => {
            let Some((va, vb)) = resolve::pair_volumes(cx, e) else {
                return;
            };
            for (v, c, name, body, node) in [
                (&va, colors::FIRST, "A", a, node_a),
                (&vb, colors::SECOND, "B", b, node_b),
            ] {
                // Outlined and filled (a third opaque): two solids one can tell apart.
                draw_volume(v, c, false, &mut out.list);
                fill_volume(v, with_alpha(c, 0.35), &mut out.list);
                let at = volume_points(v);
                points.extend(&at);
                if let Some(f) = Focus::around(&at, 0.0) {
                    label(
                        out,
                        &f.center.into(),
                        format!("node {name} ({body}:{node})"),
                        c,
                    );
                }
            }
        }
        EventKind::Bvh(BvhEvent::TrianglePair {
            a,
            b,
            tri_a,
            tri_b,
            segment,
        }) => {
            let Some((ta, tb)) = resolve::pair_triangles(cx, e) else {
                return;
            };
            for (t, c, name, body, index) in [
                (&ta, colors::FIRST, "A", a, tri_a),
                (&tb, colors::SECOND, "B", b, tri_b),
            ] {
                draw_triangle(t, c, out);
                points.extend([t.a, t.b, t.c].map(|p| [p.x, p.y, p.z]));
                // At the corner farthest from the segment: the segment has its own label.
                let away = segment.map_or(t.centroid(), |s| {
                    let mid = nalgebra::center(&s.a, &s.b);
                    let far = t
                        .vertices()
                        .into_iter()
                        .max_by(|p, q| (p - mid).norm().total_cmp(&(q - mid).norm()))
                        .unwrap_or(t.a);
                    nalgebra::center(&t.centroid(), &far)
                });
                label(out, &away, format!("triangle {name} ({body}:{index})"), c);
            }
            if let Some(s) = segment {
                let size = Focus::around(&points, 1e-4).map_or(0.01, |f| f.radius);
                out.list.bar(&s.a, &s.b, size * 0.035, colors::RESULT);
                out.list
                    .line_on_top(to_f32(&s.a), to_f32(&s.b), colors::RESULT);
                for p in [s.a, s.b] {
                    out.list.point(&p, 9.0, colors::RESULT);
                }
                let text = format!("intersection: {:.4} m", (s.b - s.a).norm());
                label(out, &nalgebra::center(&s.a, &s.b), text, colors::RESULT);
            }
        }
        _ => return,
    }
    out.ghost_bodies = true;
    out.focus = Focus::around(&points, 1e-3).map(|f| Focus {
        radius: f.radius * 1.3,
        ..f
    });
}

fn label(out: &mut Overlay, at: &crate::geom::Point3, text: String, color: [f32; 4]) {
    out.list.labels.push(Label {
        position: [at.x, at.y, at.z],
        text,
        color,
    });
}

/// A triangle filled (opaque, lit) with its edges drawn over everything.
fn draw_triangle(t: &Triangle, color: [f32; 4], out: &mut Overlay) {
    out.list.triangle([&t.a, &t.b, &t.c], color, Style::Solid);
    let [a, b, c] = [to_f32(&t.a), to_f32(&t.b), to_f32(&t.c)];
    for (p, q) in [(a, b), (b, c), (c, a)] {
        out.list.line_on_top(p, q, color);
    }
}

/// Points that bound a volume, for framing it.
fn volume_points(v: &Volume) -> Vec<[f64; 3]> {
    let around = |c: &crate::geom::Point3, r: f64| vec![[c.x - r, c.y, c.z], [c.x + r, c.y, c.z]];
    match v {
        Volume::Aabb(b) => vec![b.min.into(), b.max.into()],
        Volume::Obb(o) => around(&o.center, o.half_extents.norm()),
        Volume::Sphere(s) => around(&s.center, s.radius),
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

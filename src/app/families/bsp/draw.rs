//! The 3D overlay: the level's brushes, the chosen plane, and the frame's slide trace one
//! iteration at a time. Everything is resolved from event ids against the recorded level.

use super::level::{Level, basis};
use super::log::{Iteration, SlideLog};
use crate::app::viewport::draw_list::{
    DrawList, Instance, Label, Rgba, Style, Template, placement, to_f32,
};
use crate::app::views::colors;
use crate::bsp::{BspSweepMode, Child, Shape, SlideEnd};
use crate::geom::{Plane, Point3, Quat, Vec3};

const BRUSH_FILL: Rgba = [0.55, 0.6, 0.7, 0.16];
const BRUSH_EDGE: Rgba = [0.75, 0.8, 0.9, 0.7];
const BRUSH_HOT: Rgba = [1.0, 0.62, 0.1, 0.35];
const PICKED_PLANE: Rgba = [0.3, 0.75, 1.0, 0.3];
/// Fainter than a picked plane: it follows the mouse, so it must not shout.
const HOVERED_PLANE: Rgba = [0.85, 0.9, 1.0, 0.16];
const WALKER: Rgba = [0.4, 1.0, 0.6, 1.0];
const ASKED: Rgba = [0.6, 0.6, 0.65, 1.0];
const TRAIL: Rgba = [0.95, 0.95, 1.0, 1.0];

/// One colour per slide iteration, shared with the table so a row and its drawing match.
pub const ITERATION_COLORS: [Rgba; 5] = [
    [1.0, 0.85, 0.2, 1.0],
    [1.0, 0.45, 0.25, 1.0],
    [0.95, 0.35, 0.9, 1.0],
    [0.35, 0.7, 1.0, 1.0],
    [0.6, 1.0, 0.35, 1.0],
];

pub fn iteration_color(i: usize) -> Rgba {
    ITERATION_COLORS[i % ITERATION_COLORS.len()]
}

fn fade(c: Rgba, a: f32) -> Rgba {
    [c[0], c[1], c[2], a]
}

/// Every brush face as translucent triangles with its edges; `hot` brushes tinted.
pub fn brushes(level: &Level, hot: &[u32], list: &mut DrawList) {
    for (b, faces) in level.faces.iter().enumerate() {
        let fill = if hot.contains(&(b as u32)) {
            BRUSH_HOT
        } else {
            BRUSH_FILL
        };
        for poly in faces {
            for k in 1..poly.len().saturating_sub(1) {
                list.triangle([&poly[0], &poly[k], &poly[k + 1]], fill, Style::Translucent);
            }
            for k in 0..poly.len() {
                let (a, c) = (poly[k], poly[(k + 1) % poly.len()]);
                list.line(to_f32(&a), to_f32(&c), BRUSH_EDGE);
            }
        }
    }
}

/// A plane as a large translucent square about `at` (projected onto it), with its normal.
pub fn plane(p: &Plane, at: &Point3, size: f64, color: Rgba, list: &mut DrawList) {
    let centre = at - p.normal * p.signed_distance(at);
    let rot = Quat::rotation_between(&Vec3::y(), &p.normal)
        .unwrap_or_else(|| Quat::from_axis_angle(&Vec3::x_axis(), std::f64::consts::PI));
    let rows = placement(&centre, &rot, &Vec3::new(size, 1.0, size));
    list.volume(Template::Quad, Style::Translucent, Instance { rows, color });
    let (u, v) = basis(&p.normal);
    let corners = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        .map(|(a, b)| centre + (u * a + v * b) * size);
    for k in 0..4 {
        list.line(
            to_f32(&corners[k]),
            to_f32(&corners[(k + 1) % 4]),
            fade(color, 0.9),
        );
    }
    list.arrow(&centre, &(p.normal * size * 0.6), colors::NORMAL);
}

/// The shape at a position (boxes and spheres exactly, the others by their bounding box).
pub fn shape(s: &Shape, at: &Point3, color: Rgba, fill: bool, list: &mut DrawList) {
    match *s {
        Shape::Sphere { radius } => list.sphere(at, radius, color, fill),
        Shape::Ellipsoid { radii } => {
            let rows = placement(at, &Quat::identity(), &radii);
            list.volume(Template::Sphere, Style::Wire, Instance { rows, color });
        }
        _ => list.boxed(at, &Quat::identity(), &s.half_extents(), color, fill),
    }
}

fn label(list: &mut DrawList, at: &Point3, text: String, color: Rgba) {
    list.labels.push(Label {
        position: [at.x, at.y, at.z],
        text,
        color,
    });
}

/// How a slide is drawn: the walker's own in one colour per iteration, the compared one in
/// a single colour, its labels prefixed by its mode.
#[derive(Clone, Copy)]
pub struct Look<'a> {
    pub tint: Option<Rgba>,
    pub prefix: &'a str,
}

impl Look<'_> {
    fn color(&self, index: usize) -> Rgba {
        self.tint.unwrap_or_else(|| iteration_color(index))
    }
}

/// The colour of the compared slide (the other mode).
pub const OTHER: Rgba = [1.0, 0.25, 0.35, 1.0];
/// The skin: where the shape's centre touches the wall (the plane pushed out by the shape's
/// offset) and, `MIN_DISTANCE` in front of it, where the slide stops it.
const SKIN: Rgba = [0.3, 1.0, 0.95, 1.0];

/// One slide iteration: the move asked (grey), the move made (thick, its colour), the contact
/// point and the hit plane with its normal, the skin, and the remaining move chosen next.
pub fn iteration(
    it: &Iteration,
    level: &Level,
    (current, last): (bool, bool),
    look: Look,
    list: &mut DrawList,
) {
    let color = look.color(it.index as usize);
    let n = format!("{}{}", look.prefix, it.index + 1);
    let stop = it.stop();
    // Moves are short next to the shape: drawn over everything so the shape cannot hide them.
    list.line_on_top(to_f32(&stop), to_f32(&it.target()), ASKED);
    list.line_on_top(to_f32(&it.start), to_f32(&stop), color);
    let width = (level.extent * 0.004).max(1e-3) * if current { 2.0 } else { 1.0 };
    list.bar(&it.start, &stop, width, color);
    list.point(&it.start, if current { 11.0 } else { 7.0 }, color);
    list.point(&stop, if current { 9.0 } else { 6.0 }, color);
    let Some((b, p)) = it.hit else {
        label(list, &stop, format!("{n}: free move"), color);
        return;
    };
    let Some(pl) = level.plane(b, p) else {
        return;
    };
    let offset = level.shape.offset(&pl.normal);
    let contact = it.touch() - pl.normal * offset;
    let size = (level.shape.half_extents().amax() * 3.0).max(level.extent * 0.06);
    plane(
        &pl,
        &contact,
        size,
        fade(color, if current { 0.4 } else { 0.22 }),
        list,
    );
    if current {
        skin(&pl, offset, &it.touch(), size * 0.5, list);
    }
    list.point(&contact, if current { 14.0 } else { 9.0 }, colors::CONTACT);
    if current {
        shape(&level.shape, &stop, fade(color, 0.6), false, list);
    }
    label(
        list,
        &contact,
        format!("{n}: hit plane {p} of brush {b}"),
        color,
    );
    if it.frac_impact < 0.0 {
        label(
            list,
            &stop,
            format!("{n}: stop behind the start (fraction {:.3})", it.frac_impact),
            color,
        );
    }
    if it.next.norm() > 0.0 {
        list.arrow(&stop, &it.next, fade(color, 0.9));
        if last {
            label(
                list,
                &(stop + it.next),
                format!("{n}: remaining move"),
                color,
            );
        }
    }
}

/// The skin of a hit plane about `touch` (the shape's centre on contact): the plane pushed
/// out by the shape's offset, where the centre touches, and `MIN_DISTANCE` in front of it the
/// plane the slide stops the centre on, joined by ticks along the normal so the gap reads
/// even when it is thinner than a line.
fn skin(pl: &Plane, offset: f64, touch: &Point3, size: f64, list: &mut DrawList) {
    let at = |extra: f64| Plane {
        normal: pl.normal,
        d: pl.d + offset + extra,
    };
    let (touching, stopping) = (at(0.0), at(crate::bsp::MIN_DISTANCE));
    let centre = touching.project(touch);
    let (u, v) = basis(&pl.normal);
    let corners = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)].map(|(a, b)| (u * a + v * b) * size);
    let lift = pl.normal * crate::bsp::MIN_DISTANCE;
    for k in 0..4 {
        let (a, b) = (centre + corners[k], centre + corners[(k + 1) % 4]);
        list.line_on_top(to_f32(&a), to_f32(&b), fade(SKIN, 0.8));
        list.line_on_top(to_f32(&(a + lift)), to_f32(&(b + lift)), SKIN);
        list.line_on_top(to_f32(&a), to_f32(&(a + lift)), SKIN);
        list.triangle([&a, &b, &(b + lift)], fade(SKIN, 0.25), Style::Translucent);
        list.triangle([&a, &(b + lift), &(a + lift)], fade(SKIN, 0.25), Style::Translucent);
    }
    list.point(&(stopping.project(touch)), 6.0, SKIN);
    label(
        list,
        &(centre + corners[0]),
        format!(
            "skin: centre touches at offset {offset:.3}, stops {} further out",
            crate::bsp::MIN_DISTANCE
        ),
        SKIN,
    );
}

/// The walker's path over the frames before this one: where the slides took it.
pub fn trail(points: &[Point3], list: &mut DrawList) {
    for w in points.windows(2) {
        list.line_on_top(to_f32(&w[0]), to_f32(&w[1]), TRAIL);
    }
    for p in points {
        list.point(p, 4.0, TRAIL);
    }
    if let Some(first) = points.first()
        && points.len() > 1
    {
        label(
            list,
            first,
            format!("slide path, last {} frames", points.len() - 1),
            TRAIL,
        );
    }
}

/// The slide: every iteration, the current one emphasised; and the compared slide beside
/// it, in one colour, with where it left the shape.
pub fn slide(
    log: &SlideLog,
    level: &Level,
    (current, in_other): (Option<usize>, bool),
    own: Option<BspSweepMode>,
    list: &mut DrawList,
) {
    let prefix = own.map_or(String::new(), |m| format!("{} ", m.name()));
    iterations(
        log,
        level,
        current.filter(|_| !in_other),
        Look {
            tint: None,
            prefix: &prefix,
        },
        list,
    );
    let Some((mode, other)) = &log.other else {
        return;
    };
    let prefix = format!("{} ", mode.name());
    iterations(
        other,
        level,
        current.filter(|_| in_other),
        Look {
            tint: Some(OTHER),
            prefix: &prefix,
        },
        list,
    );
    let Some(first) = other.iterations.first() else {
        return;
    };
    let reason = other.end.map(|e| e.1);
    match other.end_point(*mode) {
        Some(end) => {
            shape(&level.shape, &end, OTHER, false, list);
            let what = match reason {
                Some(SlideEnd::MaxIterations) if *mode == BspSweepMode::Article => {
                    "MAX_IMPACT: position not written, back at the start".to_string()
                }
                Some(r) => format!("ends: {r:?}"),
                None => "ends".into(),
            };
            label(list, &end, format!("{} {what}", mode.name()), OTHER);
        }
        None => label(
            list,
            &first.start,
            format!("{}: the position would be NaN", mode.name()),
            OTHER,
        ),
    }
}

fn iterations(log: &SlideLog, level: &Level, current: Option<usize>, look: Look, list: &mut DrawList) {
    let n = log.iterations.len();
    for (k, it) in log.iterations.iter().enumerate() {
        iteration(
            it,
            level,
            (current == Some(it.index as usize), k + 1 == n),
            look,
            list,
        );
    }
}

/// The walker where the frame recorded it.
pub fn walker(level: &Level, at: &Point3, list: &mut DrawList) {
    // A wire only: the slide drawn inside it must stay visible.
    shape(&level.shape, at, WALKER, false, list);
}

/// A node's splitting plane about the point of the move nearest to it.
pub fn node_plane(level: &Level, node: u32, near: &Point3, list: &mut DrawList) {
    if let Some(n) = level.tree.nodes.get(node as usize) {
        plane(&n.plane, near, level.extent * 0.15, PICKED_PLANE, list);
    }
}

/// The brushes in the leaves below a child, for the step view.
pub fn brushes_under(level: &Level, c: Child, out: &mut Vec<u32>) {
    match c {
        Child::Leaf(l) => {
            if (l as usize) < level.tree.leaves.len() {
                out.extend_from_slice(level.tree.leaf_brush_ids(l));
            }
        }
        Child::Node(n) => {
            if let Some(node) = level.tree.nodes.get(n as usize) {
                brushes_under(level, node.front, out);
                brushes_under(level, node.back, out);
            }
        }
    }
}

/// The plane picked by the user: large, about the brush's centre, with its name.
pub fn picked(level: &Level, brush: u32, plane_index: u16, list: &mut DrawList) {
    brush_plane(level, brush, plane_index, PICKED_PLANE, list);
}

/// The plane of the brush face under the mouse, as a faint preview of a pick.
pub fn hovered(level: &Level, brush: u32, plane_index: u16, list: &mut DrawList) {
    brush_plane(level, brush, plane_index, HOVERED_PLANE, list);
}

fn brush_plane(level: &Level, brush: u32, plane_index: u16, color: Rgba, list: &mut DrawList) {
    let Some(p) = level.plane(brush, plane_index) else {
        return;
    };
    let Some(b) = level.tree.brushes.get(brush as usize) else {
        return;
    };
    let centre = nalgebra::center(&b.bounds.min, &b.bounds.max);
    plane(&p, &centre, level.extent * 0.2, color, list);
    label(
        list,
        &(centre - p.normal * p.signed_distance(&centre)),
        format!("plane {plane_index} of brush {brush}"),
        [color[0], color[1], color[2], 1.0],
    );
}

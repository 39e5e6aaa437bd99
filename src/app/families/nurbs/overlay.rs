//! The 3D view: every surface as a faint sheet, the query's two surfaces tinted A and B with
//! their control nets, the boxes of the chosen level, the step's box pair filled with its two
//! sub-patches lit, and the hits (their sub-patches and the contact point), so that the
//! colliding sub-patches are the brightest thing on screen.

use super::draw;
use super::geometry::{FrameGeometry, test_boxes};
use super::palette;
use super::{NurbsView, describe};
use crate::app::families::{FamilyContext, Focus, Overlay};
use crate::app::viewport::draw_list::{DrawList, to_f32};
use crate::app::views::colors::with_alpha;
use crate::geom::{Obb, Point3};
use crate::nurbs::PatchPath;
use std::collections::HashMap;

/// Samples per side of a whole surface and of a highlighted sub-patch.
const SURFACE_SAMPLES: usize = 14;
const PATCH_SAMPLES: usize = 6;
/// Deepest level drawn whole (2^8 boxes per surface).
pub const WHOLE_LEVEL_MAX: u8 = 8;
/// Hit sub-patches drawn per query, at most (all-hits mode on a grazing pair).
const MAX_HITS_DRAWN: usize = 64;
/// Intersection-curve segments drawn per query, at most.
const MAX_SEGMENTS_DRAWN: usize = 20_000;

pub fn draw(view: &mut NurbsView, cx: &FamilyContext, out: &mut Overlay) {
    let shown = view.shown_query(cx);
    let current = shown.and_then(|q| view.current_test(cx, q));
    let level = shown.map_or(0, |q| view.level_in(q));
    let g = &mut view.geometry;
    out.ghost_bodies = true;
    let list = &mut out.list;
    let pair = shown
        .and_then(|q| g.queries.get(q))
        .map(|q| (q.surface_a, q.surface_b));
    if view.show_surfaces {
        for (id, s) in g.surfaces.iter().enumerate() {
            let id = id as u32;
            let (fill, edge) = match pair {
                Some((a, _)) if a == id => (with_alpha(palette::A, 0.22), palette::A),
                Some((_, b)) if b == id => (with_alpha(palette::B, 0.22), palette::B),
                _ => (
                    palette::OTHER_SURFACE,
                    with_alpha(palette::OTHER_SURFACE, 0.5),
                ),
            };
            draw::surface(list, &s.world, SURFACE_SAMPLES, fill, edge);
        }
    }
    if view.show_nets {
        for (id, s) in g.surfaces.iter().enumerate() {
            let id = id as u32;
            if pair.is_none_or(|(a, b)| a == id || b == id) {
                draw::control_net(list, &s.world, palette::NET);
            }
        }
    }
    let Some(q) = shown else {
        focus_all(g, out);
        return;
    };
    let level_corners = if view.show_level {
        level_boxes(g, q, level, view.whole_level, list)
    } else {
        Vec::new()
    };
    hits(g, q, list);
    let curve_ends = curve(g, q, list);
    if let Some(t) = current {
        step(g, q, t, list);
    }
    // The pair under test fills the view: the step's two boxes, else the intersection curve,
    // else the chosen level's tested boxes, else the two whole surfaces' boxes.
    let pair = |t: usize, g: &mut FrameGeometry| {
        test_boxes(g, q, t).map(|(a, b)| [corners(&a), corners(&b)].concat())
    };
    let points = current
        .and_then(|t| pair(t, g))
        .or((!curve_ends.is_empty()).then_some(curve_ends))
        .or((!level_corners.is_empty()).then_some(level_corners))
        .or_else(|| pair(0, g));
    out.focus = points.and_then(|p| Focus::around(&p, 0.05));
}

/// Every surface as a plain body (another family's panel is shown): no query, no boxes.
pub fn bodies(g: &FrameGeometry, list: &mut DrawList) {
    for s in &g.surfaces {
        draw::surface(list, &s.world, SURFACE_SAMPLES, palette::BODY, palette::BODY);
    }
}

fn corners(b: &Obb) -> Vec<[f64; 3]> {
    let mut out = Vec::with_capacity(8);
    for sx in [-1.0, 1.0] {
        for sy in [-1.0, 1.0] {
            for sz in [-1.0, 1.0] {
                let h = b.half_extents;
                let p = b.center + b.axes * nalgebra::Vector3::new(sx * h.x, sy * h.y, sz * h.z);
                out.push([p.x, p.y, p.z]);
            }
        }
    }
    out
}

fn focus_all(g: &FrameGeometry, out: &mut Overlay) {
    let points: Vec<[f64; 3]> = g
        .surfaces
        .iter()
        .flat_map(|s| s.world.cartesian_points())
        .map(|p| [p.x, p.y, p.z])
        .collect();
    out.focus = Focus::around(&points, 0.1);
}

/// The boxes of both surfaces' sub-patches halved `level` times: those the query tested
/// (filled when they overlapped at least once, grey when always separated), or every one.
/// Draws the chosen level's boxes; returns the corners of those the query tested.
pub fn level_boxes(
    g: &mut FrameGeometry,
    q: usize,
    level: u8,
    whole: bool,
    list: &mut DrawList,
) -> Vec<[f64; 3]> {
    let mut corners_tested = Vec::new();
    let Some(query) = g.queries.get(q) else {
        return corners_tested;
    };
    let ids = [query.surface_a, query.surface_b];
    // Per side: path -> overlapped at least once.
    let mut tested: [HashMap<PatchPath, bool>; 2] = [HashMap::new(), HashMap::new()];
    for t in &query.tests {
        for (k, path) in [t.path_a, t.path_b].into_iter().enumerate() {
            if path.depth == level {
                let e = tested[k].entry(path).or_insert(false);
                *e |= !t.separated();
            }
        }
    }
    for (k, id) in ids.into_iter().enumerate() {
        let color = palette::side(k == 0);
        if whole && level <= WHOLE_LEVEL_MAX {
            for bits in 0..(1u64 << level) {
                let path = PatchPath { depth: level, bits };
                if tested[k].contains_key(&path) {
                    continue;
                }
                if let Some(p) = g.piece(id, path) {
                    let b = p.obb;
                    draw::obb(list, &b, with_alpha(color, 0.3), false);
                }
            }
        }
        for (path, overlapped) in tested[k].clone() {
            if let Some(p) = g.piece(id, path) {
                let b = p.obb;
                corners_tested.extend(corners(&b));
                if overlapped {
                    draw::obb(list, &b, with_alpha(color, 0.9), true);
                } else {
                    draw::obb(list, &b, with_alpha(palette::SEPARATED, 0.55), false);
                }
            }
        }
    }
    corners_tested
}

/// The hits: both leaf sub-patches lit, the contact point, one label.
fn hits(g: &mut FrameGeometry, q: usize, list: &mut DrawList) {
    let Some(query) = g.queries.get(q).cloned() else {
        return;
    };
    // In curve mode the hits are the pieces the curve crosses: drawn faint, without a marker
    // each, so that the curve over them reads.
    let curve_mode = !query.segments.is_empty();
    let fill = with_alpha(palette::HIT, if curve_mode { 0.15 } else { 0.8 });
    for (n, &k) in query.hits.iter().take(MAX_HITS_DRAWN).enumerate() {
        let t = &query.tests[k];
        for (id, path) in [(query.surface_a, t.path_a), (query.surface_b, t.path_b)] {
            if let Some(p) = g.piece(id, path) {
                let s = p.surface.clone();
                draw::surface(list, &s, 3, fill, with_alpha(palette::HIT, 0.5));
            }
        }
        if let Some(p) = g.hit_point(q, k) {
            if !curve_mode {
                list.point(&p, 14.0, palette::HIT);
            }
            if n == 0 {
                let text = if query.hits.len() > 1 {
                    format!("hit (1 of {})", query.hits.len())
                } else {
                    "hit".into()
                };
                draw::label(list, &p, text, palette::HIT);
            }
        }
    }
}

/// The intersection-curve segments of a curve-mode query: thick bars, and a line over
/// everything so that the boxes cannot hide them. Returns the segments' ends (what the view
/// frames when no step is shown).
fn curve(g: &mut FrameGeometry, q: usize, list: &mut DrawList) -> Vec<[f64; 3]> {
    let count = g.queries.get(q).map_or(0, |query| query.segments.len());
    let width = g.size * 0.004;
    let mut ends = Vec::new();
    for k in 0..count.min(MAX_SEGMENTS_DRAWN) {
        if let Some([a, b]) = g.segment_ends(q, k) {
            list.bar(&a, &b, width, palette::CURVE);
            list.line_on_top(to_f32(&a), to_f32(&b), palette::CURVE);
            if k == 0 {
                let text = format!("intersection curve ({count} segments)");
                draw::label(list, &a, text, palette::CURVE);
            }
            ends.extend([[a.x, a.y, a.z], [b.x, b.y, b.z]]);
        }
    }
    ends
}

/// The step's box pair: both boxes filled in their side's colour, their sub-patches lit, and
/// for a separated pair the axis drawn through the gap between the two centres.
fn step(g: &mut FrameGeometry, q: usize, test: usize, list: &mut DrawList) {
    let Some(query) = g.queries.get(q).cloned() else {
        return;
    };
    let Some(t) = query.tests.get(test).cloned() else {
        return;
    };
    let Some((ba, bb)) = test_boxes(g, q, test) else {
        return;
    };
    for (k, (id, path, b)) in [
        (query.surface_a, t.path_a, ba),
        (query.surface_b, t.path_b, bb),
    ]
    .into_iter()
    .enumerate()
    {
        let color = palette::side(k == 0);
        draw::obb(list, &b, color, true);
        if let Some(p) = g.piece(id, path) {
            let s = p.surface.clone();
            draw::surface(
                list,
                &s,
                PATCH_SAMPLES,
                with_alpha(color, 0.75),
                palette::CURRENT,
            );
        }
    }
    let mid = nalgebra::center(&ba.center, &bb.center);
    match t.axis {
        Some(axis) => {
            let d = crate::bvh::sat_obb::sat_axis_direction(&ba, &bb, axis);
            if let Some(l) = d.try_normalize(1e-9) {
                let reach = (ba.half_extents.norm() + bb.half_extents.norm()) * 1.2;
                let (p, q2) = (mid - l * reach, mid + l * reach);
                list.line_on_top(to_f32(&p), to_f32(&q2), palette::CURRENT);
            }
            draw::label(
                list,
                &mid,
                format!("separated on {}", describe::axis_words(axis)),
                palette::CURRENT,
            );
        }
        None => {
            let text = if t.hit.is_some() {
                "boxes overlap: hit"
            } else {
                "boxes overlap: split next"
            };
            draw::label(
                list,
                &Point3::from(mid.coords),
                text.into(),
                palette::CURRENT,
            );
        }
    }
}

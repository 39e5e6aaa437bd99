//! A NURBS event in words a newcomer reads: which sub-patches, what the boxes did, and what
//! the algorithm does next. Used by the inspector and by the panel's step text.

use super::geometry::FrameGeometry;
use super::queries::Query;
use super::queries::Test;
use crate::app::widgets::description::Description;
use crate::bvh::sat_obb::SAT_AXIS_NAMES;
use crate::nurbs::rules::{BoxRule, Recursion};
use crate::nurbs::split::Direction;
use crate::nurbs::{HitMode, NurbsEvent, PatchPath};

/// "A1×B2 (an edge of A crossed with an edge of B)".
pub fn axis_words(axis: u8) -> String {
    let name = SAT_AXIS_NAMES.get(axis as usize).copied().unwrap_or("?");
    let kind = match axis {
        0 | 2 | 3 => "a face normal of box A",
        1 | 4 | 5 => "a face normal of box B",
        _ => "an edge of A crossed with an edge of B",
    };
    format!("{name} ({kind})")
}

/// `u ∈ [0.25, 0.5], v ∈ [0, 1]`, relative to the surface's whole domain.
pub fn rect_words(rect: [f64; 4]) -> String {
    format!(
        "u ∈ [{}, {}], v ∈ [{}, {}]",
        num(rect[0]),
        num(rect[1]),
        num(rect[2]),
        num(rect[3])
    )
}

/// Short numbers: parameters are dyadic fractions, four decimals say them.
fn num(x: f64) -> String {
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-" {
        "0".into()
    } else {
        s.to_string()
    }
}

fn halvings(path: PatchPath) -> String {
    match path.depth {
        0 => "the whole surface".into(),
        1 => "halved once".into(),
        d => format!("halved {d} times"),
    }
}

fn direction_word(d: Direction) -> &'static str {
    match d {
        Direction::U => "u",
        Direction::V => "v",
    }
}

fn piece_words(g: &mut FrameGeometry, id: u32, path: PatchPath) -> String {
    let rect = g.piece(id, path).map(|p| p.rect);
    match rect {
        Some(r) => format!("{} ({})", rect_words(r), halvings(path)),
        None => format!("path {}/{} (not resolved)", path.depth, path.bits),
    }
}

/// Explains event `index` of query `q`.
pub fn describe(g: &mut FrameGeometry, q: usize, index: usize, e: &NurbsEvent) -> Description {
    let Some(query) = g.queries.get(q).cloned() else {
        return Description::titled(e.describe());
    };
    let at = At {
        where_: position_words(&query, index),
        query,
        q,
        index,
    };
    match *e {
        NurbsEvent::BoxPair {
            path_a,
            path_b,
            axis,
            ..
        } => box_test(g, &at, [path_a, path_b], axis),
        NurbsEvent::Split { surface, path } => split(g, &at, surface, path),
        NurbsEvent::Hit { path_a, path_b, .. } => hit(g, &at, [path_a, path_b]),
        NurbsEvent::Segment { uv_a, uv_b, .. } => segment(g, &at, uv_a, uv_b),
    }
}

/// How the viewer's boxes were built: the rule the scene's queries used.
pub fn box_rule_words(rule: BoxRule) -> &'static str {
    match rule {
        BoxRule::Covariance => {
            "Each box is built from the sub-patch's control points, on the eigenvectors of \
             their covariance (the thesis' box); the surface lies inside it."
        }
        BoxRule::CornerFrame => {
            "The whole surface's box is on the eigenvectors of its control points' \
             covariance; a sub-patch's box is on the frame of its four corner control points \
             (mean u edge, normal of the diagonals). The surface lies inside each."
        }
    }
}

fn segment(g: &mut FrameGeometry, at: &At, uv_a: [[f64; 2]; 2], uv_b: [[f64; 2]; 2]) -> Description {
    let query = &at.query;
    let (na, nb) = (g.name(query.surface_a), g.name(query.surface_b));
    let uv = |e: [f64; 2]| format!("({}, {})", num(e[0]), num(e[1]));
    Description::new(
        format!("Intersection-curve segment between {na} and {nb} ({})", at.where_),
        vec![
            "Both leaf boxes are flat: each sub-patch is replaced by the two triangles of its \
             four corner control points, and the triangles of A and B are intersected."
                .into(),
            format!("On A = {na}: from {} to {}.", uv(uv_a[0]), uv(uv_a[1])),
            format!("On B = {nb}: from {} to {}.", uv(uv_b[0]), uv(uv_b[1])),
            "The segments of all hits approximate the intersection curve (drawn in the 3D \
             view and on both (u, v) panels)."
                .into(),
        ],
    )
}

/// Where in the search an event is: its query, and its place there in words.
struct At {
    query: Query,
    q: usize,
    index: usize,
    where_: String,
}

fn box_test(
    g: &mut FrameGeometry,
    at: &At,
    [path_a, path_b]: [PatchPath; 2],
    axis: Option<u8>,
) -> Description {
    let query = &at.query;
    let (na, nb) = (g.name(query.surface_a), g.name(query.surface_b));
    let mut lines = vec![
        format!(
            "A = {na}: sub-patch {}.",
            piece_words(g, query.surface_a, path_a)
        ),
        format!(
            "B = {nb}: sub-patch {}.",
            piece_words(g, query.surface_b, path_b)
        ),
        box_rule_words(g.rules.box_rule).into(),
    ];
    let test = query
        .test_of_event(at.index)
        .and_then(|k| query.tests.get(k));
    let verdict = match axis {
        Some(a) => {
            lines.push(format!(
                "The boxes' shadows on axis {} do not overlap: the sub-patches cannot \
                 touch. This branch of the search ends here.",
                axis_words(a)
            ));
            "separated"
        }
        None => {
            lines.push("No axis of the 15 separates the boxes: the sub-patches may touch.".into());
            overlap_next(g, query, test, &mut lines)
        }
    };
    Description::new(
        format!(
            "Box test at depth {} ({}): {verdict}",
            test.map_or(path_a.depth as u32 + path_b.depth as u32, Test::depth),
            at.where_
        ),
        lines,
    )
}

/// What follows boxes that overlap: a hit, or a split; the verdict in a word or two.
fn overlap_next(
    g: &mut FrameGeometry,
    query: &Query,
    test: Option<&Test>,
    lines: &mut Vec<String>,
) -> &'static str {
    match test {
        Some(t) if t.hit.is_some() => {
            lines.push(leaf_words(g.mode).into());
            "overlap, hit"
        }
        Some(t) => match t.splits.as_slice() {
            [(_, s, p)] => {
                let side = if *s == query.surface_a { "A" } else { "B" };
                let dir = g.split_of(*s, *p).map_or("?", direction_word);
                lines.push(format!(
                    "Next, {side}'s sub-patch is halved along {dir} and each \
                     half's box is tested against the other box."
                ));
                "overlap, split"
            }
            [] => "overlap",
            _ => {
                lines.push(
                    "Next, both sub-patches are cut in four (Algorithm 2.2's Subdivide4: one \
                     halving each way) and the pairs of quarters are tested, up to 16, each \
                     call building both boxes."
                        .into(),
                );
                "overlap, cut in four"
            }
        },
        None => "overlap",
    }
}

/// Why an overlapping pair is a leaf, under the scene's hit mode.
fn leaf_words(mode: Option<HitMode>) -> &'static str {
    if mode == Some(HitMode::Curve) {
        "Both boxes are below the query's precision or flat (no thicker than it): this pair \
         is a leaf. It counts as a hit only if the corner triangles of the two sub-patches \
         cross (next events: the hit and its curve segments)."
    } else {
        "Both boxes are already below the query's precision: this pair is accepted as a hit \
         (next event)."
    }
}

/// What the halving of a split event leads to, under the scene's recursion.
fn after_split_words(recursion: Recursion) -> &'static str {
    match recursion {
        Recursion::OneSplit => {
            "The two halves are tested next, each against the other surface's box, passed \
             down unchanged (Algorithm 2.3; the surfaces take turns being halved)."
        }
        Recursion::Base => {
            "The two halves are tested next, each against the other surface's piece, both \
             boxes built again (Algorithm 2.1)."
        }
        Recursion::Subdivide4 => {
            "This halving is one of the cuts into four (Algorithm 2.2's Subdivide4): once \
             both pieces are quartered, every pair of quarters is tested."
        }
    }
}

fn split(g: &mut FrameGeometry, at: &At, surface: u32, path: PatchPath) -> Description {
    let side = if surface == at.query.surface_a {
        "A"
    } else {
        "B"
    };
    let dir = g.split_of(surface, path).map_or("?", direction_word);
    let where_split = g.split_plan_of(surface, path).map_or_else(String::new, |(d, t)| {
        let name = if d == Direction::U { "u" } else { "v" };
        format!(" at {name} = {}", num(t))
    });
    Description::new(
        format!("Split of {side} = {} ({})", g.name(surface), at.where_),
        vec![
            format!("Sub-patch {}.", piece_words(g, surface, path)),
            format!(
                "Knots are inserted along {dir}{where_split} until the surface falls into two \
                 independent halves, each with its own control points (the shape does \
                 not change)."
            ),
            after_split_words(g.rules.recursion).into(),
        ],
    )
}

fn hit(g: &mut FrameGeometry, at: &At, [path_a, path_b]: [PatchPath; 2]) -> Description {
    let query = &at.query;
    let (na, nb) = (g.name(query.surface_a), g.name(query.surface_b));
    let test = query.test_of_event(at.index);
    let point = test.and_then(|k| g.hit_point(at.q, k));
    let mut lines = vec![
        format!("A = {na}: {}.", piece_words(g, query.surface_a, path_a)),
        format!("B = {nb}: {}.", piece_words(g, query.surface_b, path_b)),
    ];
    if let Some(p) = point {
        lines.push(format!(
            "Contact point ({:.3}, {:.3}, {:.3}): the mean of the two leaf boxes' centres.",
            p.x, p.y, p.z
        ));
    }
    Description::new(format!("Hit between {na} and {nb} ({})", at.where_), lines)
}

fn position_words(query: &Query, index: usize) -> String {
    let n = query.tests.len();
    match query.test_of_event(index) {
        Some(k) => format!("test {} of {n}", k + 1),
        None => format!("{n} tests"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_axes_read_short() {
        assert_eq!(num(0.5), "0.5");
        assert_eq!(num(1.0), "1");
        assert_eq!(num(0.0), "0");
        assert_eq!(num(0.1875), "0.1875");
        assert_eq!(
            rect_words([0.0, 0.25, 0.5, 1.0]),
            "u ∈ [0, 0.25], v ∈ [0.5, 1]"
        );
        assert!(axis_words(0).contains("face normal of box A"));
        assert!(axis_words(4).contains("box B"));
        assert!(axis_words(14).starts_with("A2×B2"));
    }
}

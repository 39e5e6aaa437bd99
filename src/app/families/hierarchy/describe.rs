//! Traversal events in words: which volumes or triangles were tested, and the verdict with
//! the separating axis named for the tree kind.

use crate::app::families::FamilyContext;
use crate::bvh::{BvKind, SAT_AXIS_NAMES};
use crate::trace::{EventKind, TraceEvent, Volume};
use egui::{RichText, Ui};

/// The name of a node pair's separating axis for a tree kind.
pub fn axis_name(kind: BvKind, axis: u8) -> String {
    match kind {
        BvKind::Obb => SAT_AXIS_NAMES.get(axis as usize).map_or_else(
            || format!("axis {axis}"),
            |n| format!("{n} (RAPID axis {axis})"),
        ),
        BvKind::Aabb => match axis {
            0 => "x of tree A".into(),
            1 => "y of tree A".into(),
            2 => "z of tree A".into(),
            _ => format!("axis {axis}"),
        },
        BvKind::Kdop14 | BvKind::Kdop18 | BvKind::Kdop26 => {
            format!("slab direction {axis} of tree A")
        }
        BvKind::Sphere => format!("axis {axis}"),
    }
}

pub fn volume_text(v: &Volume) -> String {
    match v {
        Volume::Aabb(b) => {
            let e = b.max - b.min;
            format!("AABB {:.3} × {:.3} × {:.3} m", e.x, e.y, e.z)
        }
        Volume::Obb(o) => {
            let e = o.half_extents * 2.0;
            format!("OBB {:.3} × {:.3} × {:.3} m", e.x, e.y, e.z)
        }
        Volume::Sphere(s) => format!("sphere r = {:.3} m", s.radius),
        Volume::Kdop { axes, .. } => format!("{}-DOP", axes.len() * 2),
    }
}

/// Rows describing a traversal event (node pair or triangle pair), for the inspector.
/// `volumes` are the node pair's, resolved (see `resolve::pair_volumes`), when known.
pub fn traversal_rows(
    kind: BvKind,
    e: &TraceEvent,
    volumes: Option<(Volume, Volume)>,
) -> Vec<(String, String)> {
    let mut rows = Vec::new();
    match &e.kind {
        EventKind::Bvh(crate::bvh::BvhEvent::NodePair {
            a,
            b,
            node_a,
            node_b,
            separating_axis,
        }) => {
            let text = |v: Option<&Volume>| v.map(volume_text).unwrap_or_else(|| "?".into());
            rows.push((
                "tree A".into(),
                format!(
                    "body {a}, node {node_a}: {}",
                    text(volumes.as_ref().map(|v| &v.0))
                ),
            ));
            rows.push((
                "tree B".into(),
                format!(
                    "body {b}, node {node_b}: {}",
                    text(volumes.as_ref().map(|v| &v.1))
                ),
            ));
            let verdict = match separating_axis {
                Some(axis) => format!("separated along {}", axis_name(kind, *axis)),
                None if e.verdict == crate::trace::Verdict::Hit => {
                    "volumes overlap: descend".into()
                }
                None => "separated".into(),
            };
            rows.push(("result".into(), verdict));
        }
        EventKind::Bvh(crate::bvh::BvhEvent::TrianglePair {
            a,
            b,
            tri_a,
            tri_b,
            segment,
            ..
        }) => {
            rows.push(("triangle A".into(), format!("body {a}, triangle {tri_a}")));
            rows.push(("triangle B".into(), format!("body {b}, triangle {tri_b}")));
            match segment {
                Some(s) => {
                    let p =
                        |p: &crate::geom::Point3| format!("({:.3}, {:.3}, {:.3})", p.x, p.y, p.z);
                    rows.push((
                        "result".into(),
                        format!("intersect: a {:.4} m segment", (s.b - s.a).norm()),
                    ));
                    rows.push(("segment from".into(), p(&s.a)));
                    rows.push(("segment to".into(), p(&s.b)));
                }
                None => rows.push(("result".into(), "no intersection".into())),
            }
        }
        _ => {}
    }
    rows
}

/// The tree kind of the session's mesh bodies.
pub fn tree_kind(cx: &FamilyContext) -> BvKind {
    cx.scene().map_or(BvKind::Aabb, |s| s.mesh_bv)
}

/// The inspector's part for a traversal event: what was tested and why it ended.
pub fn inspect_traversal_event(ui: &mut Ui, cx: &FamilyContext, e: &TraceEvent) {
    let kind = tree_kind(cx);
    let rows = traversal_rows(kind, e, super::resolve::pair_volumes(cx, e));
    if rows.is_empty() {
        return;
    }
    ui.label(
        RichText::new(format!(
            "Tree-versus-tree traversal ({} trees)",
            kind.name()
        ))
        .strong(),
    );
    crate::app::widgets::grid::grid(ui, "traversal-step", &rows);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separating_axes_are_named_by_tree_kind() {
        assert_eq!(axis_name(BvKind::Obb, 6), "A0×B0 (RAPID axis 6)");
        assert_eq!(axis_name(BvKind::Obb, 99), "axis 99");
        assert_eq!(axis_name(BvKind::Aabb, 1), "y of tree A");
        assert!(axis_name(BvKind::Kdop18, 5).contains('5'));
    }
}

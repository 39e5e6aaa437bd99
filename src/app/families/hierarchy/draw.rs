//! The hierarchy of one mesh body as draw data: the node volumes inside a depth range,
//! coloured by depth, SAH contribution, sibling overlap or how often the frame's traversals
//! tested them. Volumes come from the engine's tree (`AnyBvh::node_world_volume`) and its
//! metrics (`TreeStats`); the counts come from the frame's recorded `NodePair` events.

use crate::app::viewport::draw_list::{DrawList, Instance, Rgba, Style, Template, rows_from};
use crate::app::views::colors::{self, with_alpha};
use crate::bvh::{AnyBvh, NodeStats};
use crate::geom::{Point3, Pose};
use crate::trace::{BodyId, EventKind, TraceEvent, Volume};
use nalgebra::Matrix4;
use serde::{Deserialize, Serialize};

/// What a node's colour tells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ColorMode {
    #[default]
    Depth,
    Sah,
    SiblingOverlap,
    Tested,
}

impl ColorMode {
    pub const ALL: [ColorMode; 4] = [
        ColorMode::Depth,
        ColorMode::Sah,
        ColorMode::SiblingOverlap,
        ColorMode::Tested,
    ];

    pub fn label(self) -> &'static str {
        match self {
            ColorMode::Depth => "Depth",
            ColorMode::Sah => "SAH contribution",
            ColorMode::SiblingOverlap => "Sibling overlap",
            ColorMode::Tested => "Tested this frame",
        }
    }

    /// The number a node is coloured by (for depth, its depth).
    pub fn value(self, node: &NodeStats, tested: &[u32]) -> f64 {
        match self {
            ColorMode::Depth => node.depth as f64,
            ColorMode::Sah => node.sah_contribution,
            ColorMode::SiblingOverlap => node.sibling_overlap_volume,
            ColorMode::Tested => tested.get(node.id as usize).copied().unwrap_or(0) as f64,
        }
    }
}

/// Depths to draw, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DepthRange {
    pub lo: u32,
    pub hi: u32,
}

impl DepthRange {
    pub fn contains(&self, depth: u32) -> bool {
        self.lo <= depth && depth <= self.hi
    }
}

/// The nodes whose depth is in the range, in id order.
pub fn visible_nodes(nodes: &[NodeStats], range: DepthRange) -> Vec<u32> {
    nodes
        .iter()
        .filter(|n| range.contains(n.depth))
        .map(|n| n.id)
        .collect()
}

/// A hue wheel over the depth range: neighbouring levels differ clearly.
pub fn depth_color(depth: u32, range: DepthRange) -> Rgba {
    let span = (range.hi.saturating_sub(range.lo) + 1) as f32;
    let t = depth.saturating_sub(range.lo) as f32 / span;
    // Cyan through blue and violet to pink: clear of the selection's orange.
    hsv(0.5 + 0.45 * t, 0.7, 1.0)
}

/// Cold (blue, low) to hot (red, high) for `t` in 0–1.
pub fn heat(t: f64) -> Rgba {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    } as f32;
    hsv(0.66 * (1.0 - t), 0.85, 0.55 + 0.45 * t)
}

fn hsv(h: f32, s: f32, v: f32) -> Rgba {
    let h = h.rem_euclid(1.0) * 6.0;
    let c = v * s;
    let x = c * (1.0 - ((h % 2.0) - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    [r + m, g + m, b + m, 1.0]
}

/// Colour of one node. Heat modes scale by the largest value among the drawn nodes, with a
/// square root so that small values stay distinguishable; in the tested mode an untested
/// node is a faint grey, since what matters is where the traversal went.
pub fn node_color(
    mode: ColorMode,
    node: &NodeStats,
    tested: &[u32],
    max: f64,
    range: DepthRange,
) -> Rgba {
    match mode {
        ColorMode::Depth => depth_color(node.depth, range),
        ColorMode::Tested if mode.value(node, tested) <= 0.0 => [0.5, 0.5, 0.55, 0.25],
        _ => {
            let v = mode.value(node, tested);
            heat(if max > 0.0 { (v / max).sqrt() } else { 0.0 })
        }
    }
}

/// How often each node of `body`'s tree took part in a node-pair test in this trace.
pub fn tested_counts(trace: &[TraceEvent], body: BodyId, node_count: usize) -> Vec<u32> {
    let mut counts = vec![0u32; node_count];
    let mut bump = |node: u32| {
        if let Some(c) = counts.get_mut(node as usize) {
            *c += 1;
        }
    };
    for e in trace {
        if let EventKind::Bvh(crate::bvh::BvhEvent::NodePair {
            a,
            b,
            node_a,
            node_b,
            ..
        }) = &e.kind
        {
            if *a == body {
                bump(*node_a);
            }
            if *b == body {
                bump(*node_b);
            }
        }
    }
    counts
}

/// Node tests and triangle tests in one frame's trace.
pub fn traversal_counts(trace: &[TraceEvent]) -> (u32, u32) {
    trace.iter().fold((0, 0), |(n, t), e| match e.kind {
        EventKind::Bvh(crate::bvh::BvhEvent::NodePair { .. }) => (n + 1, t),
        EventKind::Bvh(crate::bvh::BvhEvent::TrianglePair { .. }) => (n, t + 1),
        _ => (n, t),
    })
}

/// What to draw of a tree.
pub struct HierarchyDrawing<'a> {
    pub tree: &'a AnyBvh,
    pub nodes: &'a [NodeStats],
    pub pose: Pose,
    pub range: DepthRange,
    pub mode: ColorMode,
    /// Per-node test counts of the frame (for the tested mode).
    pub tested: &'a [u32],
    /// The node picked in the table: drawn bright and filled.
    pub selected: Option<u32>,
    /// Fainter, for when a traversal step is on screen and must stand out.
    pub dim: bool,
}

impl HierarchyDrawing<'_> {
    pub fn draw(&self, out: &mut DrawList) {
        let visible = visible_nodes(self.nodes, self.range);
        let max = visible
            .iter()
            .filter_map(|&id| self.nodes.get(id as usize))
            .map(|n| self.mode.value(n, self.tested))
            .fold(0.0, f64::max);
        let alpha = if self.dim { 0.12 } else { 0.85 };
        for &id in &visible {
            if Some(id) == self.selected {
                continue;
            }
            let (Some(node), Some(volume)) = (
                self.nodes.get(id as usize),
                self.tree.node_world_volume(id, &self.pose),
            ) else {
                continue;
            };
            let c = node_color(self.mode, node, self.tested, max, self.range);
            draw_volume(&volume, with_alpha(c, c[3].min(alpha)), false, out);
        }
        if let Some(volume) = self
            .selected
            .and_then(|id| self.tree.node_world_volume(id, &self.pose))
        {
            draw_volume(&volume, colors::SELECTION, true, out);
        }
    }
}

/// One volume's inside as a translucent solid of exactly `color` (k-DOPs: none).
pub fn fill_volume(v: &Volume, color: Rgba, out: &mut DrawList) {
    let rows = match v {
        Volume::Aabb(b) => {
            let (c, h) = (b.center(), b.half_extents());
            crate::app::viewport::draw_list::placement(
                &c,
                &nalgebra::UnitQuaternion::identity(),
                &h,
            )
        }
        Volume::Obb(o) => rows_from(
            &(Matrix4::new_translation(&o.center.coords)
                * o.axes.to_homogeneous()
                * Matrix4::new_nonuniform_scaling(&o.half_extents)),
        ),
        Volume::Sphere(s) => {
            out.volume(
                Template::Sphere,
                Style::Translucent,
                Instance {
                    rows: crate::app::viewport::draw_list::placement(
                        &s.center,
                        &nalgebra::UnitQuaternion::identity(),
                        &nalgebra::Vector3::repeat(s.radius),
                    ),
                    color,
                },
            );
            return;
        }
        Volume::Kdop { .. } => return,
    };
    out.volume(Template::Cube, Style::Translucent, Instance { rows, color });
}

/// One volume as a wire (and a translucent fill when `fill`). A k-DOP is drawn as its
/// x, y, z slabs, as the trace overlay does.
pub fn draw_volume(v: &Volume, color: Rgba, fill: bool, out: &mut DrawList) {
    match v {
        Volume::Aabb(b) => out.aabb(b.min.coords.into(), b.max.coords.into(), color, fill),
        Volume::Obb(o) => {
            let m = Matrix4::new_translation(&o.center.coords)
                * o.axes.to_homogeneous()
                * Matrix4::new_nonuniform_scaling(&o.half_extents);
            let rows = rows_from(&m);
            out.volume(Template::Cube, Style::Wire, Instance { rows, color });
            if fill {
                let color = with_alpha(color, color[3] * 0.18);
                out.volume(Template::Cube, Style::Translucent, Instance { rows, color });
            }
        }
        Volume::Sphere(s) => out.sphere(&s.center, s.radius, color, fill),
        // The true polytope (the engine clips the slabs into faces): a k-DOP of a rotated body
        // has rotated slabs, which no box can show.
        Volume::Kdop { axes, min, max } => {
            if let Some(poly) = crate::bvh::polytope::Polytope::from_slabs(axes, min, max) {
                for (a, b) in poly.edges() {
                    out.line(to_f32(&a), to_f32(&b), color);
                }
            }
        }
    }
}

fn to_f32(p: &Point3) -> [f32; 3] {
    [p.x as f32, p.y as f32, p.z as f32]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bvh::{BuildOptions, BvKind};
    use crate::trace::Verdict;

    fn node(id: u32, depth: u32, sah: f64, overlap: f64) -> NodeStats {
        NodeStats {
            sah_contribution: sah,
            sibling_overlap_volume: overlap,
            ..super::super::test_node(id, depth)
        }
    }

    #[test]
    fn depth_range_keeps_exactly_the_levels_inside() {
        let nodes: Vec<NodeStats> = [0, 1, 1, 2, 2, 3, 5]
            .iter()
            .enumerate()
            .map(|(i, &d)| node(i as u32, d, 0.0, 0.0))
            .collect();
        assert_eq!(
            visible_nodes(&nodes, DepthRange { lo: 1, hi: 2 }),
            vec![1, 2, 3, 4]
        );
        assert_eq!(
            visible_nodes(&nodes, DepthRange { lo: 4, hi: 4 }),
            Vec::<u32>::new()
        );
        assert_eq!(visible_nodes(&nodes, DepthRange { lo: 0, hi: 9 }).len(), 7);
        assert_eq!(
            visible_nodes(&nodes, DepthRange { lo: 3, hi: 1 }),
            Vec::<u32>::new()
        );
    }

    #[test]
    fn heat_runs_from_blue_to_red_and_tolerates_bad_numbers() {
        let cold = heat(0.0);
        let hot = heat(1.0);
        assert!(cold[2] > cold[0], "{cold:?}");
        assert!(hot[0] > hot[2], "{hot:?}");
        assert_eq!(heat(f64::NAN), cold);
        assert_eq!(heat(7.0), hot);
    }

    #[test]
    fn neighbouring_depths_get_different_colours() {
        let r = DepthRange { lo: 0, hi: 6 };
        for d in 0..6 {
            assert_ne!(depth_color(d, r), depth_color(d + 1, r));
        }
    }

    #[test]
    fn colour_modes_read_the_right_metric() {
        let a = node(0, 0, 4.0, 0.0);
        let b = node(1, 3, 1.0, 2.0);
        let tested = [0, 5];
        let r = DepthRange { lo: 0, hi: 3 };
        assert_eq!(ColorMode::Sah.value(&a, &tested), 4.0);
        assert_eq!(ColorMode::SiblingOverlap.value(&b, &tested), 2.0);
        assert_eq!(ColorMode::Tested.value(&b, &tested), 5.0);
        assert_eq!(ColorMode::Depth.value(&b, &tested), 3.0);
        // The largest value is the hottest; an untested node is faint.
        assert_eq!(node_color(ColorMode::Sah, &a, &tested, 4.0, r), heat(1.0));
        assert_eq!(
            node_color(ColorMode::Tested, &b, &tested, 5.0, r),
            heat(1.0)
        );
        assert!(node_color(ColorMode::Tested, &a, &tested, 5.0, r)[3] < 0.5);
    }

    fn pair(a: u32, b: u32, node_a: u32, node_b: u32) -> TraceEvent {
        TraceEvent::new(
            Verdict::Hit,
            EventKind::Bvh(crate::bvh::BvhEvent::NodePair {
                a,
                b,
                node_a,
                node_b,
                separating_axis: None,
            }),
        )
    }

    #[test]
    fn test_counts_come_from_node_pairs_of_the_body() {
        let trace = vec![
            pair(1, 2, 0, 0),
            pair(1, 2, 1, 0),
            pair(2, 1, 3, 1),
            pair(3, 4, 1, 1),
        ];
        assert_eq!(tested_counts(&trace, 1, 3), vec![1, 2, 0]);
        assert_eq!(tested_counts(&trace, 2, 4), vec![2, 0, 0, 1]);
        assert_eq!(traversal_counts(&trace), (4, 0));
    }

    #[test]
    fn draws_one_volume_per_visible_node_plus_the_selection_fill() {
        let mesh = crate::world::procedural::torus(1.0, 0.3, 16, 8);
        let tree = AnyBvh::build(&mesh, BvKind::Aabb, &BuildOptions::default());
        let stats = tree.stats_with_tests(&[]);
        let range = DepthRange { lo: 1, hi: 2 };
        let expected = visible_nodes(&stats.per_node, range).len();
        assert!(expected > 0);
        let selected = visible_nodes(&stats.per_node, range)[0];
        for mode in ColorMode::ALL {
            let mut out = DrawList::default();
            HierarchyDrawing {
                tree: &tree,
                nodes: &stats.per_node,
                pose: Pose::identity(),
                range,
                mode,
                tested: &[],
                selected: Some(selected),
                dim: false,
            }
            .draw(&mut out);
            assert_eq!(out.volume_count(Template::Cube, Style::Wire), expected);
            assert_eq!(out.volume_count(Template::Cube, Style::Translucent), 1);
        }
        let mut merged = DrawList::default();
        let mut src = DrawList::default();
        src.aabb([0.0; 3], [1.0; 3], [1.0; 4], true);
        src.line([0.0; 3], [1.0; 3], [1.0; 4]);
        merged.merge(&src);
        merged.merge(&src);
        assert_eq!(merged.volume_count(Template::Cube, Style::Wire), 2);
        assert_eq!(merged.lines.len(), 4);
    }
}

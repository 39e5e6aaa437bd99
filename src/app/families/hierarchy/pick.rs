//! A click in the 3D view to a hierarchy node. The engine casts the click's ray through the
//! body's tree (the same `cast_ray` a query uses) and reports, step by step, each node the
//! ray enters; of those drawn (inside the depth range), the deepest wins, then the nearest.

use crate::app::families::FamilyContext;
use crate::app::families::hierarchy::draw::DepthRange;
use crate::bvh::{BvhEvent, NodeStats};
use crate::dynamics::Shape;
use crate::geom::Ray;
use crate::trace::{BodyId, EventKind, TraceRecorder};

/// Nodes the ray enters, with the entry distance, in the order the engine visited them.
pub fn nodes_on_ray(cx: &FamilyContext, body: BodyId, ray: &Ray) -> Vec<(u32, f64)> {
    let (Some(world), Some(tree), Some(pose)) = (cx.world(), cx.statics.tree(body), cx.pose(body))
    else {
        return vec![];
    };
    let Some(Shape::Mesh(mesh)) = world.bodies.get(body as usize).map(|b| &b.shape) else {
        return vec![];
    };
    let local = Ray::new(
        pose.inverse_transform_point(&ray.origin),
        pose.inverse_transform_vector(&ray.dir),
    );
    let mut probe = TraceRecorder::new(1_000_000);
    tree.cast_ray(mesh, &local, f64::INFINITY, body, &mut probe);
    probe
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Bvh(BvhEvent::RayStep {
                node: Some(n),
                t: Some(t),
                ..
            }) => Some((n, t)),
            _ => None,
        })
        .collect()
}

/// The node a click picks among those drawn: the deepest the ray enters, then the nearest.
pub fn pick_node(
    cx: &FamilyContext,
    body: BodyId,
    nodes: &[NodeStats],
    range: DepthRange,
    ray: &Ray,
) -> Option<u32> {
    choose(&nodes_on_ray(cx, body, ray), nodes, range)
}

/// Of the entered nodes, those inside the range; the deepest, then the nearest, then the
/// smallest id.
pub fn choose(entered: &[(u32, f64)], nodes: &[NodeStats], range: DepthRange) -> Option<u32> {
    entered
        .iter()
        .filter_map(|&(id, t)| Some((id, t, nodes.get(id as usize)?.depth)))
        .filter(|&(_, _, depth)| range.contains(depth))
        .min_by(|a, b| b.2.cmp(&a.2).then(a.1.total_cmp(&b.1)).then(a.0.cmp(&b.0)))
        .map(|(id, _, _)| id)
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::test_node as node;

    #[test]
    fn the_deepest_drawn_node_wins_then_the_nearest() {
        let nodes: Vec<NodeStats> = [0, 1, 1, 2, 2, 3]
            .iter()
            .enumerate()
            .map(|(i, &d)| node(i as u32, d))
            .collect();
        let entered = [(0, 0.5), (1, 0.7), (3, 1.2), (4, 0.9), (5, 2.0)];
        let r = |lo, hi| DepthRange { lo, hi };
        assert_eq!(
            choose(&entered, &nodes, r(0, 2)),
            Some(4),
            "depth 2, nearer"
        );
        assert_eq!(choose(&entered, &nodes, r(0, 3)), Some(5));
        assert_eq!(choose(&entered, &nodes, r(0, 0)), Some(0));
        assert_eq!(
            choose(&entered, &nodes, r(4, 6)),
            None,
            "nothing drawn there"
        );
        assert_eq!(choose(&[], &nodes, r(0, 9)), None);
    }
}

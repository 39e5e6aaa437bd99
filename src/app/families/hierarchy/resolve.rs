//! Ids to geometry: a node's volume or a triangle of a mesh body, placed at the body's
//! recorded pose, from the scene's static data. A traversal event names its nodes and
//! triangles; this is how the view finds what to draw, whatever else the event carries.

use crate::app::families::FamilyContext;
use crate::dynamics::Shape;
use crate::geom::Triangle;
use crate::trace::{BodyId, Volume};

/// A node of a body's tree, in world space at the frame's pose.
pub fn node_volume(cx: &FamilyContext, body: BodyId, node: u32) -> Option<Volume> {
    cx.statics
        .tree(body)?
        .node_world_volume(node, &cx.pose(body)?)
}

/// A triangle of a mesh body, in world space at the frame's pose.
pub fn triangle(cx: &FamilyContext, body: BodyId, index: u32) -> Option<Triangle> {
    let Shape::Mesh(mesh) = &cx.world()?.bodies.get(body as usize)?.shape else {
        return None;
    };
    if index as usize >= mesh.triangles.len() {
        return None;
    }
    let t = mesh.triangle(index as usize);
    let pose = cx.pose(body)?;
    Some(Triangle::new(pose * t.a, pose * t.b, pose * t.c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::families::SceneStatics;
    use crate::app::state::loader::{LoadOptions, LoadRequest};
    use crate::app::state::{AppState, Command};
    use crate::bvh::BvhEvent;
    use crate::trace::EventKind;

    fn close(a: &crate::geom::Point3, b: &crate::geom::Point3) -> bool {
        (a - b).norm() <= 1e-9 * (1.0 + a.coords.norm())
    }

    fn same(a: &Volume, b: &Volume) -> bool {
        match (a, b) {
            (Volume::Aabb(x), Volume::Aabb(y)) => close(&x.min, &y.min) && close(&x.max, &y.max),
            (Volume::Obb(x), Volume::Obb(y)) => {
                close(&x.center, &y.center)
                    && (x.half_extents - y.half_extents).norm() <= 1e-9
                    && (x.axes - y.axes).norm() <= 1e-9
            }
            _ => a == b,
        }
    }

    /// Ids resolved against the recorded scene and poses give back exactly the geometry the
    /// engine tested: the poses of a frame are those its traversals ran on.
    #[test]
    fn ids_resolve_to_the_geometry_the_engine_tested() {
        let mut st = AppState::new(LoadOptions {
            trace_limit: 50_000,
            budget_bytes: 64 << 20,
        });
        assert!(st.open_blocking(LoadRequest::Builtin("interlocked-tori".into())));
        st.apply(Command::StepFrames(12));
        let mut statics = SceneStatics::default();
        statics.sync(&st);
        let cx = FamilyContext::new(&st, &statics);
        let frame = cx.frame().expect("frame");
        let (mut nodes, mut triangles) = (0, 0);
        for e in &frame.trace {
            match &e.kind {
                EventKind::Bvh(BvhEvent::NodePair {
                    a,
                    b,
                    node_a,
                    node_b,
                    volume_a,
                    volume_b,
                    ..
                }) => {
                    for (body, node, recorded) in [(a, node_a, volume_a), (b, node_b, volume_b)] {
                        let r = node_volume(&cx, *body, *node).expect("a node of a mesh body");
                        assert!(same(&r, recorded), "{r:?} vs {recorded:?}");
                        nodes += 1;
                    }
                }
                EventKind::Bvh(BvhEvent::TrianglePair {
                    a,
                    b,
                    tri_a,
                    tri_b,
                    triangle_a,
                    triangle_b,
                    ..
                }) => {
                    for (body, tri, recorded) in [(a, tri_a, triangle_a), (b, tri_b, triangle_b)] {
                        let t = triangle(&cx, *body, *tri).expect("a mesh triangle");
                        assert!(
                            close(&t.a, &recorded.a)
                                && close(&t.b, &recorded.b)
                                && close(&t.c, &recorded.c)
                        );
                        triangles += 1;
                    }
                }
                _ => {}
            }
        }
        assert!(
            nodes > 0 && triangles > 0,
            "{nodes} nodes, {triangles} triangles"
        );
        assert!(triangle(&cx, 1, u32::MAX).is_none());
        assert!(node_volume(&cx, 0, 0).is_none(), "the floor has no tree");
    }
}

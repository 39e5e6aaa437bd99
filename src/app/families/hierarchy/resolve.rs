//! Ids to geometry: the volumes or triangles a traversal step tested, from the scene's static
//! data (each mesh body's tree and mesh, rebuilt from the recorded scene) placed at the poses
//! the traversal recorded (its `Traversal` event; the frame's poses for recordings older than
//! format 3). A traversal event names its nodes and triangles only; this is how the view finds
//! what to draw.

use crate::app::families::FamilyContext;
use crate::bvh::BvhEvent;
use crate::dynamics::Shape;
use crate::geom::{TriMesh, Triangle};
use crate::trace::{BodyId, TraceEvent, Volume};

/// A node of a body's tree, in world space at the frame's pose.
pub fn node_volume(cx: &FamilyContext, body: BodyId, node: u32) -> Option<Volume> {
    cx.statics
        .tree(body)?
        .node_world_volume(node, &cx.pose(body)?)
}

fn mesh<'a>(cx: &FamilyContext<'a>, body: BodyId) -> Option<&'a TriMesh> {
    match &cx.world()?.bodies.get(body as usize)?.shape {
        Shape::Mesh(mesh) => Some(mesh),
        _ => None,
    }
}

/// A triangle of a mesh body, in world space at the frame's pose.
pub fn triangle(cx: &FamilyContext, body: BodyId, index: u32) -> Option<Triangle> {
    BvhEvent::world_triangle(mesh(cx, body)?, index, &cx.pose(body)?)
}

/// Where `e` is in the frame's trace: the current event's index, else found by address (an
/// event is only ever handed out by reference into the frame).
fn index_of(cx: &FamilyContext, e: &TraceEvent) -> Option<usize> {
    if let Some((i, current)) = cx.event()
        && std::ptr::eq(current, e)
    {
        return Some(i);
    }
    cx.frame()?.trace.iter().position(|x| std::ptr::eq(x, e))
}

/// The two world volumes node-pair event `e` of the current frame tested.
pub fn pair_volumes(cx: &FamilyContext, e: &TraceEvent) -> Option<(Volume, Volume)> {
    let at = index_of(cx, e)?;
    BvhEvent::node_pair_volumes(&cx.frame()?.trace, at, &|b| cx.statics.tree(b), &|b| {
        cx.pose(b)
    })
}

/// The two world triangles triangle-pair event `e` of the current frame tested.
pub fn pair_triangles(cx: &FamilyContext, e: &TraceEvent) -> Option<(Triangle, Triangle)> {
    let at = index_of(cx, e)?;
    BvhEvent::triangle_pair_triangles(&cx.frame()?.trace, at, &|b| mesh(cx, b), &|b| cx.pose(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::families::SceneStatics;
    use crate::app::state::loader::{LoadOptions, LoadRequest};
    use crate::app::state::{AppState, Command};
    use crate::geom::Point3;
    use crate::trace::EventKind;

    /// `p` lies on triangle `t` (in its plane, inside its edges), to rounding.
    fn on_triangle(p: &Point3, t: &Triangle) -> bool {
        let n = t.scaled_normal();
        let scale = 1e-9 * (1.0 + t.a.coords.norm() + (t.b - t.a).norm() + (t.c - t.a).norm());
        let inside = |u: &Point3, v: &Point3| n.dot(&(v - u).cross(&(p - u))) >= -scale * n.norm();
        n.norm() > 0.0
            && (n.dot(&(p - t.a)) / n.norm()).abs() <= scale
            && inside(&t.a, &t.b)
            && inside(&t.b, &t.c)
            && inside(&t.c, &t.a)
    }

    /// The view resolves every traversal step of a recorded frame from its ids: node volumes
    /// are the tree's nodes at the poses the traversal announced, and each intersection
    /// segment the engine recorded lies on both resolved triangles (an independent check
    /// that the right triangles at the right poses were found).
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
        for (i, e) in frame.trace.iter().enumerate() {
            match &e.kind {
                EventKind::Bvh(BvhEvent::NodePair {
                    a,
                    b,
                    node_a,
                    node_b,
                    ..
                }) => {
                    let (va, vb) = pair_volumes(&cx, e).expect("a node pair of two mesh bodies");
                    let poses = BvhEvent::traversal_poses(&frame.trace, i).expect("announced");
                    let tree = |body| cx.statics.tree(body).expect("a tree");
                    assert_eq!(
                        tree(*a).node_world_volume(*node_a, &poses.pose_a()),
                        Some(va)
                    );
                    assert_eq!(
                        tree(*b).node_world_volume(*node_b, &poses.pose_b()),
                        Some(vb)
                    );
                    nodes += 1;
                }
                EventKind::Bvh(BvhEvent::TrianglePair { segment, .. }) => {
                    let (ta, tb) = pair_triangles(&cx, e).expect("two mesh triangles");
                    if let Some(s) = segment {
                        for p in [s.a, s.b] {
                            assert!(on_triangle(&p, &ta) && on_triangle(&p, &tb), "{p:?}");
                        }
                    }
                    triangles += 1;
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

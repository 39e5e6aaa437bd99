//! The polyhedra of the scene's paired bodies, rebuilt once per session by the engine's own
//! `body_polyhedron` from the scene statics (the recording holds poses, never the shapes), and
//! the pairs the scene tracks.

use crate::app::families::FamilyContext;
use crate::convex::scene::{ConvexFrame, ConvexScene, WalkRecord};
use crate::convex::{Placed, Polyhedron};
use crate::families::{FamilyFrameData, FamilySceneData};
use crate::geom::Pose;
use crate::trace::BodyId;
use std::sync::Arc;

/// The convex family's data of the open scene, if it has any.
pub fn scene_data<'a>(cx: &FamilyContext<'a>) -> Option<&'a ConvexScene> {
    cx.scene_data().iter().find_map(|d| match d {
        FamilySceneData::Convex(c) => Some(c),
        #[allow(unreachable_patterns)]
        _ => None,
    })
}

/// What the frame under the playhead recorded of each pair.
pub fn frame_data<'a>(cx: &FamilyContext<'a>) -> Option<&'a ConvexFrame> {
    cx.frame()?.families.iter().find_map(|d| match d {
        FamilyFrameData::Convex(c) => Some(c),
        #[allow(unreachable_patterns)]
        _ => None,
    })
}

/// The tracked pairs, as body ids.
pub fn pairs(cx: &FamilyContext) -> Vec<[BodyId; 2]> {
    scene_data(cx).map_or_else(Vec::new, |d| d.pairs.clone())
}

/// The recorded walk of pair `k` in the frame under the playhead.
pub fn record(cx: &FamilyContext, k: usize) -> Option<WalkRecord> {
    frame_data(cx)?.walks.get(k).copied()
}

/// Each body's polyhedron by body id (`None` for bodies that are not convex), per session.
#[derive(Default)]
pub struct ShapeCache {
    generation: Option<u64>,
    shapes: Vec<Option<Arc<Polyhedron>>>,
}

impl ShapeCache {
    fn sync(&mut self, cx: &FamilyContext) {
        if self.generation == Some(cx.generation()) && cx.world().is_some() {
            return;
        }
        self.generation = Some(cx.generation());
        self.shapes = cx.world().map_or_else(Vec::new, |w| {
            w.bodies
                .iter()
                .map(|b| crate::convex::sim::body_polyhedron(b).map(Arc::new))
                .collect()
        });
    }

    pub fn get(&mut self, cx: &FamilyContext, body: BodyId) -> Option<Arc<Polyhedron>> {
        self.sync(cx);
        self.shapes.get(body as usize)?.clone()
    }

    /// A body's polyhedron with its recorded pose in the frame under the playhead.
    pub fn posed(&mut self, cx: &FamilyContext, body: BodyId) -> Option<PosedShape> {
        Some(PosedShape {
            body,
            shape: self.get(cx, body)?,
            pose: cx.pose(body)?,
        })
    }
}

/// A polyhedron where a frame (or a drag) put it.
#[derive(Clone, Debug)]
pub struct PosedShape {
    pub body: BodyId,
    pub shape: Arc<Polyhedron>,
    pub pose: Pose,
}

impl PosedShape {
    pub fn placed(&self) -> Placed<'_> {
        Placed::new(&self.shape, &self.pose)
    }
}

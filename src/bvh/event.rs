//! The hierarchies' trace events: node pairs, triangle pairs, refits, ray steps.

use crate::geom::{Point3, Pose, Quat, Real, Segment, Vec3};
use crate::trace::FamilyEvent;
use crate::trace::{BodyId, DebugShape, ShapeRole, Verdict, Volume, volume_shapes};
use serde::{Deserialize, Serialize};

mod resolve;

/// Where two bodies were when a traversal ran: the poses its node and triangle tests used.
/// Recorded once per traversal (not in every test) because a step with substeps runs its
/// traversals at poses the frame does not hold.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraversalPoses {
    pub a: BodyId,
    pub b: BodyId,
    pub position_a: Point3,
    pub rotation_a: Quat,
    pub position_b: Point3,
    pub rotation_b: Quat,
}

impl TraversalPoses {
    pub fn new(a: BodyId, pose_a: &Pose, b: BodyId, pose_b: &Pose) -> Self {
        Self {
            a,
            b,
            position_a: pose_a.translation.vector.into(),
            rotation_a: pose_a.rotation,
            position_b: pose_b.translation.vector.into(),
            rotation_b: pose_b.rotation,
        }
    }

    pub fn pose_a(&self) -> Pose {
        Pose::from_parts(self.position_a.coords.into(), self.rotation_a)
    }

    pub fn pose_b(&self) -> Pose {
        Pose::from_parts(self.position_b.coords.into(), self.rotation_b)
    }
}

/// The hierarchies' events carry ids, not geometry: a node's volume is a function of the
/// body's tree (rebuilt by a reader from the recorded scene, exactly as the engine built it)
/// and the traversal's poses (its [`BvhEvent::Traversal`] event), a triangle one of the
/// recorded mesh. `resolve` turns them back into the geometry the engine tested.
/// Format v2 carried both world volumes in every node pair: four fifths of a mesh
/// recording's bytes (docs/recording-format.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BvhEvent {
    /// Two nodes tested during tree-versus-tree traversal; for OBBs, the separating axis
    /// (0..15 in RAPID's order) when the verdict is `Miss`.
    NodePair {
        a: BodyId,
        b: BodyId,
        node_a: u32,
        node_b: u32,
        separating_axis: Option<u8>,
    },
    /// An exact triangle–triangle test; `segment` is the intersection when they meet (a
    /// result, so it is recorded).
    TrianglePair {
        a: BodyId,
        b: BodyId,
        tri_a: u32,
        tri_b: u32,
        segment: Option<Segment>,
    },
    /// A node's new volume after a refit: this is how a refitted hierarchy is recorded.
    Refit {
        body: BodyId,
        node: u32,
        volume: Volume,
    },
    /// A ray tested against a node or triangle (`node` None for a triangle).
    RayStep {
        body: BodyId,
        origin: Point3,
        dir: Vec3,
        node: Option<u32>,
        triangle: Option<u32>,
        t: Option<Real>,
    },
    /// A tree-versus-tree traversal starts: the node and triangle pairs that follow (up to
    /// the next `Traversal` of the same bodies) were tested at these poses.
    Traversal(TraversalPoses),
}

impl BvhEvent {
    /// The event that starts a traversal of bodies `a` and `b` at these poses.
    pub fn traversal(a: BodyId, pose_a: &Pose, b: BodyId, pose_b: &Pose) -> Self {
        BvhEvent::Traversal(TraversalPoses::new(a, pose_a, b, pose_b))
    }
}

fn volume_heap(v: &Volume) -> usize {
    use std::mem::size_of;
    match v {
        Volume::Kdop { axes, min, max } => {
            axes.len() * size_of::<Vec3>() + (min.len() + max.len()) * size_of::<Real>()
        }
        _ => 0,
    }
}

impl FamilyEvent for BvhEvent {
    fn bodies(&self) -> Vec<BodyId> {
        use BvhEvent::*;
        match self {
            Refit { body, .. } | RayStep { body, .. } => vec![*body],
            NodePair { a, b, .. } | TrianglePair { a, b, .. } => vec![*a, *b],
            Traversal(p) => vec![p.a, p.b],
        }
    }

    fn summary(&self, verdict: Verdict) -> String {
        use BvhEvent::*;
        let v = verdict.word();
        match self {
            NodePair {
                a,
                b,
                node_a,
                node_b,
                separating_axis,
                ..
            } => match separating_axis {
                Some(axis) => {
                    format!("nodes {a}:{node_a} × {b}:{node_b}: separated by axis {axis}")
                }
                None => format!("nodes {a}:{node_a} × {b}:{node_b}: {v}"),
            },
            TrianglePair {
                a, b, tri_a, tri_b, ..
            } => format!("triangles {a}:{tri_a} × {b}:{tri_b}: {v}"),
            Refit { body, node, .. } => format!("refit body {body} node {node}"),
            Traversal(p) => format!("traversal of bodies {} × {}", p.a, p.b),
            RayStep {
                body,
                node,
                triangle,
                t,
                ..
            } => {
                let what = match (node, triangle) {
                    (Some(n), _) => format!("node {n}"),
                    (None, Some(t)) => format!("triangle {t}"),
                    _ => "mesh".to_string(),
                };
                match t {
                    Some(t) => format!("ray vs body {body} {what}: t = {t:.4}"),
                    None => format!("ray vs body {body} {what}: {v}"),
                }
            }
        }
    }

    fn shapes(&self, out: &mut Vec<DebugShape>) {
        use BvhEvent::*;
        use DebugShape as S;
        use ShapeRole::*;
        match self {
            // Their volumes and triangles are drawn by the hierarchy view, which resolves the
            // ids (see `resolve`); the event itself holds only the result.
            NodePair { .. } | Traversal(_) => {}
            TrianglePair { segment, .. } => {
                if let Some(s) = segment {
                    out.push(S::Line(s.a, s.b, Result));
                }
            }
            Refit { volume, .. } => volume_shapes(volume, First, out),
            RayStep { origin, dir, t, .. } => {
                let len = t.unwrap_or(1.0);
                out.push(S::Arrow(*origin, dir * len, First));
                if let Some(t) = t {
                    out.push(S::Point(origin + dir * *t, Result));
                }
            }
        }
    }

    fn heap_bytes(&self) -> usize {
        match self {
            BvhEvent::Refit { volume, .. } => volume_heap(volume),
            _ => 0,
        }
    }
}

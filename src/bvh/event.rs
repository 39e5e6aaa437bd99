//! The hierarchies' trace events: node pairs, triangle pairs, refits, ray steps.

use crate::family::FamilyEvent;
use crate::geom::{Point3, Real, Segment, Triangle, Vec3};
use crate::trace::{BodyId, DebugShape, ShapeRole, Verdict, Volume, volume_shapes};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BvhEvent {
    /// Two nodes tested during tree-versus-tree traversal; for OBBs, the separating axis
    /// (0..15 in RAPID's order) when the verdict is `Miss`.
    NodePair {
        a: BodyId,
        b: BodyId,
        node_a: u32,
        node_b: u32,
        volume_a: Volume,
        volume_b: Volume,
        separating_axis: Option<u8>,
    },
    /// An exact triangle–triangle test; `segment` is the intersection when they meet.
    TrianglePair {
        a: BodyId,
        b: BodyId,
        tri_a: u32,
        tri_b: u32,
        triangle_a: Triangle,
        triangle_b: Triangle,
        segment: Option<Segment>,
    },
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
            NodePair {
                volume_a, volume_b, ..
            } => {
                volume_shapes(volume_a, First, out);
                volume_shapes(volume_b, Second, out);
            }
            TrianglePair {
                triangle_a,
                triangle_b,
                segment,
                ..
            } => {
                out.push(S::Triangle(*triangle_a, First));
                out.push(S::Triangle(*triangle_b, Second));
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
            BvhEvent::NodePair {
                volume_a, volume_b, ..
            } => volume_heap(volume_a) + volume_heap(volume_b),
            BvhEvent::Refit { volume, .. } => volume_heap(volume),
            _ => 0,
        }
    }
}

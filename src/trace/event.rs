use crate::geom::{Aabb, Obb, Plane, Point3, Real, Segment, Sphere, Triangle, Vec3};
use serde::{Deserialize, Serialize};

/// Stable id of a body: its index in the scene, unchanged across frames and seeks.
pub type BodyId = u32;

/// A feature of a convex polyhedron (V-Clip's vocabulary), as the query protocol spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FeatureId {
    Vertex(u32),
    Edge(u32),
    Face(u32),
}

impl std::fmt::Display for FeatureId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FeatureId::Vertex(i) => write!(f, "V{i}"),
            FeatureId::Edge(i) => write!(f, "E{i}"),
            FeatureId::Face(i) => write!(f, "F{i}"),
        }
    }
}

/// The pipeline stage or algorithm family an event belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stage {
    Integrate,
    BroadPhase,
    NarrowPhase,
    Response,
    Bvh,
    Convex,
    Bsp,
    Nurbs,
    Cloth,
    Raycast,
}

impl Stage {
    pub const ALL: [Stage; 10] = [
        Stage::Integrate,
        Stage::BroadPhase,
        Stage::NarrowPhase,
        Stage::Response,
        Stage::Bvh,
        Stage::Convex,
        Stage::Bsp,
        Stage::Nurbs,
        Stage::Cloth,
        Stage::Raycast,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Stage::Integrate => "integrate",
            Stage::BroadPhase => "broad phase",
            Stage::NarrowPhase => "narrow phase",
            Stage::Response => "response",
            Stage::Bvh => "bvh",
            Stage::Convex => "convex",
            Stage::Bsp => "bsp",
            Stage::Nurbs => "nurbs",
            Stage::Cloth => "cloth",
            Stage::Raycast => "raycast",
        }
    }
}

/// What a test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    /// Overlap, intersection, contact: the test said yes.
    Hit,
    /// Separated, culled: the test said no.
    Miss,
    /// Bookkeeping: a step that decides nothing by itself.
    Info,
    /// Something a user should look at: deep penetration, an inverted vertex, a divergence.
    Warning,
}

/// A bounding volume as recorded, with enough to draw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Volume {
    Aabb(Aabb),
    Obb(Obb),
    Sphere(Sphere),
    /// A discrete-orientation polytope: `min[i] ≤ axis_i · x ≤ max[i]`.
    Kdop {
        axes: Vec<Vec3>,
        min: Vec<Real>,
        max: Vec<Real>,
    },
}

/// One step inside a frame. Every event carries stable ids, the geometry to draw it and a
/// verdict; the viewer draws nothing else.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceEvent {
    pub stage: Stage,
    pub verdict: Verdict,
    pub kind: EventKind,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum EventKind {
    // --- rigid-body pipeline --------------------------------------------------------------
    /// A body moved during integration.
    Integrated {
        body: BodyId,
        from: Point3,
        to: Point3,
    },
    /// A broad-phase candidate pair with the boxes that made it one (or not).
    BroadPair {
        a: BodyId,
        b: BodyId,
        box_a: Aabb,
        box_b: Aabb,
    },
    /// Sweep and prune swapped two interval ends on an axis.
    SapSwap {
        axis: u8,
        a: BodyId,
        b: BodyId,
        value: Real,
    },
    /// A pair entered (`Hit`) or left (`Miss`) the persistent broad-phase pair set.
    PairChanged { a: BodyId, b: BodyId },
    /// A cell of a uniform grid or an octree and the bodies in it.
    SpatialCell {
        bounds: Aabb,
        depth: u8,
        bodies: Vec<BodyId>,
    },
    /// A narrow-phase shape test: its name (e.g. "sphere-box"), how many contact points it
    /// found and the deepest penetration among them (0 when none).
    ShapeTest {
        a: BodyId,
        b: BodyId,
        test: String,
        contacts: u32,
        max_depth: Real,
    },
    Contact {
        a: BodyId,
        b: BodyId,
        point: Point3,
        normal: Vec3,
        depth: Real,
    },
    Impulse {
        a: BodyId,
        b: BodyId,
        point: Point3,
        normal: Vec3,
        normal_impulse: Real,
        friction_impulse: Vec3,
    },

    // --- bounding-volume hierarchies ------------------------------------------------------
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

    // --- convex polyhedra (Lin-Canny / V-Clip) --------------------------------------------
    FeaturePair {
        a: BodyId,
        b: BodyId,
        feature_a: FeatureId,
        feature_b: FeatureId,
        closest_a: Point3,
        closest_b: Point3,
        distance: Real,
        /// What the walk did next ("clipped, moved to V2", "done").
        action: String,
    },

    // --- BSP slides -----------------------------------------------------------------------
    SlideIteration {
        body: BodyId,
        iteration: u32,
        start: Point3,
        end: Point3,
        fraction: Real,
        plane: Option<Plane>,
        brush: Option<u32>,
    },

    // --- NURBS OBB trees --------------------------------------------------------------------
    PatchPair {
        a: BodyId,
        b: BodyId,
        /// Parameter boxes `[u0, u1, v0, v1]` of the two sub-patches.
        uv_a: [Real; 4],
        uv_b: [Real; 4],
        obb_a: Obb,
        obb_b: Obb,
    },

    // --- cloth --------------------------------------------------------------------------------
    InvertedVertex {
        cloth: BodyId,
        vertex: u32,
        triangle: u32,
        point: Point3,
        normal: Vec3,
    },

    /// Free text with optional geometry, for anything the vocabulary lacks.
    Note { text: String, points: Vec<Point3> },
}

impl TraceEvent {
    pub fn new(stage: Stage, verdict: Verdict, kind: EventKind) -> Self {
        Self {
            stage,
            verdict,
            kind,
        }
    }

    /// The bodies this event concerns, for selection and filtering.
    pub fn bodies(&self) -> Vec<BodyId> {
        use EventKind::*;
        match &self.kind {
            Integrated { body, .. } | Refit { body, .. } | RayStep { body, .. } => vec![*body],
            SlideIteration { body, .. } => vec![*body],
            InvertedVertex { cloth, .. } => vec![*cloth],
            BroadPair { a, b, .. }
            | SapSwap { a, b, .. }
            | PairChanged { a, b }
            | ShapeTest { a, b, .. }
            | Contact { a, b, .. }
            | Impulse { a, b, .. }
            | NodePair { a, b, .. }
            | TrianglePair { a, b, .. }
            | FeaturePair { a, b, .. }
            | PatchPair { a, b, .. } => vec![*a, *b],
            SpatialCell { bodies, .. } => bodies.clone(),
            Note { .. } => vec![],
        }
    }

    /// A one-line description for the timeline and the event list.
    pub fn summary(&self) -> String {
        use EventKind::*;
        let v = match self.verdict {
            Verdict::Hit => "hit",
            Verdict::Miss => "miss",
            Verdict::Info => "info",
            Verdict::Warning => "WARNING",
        };
        match &self.kind {
            Integrated { body, to, .. } => {
                format!(
                    "body {body} moved to ({:.3}, {:.3}, {:.3})",
                    to.x, to.y, to.z
                )
            }
            BroadPair { a, b, .. } => format!("broad pair {a}–{b}: {v}"),
            SapSwap { axis, a, b, value } => {
                format!("SAP swap on {} at {value:.3}: {a} ↔ {b}", axis_name(*axis))
            }
            PairChanged { a, b } => match self.verdict {
                Verdict::Hit => format!("pair {a}–{b} added"),
                _ => format!("pair {a}–{b} removed"),
            },
            SpatialCell { depth, bodies, .. } => {
                format!("cell at depth {depth} holds {} bodies", bodies.len())
            }
            ShapeTest {
                a,
                b,
                test,
                contacts,
                max_depth,
            } => match contacts {
                0 => format!("{test} {a}–{b}: apart"),
                n => format!("{test} {a}–{b}: {n} contacts, depth {max_depth:.4}"),
            },
            Contact { a, b, depth, .. } => format!("contact {a}–{b}, depth {depth:.4}"),
            Impulse {
                a,
                b,
                normal_impulse,
                ..
            } => format!("impulse {a}–{b}: {normal_impulse:.4} N·s"),
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
            FeaturePair {
                feature_a,
                feature_b,
                distance,
                action,
                ..
            } => format!("features {feature_a} × {feature_b}: d = {distance:.4}, {action}"),
            SlideIteration {
                iteration,
                fraction,
                ..
            } => format!("slide iteration {iteration}: fraction {fraction:.3}"),
            PatchPair { uv_a, uv_b, .. } => format!(
                "patches u[{:.3},{:.3}]v[{:.3},{:.3}] × u[{:.3},{:.3}]v[{:.3},{:.3}]: {v}",
                uv_a[0], uv_a[1], uv_a[2], uv_a[3], uv_b[0], uv_b[1], uv_b[2], uv_b[3]
            ),
            InvertedVertex {
                vertex, triangle, ..
            } => format!("vertex {vertex} inverted against triangle {triangle}"),
            Note { text, .. } => text.clone(),
        }
    }
}

pub(crate) fn axis_name(axis: u8) -> &'static str {
    match axis {
        0 => "x",
        1 => "y",
        2 => "z",
        _ => "?",
    }
}

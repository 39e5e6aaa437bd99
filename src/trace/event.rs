pub use crate::families::EventKind;
use crate::geom::{Aabb, Obb, Real, Sphere, Vec3};
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

/// Where in the step an event happened: one of the rigid pipeline's stages, or a family's
/// own step. An event's family is not a stage: it comes from its kind
/// ([`EventKind::family`]), so a shared algorithm (a hierarchy traversal, a GJK query) says
/// whether it ran in the broad phase, the narrow phase or a family's step.
///
/// The stage is stamped by the probe ([`Probe::set_stage`](super::Probe::set_stage)), which
/// the world moves from stage to stage; algorithms never name one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stage {
    Integrate,
    BroadPhase,
    NarrowPhase,
    Response,
    /// A family's own simulation, after the rigid pipeline (a BSP slide, a cloth step), or
    /// anything run outside a world (a query, a viewer's replay of one).
    #[default]
    FamilyStep,
}

impl Stage {
    pub const ALL: [Stage; 5] = [
        Stage::Integrate,
        Stage::BroadPhase,
        Stage::NarrowPhase,
        Stage::Response,
        Stage::FamilyStep,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Stage::Integrate => "integrate",
            Stage::BroadPhase => "broad phase",
            Stage::NarrowPhase => "narrow phase",
            Stage::Response => "response",
            Stage::FamilyStep => "family step",
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

/// One step inside a frame. Every event carries stable ids, what cannot be derived from the
/// recording, and a verdict; the viewer draws nothing else.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceEvent {
    pub stage: Stage,
    pub verdict: Verdict,
    /// The event of one algorithm family (see `src/families.rs`).
    pub kind: EventKind,
}

impl TraceEvent {
    /// An event of the stage the probe that records it is in.
    pub fn new(verdict: Verdict, kind: impl Into<EventKind>) -> Self {
        Self::staged(Stage::default(), verdict, kind)
    }

    /// An event of a given stage: what a decoder or a test builds.
    pub fn staged(stage: Stage, verdict: Verdict, kind: impl Into<EventKind>) -> Self {
        Self {
            stage,
            verdict,
            kind: kind.into(),
        }
    }

    /// The bodies this event concerns, for selection and filtering.
    pub fn bodies(&self) -> Vec<BodyId> {
        self.kind.bodies()
    }

    /// A one-line description for the timeline and the event list.
    pub fn summary(&self) -> String {
        self.kind.summary(self.verdict)
    }

    /// The name of the family the event belongs to.
    pub fn family(&self) -> &'static str {
        self.kind.family()
    }

    /// What `diff` compares the event as (see [`DiffRole`](super::DiffRole)).
    pub fn kind_diff_role(&self) -> super::DiffRole {
        self.kind.diff_role(self.verdict)
    }
}

impl Verdict {
    /// The word a summary uses for the verdict.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Hit => "hit",
            Verdict::Miss => "miss",
            Verdict::Info => "info",
            Verdict::Warning => "WARNING",
        }
    }
}

pub fn axis_name(axis: u8) -> &'static str {
    match axis {
        0 => "x",
        1 => "y",
        2 => "z",
        _ => "?",
    }
}

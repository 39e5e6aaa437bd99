//! The lines of the capture stream as Rust values: what the parser reads, what [`Capture`]
//! (the Rust API) takes and what the stream writer writes. One type per kind of line in
//! `docs/capture-stream.md`.
//!
//! [`Capture`]: super::Capture

use super::EngineId;
use serde::{Deserialize, Serialize};

/// One line of the stream.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Header(Header),
    Shape(ShapeItem),
    Body(BodyItem),
    Collider(ColliderItem),
    Remove(RemoveItem),
    Frame(FrameItem),
    State(StateItem),
    Pair(PairItem),
    Contact(ContactItem),
    Event(EventItem),
    EndFrame(EndFrameItem),
}

impl Item {
    /// The line's `"kind"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Item::Header(_) => "header",
            Item::Shape(_) => "shape",
            Item::Body(_) => "body",
            Item::Collider(_) => "collider",
            Item::Remove(_) => "remove",
            Item::Frame(_) => "frame",
            Item::State(_) => "state",
            Item::Pair(_) => "pair",
            Item::Contact(_) => "contact",
            Item::Event(_) => "event",
            Item::EndFrame(_) => "end_frame",
        }
    }
}

/// What a capture records, declared up front so that a stage with nothing in a step reads
/// as zero rather than "not captured" (an extension of the contract: `"captures": [...]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Captured(pub u8);

impl Captured {
    pub const STATES: Captured = Captured(1);
    pub const VELOCITIES: Captured = Captured(2);
    pub const PAIRS: Captured = Captured(4);
    pub const CONTACTS: Captured = Captured(8);
    pub const IMPULSES: Captured = Captured(16);
    pub const EVENTS: Captured = Captured(32);
    pub const SLEEPING: Captured = Captured(64);
    pub const CCD: Captured = Captured(128);

    /// Names as the header's `captures` spells them.
    pub const NAMES: [(&'static str, Captured); 8] = [
        ("states", Captured::STATES),
        ("velocities", Captured::VELOCITIES),
        ("pairs", Captured::PAIRS),
        ("contacts", Captured::CONTACTS),
        ("impulses", Captured::IMPULSES),
        ("events", Captured::EVENTS),
        ("sleeping", Captured::SLEEPING),
        ("ccd", Captured::CCD),
    ];

    pub fn has(self, what: Captured) -> bool {
        self.0 & what.0 == what.0
    }

    pub fn with(self, what: Captured) -> Captured {
        Captured(self.0 | what.0)
    }

    pub fn names(self) -> Vec<&'static str> {
        Self::NAMES
            .iter()
            .filter(|(_, c)| self.has(*c))
            .map(|(n, _)| *n)
            .collect()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The engine and its version, as it names itself ("rapier3d 0.36.1").
    pub engine: String,
    pub dt_s: Option<f64>,
    pub gravity: Option<[f64; 3]>,
    pub up: [f64; 3],
    pub length_unit_m: f64,
    /// Stages the engine promises to send every step (extension).
    pub captures: Captured,
    /// Penetration beyond which a contact is marked (extension; default 0.01 m).
    pub penetration_tolerance_m: Option<f64>,
    /// How far apart two colliders may be and still get a contact (extension): the engine's
    /// speculative or prediction distance, which the audit allows reported contacts.
    pub prediction_distance_m: Option<f64>,
    /// The step's contacts and pairs were found on the poses at its start (the step
    /// before's states), not its end (extension, `"contacts_at": "step_start"`): Rapier
    /// detects collisions before it integrates.
    pub contacts_at_start: bool,
}

impl Header {
    pub fn new(engine: impl Into<String>) -> Self {
        Self {
            engine: engine.into(),
            dt_s: None,
            gravity: None,
            up: [0.0, 1.0, 0.0],
            length_unit_m: 1.0,
            captures: Captured::default(),
            penetration_tolerance_m: None,
            prediction_distance_m: None,
            contacts_at_start: false,
        }
    }
}

/// A shape as the engine describes it (local coordinates of its collider).
#[derive(Clone, Debug, PartialEq)]
pub enum CapturedShape {
    Sphere {
        radius: f64,
    },
    Cuboid {
        half_extents: [f64; 3],
    },
    /// Axis y.
    Capsule {
        radius: f64,
        half_height: f64,
    },
    /// Axis y.
    Cylinder {
        radius: f64,
        half_height: f64,
    },
    Convex {
        points: Vec<[f64; 3]>,
    },
    TriMesh {
        vertices: Vec<[f64; 3]>,
        triangles: Vec<[u32; 3]>,
    },
    /// Rows along z, columns along x, centred on the origin and spanning `scale.x` by
    /// `scale.z`; heights are multiplied by `scale.y`.
    HeightField {
        heights: Vec<Vec<f64>>,
        scale: [f64; 3],
    },
    /// The half-space `normal · x <= d`.
    Plane {
        normal: [f64; 3],
        d: f64,
    },
}

impl CapturedShape {
    pub fn type_name(&self) -> &'static str {
        match self {
            CapturedShape::Sphere { .. } => "sphere",
            CapturedShape::Cuboid { .. } => "cuboid",
            CapturedShape::Capsule { .. } => "capsule",
            CapturedShape::Cylinder { .. } => "cylinder",
            CapturedShape::Convex { .. } => "convex",
            CapturedShape::TriMesh { .. } => "trimesh",
            CapturedShape::HeightField { .. } => "heightfield",
            CapturedShape::Plane { .. } => "plane",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ShapeItem {
    pub id: EngineId,
    pub shape: CapturedShape,
    /// When the shape stands in for one the capture could not map (a compound, a cone): what
    /// it was. The shape is then its bounding box (extension: `"approximates"`).
    pub approximates: Option<String>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Motion {
    #[default]
    Dynamic,
    Kinematic,
    Fixed,
}

impl Motion {
    pub fn name(self) -> &'static str {
        match self {
            Motion::Dynamic => "dynamic",
            Motion::Kinematic => "kinematic",
            Motion::Fixed => "fixed",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct BodyItem {
    pub id: EngineId,
    pub name: Option<String>,
    pub motion: Motion,
}

/// A rigid transform: translation, then a unit quaternion `[w, x, y, z]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoseItem {
    pub translation: [f64; 3],
    pub rotation: [f64; 4],
}

impl PoseItem {
    pub const IDENTITY: PoseItem = PoseItem {
        translation: [0.0; 3],
        rotation: [1.0, 0.0, 0.0, 0.0],
    };

    pub fn is_identity(&self) -> bool {
        *self == Self::IDENTITY
    }
}

impl Default for PoseItem {
    fn default() -> Self {
        Self::IDENTITY
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ColliderItem {
    pub id: EngineId,
    pub body: EngineId,
    pub shape: EngineId,
    /// Relative to the body.
    pub pose: PoseItem,
    pub sensor: bool,
    pub name: Option<String>,
}

/// Which kind of thing a `remove` names, when a body and a collider share the id (extension:
/// `"what": "body"` or `"collider"`; without it, both are removed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removed {
    Body,
    Collider,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RemoveItem {
    pub id: EngineId,
    pub what: Option<Removed>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameItem {
    pub frame: u64,
    pub time_s: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StateItem {
    pub body: EngineId,
    pub pose: PoseItem,
    pub linvel: Option<[f64; 3]>,
    pub angvel: Option<[f64; 3]>,
    pub sleeping: Option<bool>,
    pub ccd: Option<bool>,
}

impl StateItem {
    pub fn at(body: impl Into<EngineId>, pose: PoseItem) -> Self {
        Self {
            body: body.into(),
            pose,
            linvel: None,
            angvel: None,
            sleeping: None,
            ccd: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct PairItem {
    pub a: EngineId,
    pub b: EngineId,
    pub touching: Option<bool>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ContactItem {
    pub a: EngineId,
    pub b: EngineId,
    pub manifold: u32,
    pub point: u32,
    /// World position, on `a`.
    pub position: [f64; 3],
    /// World, unit, from `a` towards `b`.
    pub normal: [f64; 3],
    /// Negative: penetration depth.
    pub distance: f64,
    pub normal_impulse: Option<f64>,
    pub tangent_impulse: Option<[f64; 2]>,
    pub feature_a: Option<String>,
    pub feature_b: Option<String>,
}

impl ContactItem {
    pub fn new(
        a: impl Into<EngineId>,
        b: impl Into<EngineId>,
        position: [f64; 3],
        normal: [f64; 3],
        distance: f64,
    ) -> Self {
        Self {
            a: a.into(),
            b: b.into(),
            manifold: 0,
            point: 0,
            position,
            normal,
            distance,
            normal_impulse: None,
            tangent_impulse: None,
            feature_a: None,
            feature_b: None,
        }
    }
}

/// A value of a free event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum EventValue {
    Number(f64),
    Text(String),
    Vector(Vec<f64>),
}

impl std::fmt::Display for EventValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EventValue::Number(x) => write!(f, "{}", super::numbers::number_text(*x)),
            EventValue::Text(s) => f.write_str(s),
            EventValue::Vector(v) => {
                let parts: Vec<String> =
                    v.iter().map(|x| super::numbers::number_text(*x)).collect();
                write!(f, "[{}]", parts.join(", "))
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct EventItem {
    /// `"broad"`, `"narrow"`, `"ccd"`, `"solver"` or any other text.
    pub stage: String,
    pub label: String,
    pub bodies: Vec<EngineId>,
    pub values: Vec<(String, EventValue)>,
    /// `"hit"`, `"miss"`, `"info"` (default) or `"warning"` (extension).
    pub verdict: crate::trace::Verdict,
}

impl EventItem {
    pub fn new(stage: impl Into<String>, label: impl Into<String>) -> Self {
        Self {
            stage: stage.into(),
            label: label.into(),
            bodies: Vec::new(),
            values: Vec::new(),
            verdict: crate::trace::Verdict::Info,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct EndFrameItem {
    pub state_hash: Option<String>,
}

//! What one step leaves behind: the frame (every body's state, the contacts, the markers, the
//! timings, the trace) and the rigid pipeline's own trace events. The pipeline writes frames,
//! recordings hold them and the viewer replays them.

mod content_hash;
mod pipeline_event;

pub use pipeline_event::{ContactGeometry, ContactPoint, PipelineEvent};

use crate::families::FamilyFrameData;
use crate::geom::{Point3, Quat, Real, Vec3};
use crate::trace::{BodyId, Stage, TraceEvent};
use serde::{Deserialize, Serialize};

/// The kinematic state of one body at the end of a frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BodyState {
    pub id: BodyId,
    pub position: Point3,
    pub rotation: Quat,
    pub linear_velocity: Vec3,
    pub angular_velocity: Vec3,
}

/// A contact found by the narrow phase: `normal` points from `a` to `b`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Contact {
    pub a: BodyId,
    pub b: BodyId,
    pub point: Point3,
    pub normal: Vec3,
    pub depth: Real,
}

/// Wall-clock seconds spent in each stage of the step: the rigid pipeline's four, then each
/// family simulation's own.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StageTimings {
    pub integrate_s: Real,
    pub broad_s: Real,
    pub narrow_s: Real,
    pub response_s: Real,
    /// One entry per family simulation that times its step, in the order of the frame's
    /// `families`. Left out of this struct's serde value, whose layout the records of formats
    /// v1 to v7 fix: format v8 writes it as a value of its own after it.
    #[serde(skip)]
    pub families: Vec<FamilyStageTimes>,
}

/// The stage times of one family's step, in the order of its `EngineFamily::STAGES`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FamilyStageTimes {
    /// The family's name (`EngineFamily::NAME`).
    pub family: String,
    pub stages_s: Vec<Real>,
}

impl StageTimings {
    /// The rigid pipeline's stages and every family's.
    pub fn total_s(&self) -> Real {
        self.rigid_s() + self.families.iter().flat_map(|f| &f.stages_s).sum::<Real>()
    }

    /// The rigid pipeline's four stages.
    pub fn rigid_s(&self) -> Real {
        self.integrate_s + self.broad_s + self.narrow_s + self.response_s
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Counters {
    pub bodies: u32,
    /// Candidate pairs out of the broad phase.
    pub broad_pairs: u32,
    /// Shape tests run by the narrow phase.
    pub narrow_tests: u32,
    pub contacts: u32,
    /// Deepest penetration among this frame's contacts (0 when none).
    pub max_penetration_m: Real,
    pub kinetic_energy_j: Real,
    pub trace_events: u32,
    /// Events the probe dropped past its limit: the trace is partial when this is non-zero.
    pub trace_dropped: u64,
}

/// Something notable that the timeline marks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Marker {
    pub kind: MarkerKind,
    pub text: String,
    pub bodies: Vec<BodyId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MarkerKind {
    FirstContact,
    DeepPenetration,
    Divergence,
    /// Marks added by later algorithm families (e.g. "inverted vertex").
    Other(String),
}

impl MarkerKind {
    pub fn label(&self) -> &str {
        match self {
            MarkerKind::FirstContact => "first contact",
            MarkerKind::DeepPenetration => "deep penetration",
            MarkerKind::Divergence => "divergence",
            MarkerKind::Other(s) => s,
        }
    }
}

/// Everything recorded about one step of the world.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    pub index: u64,
    pub time_s: Real,
    pub bodies: Vec<BodyState>,
    pub contacts: Vec<Contact>,
    pub timings: StageTimings,
    pub counters: Counters,
    pub trace: Vec<TraceEvent>,
    pub markers: Vec<Marker>,
    /// What each algorithm family with a simulation recorded (cloth vertices, a walker).
    pub families: Vec<FamilyFrameData>,
}

impl Frame {
    /// A hash of the simulated state only (bodies, bit for bit): equal hashes mean the same
    /// simulation, whatever the timings. FNV-1a, so it is stable across runs and platforms.
    pub fn state_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |x: u64| {
            for b in x.to_le_bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        eat(self.index);
        for b in &self.bodies {
            eat(b.id as u64);
            for v in b
                .position
                .iter()
                .chain(b.linear_velocity.iter())
                .chain(b.angular_velocity.iter())
            {
                eat(v.to_bits());
            }
            for v in b.rotation.coords.iter() {
                eat(v.to_bits());
            }
        }
        // Family data counts bit for bit too: its encoding is deterministic.
        for f in &self.families {
            if let Ok(bytes) = postcard::to_allocvec(f) {
                for chunk in bytes.chunks(8) {
                    let mut word = [0u8; 8];
                    word[..chunk.len()].copy_from_slice(chunk);
                    eat(u64::from_le_bytes(word));
                }
            }
        }
        h
    }

    pub fn body(&self, id: BodyId) -> Option<&BodyState> {
        self.bodies.iter().find(|b| b.id == id)
    }

    /// Events of one stage, in order, with their index in the whole trace.
    pub fn events_of(&self, stage: Stage) -> impl Iterator<Item = (usize, &TraceEvent)> {
        self.trace
            .iter()
            .enumerate()
            .filter(move |(_, e)| e.stage == stage)
    }
}

impl Frame {
    /// A cheap estimate of the memory this frame holds, in bytes: the struct itself, its
    /// vectors by length (not capacity) times their element size, plus the strings and
    /// vectors inside trace events and markers. It ignores allocator overhead and spare
    /// capacity, so it is a lower bound that is close for frames built once and never grown.
    /// The history budget is counted in these units.
    pub fn estimated_bytes(&self) -> usize {
        use std::mem::size_of;
        let event_heap = |e: &TraceEvent| e.kind.heap_bytes();
        let marker_heap = |m: &Marker| {
            m.text.len()
                + m.bodies.len() * size_of::<BodyId>()
                + match &m.kind {
                    MarkerKind::Other(s) => s.len(),
                    _ => 0,
                }
        };
        size_of::<Frame>()
            + self.bodies.len() * size_of::<BodyState>()
            + self.contacts.len() * size_of::<Contact>()
            + self.trace.len() * size_of::<TraceEvent>()
            + self.trace.iter().map(event_heap).sum::<usize>()
            + self.markers.len() * size_of::<Marker>()
            + self.markers.iter().map(marker_heap).sum::<usize>()
            + self
                .families
                .iter()
                .map(|f| postcard::experimental::serialized_size(f).unwrap_or(0))
                .sum::<usize>()
    }
}

//! Format v2's frame records, frozen: v2 events carried the geometry that format v3 resolves
//! from the recording (both world volumes in every node pair, both triangles in every
//! triangle pair, the point and normal of every contact and impulse). A v2 frame is decoded
//! with these types and converted: node and triangle pairs keep their ids (a reader resolves
//! them at the frame's poses, as the v2 viewer did), contacts keep their geometry inline, and
//! impulses are numbered by the contact they answer. Never edit these types: they are the
//! v2 encoding. Families whose events did not change since v2 (broad phase, continuous
//! collision, BSP) are decoded with their current types: a family that changes its event
//! layout freezes its v2 type here first.

use super::legacy_stage::LegacyStage;
use super::records::{ChangedBody, FrameTail};
use crate::broad::BroadEvent;
use crate::bsp::BspEvent;
use crate::bvh::BvhEvent;
use crate::ccd::CcdEvent;
use crate::families::{EventKind, FamilyFrameData};
use crate::frame::{BodyState, Contact, Counters, Marker, StageTimings};
use crate::geom::{Point3, Real, Segment, Triangle, Vec3};
use crate::trace::{BodyId, TraceEvent, Verdict, Volume};
use crate::world::{ContactPoint, PipelineEvent};
use serde::Deserialize;

// The impulses' points and normals are decoded only: they are their contacts'.
#[allow(dead_code)]
#[derive(Deserialize)]
enum PipelineEventV2 {
    Integrated {
        body: BodyId,
        from: Point3,
        to: Point3,
    },
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
    Note {
        text: String,
        points: Vec<Point3>,
    },
}

// Fields read only by the decoder: the volumes and triangles are what v3 no longer stores.
#[allow(dead_code)]
#[derive(Deserialize)]
enum BvhEventV2 {
    NodePair {
        a: BodyId,
        b: BodyId,
        node_a: u32,
        node_b: u32,
        volume_a: Volume,
        volume_b: Volume,
        separating_axis: Option<u8>,
    },
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
    RayStep {
        body: BodyId,
        origin: Point3,
        dir: Vec3,
        node: Option<u32>,
        triangle: Option<u32>,
        t: Option<Real>,
    },
}

/// The families registered when v2 was current, in their order.
#[derive(Deserialize)]
enum EventKindV2 {
    Pipeline(PipelineEventV2),
    Broad(BroadEvent),
    Bvh(BvhEventV2),
    Ccd(CcdEvent),
    Bsp(BspEvent),
}

#[derive(Deserialize)]
pub(crate) struct TraceEventV2 {
    stage: LegacyStage,
    verdict: Verdict,
    kind: EventKindV2,
}

impl From<PipelineEventV2> for PipelineEvent {
    fn from(e: PipelineEventV2) -> Self {
        use PipelineEventV2 as V2;
        match e {
            V2::Integrated { body, from, to } => PipelineEvent::Integrated { body, from, to },
            V2::ShapeTest {
                a,
                b,
                test,
                contacts,
                max_depth,
            } => PipelineEvent::ShapeTest {
                a,
                b,
                test,
                contacts,
                max_depth,
            },
            V2::Contact {
                a,
                b,
                point,
                normal,
                depth,
            } => PipelineEvent::Contact {
                a,
                b,
                point: ContactPoint::Inline {
                    point,
                    normal,
                    depth,
                },
            },
            // Numbered by `number_impulses` once the whole trace is converted.
            V2::Impulse {
                a,
                b,
                normal_impulse,
                friction_impulse,
                ..
            } => PipelineEvent::Impulse {
                a,
                b,
                contact: 0,
                normal_impulse,
                friction_impulse,
            },
            V2::Note { text, points } => PipelineEvent::Note { text, points },
        }
    }
}

impl From<BvhEventV2> for BvhEvent {
    fn from(e: BvhEventV2) -> Self {
        use BvhEventV2 as V2;
        match e {
            V2::NodePair {
                a,
                b,
                node_a,
                node_b,
                separating_axis,
                ..
            } => BvhEvent::NodePair {
                a,
                b,
                node_a,
                node_b,
                separating_axis,
            },
            V2::TrianglePair {
                a,
                b,
                tri_a,
                tri_b,
                segment,
                ..
            } => BvhEvent::TrianglePair {
                a,
                b,
                tri_a,
                tri_b,
                segment,
            },
            V2::Refit { body, node, volume } => BvhEvent::Refit { body, node, volume },
            V2::RayStep {
                body,
                origin,
                dir,
                node,
                triangle,
                t,
            } => BvhEvent::RayStep {
                body,
                origin,
                dir,
                node,
                triangle,
                t,
            },
        }
    }
}

impl From<TraceEventV2> for TraceEvent {
    fn from(e: TraceEventV2) -> Self {
        let kind: EventKind = match e.kind {
            EventKindV2::Pipeline(p) => PipelineEvent::from(p).into(),
            EventKindV2::Broad(b) => b.into(),
            EventKindV2::Bvh(b) => BvhEvent::from(b).into(),
            EventKindV2::Ccd(c) => c.into(),
            EventKindV2::Bsp(b) => b.into(),
        };
        TraceEvent {
            stage: e.stage.into(),
            verdict: e.verdict,
            kind,
        }
    }
}

/// Numbers the impulses of a converted trace as format v3 does: each answers the contact of
/// its solver pass at its own rank among the pass's impulses (the solver reports one impulse
/// per contact, in the contacts' order, after all of them).
pub(crate) fn number_impulses(trace: &mut [TraceEvent]) {
    let mut rank = 0u32;
    let mut after_impulses = false;
    for e in trace {
        match &mut e.kind {
            EventKind::Pipeline(PipelineEvent::Contact { .. }) if after_impulses => {
                rank = 0;
                after_impulses = false;
            }
            EventKind::Pipeline(PipelineEvent::Impulse { contact, .. }) => {
                if !after_impulses {
                    rank = 0;
                    after_impulses = true;
                }
                *contact = rank;
                rank = rank.saturating_add(1);
            }
            _ => {}
        }
    }
}

/// A v2 frame's own data.
#[derive(Deserialize)]
pub(crate) struct FrameTailV2 {
    pub contacts: Vec<Contact>,
    pub timings: StageTimings,
    pub counters: Counters,
    pub trace: Vec<TraceEventV2>,
    pub markers: Vec<Marker>,
    pub families: Vec<FamilyFrameData>,
}

impl From<FrameTailV2> for FrameTail {
    fn from(t: FrameTailV2) -> Self {
        let mut trace: Vec<TraceEvent> = t.trace.into_iter().map(TraceEvent::from).collect();
        number_impulses(&mut trace);
        FrameTail {
            contacts: t.contacts,
            timings: t.timings,
            counters: t.counters,
            trace,
            markers: t.markers,
            families: t.families,
        }
    }
}

#[derive(Deserialize)]
pub(crate) struct KeyframeRecordV2 {
    pub index: u64,
    pub time_s: f64,
    pub bodies: Vec<BodyState>,
    pub tail: FrameTailV2,
}

#[derive(Deserialize)]
pub(crate) struct DeltaRecordV2 {
    pub index: u64,
    pub time_s: f64,
    pub body_count: u32,
    pub changed: Vec<ChangedBody>,
    pub tail: FrameTailV2,
}

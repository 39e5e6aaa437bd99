//! Format v1's trace events, frozen: v1 files encode every event in one flat enum, which
//! later became one event type per algorithm family. A v1 frame is decoded with these types
//! and converted; events whose family now records them differently become notes, so nothing
//! a v1 file holds is lost. Never edit these types: they are the v1 encoding.

use super::legacy_stage::LegacyStage;
use super::records::{ChangedBody, FrameTail};
use crate::broad::BroadEvent;
use crate::bvh::BvhEvent;
use crate::frame::{BodyState, Contact, Counters, Marker, StageTimings};
use crate::geom::{Aabb, Obb, Plane, Point3, Real, Segment, Triangle, Vec3};
use crate::trace::{BodyId, EventKind, FeatureId, TraceEvent, Verdict, Volume};
use crate::world::{ContactPoint, PipelineEvent};
use serde::Deserialize;

#[derive(Deserialize)]
pub(crate) struct TraceEventV1 {
    stage: LegacyStage,
    verdict: Verdict,
    kind: EventKindV1,
}

// Some fields are decoded only: format v3 resolves that geometry instead of storing it.
#[allow(dead_code)]
#[derive(Deserialize)]
enum EventKindV1 {
    Integrated {
        body: BodyId,
        from: Point3,
        to: Point3,
    },
    BroadPair {
        a: BodyId,
        b: BodyId,
        box_a: Aabb,
        box_b: Aabb,
    },
    SapSwap {
        axis: u8,
        a: BodyId,
        b: BodyId,
        value: Real,
    },
    PairChanged {
        a: BodyId,
        b: BodyId,
    },
    SpatialCell {
        bounds: Aabb,
        depth: u8,
        bodies: Vec<BodyId>,
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
    FeaturePair {
        a: BodyId,
        b: BodyId,
        feature_a: FeatureId,
        feature_b: FeatureId,
        closest_a: Point3,
        closest_b: Point3,
        distance: Real,
        action: String,
    },
    SlideIteration {
        body: BodyId,
        iteration: u32,
        start: Point3,
        end: Point3,
        fraction: Real,
        plane: Option<Plane>,
        brush: Option<u32>,
    },
    PatchPair {
        a: BodyId,
        b: BodyId,
        uv_a: [Real; 4],
        uv_b: [Real; 4],
        obb_a: Obb,
        obb_b: Obb,
    },
    InvertedVertex {
        cloth: BodyId,
        vertex: u32,
        triangle: u32,
        point: Point3,
        normal: Vec3,
    },
    Note {
        text: String,
        points: Vec<Point3>,
    },
}

impl From<TraceEventV1> for TraceEvent {
    fn from(e: TraceEventV1) -> Self {
        let kind = pipeline_kind(e.kind)
            .or_else(broad_kind)
            .or_else(bvh_kind)
            .unwrap_or_else(retired_kind);
        TraceEvent {
            stage: e.stage.into(),
            verdict: e.verdict,
            kind,
        }
    }
}

fn note(text: String, points: Vec<Point3>) -> EventKind {
    PipelineEvent::Note { text, points }.into()
}

/// The kinds the pipeline records now; any other kind is handed back.
#[allow(
    clippy::result_large_err,
    reason = "the kind is handed back by value, as `TryFrom` does, for the next family to take"
)]
fn pipeline_kind(kind: EventKindV1) -> Result<EventKind, EventKindV1> {
    use EventKindV1::*;
    Ok(match kind {
        Integrated { body, from, to } => PipelineEvent::Integrated { body, from, to }.into(),
        ShapeTest {
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
        }
        .into(),
        Contact {
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
        }
        .into(),
        // Numbered by `number_impulses` once the whole trace is converted; the point and
        // normal are the contact's.
        Impulse {
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
        }
        .into(),
        Note { text, points } => note(text, points),
        other => return Err(other),
    })
}

/// The kinds the broad phase records now; any other kind is handed back.
#[allow(
    clippy::result_large_err,
    reason = "the kind is handed back by value, as `TryFrom` does, for the next family to take"
)]
fn broad_kind(kind: EventKindV1) -> Result<EventKind, EventKindV1> {
    use EventKindV1::*;
    Ok(match kind {
        BroadPair { a, b, box_a, box_b } => BroadEvent::BroadPair { a, b, box_a, box_b }.into(),
        SapSwap { axis, a, b, value } => BroadEvent::SapSwap { axis, a, b, value }.into(),
        PairChanged { a, b } => BroadEvent::PairChanged { a, b }.into(),
        SpatialCell {
            bounds,
            depth,
            bodies,
        } => BroadEvent::SpatialCell {
            bounds,
            depth,
            bodies,
        }
        .into(),
        other => return Err(other),
    })
}

/// The kinds the hierarchy records now, by ids only as format v3 records them (see
/// legacy_v2.rs); any other kind is handed back.
#[allow(
    clippy::result_large_err,
    reason = "the kind is handed back by value, as `TryFrom` does, for the next family to take"
)]
fn bvh_kind(kind: EventKindV1) -> Result<EventKind, EventKindV1> {
    use EventKindV1::*;
    Ok(match kind {
        NodePair {
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
        }
        .into(),
        TrianglePair {
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
        }
        .into(),
        Refit { body, node, volume } => BvhEvent::Refit { body, node, volume }.into(),
        RayStep {
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
        }
        .into(),
        other => return Err(other),
    })
}

/// The kinds whose families now record them differently, kept as notes. Every other kind
/// was taken by the conversions above.
fn retired_kind(kind: EventKindV1) -> EventKind {
    use EventKindV1::*;
    match kind {
        FeaturePair {
            a,
            b,
            feature_a,
            feature_b,
            closest_a,
            closest_b,
            distance,
            action,
        } => note(
            format!("(v1) features {a}:{feature_a} × {b}:{feature_b}: d = {distance:.4}, {action}"),
            vec![closest_a, closest_b],
        ),
        SlideIteration {
            body,
            iteration,
            start,
            end,
            fraction,
            plane,
            brush,
        } => note(
            format!(
                "(v1) body {body} slide iteration {iteration}: fraction {fraction:.3}{}{}",
                plane
                    .map(|p| format!(
                        ", plane n = ({:.3}, {:.3}, {:.3})",
                        p.normal.x, p.normal.y, p.normal.z
                    ))
                    .unwrap_or_default(),
                brush.map(|b| format!(", brush {b}")).unwrap_or_default()
            ),
            vec![start, end],
        ),
        PatchPair {
            a,
            b,
            uv_a,
            uv_b,
            obb_a,
            obb_b,
        } => note(
            format!(
                "(v1) patches {a} u[{:.3},{:.3}]v[{:.3},{:.3}] × {b} u[{:.3},{:.3}]v[{:.3},{:.3}]",
                uv_a[0], uv_a[1], uv_a[2], uv_a[3], uv_b[0], uv_b[1], uv_b[2], uv_b[3]
            ),
            vec![obb_a.center, obb_b.center],
        ),
        InvertedVertex {
            cloth,
            vertex,
            triangle,
            point,
            normal,
        } => note(
            format!("(v1) cloth {cloth}: vertex {vertex} inverted against triangle {triangle}"),
            vec![point, point + normal * 0.2],
        ),
        _ => note("(v1) an event of no known kind".into(), Vec::new()),
    }
}

/// A v1 frame's own data.
#[derive(Deserialize)]
pub(crate) struct FrameTailV1 {
    pub contacts: Vec<Contact>,
    pub timings: StageTimings,
    pub counters: Counters,
    pub trace: Vec<TraceEventV1>,
    pub markers: Vec<Marker>,
}

impl From<FrameTailV1> for FrameTail {
    fn from(t: FrameTailV1) -> Self {
        FrameTail {
            contacts: t.contacts,
            timings: t.timings,
            counters: t.counters,
            trace: {
                let mut trace: Vec<TraceEvent> =
                    t.trace.into_iter().map(TraceEvent::from).collect();
                super::legacy_v2::number_impulses(&mut trace);
                trace
            },
            markers: t.markers,
            families: Vec::new(),
        }
    }
}

#[derive(Deserialize)]
pub(crate) struct KeyframeRecordV1 {
    pub index: u64,
    pub time_s: f64,
    pub bodies: Vec<BodyState>,
    pub tail: FrameTailV1,
}

#[derive(Deserialize)]
pub(crate) struct DeltaRecordV1 {
    pub index: u64,
    pub time_s: f64,
    pub body_count: u32,
    pub changed: Vec<ChangedBody>,
    pub tail: FrameTailV1,
}

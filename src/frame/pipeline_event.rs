//! The rigid pipeline's trace events: integration, shape tests, contacts, impulses.

use crate::geom::{Point3, Real, Vec3};
use crate::trace::FamilyEvent;
use crate::trace::{BodyId, DebugShape, DiffRole, ShapeRole, Verdict};
use serde::{Deserialize, Serialize};

mod resolve;
pub use resolve::ContactGeometry;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PipelineEvent {
    /// A body moved during integration.
    Integrated {
        body: BodyId,
        from: Point3,
        to: Point3,
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
    /// A contact point of the narrow phase (see [`ContactPoint`]).
    Contact {
        a: BodyId,
        b: BodyId,
        point: ContactPoint,
    },
    /// The solver's answer to contact number `contact` of its pass: the Contact events of a
    /// pass are those since the previous pass's impulses, numbered from 0, one constraint
    /// each (see `resolve.rs`). The point and normal are the contact's, so they are not
    /// repeated here.
    Impulse {
        a: BodyId,
        b: BodyId,
        contact: u32,
        normal_impulse: Real,
        friction_impulse: Vec3,
    },
    /// Free text with optional points, for anything the vocabulary lacks (and for events of
    /// old recordings whose family no longer records them that way).
    Note { text: String, points: Vec<Point3> },
    /// One ray of the ray-traced narrow phase (`narrow: Rays`): ids and its length only; the
    /// viewer draws it from the bodies' shapes and poses.
    Ray(crate::narrow::rays::RigidRay),
}

/// Where a contact event's geometry is. A touching contact is also one of the frame's
/// contacts (`Frame::contacts`): the event names it instead of repeating it. A speculative
/// one (negative depth: a gap the solver keeps from closing) is only in the trace, so the
/// event holds it (as do contacts converted from recordings of format 1 and 2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ContactPoint {
    /// `Frame::contacts[index]`.
    InFrame(u32),
    Inline {
        point: Point3,
        normal: Vec3,
        depth: Real,
    },
}

impl FamilyEvent for PipelineEvent {
    fn bodies(&self) -> Vec<BodyId> {
        use PipelineEvent::*;
        match self {
            Integrated { body, .. } => vec![*body],
            ShapeTest { a, b, .. } | Contact { a, b, .. } | Impulse { a, b, .. } => vec![*a, *b],
            Note { .. } => vec![],
            Ray(r) => vec![r.source, r.target],
        }
    }

    fn summary(&self, verdict: Verdict) -> String {
        use PipelineEvent::*;
        match self {
            Integrated { body, to, .. } => {
                format!(
                    "body {body} moved to ({:.3}, {:.3}, {:.3})",
                    to.x, to.y, to.z
                )
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
            Contact {
                a,
                b,
                point: ContactPoint::InFrame(i),
            } => format!("contact {a}–{b} (frame contact {i})"),
            Contact {
                a,
                b,
                point: ContactPoint::Inline { depth, .. },
            } if *depth < 0.0 => format!("speculative contact {a}–{b}, gap {:.4}", -depth),
            Contact {
                a,
                b,
                point: ContactPoint::Inline { depth, .. },
            } => format!("contact {a}–{b}, depth {depth:.4}"),
            Impulse {
                a,
                b,
                normal_impulse,
                ..
            } => format!("impulse {a}–{b}: {normal_impulse:.4} N·s"),
            Note { text, .. } => {
                let _ = verdict;
                text.clone()
            }
            Ray(r) => r.summary(),
        }
    }

    fn shapes(&self, out: &mut Vec<DebugShape>) {
        use DebugShape as S;
        use PipelineEvent::*;
        use ShapeRole::*;
        match self {
            Integrated { from, to, .. } => out.push(S::Line(*from, *to, First)),
            ShapeTest { .. } => {}
            // Touching contacts and impulses are drawn from the frame (see `resolve.rs`).
            Contact {
                point:
                    ContactPoint::Inline {
                        point,
                        normal,
                        depth,
                    },
                ..
            } => contact_shapes(point, normal, *depth, out),
            Contact { .. } | Impulse { .. } | Ray(_) => {}
            Note { points, .. } => out.extend(points.iter().map(|p| S::Point(*p, Result))),
        }
    }

    fn heap_bytes(&self) -> usize {
        match self {
            PipelineEvent::ShapeTest { test, .. } => test.len(),
            PipelineEvent::Note { text, points } => {
                text.len() + points.len() * std::mem::size_of::<Point3>()
            }
            _ => 0,
        }
    }

    fn diff_role(&self, _verdict: Verdict) -> DiffRole {
        match self {
            PipelineEvent::Impulse {
                a,
                b,
                contact,
                normal_impulse,
                friction_impulse,
            } => DiffRole::Impulse {
                a: *a,
                b: *b,
                index: [*contact, 0],
                values: vec![
                    *normal_impulse,
                    friction_impulse.x,
                    friction_impulse.y,
                    friction_impulse.z,
                ],
            },
            _ => DiffRole::Event,
        }
    }

    fn contact(&self) -> Option<([BodyId; 2], bool)> {
        match self {
            // Touching contacts are the ones the frame holds; speculative ones stay inline.
            PipelineEvent::Contact { a, b, point } => {
                Some(([*a, *b], matches!(point, ContactPoint::InFrame(_))))
            }
            _ => None,
        }
    }
}

/// A contact point and its normal scaled by the depth.
pub fn contact_shapes(point: &Point3, normal: &Vec3, depth: Real, out: &mut Vec<DebugShape>) {
    out.push(DebugShape::Point(*point, ShapeRole::Result));
    out.push(DebugShape::Arrow(
        *point,
        normal * depth.abs().max(0.05),
        ShapeRole::Result,
    ));
}

/// An impulse as an arrow at its contact, along the normal, scaled by its size.
pub fn impulse_shapes(
    point: &Point3,
    normal: &Vec3,
    normal_impulse: Real,
    out: &mut Vec<DebugShape>,
) {
    out.push(DebugShape::Arrow(
        *point,
        normal * normal_impulse.abs().max(0.05),
        ShapeRole::Result,
    ));
}

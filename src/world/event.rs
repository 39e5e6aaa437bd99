//! The rigid pipeline's trace events: integration, shape tests, contacts, impulses.

use crate::family::FamilyEvent;
use crate::geom::{Point3, Real, Vec3};
use crate::trace::{BodyId, DebugShape, ShapeRole, Verdict};
use serde::{Deserialize, Serialize};

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
    /// Free text with optional points, for anything the vocabulary lacks (and for events of
    /// old recordings whose family no longer records them that way).
    Note { text: String, points: Vec<Point3> },
}

impl FamilyEvent for PipelineEvent {
    fn bodies(&self) -> Vec<BodyId> {
        use PipelineEvent::*;
        match self {
            Integrated { body, .. } => vec![*body],
            ShapeTest { a, b, .. } | Contact { a, b, .. } | Impulse { a, b, .. } => vec![*a, *b],
            Note { .. } => vec![],
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
            Contact { a, b, depth, .. } => format!("contact {a}–{b}, depth {depth:.4}"),
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
        }
    }

    fn shapes(&self, out: &mut Vec<DebugShape>) {
        use DebugShape as S;
        use PipelineEvent::*;
        use ShapeRole::*;
        match self {
            Integrated { from, to, .. } => out.push(S::Line(*from, *to, First)),
            ShapeTest { .. } => {}
            Contact {
                point,
                normal,
                depth,
                ..
            } => {
                out.push(S::Point(*point, Result));
                out.push(S::Arrow(*point, normal * depth.abs().max(0.05), Result));
            }
            Impulse {
                point,
                normal,
                normal_impulse,
                ..
            } => out.push(S::Arrow(
                *point,
                normal * normal_impulse.abs().max(0.05),
                Result,
            )),
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
}

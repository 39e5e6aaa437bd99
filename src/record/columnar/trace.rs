//! The trace coder: each event's tag, then its numbers in columns for the kinds that
//! dominate the measured frames (`pipeline_events.rs`, `sweep_events.rs`) or its postcard
//! value for every other kind. Both sides keep the same [`TraceState`], so their predictions
//! agree.

use super::corrupt;
use crate::broad::BroadEvent;
use crate::ccd::CcdEvent;
use crate::frame::PipelineEvent;
use crate::frame::{BodyState, Contact};
use crate::record::error::RecordErrorCause;
use crate::record::legacy_stage::{LegacyStage, LegacyTraceEvent};
use crate::record::predict::{self, Runs};
use crate::record::streams::{StreamsIn, StreamsOut};
use crate::trace::{EventKind, Stage, TraceEvent, Verdict};
use std::collections::HashMap;

// Event tags: the kinds that dominate the measured frames get columns, the rest is postcard.
const OTHER: u8 = 0;
pub(super) const INTEGRATED: u8 = 1;
pub(super) const SHAPE_TEST: u8 = 2;
/// A touching contact that is the next frame contact, of the same pair: nothing else stored.
pub(super) const CONTACT_NEXT: u8 = 3;
pub(super) const CONTACT_IN_FRAME: u8 = 4;
pub(super) const CONTACT_INLINE: u8 = 5;
/// An impulse whose pair is that of the contact it names in its pass.
pub(super) const IMPULSE_IN_PASS: u8 = 6;
pub(super) const IMPULSE: u8 = 7;
/// From format v5: the two above with the friction impulse coded as the solver's two
/// tangential impulses along the named contact's normal (`predict::friction_split`).
pub(super) const IMPULSE_IN_PASS_SPLIT: u8 = 11;
pub(super) const IMPULSE_SPLIT: u8 = 12;
/// From format v5: a conservative-advancement step, its numbers in the sweep column (the
/// scenes with many of them have no sweep and prune, and the reverse).
pub(super) const CCD_ADVANCE: u8 = 13;
pub(super) const BROAD_PAIR: u8 = 8;
pub(super) const SAP_SWAP: u8 = 9;
/// A swap of the same interval end as the swap before (axis, body and value).
pub(super) const SAP_SWAP_SAME: u8 = 10;

const VERDICTS: [Verdict; 4] = [Verdict::Hit, Verdict::Miss, Verdict::Info, Verdict::Warning];

fn stage_verdict(e: &TraceEvent) -> u8 {
    let stage = Stage::ALL.iter().position(|s| *s == e.stage).unwrap_or(0);
    let verdict = VERDICTS.iter().position(|v| *v == e.verdict).unwrap_or(0);
    (stage * 4 + verdict) as u8
}

/// `v6`: whether the code counts the stages of format v6 (before, those of `LegacyStage`).
fn from_stage_verdict(code: u8, v6: bool) -> Result<(Stage, Verdict), RecordErrorCause> {
    let unknown = || corrupt(format!("stage code {} is unknown", code / 4));
    let index = (code / 4) as usize;
    let stage = if v6 {
        *Stage::ALL.get(index).ok_or_else(unknown)?
    } else {
        (*LegacyStage::ALL.get(index).ok_or_else(unknown)?).into()
    };
    Ok((stage, VERDICTS[(code % 4) as usize]))
}

/// What the trace coder remembers while it goes through a frame's events: the same on both
/// sides, so the predictions agree.
pub(super) struct TraceState<'f> {
    /// Whether the record uses the predictions format v5 added.
    pub(super) v5: bool,
    /// Whether its stages are those of format v6 (before, they also named families).
    pub(super) v6: bool,
    pub(super) bodies: &'f [BodyState],
    pub(super) contacts: &'f [Contact],
    pub(super) dt: f64,
    /// The last integration of each body in this frame (from, to).
    pub(super) integrated: HashMap<u32, ([f64; 3], [f64; 3])>,
    pub(super) tests: Vec<String>,
    pub(super) next_in_frame: u64,
    pub(super) inline: Runs<7>,
    pub(super) impulses: Runs<4>,
    /// The pairs of the Contact events of the current solver pass (as `impulse_contacts`).
    pub(super) pass: Vec<(u32, u32)>,
    /// Their normals, where known (an impulse's friction is split along them).
    pub(super) pass_normals: Vec<Option<[f64; 3]>>,
    pub(super) after_impulses: bool,
    pub(super) next_impulse: i64,
    pub(super) boxes: HashMap<u32, [f64; 6]>,
    /// The last sweep-and-prune swap (axis, moving body, value): an insertion sort moves one
    /// interval end past several others, so runs of swaps share the first two and the value.
    pub(super) last_swap: (u8, u32, f64),
    /// The last conservative-advancement step (pair; t, distance, bound): the next step of
    /// the same pair keeps its bound and moves on from its t and distance.
    pub(super) last_advance: Option<((u32, u32), [f64; 3])>,
}

impl<'f> TraceState<'f> {
    pub(super) fn new(
        bodies: &'f [BodyState],
        contacts: &'f [Contact],
        dt: f64,
        version: u32,
    ) -> Self {
        Self {
            v5: version >= 5,
            v6: version >= 6,
            bodies,
            contacts,
            dt,
            integrated: HashMap::new(),
            tests: Vec::new(),
            next_in_frame: 0,
            inline: Runs::default(),
            impulses: Runs::default(),
            pass: Vec::new(),
            pass_normals: Vec::new(),
            after_impulses: false,
            next_impulse: 0,
            boxes: HashMap::new(),
            last_swap: (0, 0, 0.0),
            last_advance: None,
        }
    }

    fn body(&self, id: u32) -> Option<&BodyState> {
        match self.bodies.get(id as usize) {
            Some(b) if b.id == id => Some(b),
            _ => self.bodies.iter().find(|b| b.id == id),
        }
    }

    /// Where a body's integration starts: where its last one ended, or for its first, its
    /// end-of-frame position stepped back by its velocity.
    pub(super) fn predict_from(&self, body: u32) -> [f64; 3] {
        match (self.integrated.get(&body), self.body(body)) {
            (Some((_, to)), _) => *to,
            (None, Some(b)) => predict::point(&(b.position - b.linear_velocity * self.dt)),
            (None, None) => [0.0; 3],
        }
    }

    /// Where it ends: as far as its last one went, or its velocity times the time step.
    pub(super) fn predict_to(&self, body: u32, from: &[f64; 3]) -> [f64; 3] {
        let step = match (self.integrated.get(&body), self.body(body)) {
            (Some((f, t)), _) => [t[0] - f[0], t[1] - f[1], t[2] - f[2]],
            (None, Some(b)) => predict::vector(&(b.linear_velocity * self.dt)),
            (None, None) => [0.0; 3],
        };
        [from[0] + step[0], from[1] + step[1], from[2] + step[2]]
    }

    /// A shape test's deepest penetration, as the pipeline computes it from the points it
    /// found: its touching ones are the frame contacts its Contact events name next, so from
    /// format v5 on the test's depth is exactly theirs (0 when none touches).
    pub(super) fn predict_max_depth(&self, a: u32, b: u32, touching: u32) -> f64 {
        if !self.v5 {
            return 0.0;
        }
        let start = self.next_in_frame as usize;
        let ours = start
            .checked_add(touching as usize)
            .and_then(|end| self.contacts.get(start..end));
        match ours {
            Some(cs) if cs.iter().all(|c| (c.a, c.b) == (a, b)) => cs
                .iter()
                .map(|c| c.depth)
                .fold(f64::NEG_INFINITY, f64::max)
                .max(0.0),
            _ => 0.0,
        }
    }

    pub(super) fn predict_advance(&self, pair: (u32, u32)) -> [f64; 3] {
        match self.last_advance {
            Some((p, v)) if p == pair => v,
            _ => [0.0; 3],
        }
    }

    pub(super) fn contact_seen(&mut self, a: u32, b: u32, normal: Option<[f64; 3]>) {
        if self.after_impulses {
            self.pass.clear();
            self.pass_normals.clear();
            self.after_impulses = false;
        }
        self.pass.push((a, b));
        self.pass_normals.push(normal);
    }

    pub(super) fn frame_normal(&self, i: u64) -> Option<[f64; 3]> {
        self.contacts
            .get(usize::try_from(i).ok()?)
            .map(|c| predict::vector(&c.normal))
    }

    pub(super) fn expected_impulse(&self) -> i64 {
        if self.after_impulses {
            self.next_impulse
        } else {
            0
        }
    }

    pub(super) fn encode(
        &mut self,
        e: &TraceEvent,
        s: &mut StreamsOut,
    ) -> Result<(), RecordErrorCause> {
        let sv = stage_verdict(e);
        match &e.kind {
            EventKind::Pipeline(PipelineEvent::Integrated { body, from, to }) => {
                self.encode_integrated(sv, *body, from, to, s);
            }
            EventKind::Pipeline(PipelineEvent::ShapeTest {
                a,
                b,
                test,
                contacts,
                max_depth,
            }) => self.encode_shape_test(sv, (*a, *b), test, *contacts, *max_depth, s)?,
            EventKind::Pipeline(PipelineEvent::Contact { a, b, point }) => {
                self.encode_contact(sv, (*a, *b), point, s);
            }
            EventKind::Pipeline(PipelineEvent::Impulse {
                a,
                b,
                contact,
                normal_impulse,
                friction_impulse,
            }) => {
                let pair = (*a, *b);
                self.encode_impulse(sv, pair, *contact, *normal_impulse, friction_impulse, s);
            }
            EventKind::Broad(BroadEvent::BroadPair { a, b, box_a, box_b }) => {
                self.encode_broad_pair(sv, (*a, *b), (box_a, box_b), s);
            }
            EventKind::Broad(BroadEvent::SapSwap { axis, a, b, value }) => {
                self.encode_sap_swap(sv, (*axis, *a, *b, *value), s);
            }
            EventKind::Ccd(CcdEvent::Advance {
                a,
                b,
                t,
                distance,
                bound,
            }) => self.encode_advance(sv, (*a, *b), [*t, *distance, *bound], s),
            _ => {
                s.tag(OTHER);
                s.value(e)?;
            }
        }
        Ok(())
    }

    pub(super) fn decode(&mut self, s: &mut StreamsIn) -> Result<TraceEvent, RecordErrorCause> {
        let tag = s.tag()?;
        if tag == OTHER {
            return if self.v6 {
                s.value()
            } else {
                s.value::<LegacyTraceEvent>().map(Into::into)
            };
        }
        let (stage, verdict) = from_stage_verdict(s.tag()?, self.v6)?;
        let kind: EventKind = match tag {
            INTEGRATED => self.decode_integrated(s)?.into(),
            SHAPE_TEST => self.decode_shape_test(s)?.into(),
            CONTACT_NEXT | CONTACT_IN_FRAME => self.decode_frame_contact(tag, s)?.into(),
            CONTACT_INLINE => self.decode_inline_contact(s)?.into(),
            IMPULSE_IN_PASS | IMPULSE | IMPULSE_IN_PASS_SPLIT | IMPULSE_SPLIT => {
                self.decode_impulse(tag, s)?.into()
            }
            BROAD_PAIR => self.decode_broad_pair(s)?.into(),
            SAP_SWAP | SAP_SWAP_SAME => self.decode_sap_swap(tag, s)?.into(),
            CCD_ADVANCE => self.decode_advance(s)?.into(),
            other => return Err(corrupt(format!("trace event tag {other} is unknown"))),
        };
        Ok(TraceEvent {
            stage,
            verdict,
            kind,
        })
    }
}

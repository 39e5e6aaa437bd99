//! Frame records of formats v4 and v5: the frame's numbers split into streams (`streams.rs`)
//! and its floating-point values coded against predictions the reader makes too
//! (`predict.rs`). Version 5 keeps the layout and adds predictions that are exact by
//! construction (a shape test's depth from its contacts, a manifold's shared normal) and codes
//! a friction impulse as the solver's two tangential impulses when they rebuild it bit for
//! bit; a v4 record is decoded with the v4 predictions.
//!
//! ```text
//! index varint | time_s f64 | body block | tail block
//! ```
//!
//! Both blocks are stream sets. The body block holds the predictor's time step and the bodies
//! (all of them in a keyframe, the changed ones in a delta, predicted from the previous
//! frame); a seek that walks from a keyframe decodes only it. The tail block holds the rest
//! of the frame: contacts, the trace (the hot event kinds in columns, every other kind as its
//! postcard value) and the small parts (timings, counters, markers, family data) as postcard
//! values. See docs/recording-format.md for the measurements behind each choice.

use super::body_delta::{apply_delta, same_state};
use super::error::RecordErrorCause;
use super::predict::{self, Runs};
use super::records::{ChangedBody, FrameTail};
use super::streams::{StreamsIn, StreamsOut};
use crate::broad::BroadEvent;
use crate::ccd::CcdEvent;
use crate::families::FamilyFrameData;
use crate::frame::{BodyState, Contact, Counters, Frame, Marker, StageTimings};
use crate::geom::{Aabb, Point3, Vec3};
use crate::trace::{EventKind, Stage, TraceEvent, Verdict};
use crate::world::{ContactPoint, PipelineEvent};
use std::collections::HashMap;

const WHAT: &str = "a frame record";

/// The format version whose predictions [`encode`] uses; a reader of it also decodes
/// version 4 records, whose predictions are a subset.
const VERSION: u32 = 5;

// The float columns (see `streams.rs`).
const STEP: usize = 0;
const VELOCITY: usize = 1;
const POSE: usize = 2;
const CONTACT: usize = 3;
const MOTION: usize = 4;
const DEPTH: usize = 5;
const SPECULATIVE: usize = 6;
const IMPULSES: usize = 7;
const BOXES: usize = 8;
const SWEEP: usize = 9;

fn corrupt(detail: impl Into<String>) -> RecordErrorCause {
    RecordErrorCause::Decode {
        what: WHAT,
        detail: detail.into(),
    }
}

/// Writes the v4 record of `frame`: a keyframe when `previous` is `None`, else a delta
/// against the previous frame's bodies. `dt` is the recording's time step, the predictor's.
pub(crate) fn encode(
    frame: &Frame,
    previous: Option<&[BodyState]>,
    dt: f64,
    out: &mut Vec<u8>,
) -> Result<(), RecordErrorCause> {
    let taken = std::mem::take(out);
    *out = postcard::to_extend(&(frame.index, frame.time_s), taken).map_err(|e| {
        RecordErrorCause::Encode {
            what: "a frame",
            detail: e.to_string(),
        }
    })?;
    let mut s = StreamsOut::default();
    encode_bodies(&frame.bodies, previous, dt, &mut s);
    s.finish(out);
    let mut s = StreamsOut::default();
    encode_tail(frame, dt, &mut s)?;
    s.finish(out);
    Ok(())
}

fn encode_bodies(
    bodies: &[BodyState],
    previous: Option<&[BodyState]>,
    dt: f64,
    s: &mut StreamsOut,
) {
    s.column(STEP);
    s.float(dt, 0.0);
    s.uint(bodies.len() as u64);
    let changed: Vec<usize> = match previous {
        None => (0..bodies.len()).collect(),
        Some(prev) => (0..bodies.len())
            .filter(|&slot| prev.get(slot).is_none_or(|p| !same_state(p, &bodies[slot])))
            .collect(),
    };
    if previous.is_some() {
        s.uint(changed.len() as u64);
    }
    let mut next = 0;
    for slot in changed {
        let before = previous.and_then(|p| p.get(slot));
        if previous.is_some() {
            s.uint((slot - next) as u64);
        }
        next = slot + 1;
        let state = &bodies[slot];
        let expected_id = before.map_or(slot as i64, |b| b.id as i64);
        s.sint(state.id as i64 - expected_id);
        let n = predict::state_numbers(state);
        let v: [f64; 6] = n[..6].try_into().unwrap_or([0.0; 6]);
        s.column(VELOCITY);
        s.floats(&v, &predict::predict_velocities(before));
        let pose: [f64; 7] = n[6..].try_into().unwrap_or([0.0; 7]);
        s.column(POSE);
        s.floats(&pose, &predict::predict_pose(before, &v, dt));
    }
}

/// What the body block of a record gives.
pub(crate) struct BodyBlock<'a> {
    pub index: u64,
    pub time_s: f64,
    pub bodies: Vec<BodyState>,
    /// The predictor's time step.
    pub dt: f64,
    /// The tail block.
    pub rest: &'a [u8],
}

/// The body block of a record: the frame's bodies (`previous` is needed for a delta) and the
/// bytes after the block.
pub(crate) fn decode_bodies<'a>(
    record: &'a [u8],
    previous: Option<&[BodyState]>,
) -> Result<BodyBlock<'a>, RecordErrorCause> {
    let ((index, time_s), rest) = postcard::take_from_bytes::<(u64, f64)>(record)
        .map_err(|e| corrupt(format!("the frame's index and time: {e}")))?;
    let (mut s, rest) = StreamsIn::read(WHAT, rest)?;
    s.column(STEP);
    let dt = s.float(0.0)?;
    let count = s.uint()?;
    let bodies = match previous {
        None => {
            let count = usize::try_from(count)
                .ok()
                .filter(|&c| c as u64 <= s.remaining())
                .ok_or_else(|| corrupt(format!("a keyframe claims {count} bodies")))?;
            let mut bodies = Vec::with_capacity(count);
            for slot in 0..count {
                bodies.push(decode_body(&mut s, slot, None, dt)?);
            }
            bodies
        }
        Some(prev) => {
            let n = s.count()?;
            let mut changed = Vec::with_capacity(n);
            let mut next: u64 = 0;
            for _ in 0..n {
                let slot = next
                    .checked_add(s.uint()?)
                    .filter(|&v| v < u32::MAX as u64)
                    .ok_or_else(|| corrupt("a changed body's slot is out of range"))?;
                next = slot + 1;
                let state = decode_body(&mut s, slot as usize, prev.get(slot as usize), dt)?;
                changed.push(ChangedBody {
                    slot: slot as u32,
                    state,
                });
            }
            let count = u32::try_from(count)
                .map_err(|_| corrupt(format!("a delta claims {count} bodies")))?;
            apply_delta(prev, count, changed)?
        }
    };
    s.finish()?;
    Ok(BodyBlock {
        index,
        time_s,
        bodies,
        dt,
        rest,
    })
}

/// Skips the body block of a record whose bodies are known: returns the index, time, the
/// predictor's time step and the tail block.
pub(crate) fn skip_bodies(record: &[u8]) -> Result<(u64, f64, f64, &[u8]), RecordErrorCause> {
    let ((index, time_s), rest) = postcard::take_from_bytes::<(u64, f64)>(record)
        .map_err(|e| corrupt(format!("the frame's index and time: {e}")))?;
    let (mut s, rest) = StreamsIn::read(WHAT, rest)?;
    s.column(STEP);
    Ok((index, time_s, s.float(0.0)?, rest))
}

fn decode_body(
    s: &mut StreamsIn,
    slot: usize,
    before: Option<&BodyState>,
    dt: f64,
) -> Result<BodyState, RecordErrorCause> {
    let expected_id = before.map_or(slot as i64, |b| b.id as i64);
    let id = u32::try_from(expected_id + s.sint()?)
        .map_err(|_| corrupt(format!("body slot {slot} has a bad id")))?;
    s.column(VELOCITY);
    let v = s.floats(&predict::predict_velocities(before))?;
    s.column(POSE);
    let pose = s.floats(&predict::predict_pose(before, &v, dt))?;
    let mut n = [0.0; 13];
    n[..6].copy_from_slice(&v);
    n[6..].copy_from_slice(&pose);
    Ok(predict::state_from_numbers(id, &n))
}

/// The tail block after the bodies: the rest of the frame.
pub(crate) fn decode_tail(
    after_bodies: &[u8],
    bodies: &[BodyState],
    dt: f64,
    version: u32,
) -> Result<FrameTail, RecordErrorCause> {
    let v5 = version >= 5;
    let (mut s, rest) = StreamsIn::read(WHAT, after_bodies)?;
    if !rest.is_empty() {
        return Err(corrupt(format!(
            "{} bytes left over after the record",
            rest.len()
        )));
    }
    let (timings, counters, markers, families): (
        StageTimings,
        Counters,
        Vec<Marker>,
        Vec<FamilyFrameData>,
    ) = s.value()?;
    let n = s.count()?;
    let mut contacts = Vec::with_capacity(n);
    let mut runs = Runs::<7>::default();
    s.column(CONTACT);
    for _ in 0..n {
        let (a, b) = s.pair()?;
        let v = s.floats(&predict_contact(&mut runs, (a, b), v5))?;
        runs.push((a, b), v);
        contacts.push(Contact {
            a,
            b,
            point: Point3::new(v[0], v[1], v[2]),
            normal: Vec3::new(v[3], v[4], v[5]),
            depth: v[6],
        });
    }
    let n = s.count()?;
    let mut trace = Vec::with_capacity(n);
    let mut state = TraceState::new(bodies, &contacts, dt, version);
    for _ in 0..n {
        trace.push(state.decode(&mut s)?);
    }
    s.finish()?;
    Ok(FrameTail {
        contacts,
        timings,
        counters,
        trace,
        markers,
        families,
    })
}

fn encode_tail(frame: &Frame, dt: f64, s: &mut StreamsOut) -> Result<(), RecordErrorCause> {
    s.value(&(
        &frame.timings,
        &frame.counters,
        &frame.markers,
        &frame.families,
    ))?;
    s.uint(frame.contacts.len() as u64);
    let mut runs = Runs::<7>::default();
    s.column(CONTACT);
    for c in &frame.contacts {
        s.pair(c.a, c.b);
        let v = contact_numbers(&c.point, &c.normal, c.depth);
        s.floats(&v, &predict_contact(&mut runs, (c.a, c.b), true));
        runs.push((c.a, c.b), v);
    }
    s.uint(frame.trace.len() as u64);
    let mut state = TraceState::new(&frame.bodies, &frame.contacts, dt, VERSION);
    for e in &frame.trace {
        state.encode(e, s)?;
    }
    Ok(())
}

/// A contact's (point, normal, depth) of pair `key`: the same-rank contact of the pair's
/// previous run (its previous substep); from format v5 on, the normal is that of the contact
/// just before in this run when there is one, since the points of one manifold share their
/// normal bit for bit.
fn predict_contact(runs: &mut Runs<7>, key: (u32, u32), v5: bool) -> [f64; 7] {
    let mut p = runs.predict(key);
    if v5 && let Some(last) = runs.last_in_run(key) {
        p[3..6].copy_from_slice(&last[3..6]);
    }
    p
}

fn contact_numbers(point: &Point3, normal: &Vec3, depth: f64) -> [f64; 7] {
    [
        point.x, point.y, point.z, normal.x, normal.y, normal.z, depth,
    ]
}

fn aabb_numbers(b: &Aabb) -> [f64; 6] {
    [b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z]
}

fn aabb_from(n: &[f64; 6]) -> Aabb {
    Aabb {
        min: Point3::new(n[0], n[1], n[2]),
        max: Point3::new(n[3], n[4], n[5]),
    }
}

fn same_bits<const N: usize>(a: &[f64; N], b: &[f64; N]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

// Event tags: the kinds that dominate the measured frames get columns, the rest is postcard.
const OTHER: u8 = 0;
const INTEGRATED: u8 = 1;
const SHAPE_TEST: u8 = 2;
/// A touching contact that is the next frame contact, of the same pair: nothing else stored.
const CONTACT_NEXT: u8 = 3;
const CONTACT_IN_FRAME: u8 = 4;
const CONTACT_INLINE: u8 = 5;
/// An impulse whose pair is that of the contact it names in its pass.
const IMPULSE_IN_PASS: u8 = 6;
const IMPULSE: u8 = 7;
/// From format v5: the two above with the friction impulse coded as the solver's two
/// tangential impulses along the named contact's normal (`predict::friction_split`).
const IMPULSE_IN_PASS_SPLIT: u8 = 11;
const IMPULSE_SPLIT: u8 = 12;
/// From format v5: a conservative-advancement step, its numbers in the sweep column (the
/// scenes with many of them have no sweep and prune, and the reverse).
const CCD_ADVANCE: u8 = 13;
const BROAD_PAIR: u8 = 8;
const SAP_SWAP: u8 = 9;
/// A swap of the same interval end as the swap before (axis, body and value).
const SAP_SWAP_SAME: u8 = 10;

const VERDICTS: [Verdict; 4] = [Verdict::Hit, Verdict::Miss, Verdict::Info, Verdict::Warning];

fn stage_verdict(e: &TraceEvent) -> u8 {
    let stage = Stage::ALL.iter().position(|s| *s == e.stage).unwrap_or(0);
    let verdict = VERDICTS.iter().position(|v| *v == e.verdict).unwrap_or(0);
    (stage * 4 + verdict) as u8
}

fn from_stage_verdict(code: u8) -> Result<(Stage, Verdict), RecordErrorCause> {
    let stage = Stage::ALL
        .get((code / 4) as usize)
        .ok_or_else(|| corrupt(format!("stage code {} is unknown", code / 4)))?;
    Ok((*stage, VERDICTS[(code % 4) as usize]))
}

/// What the trace coder remembers while it goes through a frame's events: the same on both
/// sides, so the predictions agree.
struct TraceState<'f> {
    /// Whether the record uses the predictions format v5 added.
    v5: bool,
    bodies: &'f [BodyState],
    contacts: &'f [Contact],
    dt: f64,
    /// The last integration of each body in this frame (from, to).
    integrated: HashMap<u32, ([f64; 3], [f64; 3])>,
    tests: Vec<String>,
    next_in_frame: u64,
    inline: Runs<7>,
    impulses: Runs<4>,
    /// The pairs of the Contact events of the current solver pass (as `impulse_contacts`).
    pass: Vec<(u32, u32)>,
    /// Their normals, where known (an impulse's friction is split along them).
    pass_normals: Vec<Option<[f64; 3]>>,
    after_impulses: bool,
    next_impulse: i64,
    boxes: HashMap<u32, [f64; 6]>,
    /// The last sweep-and-prune swap (axis, moving body, value): an insertion sort moves one
    /// interval end past several others, so runs of swaps share the first two and the value.
    last_swap: (u8, u32, f64),
    /// The last conservative-advancement step (pair; t, distance, bound): the next step of
    /// the same pair keeps its bound and moves on from its t and distance.
    last_advance: Option<((u32, u32), [f64; 3])>,
}

impl<'f> TraceState<'f> {
    fn new(bodies: &'f [BodyState], contacts: &'f [Contact], dt: f64, version: u32) -> Self {
        Self {
            v5: version >= 5,
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
    fn predict_from(&self, body: u32) -> [f64; 3] {
        match (self.integrated.get(&body), self.body(body)) {
            (Some((_, to)), _) => *to,
            (None, Some(b)) => predict::point(&(b.position - b.linear_velocity * self.dt)),
            (None, None) => [0.0; 3],
        }
    }

    /// Where it ends: as far as its last one went, or its velocity times the time step.
    fn predict_to(&self, body: u32, from: &[f64; 3]) -> [f64; 3] {
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
    fn predict_max_depth(&self, a: u32, b: u32, touching: u32) -> f64 {
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

    fn predict_advance(&self, pair: (u32, u32)) -> [f64; 3] {
        match self.last_advance {
            Some((p, v)) if p == pair => v,
            _ => [0.0; 3],
        }
    }

    fn contact_seen(&mut self, a: u32, b: u32, normal: Option<[f64; 3]>) {
        if self.after_impulses {
            self.pass.clear();
            self.pass_normals.clear();
            self.after_impulses = false;
        }
        self.pass.push((a, b));
        self.pass_normals.push(normal);
    }

    fn frame_normal(&self, i: u64) -> Option<[f64; 3]> {
        self.contacts
            .get(usize::try_from(i).ok()?)
            .map(|c| predict::vector(&c.normal))
    }

    fn expected_impulse(&self) -> i64 {
        if self.after_impulses {
            self.next_impulse
        } else {
            0
        }
    }

    fn encode(&mut self, e: &TraceEvent, s: &mut StreamsOut) -> Result<(), RecordErrorCause> {
        let sv = stage_verdict(e);
        match &e.kind {
            EventKind::Pipeline(PipelineEvent::Integrated { body, from, to }) => {
                s.tag(INTEGRATED);
                s.tag(sv);
                s.uint(*body as u64);
                s.column(MOTION);
                let (f, t) = (predict::point(from), predict::point(to));
                s.floats(&f, &self.predict_from(*body));
                s.floats(&t, &self.predict_to(*body, &f));
                self.integrated.insert(*body, (f, t));
            }
            EventKind::Pipeline(PipelineEvent::ShapeTest {
                a,
                b,
                test,
                contacts,
                max_depth,
            }) => {
                s.tag(SHAPE_TEST);
                s.tag(sv);
                s.pair(*a, *b);
                match self.tests.iter().position(|t| t == test) {
                    Some(i) => s.uint(i as u64),
                    None => {
                        s.uint(self.tests.len() as u64);
                        s.value(test.as_str())?;
                        self.tests.push(test.clone());
                    }
                }
                s.uint(*contacts as u64);
                s.column(DEPTH);
                s.float(*max_depth, self.predict_max_depth(*a, *b, *contacts));
            }
            EventKind::Pipeline(PipelineEvent::Contact { a, b, point }) => match point {
                ContactPoint::InFrame(i) => {
                    let next = self.next_in_frame == *i as u64
                        && self
                            .contacts
                            .get(*i as usize)
                            .is_some_and(|c| c.a == *a && c.b == *b);
                    if next {
                        s.tag(CONTACT_NEXT);
                        s.tag(sv);
                    } else {
                        s.tag(CONTACT_IN_FRAME);
                        s.tag(sv);
                        s.pair(*a, *b);
                        s.uint(*i as u64);
                    }
                    self.next_in_frame = *i as u64 + 1;
                    self.contact_seen(*a, *b, self.frame_normal(*i as u64));
                }
                ContactPoint::Inline {
                    point,
                    normal,
                    depth,
                } => {
                    s.tag(CONTACT_INLINE);
                    s.tag(sv);
                    s.pair(*a, *b);
                    let v = contact_numbers(point, normal, *depth);
                    s.column(SPECULATIVE);
                    s.floats(&v, &predict_contact(&mut self.inline, (*a, *b), self.v5));
                    self.inline.push((*a, *b), v);
                    self.contact_seen(*a, *b, Some(predict::vector(normal)));
                }
            },
            EventKind::Pipeline(PipelineEvent::Impulse {
                a,
                b,
                contact,
                normal_impulse,
                friction_impulse,
            }) => {
                let expected = self.expected_impulse();
                let f = predict::vector(friction_impulse);
                let normal = self.pass_normals.get(*contact as usize).copied().flatten();
                let split = normal.and_then(|n| predict::friction_split(&n, &f));
                let in_pass = self.pass.get(*contact as usize) == Some(&(*a, *b));
                s.tag(match (in_pass, split.is_some()) {
                    (true, false) => IMPULSE_IN_PASS,
                    (false, false) => IMPULSE,
                    (true, true) => IMPULSE_IN_PASS_SPLIT,
                    (false, true) => IMPULSE_SPLIT,
                });
                s.tag(sv);
                if !in_pass {
                    s.pair(*a, *b);
                }
                s.sint(*contact as i64 - expected);
                let p = self.impulses.predict((*a, *b));
                s.column(IMPULSES);
                let v = match split {
                    Some([l0, l1]) => {
                        let v = [*normal_impulse, l0, l1];
                        s.floats(&v, &[p[0], p[1], p[2]]);
                        [v[0], v[1], v[2], 0.0]
                    }
                    None => {
                        let v = [*normal_impulse, f[0], f[1], f[2]];
                        s.floats(&v, &p);
                        v
                    }
                };
                self.impulses.push((*a, *b), v);
                self.after_impulses = true;
                self.next_impulse = *contact as i64 + 1;
            }
            EventKind::Broad(BroadEvent::BroadPair { a, b, box_a, box_b }) => {
                s.tag(BROAD_PAIR);
                s.tag(sv);
                s.pair(*a, *b);
                let (na, nb) = (aabb_numbers(box_a), aabb_numbers(box_b));
                let known =
                    |id: &u32, n: &[f64; 6]| self.boxes.get(id).is_some_and(|k| same_bits(k, n));
                let flags = known(a, &na) as u64 | (known(b, &nb) as u64) << 1;
                s.uint(flags);
                s.column(BOXES);
                for (id, n, bit) in [(a, na, 1), (b, nb, 2)] {
                    if flags & bit == 0 {
                        s.floats(&n, &self.boxes.get(id).copied().unwrap_or([0.0; 6]));
                        self.boxes.insert(*id, n);
                    }
                }
            }
            EventKind::Broad(BroadEvent::SapSwap { axis, a, b, value }) => {
                let (last_axis, last_a, last_value) = self.last_swap;
                let same =
                    *axis == last_axis && *a == last_a && value.to_bits() == last_value.to_bits();
                s.tag(if same { SAP_SWAP_SAME } else { SAP_SWAP });
                s.tag(sv);
                if !same {
                    s.uint(*axis as u64);
                    s.uint(*a as u64);
                    s.column(SWEEP);
                    s.float(*value, 0.0);
                }
                s.uint(*b as u64);
                self.last_swap = (*axis, *a, *value);
            }
            EventKind::Ccd(CcdEvent::Advance {
                a,
                b,
                t,
                distance,
                bound,
            }) => {
                s.tag(CCD_ADVANCE);
                s.tag(sv);
                s.pair(*a, *b);
                let v = [*t, *distance, *bound];
                s.column(SWEEP);
                s.floats(&v, &self.predict_advance((*a, *b)));
                self.last_advance = Some(((*a, *b), v));
            }
            _ => {
                s.tag(OTHER);
                s.value(e)?;
            }
        }
        Ok(())
    }

    fn decode(&mut self, s: &mut StreamsIn) -> Result<TraceEvent, RecordErrorCause> {
        let tag = s.tag()?;
        if tag == OTHER {
            return s.value();
        }
        let (stage, verdict) = from_stage_verdict(s.tag()?)?;
        let kind: EventKind = match tag {
            INTEGRATED => {
                let body = s.u32()?;
                s.column(MOTION);
                let f = s.floats(&self.predict_from(body))?;
                let t = s.floats(&self.predict_to(body, &f))?;
                self.integrated.insert(body, (f, t));
                PipelineEvent::Integrated {
                    body,
                    from: Point3::new(f[0], f[1], f[2]),
                    to: Point3::new(t[0], t[1], t[2]),
                }
                .into()
            }
            SHAPE_TEST => {
                let (a, b) = s.pair()?;
                let i = s.uint()?;
                let test = match self.tests.get(i as usize) {
                    Some(t) => t.clone(),
                    None if i == self.tests.len() as u64 => {
                        let t: String = s.value()?;
                        self.tests.push(t.clone());
                        t
                    }
                    None => return Err(corrupt(format!("shape test name {i} is unknown"))),
                };
                let contacts = s.u32()?;
                PipelineEvent::ShapeTest {
                    a,
                    b,
                    test,
                    contacts,
                    max_depth: {
                        s.column(DEPTH);
                        s.float(self.predict_max_depth(a, b, contacts))?
                    },
                }
                .into()
            }
            CONTACT_NEXT | CONTACT_IN_FRAME => {
                let (a, b, i) = if tag == CONTACT_NEXT {
                    let i = self.next_in_frame;
                    let c = self.contacts.get(i as usize).ok_or_else(|| {
                        corrupt(format!(
                            "contact event names frame contact {i}, past the last"
                        ))
                    })?;
                    (c.a, c.b, i as u32)
                } else {
                    let (a, b) = s.pair()?;
                    (a, b, s.u32()?)
                };
                self.next_in_frame = i as u64 + 1;
                self.contact_seen(a, b, self.frame_normal(i as u64));
                PipelineEvent::Contact {
                    a,
                    b,
                    point: ContactPoint::InFrame(i),
                }
                .into()
            }
            CONTACT_INLINE => {
                let (a, b) = s.pair()?;
                s.column(SPECULATIVE);
                let v = s.floats(&predict_contact(&mut self.inline, (a, b), self.v5))?;
                self.inline.push((a, b), v);
                self.contact_seen(a, b, Some([v[3], v[4], v[5]]));
                PipelineEvent::Contact {
                    a,
                    b,
                    point: ContactPoint::Inline {
                        point: Point3::new(v[0], v[1], v[2]),
                        normal: Vec3::new(v[3], v[4], v[5]),
                        depth: v[6],
                    },
                }
                .into()
            }
            IMPULSE_IN_PASS | IMPULSE | IMPULSE_IN_PASS_SPLIT | IMPULSE_SPLIT => {
                let expected = self.expected_impulse();
                let pair = if tag == IMPULSE || tag == IMPULSE_SPLIT {
                    Some(s.pair()?)
                } else {
                    None
                };
                let contact = u32::try_from(expected + s.sint()?)
                    .map_err(|_| corrupt("an impulse names a bad contact number"))?;
                let (a, b) = match pair {
                    Some(p) => p,
                    None => *self.pass.get(contact as usize).ok_or_else(|| {
                        corrupt(format!(
                            "an impulse names contact {contact}, not in its pass"
                        ))
                    })?,
                };
                let split = tag == IMPULSE_IN_PASS_SPLIT || tag == IMPULSE_SPLIT;
                let p = self.impulses.predict((a, b));
                s.column(IMPULSES);
                let (v, f) = if split {
                    let n = self
                        .pass_normals
                        .get(contact as usize)
                        .copied()
                        .flatten()
                        .ok_or_else(|| {
                            corrupt(format!(
                                "an impulse's friction is split along contact {contact}'s \
                                 normal, which is not known"
                            ))
                        })?;
                    let v = s.floats(&[p[0], p[1], p[2]])?;
                    let f = predict::friction_from(&n, [v[1], v[2]]);
                    ([v[0], v[1], v[2], 0.0], f)
                } else {
                    let v = s.floats(&p)?;
                    (v, [v[1], v[2], v[3]])
                };
                self.impulses.push((a, b), v);
                self.after_impulses = true;
                self.next_impulse = contact as i64 + 1;
                PipelineEvent::Impulse {
                    a,
                    b,
                    contact,
                    normal_impulse: v[0],
                    friction_impulse: Vec3::new(f[0], f[1], f[2]),
                }
                .into()
            }
            BROAD_PAIR => {
                let (a, b) = s.pair()?;
                let flags = s.uint()?;
                if flags > 3 {
                    return Err(corrupt(format!("broad pair flags {flags} are unknown")));
                }
                s.column(BOXES);
                let mut boxes = [[0.0; 6]; 2];
                for (k, (id, bit)) in [(a, 1), (b, 2)].into_iter().enumerate() {
                    let known = self.boxes.get(&id).copied();
                    boxes[k] = if flags & bit != 0 {
                        known.ok_or_else(|| {
                            corrupt(format!("broad pair reuses body {id}'s box, never given"))
                        })?
                    } else {
                        let n = s.floats(&known.unwrap_or([0.0; 6]))?;
                        self.boxes.insert(id, n);
                        n
                    };
                }
                BroadEvent::BroadPair {
                    a,
                    b,
                    box_a: aabb_from(&boxes[0]),
                    box_b: aabb_from(&boxes[1]),
                }
                .into()
            }
            SAP_SWAP | SAP_SWAP_SAME => {
                let (axis, a, value) = if tag == SAP_SWAP_SAME {
                    self.last_swap
                } else {
                    let axis = u8::try_from(s.uint()?)
                        .map_err(|_| corrupt("a sweep-and-prune swap has a bad axis"))?;
                    let a = s.u32()?;
                    s.column(SWEEP);
                    (axis, a, s.float(0.0)?)
                };
                let b = s.u32()?;
                self.last_swap = (axis, a, value);
                BroadEvent::SapSwap { axis, a, b, value }.into()
            }
            CCD_ADVANCE => {
                let (a, b) = s.pair()?;
                s.column(SWEEP);
                let v = s.floats(&self.predict_advance((a, b)))?;
                self.last_advance = Some(((a, b), v));
                CcdEvent::Advance {
                    a,
                    b,
                    t: v[0],
                    distance: v[1],
                    bound: v[2],
                }
                .into()
            }
            other => return Err(corrupt(format!("trace event tag {other} is unknown"))),
        };
        Ok(TraceEvent {
            stage,
            verdict,
            kind,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The record format v3 wrote for `frame` (postcard of the whole record).
    fn v3_record(frame: &Frame, previous: Option<&[BodyState]>) -> Vec<u8> {
        use super::super::records::{DeltaRecord, KeyframeRecord};
        let tail = FrameTail {
            contacts: frame.contacts.clone(),
            timings: frame.timings.clone(),
            counters: frame.counters.clone(),
            trace: frame.trace.clone(),
            markers: frame.markers.clone(),
            families: frame.families.clone(),
        };
        match previous {
            None => postcard::to_allocvec(&KeyframeRecord {
                index: frame.index,
                time_s: frame.time_s,
                bodies: frame.bodies.clone(),
                tail,
            }),
            Some(prev) => postcard::to_allocvec(&DeltaRecord {
                index: frame.index,
                time_s: frame.time_s,
                body_count: frame.bodies.len() as u32,
                changed: frame
                    .bodies
                    .iter()
                    .enumerate()
                    .filter(|(k, b)| prev.get(*k).is_none_or(|p| !same_state(p, b)))
                    .map(|(k, b)| ChangedBody {
                        slot: k as u32,
                        state: b.clone(),
                    })
                    .collect(),
                tail,
            }),
        }
        .unwrap()
    }

    /// Bytes per frame of every stream and float column of the v4 record, each compressed on
    /// its own (zstd level 3): what docs/recording-format.md's v4 table is measured with.
    /// `COLLIDOSCOPE_MEASURE=FILE cargo test --release --lib record::columnar -- --ignored
    /// --nocapture`.
    #[test]
    #[ignore = "measures a recording named by COLLIDOSCOPE_MEASURE"]
    fn measure_streams() {
        let Ok(path) = std::env::var("COLLIDOSCOPE_MEASURE") else {
            return;
        };
        let reader = crate::record::RecordingReader::open(&path).unwrap();
        let names = [
            "tags",
            "integers",
            "values",
            "step",
            "velocity",
            "pose",
            "contacts",
            "motion",
            "depth",
            "speculative",
            "impulses",
            "boxes",
            "sweep",
        ];
        let mut raw = [0usize; 13];
        let mut packed = [0usize; 13];
        let (mut v3, mut v4) = (0usize, 0usize);
        let dt = reader.header().dt_s;
        let mut previous: Option<Vec<BodyState>> = None;
        for i in 0..reader.len() {
            let frame = reader.frame(i).unwrap();
            let prev = if i % 64 == 0 {
                None
            } else {
                previous.as_deref()
            };
            for block in 0..2 {
                let mut s = StreamsOut::default();
                if block == 0 {
                    encode_bodies(&frame.bodies, prev, dt, &mut s);
                } else {
                    encode_tail(&frame, dt, &mut s).unwrap();
                }
                for (j, part) in s.parts().iter().enumerate() {
                    raw[j] += part.len();
                    if !part.is_empty() {
                        packed[j] += zstd::bulk::compress(part, 3).unwrap().len();
                    }
                }
            }
            let mut record = Vec::new();
            encode(&frame, prev, dt, &mut record).unwrap();
            v4 += zstd::bulk::compress(&record, 3).unwrap().len();
            v3 += zstd::bulk::compress(&v3_record(&frame, prev), 3)
                .unwrap()
                .len();
            previous = Some(frame.bodies.clone());
        }
        let n = reader.len() as f64;
        println!(
            "{path}: the same frames as v3 records {:.0} B/frame, as v4 records {:.0} B/frame \
             (zstd 3, one record at a time)",
            v3 as f64 / n,
            v4 as f64 / n
        );
        let n = reader.len() as f64;
        println!("{path}: stream, raw B/frame, zstd B/frame (each on its own)");
        for j in 0..names.len() {
            if raw[j] > 0 {
                println!(
                    "{:<12} {:>10.0} {:>10.0}",
                    names[j],
                    raw[j] as f64 / n,
                    packed[j] as f64 / n
                );
            }
        }
    }
}

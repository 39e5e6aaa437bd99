//! Frame records of formats v4 to v6: the frame's numbers split into streams (`streams.rs`)
//! and its floating-point values coded against predictions the reader makes too
//! (`predict.rs`). Version 5 keeps the layout and adds predictions that are exact by
//! construction (a shape test's depth from its contacts, a manifold's shared normal) and codes
//! a friction impulse as the solver's two tangential impulses when they rebuild it bit for
//! bit; a v4 record is decoded with the v4 predictions. Version 6 changes only what a stage
//! code means (`trace.rs`): stages no longer name families.
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

mod pipeline_events;
mod sweep_events;
mod trace;

use super::body_delta::{apply_delta, same_state};
use super::error::RecordErrorCause;
use super::predict::{self, Runs};
use super::records::{ChangedBody, FrameTail};
use super::streams::{StreamsIn, StreamsOut};
use crate::families::FamilyFrameData;
use crate::frame::{BodyState, Contact, Counters, Frame, Marker, StageTimings};
use crate::geom::{Point3, Vec3};
use trace::TraceState;

const WHAT: &str = "a frame record";

/// The format version [`encode`] writes: v5's predictions, v6's stages. A reader of it also
/// decodes version 4 and 5 records (v4's predictions are a subset; their stages also named
/// families).
const VERSION: u32 = 6;

/// The first file format whose records hold the families' stage times, as a value after the
/// rigid stages' (`StageTimings::families`).
const FIRST_FAMILY_STAGE_TIMES: u32 = 8;

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
    let (mut timings, counters, markers, families): (
        StageTimings,
        Counters,
        Vec<Marker>,
        Vec<FamilyFrameData>,
    ) = if version >= crate::families::FIRST_TURNING_NURBS {
        s.value()?
    } else {
        let (t, c, m, f): (
            StageTimings,
            Counters,
            Vec<Marker>,
            Vec<crate::families::FamilyFrameDataV8>,
        ) = s.value()?;
        (t, c, m, f.into_iter().map(FamilyFrameData::from).collect())
    };
    if version >= FIRST_FAMILY_STAGE_TIMES {
        timings.families = s.value()?;
    }
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
    s.value(&frame.timings.families)?;
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

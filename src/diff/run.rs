//! Two recordings, frame by frame: the first frame that differs, what differs first in it,
//! and the first body whose state differs.

use super::compare::{body_difference, first_difference};
use super::frame_list::body_name;
use super::report::DiffReport;
use super::tolerance::Tolerance;
use crate::record::{FrameEntry, RecordError, RecordingReader};

#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    /// The two cannot be compared (exit 2).
    #[error("{0}")]
    Incomparable(String),
    #[error(transparent)]
    Record(#[from] RecordError),
}

/// Compares `a` and `b` over the frames both hold (matched by frame index).
pub fn diff(
    a: &RecordingReader,
    b: &RecordingReader,
    tol: Tolerance,
) -> Result<DiffReport, DiffError> {
    check_comparable(a, b)?;
    let names = &a.header().body_names;
    let mut report = DiffReport {
        frames_compared: 0,
        frames_a: a.len() as u64,
        frames_b: b.len() as u64,
        first: None,
        bodies: Vec::new(),
        first_body: None,
        notes: Vec::new(),
    };
    for (reader, side) in [(a, "A"), (b, "B")] {
        if let Some(r) = reader.recovery() {
            report.notes.push(format!(
                "{side} ({}) was damaged or cut short ({r}): the frames that survive are compared",
                reader.path().display()
            ));
        }
    }
    let index_b: std::collections::HashMap<u64, usize> = b
        .entries()
        .iter()
        .enumerate()
        .map(|(pos, e)| (e.index, pos))
        .collect();
    for (pos_a, entry) in a.entries().iter().enumerate() {
        let Some(&pos_b) = index_b.get(&entry.index) else {
            continue;
        };
        if same_content(entry, &b.entries()[pos_b]) {
            if report.first.is_none() {
                report.frames_compared += 1;
            }
            continue;
        }
        let (fa, fb) = (a.frame(pos_a)?, b.frame(pos_b)?);
        if report.first.is_none() {
            report.frames_compared += 1;
            if let Some(d) = first_difference(&fa, &fb, tol, names) {
                report.bodies = d
                    .key
                    .bodies()
                    .iter()
                    .map(|id| body_name(*id, names))
                    .collect();
                report.first = Some((fa.index, fa.time_s, d));
            }
        }
        if report.first_body.is_none()
            && let Some((body, delta)) = body_difference(&fa, &fb, tol)
        {
            report.first_body = Some((fa.index, body_name(body, names), delta));
        }
        if report.first.is_some() && report.first_body.is_some() {
            break;
        }
    }
    Ok(report)
}

/// Equal content hashes in both indexes: the frames are the same, bit for bit, so they
/// agree under every tolerance and need not be decoded.
fn same_content(a: &FrameEntry, b: &FrameEntry) -> bool {
    matches!((a.content_hash, b.content_hash), (Some(x), Some(y)) if x == y)
}

fn check_comparable(a: &RecordingReader, b: &RecordingReader) -> Result<(), DiffError> {
    let (ha, hb) = (a.header(), b.header());
    if ha.dt_s.to_bits() != hb.dt_s.to_bits() {
        return Err(DiffError::Incomparable(format!(
            "the time steps differ: {} s in {}, {} s in {}",
            ha.dt_s,
            a.path().display(),
            hb.dt_s,
            b.path().display()
        )));
    }
    if ha.body_names != hb.body_names {
        let first = ha
            .body_names
            .iter()
            .zip(&hb.body_names)
            .position(|(x, y)| x != y);
        let why = match first {
            Some(i) => format!(
                "body {i} is “{}” in {} and “{}” in {}",
                ha.body_names[i],
                a.path().display(),
                hb.body_names[i],
                b.path().display()
            ),
            None => format!(
                "{} has {} bodies and {} has {}",
                a.path().display(),
                ha.body_names.len(),
                b.path().display(),
                hb.body_names.len()
            ),
        };
        return Err(DiffError::Incomparable(format!(
            "the bodies do not correspond: {why}"
        )));
    }
    Ok(())
}

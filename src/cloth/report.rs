//! The per-frame inverted-vertex summary and the recording-wide report `info` prints.

use super::inversion::InversionRecord;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClothFrameSummary {
    pub frame: u64,
    pub inversions: Vec<InversionRecord>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InversionReport {
    pub total: u64,
    pub frames_with_inversions: u64,
    pub first_frame: Option<u64>,
    /// (frame, inversion) for each inversion the response left uncorrected.
    pub uncorrected: Vec<(u64, InversionRecord)>,
}

pub fn inversion_report<'a>(
    frames: impl IntoIterator<Item = &'a ClothFrameSummary>,
) -> InversionReport {
    let mut report = InversionReport::default();
    for f in frames {
        if f.inversions.is_empty() {
            continue;
        }
        report.total += f.inversions.len() as u64;
        report.frames_with_inversions += 1;
        report.first_frame = Some(
            report
                .first_frame
                .map_or(f.frame, |first| first.min(f.frame)),
        );
        report.uncorrected.extend(
            f.inversions
                .iter()
                .filter(|i| !i.corrected)
                .map(|i| (f.frame, *i)),
        );
    }
    report
}

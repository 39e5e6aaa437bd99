//! `collidoscope info` on a cloth recording: the inverted vertices (total, frames with
//! inversions, first frame, the ones left uncorrected).

use super::report::{ClothFrameSummary, InversionReport, inversion_report};
use crate::families::FamilyFrameData;
use crate::family::RecordingReport;
use crate::frame::Frame;

#[derive(Default)]
pub struct ClothRecordingReport {
    frames: Vec<ClothFrameSummary>,
    cloth_frames: u64,
}

impl ClothRecordingReport {
    fn report(&self) -> InversionReport {
        inversion_report(&self.frames)
    }
}

impl RecordingReport for ClothRecordingReport {
    fn add_frame(&mut self, frame: &Frame) {
        for data in &frame.families {
            if let FamilyFrameData::Cloth(f) = data {
                self.cloth_frames += 1;
                if !f.inversions.is_empty() {
                    self.frames.push(ClothFrameSummary {
                        frame: frame.index,
                        inversions: f.inversions.clone(),
                    });
                }
            }
        }
    }

    fn lines(&self) -> Vec<String> {
        if self.cloth_frames == 0 {
            return Vec::new();
        }
        let r = self.report();
        let mut out = vec![
            format!("inverted vertices: {} in total", r.total),
            format!("frames with inversions: {}", r.frames_with_inversions),
            match r.first_frame {
                Some(f) => format!("first inversion: frame {f}"),
                None => "first inversion: none".into(),
            },
            format!("uncorrected inversions: {}", r.uncorrected.len()),
        ];
        for (frame, i) in r.uncorrected.iter().take(20) {
            out.push(format!(
                "  frame {frame}: vertex {} through triangle {} of {:?}",
                i.vertex, i.triangle, i.target
            ));
        }
        out
    }

    fn json(&self) -> serde_json::Value {
        let r = self.report();
        serde_json::json!({
            "inverted_vertices": r.total,
            "frames_with_inversions": r.frames_with_inversions,
            "first_inversion_frame": r.first_frame,
            "uncorrected": r.uncorrected.iter().map(|(frame, i)| serde_json::json!({
                "frame": frame, "vertex": i.vertex, "triangle": i.triangle,
                "target": format!("{:?}", i.target),
            })).collect::<Vec<_>>(),
        })
    }
}

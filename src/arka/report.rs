//! `collidoscope info` on an Arka3D recording: the counters summed over the run, recoveries
//! first (the thesis' Fig. 3.15 counts them per scenario).

use super::level::ArkaCounters;
use crate::families::FamilyFrameData;
use crate::family::RecordingReport;
use crate::frame::Frame;

#[derive(Default)]
pub struct ArkaReport {
    frames: u64,
    totals: ArkaCounters,
    first_recovery: Option<u64>,
}

impl RecordingReport for ArkaReport {
    fn add_frame(&mut self, frame: &Frame) {
        for data in &frame.families {
            if let FamilyFrameData::Arka(f) = data {
                self.frames += 1;
                self.totals.add(&f.counters);
                if f.counters.recoveries() > 0 && self.first_recovery.is_none() {
                    self.first_recovery = Some(frame.index);
                }
            }
        }
    }

    fn lines(&self) -> Vec<String> {
        if self.frames == 0 {
            return Vec::new();
        }
        let mut out = vec![format!(
            "arka recoveries: {} over {} frames (first: {})",
            self.totals.recoveries(),
            self.frames,
            self.first_recovery
                .map_or("none".to_string(), |f| format!("frame {f}"))
        )];
        out.extend(
            self.totals
                .named()
                .iter()
                .map(|(name, v)| format!("  {name}: {v}")),
        );
        out
    }

    fn json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        m.insert("frames".into(), self.frames.into());
        m.insert("recoveries".into(), self.totals.recoveries().into());
        m.insert("first_recovery_frame".into(), self.first_recovery.into());
        for (name, v) in self.totals.named() {
            m.insert(name.replace(' ', "_"), v.into());
        }
        serde_json::Value::Object(m)
    }
}

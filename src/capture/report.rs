//! What `collidoscope info` says of a captured run.

use super::frame_data::CaptureFrame;
use super::item::Captured;
use crate::families::FamilyFrameData;
use crate::frame::Frame;

#[derive(Default)]
pub struct CaptureReport {
    frames: u64,
    first_engine_frame: Option<u64>,
    last_engine_frame: u64,
    captured: Captured,
    pairs: u64,
    contacts: u64,
    events: u64,
    hashed: u64,
}

impl crate::family::RecordingReport for CaptureReport {
    fn add_frame(&mut self, frame: &Frame) {
        let Some(c) = frame.families.iter().find_map(|f| match f {
            FamilyFrameData::Capture(c) => Some(c),
            _ => None,
        }) else {
            return;
        };
        self.add(frame, c);
    }

    fn lines(&self) -> Vec<String> {
        if self.frames == 0 {
            return Vec::new();
        }
        let not = |what: Captured, n: u64| {
            if self.captured.has(what) {
                n.to_string()
            } else {
                "not captured".to_string()
            }
        };
        vec![
            format!(
                "engine frames {}–{} ({} steps); stages captured: {}",
                self.first_engine_frame.unwrap_or(0),
                self.last_engine_frame,
                self.frames,
                self.captured_text()
            ),
            format!(
                "pairs {}, contacts {}, free events {}, steps with the engine's state hash {}",
                not(Captured::PAIRS, self.pairs),
                not(Captured::CONTACTS, self.contacts),
                not(Captured::EVENTS, self.events),
                self.hashed
            ),
        ]
    }

    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "steps": self.frames,
            "first_engine_frame": self.first_engine_frame,
            "last_engine_frame": self.last_engine_frame,
            "captured": self.captured.names(),
            "pairs": self.captured.has(Captured::PAIRS).then_some(self.pairs),
            "contacts": self.captured.has(Captured::CONTACTS).then_some(self.contacts),
            "events": self.captured.has(Captured::EVENTS).then_some(self.events),
            "steps_with_state_hash": self.hashed,
        })
    }
}

impl CaptureReport {
    fn add(&mut self, frame: &Frame, c: &CaptureFrame) {
        self.frames += 1;
        self.first_engine_frame.get_or_insert(c.engine_frame);
        self.last_engine_frame = c.engine_frame;
        self.captured = self.captured.with(c.captured);
        self.pairs += c.pairs.len() as u64;
        self.contacts += frame.contacts.len() as u64;
        self.events += frame.trace.len() as u64;
        self.hashed += u64::from(c.state_hash.is_some());
    }

    fn captured_text(&self) -> String {
        let names = self.captured.names();
        if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        }
    }
}

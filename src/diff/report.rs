//! The diff report: the contract's JSON (`docs/diff-report.md`) and a few lines for a person.

use super::frame_list::Difference;
use serde_json::json;

#[derive(Clone, Debug, PartialEq)]
pub struct DiffReport {
    pub frames_compared: u64,
    pub frames_a: u64,
    pub frames_b: u64,
    /// The first frame that differs (its index), its time and what differs first in it.
    pub first: Option<(u64, f64, Difference)>,
    /// Names of the bodies involved in `first`.
    pub bodies: Vec<String>,
    /// The first frame and body whose state differs, and by how much.
    pub first_body: Option<(u64, String, f64)>,
    /// Frames lost to damage in either file, said in the report.
    pub notes: Vec<String>,
}

impl DiffReport {
    pub fn same(&self) -> bool {
        self.first.is_none()
    }

    pub fn json(&self) -> serde_json::Value {
        let mut v = json!({
            "same": self.same(),
            "frames_compared": self.frames_compared,
            "frames_a": self.frames_a,
            "frames_b": self.frames_b,
        });
        if let Some((frame, time, d)) = &self.first {
            v["first_divergent_frame"] = json!(frame);
            v["time_s"] = json!(time);
            v["stage"] = json!(d.stage);
            v["bodies"] = json!(self.bodies);
            v["what"] = json!(d.what);
            if let (Some(a), Some(b)) = (&d.a, &d.b) {
                v["a"] = a.clone();
                v["b"] = b.clone();
                v["delta"] = d
                    .delta
                    .map_or(serde_json::Value::Null, crate::capture::number_json);
            }
        }
        if let Some((frame, body, delta)) = &self.first_body {
            v["first_body_divergence"] = json!({
                "frame": frame,
                "body": body,
                "delta": crate::capture::number_json(*delta),
            });
        }
        if !self.notes.is_empty() {
            v["notes"] = json!(self.notes);
        }
        v
    }

    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let shorter = if self.frames_a != self.frames_b {
            format!(" (A has {} frames, B {})", self.frames_a, self.frames_b)
        } else {
            String::new()
        };
        match &self.first {
            None => out.push(format!(
                "same: {} frames compared{shorter}",
                self.frames_compared
            )),
            Some((frame, time, d)) => {
                out.push(format!(
                    "differ at frame {frame} (t = {time:.4} s), first in the {}: {}",
                    d.stage, d.what
                ));
                if let (Some(a), Some(b)) = (&d.a, &d.b) {
                    out.push(format!("  A: {a}"));
                    out.push(format!("  B: {b}"));
                }
                if let Some(delta) = d.delta {
                    out.push(format!("  largest difference: {delta:e}"));
                }
                out.push(format!(
                    "{} frames compared before it{shorter}",
                    self.frames_compared.saturating_sub(1)
                ));
            }
        }
        if let Some((frame, body, delta)) = &self.first_body {
            out.push(format!(
                "first body to differ: {body} at frame {frame} (by {delta:e})"
            ));
        }
        out.extend(self.notes.iter().map(|n| format!("note: {n}")));
        out
    }
}

//! Where a recording's bytes go: every part of a frame record and every trace event kind,
//! encoded as the file encodes them. `collidoscope info --events` prints it; it is how the
//! compact trace encoding was chosen (docs/recording-format.md), and how a family adding
//! events checks that they stay small.
//!
//! Two figures per part: its postcard bytes, and its bytes once the same part of every frame
//! is compressed on its own with the file's zstd level. Compressed parts do not add up to the
//! frame chunk exactly (zstd finds repeats across parts too), but they rank the parts as the
//! file pays for them.

use super::compress::LEVEL;
use crate::frame::Frame;
use crate::trace::TraceEvent;
use std::collections::BTreeMap;

/// Bytes and count of one part of the frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartBytes {
    pub count: u64,
    pub raw: u64,
    pub compressed: u64,
}

/// The sizes of every part of the frames fed to [`EventSizes::add_frame`].
#[derive(Debug, Default)]
pub struct EventSizes {
    pub frames: u64,
    /// By part name: `frame:bodies`, `frame:contacts`, ..., `event:bvh/NodePair`, ...
    pub parts: BTreeMap<String, PartBytes>,
    /// Variant names by (family byte, variant byte) of the encoding: found once each.
    names: BTreeMap<(u8, u8), String>,
}

/// The name of an event's variant as its `Debug` output starts (`NodePair { .. }`).
fn variant_name(e: &TraceEvent) -> String {
    let debug = format!("{:?}", e.kind);
    // `Bvh(NodePair { ...` → `NodePair`
    let inner = debug
        .split_once('(')
        .map_or(debug.as_str(), |(_, rest)| rest);
    inner
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .next()
        .unwrap_or("?")
        .to_string()
}

fn zstd_len(bytes: &[u8]) -> u64 {
    match zstd::bulk::compress(bytes, LEVEL) {
        Ok(c) => c.len().min(bytes.len()) as u64,
        Err(_) => bytes.len() as u64,
    }
}

impl EventSizes {
    pub fn add_frame(&mut self, frame: &Frame) {
        self.frames += 1;
        let mut streams: BTreeMap<String, (u64, Vec<u8>)> = BTreeMap::new();
        let mut put = |name: String, count: u64, bytes: Vec<u8>| {
            let s = streams.entry(name).or_default();
            s.0 += count;
            s.1.extend_from_slice(&bytes);
        };
        let enc = |v: &dyn erased::Encode| v.encode();
        put(
            "frame:bodies".into(),
            frame.bodies.len() as u64,
            enc(&frame.bodies),
        );
        put(
            "frame:contacts".into(),
            frame.contacts.len() as u64,
            enc(&frame.contacts),
        );
        put(
            "frame:markers".into(),
            frame.markers.len() as u64,
            enc(&frame.markers),
        );
        put(
            "frame:families".into(),
            frame.families.len() as u64,
            enc(&frame.families),
        );
        put(
            "frame:timings+counters".into(),
            1,
            [enc(&frame.timings), enc(&frame.counters)].concat(),
        );
        for e in &frame.trace {
            let bytes = postcard::to_allocvec(e).unwrap_or_default();
            // Stage and verdict are one byte each, then the family's and the variant's
            // indices (each below 128, so one byte).
            let key = (
                bytes.get(2).copied().unwrap_or(0),
                bytes.get(3).copied().unwrap_or(0),
            );
            let name = self
                .names
                .entry(key)
                .or_insert_with(|| format!("event:{}/{}", e.family(), variant_name(e)))
                .clone();
            put(name, 1, bytes);
        }
        for (name, (count, bytes)) in streams {
            let part = self.parts.entry(name).or_default();
            part.count += count;
            part.raw += bytes.len() as u64;
            part.compressed += zstd_len(&bytes);
        }
    }

    /// One line per part, largest compressed first, in bytes per frame.
    pub fn lines(&self) -> Vec<String> {
        let frames = self.frames.max(1) as f64;
        let mut parts: Vec<_> = self.parts.iter().collect();
        parts.sort_by_key(|(_, p)| std::cmp::Reverse(p.compressed));
        let total: u64 = parts.iter().map(|(_, p)| p.compressed).sum();
        let mut out = vec![format!(
            "{:<32} {:>12} {:>14} {:>16} {:>7}",
            "part", "count/frame", "raw B/frame", "zstd B/frame", "share"
        )];
        for (name, p) in parts {
            out.push(format!(
                "{:<32} {:>12.1} {:>14.0} {:>16.0} {:>6.1}%",
                name,
                p.count as f64 / frames,
                p.raw as f64 / frames,
                p.compressed as f64 / frames,
                100.0 * p.compressed as f64 / total.max(1) as f64
            ));
        }
        out
    }
}

/// Encoding of the frame's parts behind one signature, so `add_frame` lists them uniformly.
mod erased {
    pub trait Encode {
        fn encode(&self) -> Vec<u8>;
    }

    impl<T: serde::Serialize> Encode for T {
        fn encode(&self) -> Vec<u8> {
            postcard::to_allocvec(self).unwrap_or_default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Stage, Verdict};
    use crate::world::PipelineEvent;

    #[test]
    fn parts_are_named_by_family_and_variant_and_counted() {
        let mut frame = Frame::default();
        for body in 0..3 {
            frame.trace.push(TraceEvent::staged(
                Stage::Integrate,
                Verdict::Info,
                PipelineEvent::Note {
                    text: format!("note {body}"),
                    points: vec![],
                },
            ));
        }
        let mut sizes = EventSizes::default();
        sizes.add_frame(&frame);
        sizes.add_frame(&frame);
        let p = sizes.parts["event:pipeline/Note"];
        assert_eq!(p.count, 6);
        let one = postcard::to_allocvec(&frame.trace[0])
            .map(|b| b.len())
            .unwrap_or(0);
        assert_eq!(p.raw, 6 * one as u64);
        assert!(sizes.lines().len() > 1);
    }
}

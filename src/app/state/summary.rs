//! A few numbers per frame, kept for every frame of a session so the plots and the timeline
//! can show the whole run without decoding frames; and the markers of notable events.

use crate::record::{Frame, MarkerKind};
use crate::trace::BodyId;

/// What the plots show of one frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameSummary {
    pub index: u64,
    pub time_s: f64,
    /// Milliseconds in integrate, broad phase, narrow phase, response.
    pub stage_ms: [f32; 4],
    /// Milliseconds in each family stage, slot by slot as [`family_stage_labels`] names them
    /// (the first [`FAMILY_STAGE_SLOTS`]; the inspector shows every one).
    pub family_stage_ms: [f32; FAMILY_STAGE_SLOTS],
    pub contacts: u32,
    pub broad_pairs: u32,
    pub narrow_tests: u32,
    pub trace_events: u32,
    pub max_penetration_m: f32,
    /// Estimated bytes of the frame itself.
    pub frame_bytes: u64,
    /// History memory after the frame was added (0 for frames read from a file).
    pub history_bytes: u64,
}

pub const STAGE_NAMES: [&str; 4] = ["integrate", "broad phase", "narrow phase", "response"];

/// How many family stages a summary keeps: a scene's families report a handful between them.
pub const FAMILY_STAGE_SLOTS: usize = 8;

/// One family stage of a frame: its family and its name ("cloth", "ray casts").
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyStageLabel {
    pub family: String,
    pub stage: String,
}

impl FamilyStageLabel {
    pub fn text(&self) -> String {
        format!("{}: {}", self.family, self.stage)
    }
}

/// The family stages of `frame` with their milliseconds, family by family in the frame's
/// order, each named by its family's registration (a stage a newer build recorded and this
/// one does not know is "stage N").
pub fn family_stages(frame: &Frame) -> Vec<(FamilyStageLabel, f64)> {
    let mut out = Vec::new();
    for f in &frame.timings.families {
        let names = crate::families::family_stages(&f.family);
        for (k, seconds) in f.stages_s.iter().enumerate() {
            let stage = names
                .get(k)
                .map_or_else(|| format!("stage {}", k + 1), |n| n.to_string());
            let label = FamilyStageLabel {
                family: f.family.clone(),
                stage,
            };
            out.push((label, seconds * 1e3));
        }
    }
    out
}

/// The names of the family-stage slots of `frame`'s summary.
pub fn family_stage_labels(frame: &Frame) -> Vec<FamilyStageLabel> {
    let mut labels: Vec<_> = family_stages(frame).into_iter().map(|(l, _)| l).collect();
    labels.truncate(FAMILY_STAGE_SLOTS);
    labels
}

impl FrameSummary {
    pub fn of(frame: &Frame, history_bytes: u64) -> Self {
        let t = &frame.timings;
        let ms = |s: f64| (s * 1e3) as f32;
        Self {
            index: frame.index,
            time_s: frame.time_s,
            stage_ms: [
                ms(t.integrate_s),
                ms(t.broad_s),
                ms(t.narrow_s),
                ms(t.response_s),
            ],
            family_stage_ms: family_stage_slots(frame),
            contacts: frame.counters.contacts,
            broad_pairs: frame.counters.broad_pairs,
            narrow_tests: frame.counters.narrow_tests,
            trace_events: frame.trace.len() as u32,
            max_penetration_m: frame.counters.max_penetration_m as f32,
            frame_bytes: frame.estimated_bytes() as u64,
            history_bytes,
        }
    }

    /// The rigid stages and the family stages kept.
    pub fn total_ms(&self) -> f32 {
        self.stage_ms.iter().chain(&self.family_stage_ms).sum()
    }
}

fn family_stage_slots(frame: &Frame) -> [f32; FAMILY_STAGE_SLOTS] {
    let mut slots = [0.0; FAMILY_STAGE_SLOTS];
    let all = frame.timings.families.iter().flat_map(|f| &f.stages_s);
    for (slot, seconds) in slots.iter_mut().zip(all) {
        *slot = (seconds * 1e3) as f32;
    }
    slots
}

/// A notable event at a frame (its position in the session).
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineMarker {
    pub frame: usize,
    pub kind: MarkerKind,
    pub text: String,
    pub bodies: Vec<BodyId>,
}

impl TimelineMarker {
    pub fn from_frame(pos: usize, frame: &Frame) -> impl Iterator<Item = TimelineMarker> + '_ {
        frame.markers.iter().map(move |m| TimelineMarker {
            frame: pos,
            kind: m.kind.clone(),
            text: m.text.clone(),
            bodies: m.bodies.clone(),
        })
    }
}

/// Markers sorted by frame, with the searches the timeline needs.
#[derive(Clone, Debug, Default)]
pub struct Markers {
    list: Vec<TimelineMarker>,
}

impl Markers {
    pub fn all(&self) -> &[TimelineMarker] {
        &self.list
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Adds markers, keeping the list sorted by frame (stable for equal frames).
    pub fn extend(&mut self, more: impl IntoIterator<Item = TimelineMarker>) {
        let before = self.list.len();
        self.list.extend(more);
        let sorted_tail = self.list[before..]
            .windows(2)
            .all(|w| w[0].frame <= w[1].frame);
        let ordered_join = before == 0
            || self.list.len() == before
            || self.list[before - 1].frame <= self.list[before].frame;
        if !(sorted_tail && ordered_join) {
            self.list.sort_by_key(|m| m.frame);
        }
    }

    /// Drops the markers of frames `len..` (a fork).
    pub fn truncate_frames(&mut self, len: usize) {
        self.list.retain(|m| m.frame < len);
    }

    /// Markers at exactly this frame.
    pub fn at(&self, frame: usize) -> &[TimelineMarker] {
        let lo = self.list.partition_point(|m| m.frame < frame);
        let hi = self.list.partition_point(|m| m.frame <= frame);
        &self.list[lo..hi]
    }

    /// The first marker after `frame`.
    pub fn next_after(&self, frame: usize) -> Option<&TimelineMarker> {
        let i = self.list.partition_point(|m| m.frame <= frame);
        self.list.get(i)
    }

    /// The last marker before `frame`.
    pub fn previous_before(&self, frame: usize) -> Option<&TimelineMarker> {
        let i = self.list.partition_point(|m| m.frame < frame);
        i.checked_sub(1).map(|i| &self.list[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(frame: usize) -> TimelineMarker {
        TimelineMarker {
            frame,
            kind: MarkerKind::FirstContact,
            text: format!("at {frame}"),
            bodies: vec![],
        }
    }

    #[test]
    fn next_and_previous_skip_the_current_frame() {
        let mut ms = Markers::default();
        ms.extend([m(3), m(3), m(10)]);
        ms.extend([m(7)]);
        assert_eq!(
            ms.all().iter().map(|x| x.frame).collect::<Vec<_>>(),
            [3, 3, 7, 10]
        );
        assert_eq!(ms.next_after(0).map(|x| x.frame), Some(3));
        assert_eq!(ms.next_after(3).map(|x| x.frame), Some(7));
        assert_eq!(ms.next_after(10), None);
        assert_eq!(ms.previous_before(10).map(|x| x.frame), Some(7));
        assert_eq!(ms.previous_before(3), None);
        assert_eq!(ms.at(3).len(), 2);
        ms.truncate_frames(7);
        assert_eq!(ms.len(), 2);
    }

    #[test]
    fn summary_reads_the_frame() {
        let mut f = Frame {
            index: 4,
            ..Default::default()
        };
        f.timings.narrow_s = 0.002;
        f.counters.contacts = 5;
        let s = FrameSummary::of(&f, 99);
        assert_eq!(s.index, 4);
        assert_eq!(s.contacts, 5);
        assert!((s.stage_ms[2] - 2.0).abs() < 1e-6);
        assert_eq!(s.history_bytes, 99);
        assert!(s.frame_bytes > 0);
    }

    #[test]
    fn family_stages_are_named_by_their_registration() {
        let mut f = Frame::default();
        f.timings.families = vec![
            crate::frame::FamilyStageTimes {
                family: "cloth".into(),
                stages_s: vec![0.001, 0.002, 0.003, 0.004, 0.0005, 0.009],
            },
            crate::frame::FamilyStageTimes {
                family: "bsp".into(),
                stages_s: vec![0.0002],
            },
        ];
        let stages = family_stages(&f);
        let texts: Vec<String> = stages.iter().map(|(l, _)| l.text()).collect();
        assert_eq!(
            texts,
            [
                "cloth: integrate",
                "cloth: springs",
                "cloth: ray casts",
                "cloth: response",
                "cloth: other",
                "cloth: stage 6",
                "bsp: walker slide"
            ]
        );
        let s = FrameSummary::of(&f, 0);
        assert!((s.family_stage_ms[2] - 3.0).abs() < 1e-6);
        assert!((s.family_stage_ms[6] - 0.2).abs() < 1e-6);
        assert!((s.total_ms() - 19.7).abs() < 1e-4, "{}", s.total_ms());
        assert_eq!(family_stage_labels(&f).len(), 7);
    }
}

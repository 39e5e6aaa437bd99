//! The frame's BSP events grouped as the slide ran them: each iteration owns the sweep
//! events (node visits, brush clips) that came before its own `Iteration` event.

use super::FamilyContext;
use crate::bsp::{BspEvent, SlideBranch, SlideEnd};
use crate::geom::{Point3, Real, Vec3};
use crate::trace::EventKind;

/// One slide iteration as recorded.
#[derive(Clone, Copy, Debug)]
pub struct Iteration {
    /// The index of its `Iteration` event in the frame's trace.
    pub event: usize,
    /// The first trace index of its sweep.
    pub first: usize,
    pub index: u8,
    pub start: Point3,
    pub remaining: Vec3,
    pub hit: Option<(u32, u16)>,
    pub frac_impact: Real,
    pub frac_real: Real,
    pub normals: u8,
    pub reset: bool,
    pub branch: SlideBranch,
    pub next: Vec3,
}

impl Iteration {
    /// Where the shape was asked to go.
    pub fn target(&self) -> Point3 {
        self.start + self.remaining
    }

    /// Where it stopped, `MIN_DISTANCE` clear of the wall.
    pub fn stop(&self) -> Point3 {
        self.start + self.remaining * self.frac_impact
    }

    /// The shape's centre when it touches the wall.
    pub fn touch(&self) -> Point3 {
        self.start + self.remaining * self.frac_real
    }
}

/// The frame's slide: its iterations and how it ended.
#[derive(Clone, Debug, Default)]
pub struct SlideLog {
    pub iterations: Vec<Iteration>,
    pub end: Option<(usize, SlideEnd, u8)>,
}

impl SlideLog {
    pub fn of(cx: &FamilyContext) -> SlideLog {
        let Some(frame) = cx.frame() else {
            return SlideLog::default();
        };
        let mut log = SlideLog::default();
        let mut first = 0;
        for (i, e) in frame.trace.iter().enumerate() {
            let EventKind::Bsp(e) = &e.kind else {
                continue;
            };
            match *e {
                BspEvent::Iteration {
                    index,
                    start,
                    remaining,
                    hit,
                    frac_impact,
                    frac_real,
                    normals,
                    reset,
                    branch,
                    next,
                } => {
                    log.iterations.push(Iteration {
                        event: i,
                        first,
                        index,
                        start,
                        remaining,
                        hit,
                        frac_impact,
                        frac_real,
                        normals,
                        reset,
                        branch,
                        next,
                    });
                    first = i + 1;
                }
                BspEvent::End { reason, iterations } => {
                    log.end = Some((i, reason, iterations));
                    first = i + 1;
                }
                _ => {}
            }
        }
        log
    }

    /// The iteration a trace event belongs to (its sweep or the iteration itself).
    pub fn owner(&self, event: usize) -> Option<&Iteration> {
        self.iterations
            .iter()
            .find(|it| (it.first..=it.event).contains(&event))
    }
}

/// The frame's BSP events with their trace index.
pub fn bsp_events<'a>(cx: &FamilyContext<'a>) -> Vec<(usize, &'a BspEvent)> {
    cx.frame().map_or_else(Vec::new, |f| {
        f.trace
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match &e.kind {
                EventKind::Bsp(b) => Some((i, b)),
                _ => None,
            })
            .collect()
    })
}

fn position_in(frame: &crate::record::Frame) -> Option<Point3> {
    frame.families.iter().find_map(|d| match d {
        crate::families::FamilyFrameData::Bsp(f) => Some(f.position),
        _ => None,
    })
}

/// The walker's recorded position in the frame under the playhead.
pub fn walker_position(cx: &FamilyContext) -> Option<Point3> {
    position_in(cx.frame()?)
}

/// The walker's recorded positions over up to `frames` frames before the one shown, oldest
/// first, ending with the one shown.
pub fn trail(cx: &FamilyContext, frames: usize) -> Vec<Point3> {
    let (Some(session), at) = (cx.session(), cx.state.playhead.frame) else {
        return Vec::new();
    };
    (at.saturating_sub(frames)..=at)
        .filter_map(|f| session.frame(f).ok().and_then(|fr| position_in(&fr)))
        .collect()
}

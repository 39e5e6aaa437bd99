//! The frame's BSP events grouped as the slide ran them: each iteration owns the sweep
//! events (node visits, brush clips) that came before its own `Iteration` event.

use super::FamilyContext;
use crate::bsp::{BspEvent, BspSweepMode, SlideBranch, SlideEnd};
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

/// The frame's slide: its iterations and how it ended; and, when the scene compares, the
/// same move slid with the other mode (recorded after a `Compare` event).
#[derive(Clone, Debug, Default)]
pub struct SlideLog {
    pub iterations: Vec<Iteration>,
    pub end: Option<(usize, SlideEnd, u8)>,
    /// The other mode's slide and its mode.
    pub other: Option<(BspSweepMode, Box<SlideLog>)>,
}

impl SlideLog {
    pub fn of(cx: &FamilyContext) -> SlideLog {
        let Some(frame) = cx.frame() else {
            return SlideLog::default();
        };
        let events: Vec<(usize, &BspEvent)> = frame
            .trace
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match &e.kind {
                EventKind::Bsp(b) => Some((i, b)),
                _ => None,
            })
            .collect();
        Self::from_events(&events)
    }

    /// The log of `events` (trace index, event), up to a `Compare` event; what follows it is
    /// the other slide.
    pub fn from_events(events: &[(usize, &BspEvent)]) -> SlideLog {
        let mut log = SlideLog::default();
        let mut first = events.first().map_or(0, |e| e.0);
        for (k, &(i, e)) in events.iter().enumerate() {
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
                BspEvent::Compare { mode } => {
                    let rest = Self::from_events(&events[k + 1..]);
                    log.other = Some((mode, Box::new(rest)));
                    break;
                }
                _ => {}
            }
        }
        log
    }

    /// The iteration a trace event belongs to (its sweep or the iteration itself), in this
    /// slide or the compared one.
    pub fn owner(&self, event: usize) -> Option<&Iteration> {
        self.iterations
            .iter()
            .find(|it| (it.first..=it.event).contains(&event))
            .or_else(|| self.other.as_ref().and_then(|(_, o)| o.owner(event)))
    }

    /// Whether the trace event belongs to the compared slide.
    pub fn in_other(&self, event: usize) -> bool {
        self.other.as_ref().is_some_and(|(_, o)| {
            o.iterations.first().is_some_and(|it| event >= it.first)
                || o.end.is_some_and(|(i, ..)| event >= i)
        })
    }

    /// Where a slide run with `mode` left the shape, from its events: the whole last move
    /// when nothing was hit, else the last stop; the article does not write the position when
    /// `MAX_IMPACT` runs out (the start) and writes NaN (none) after its NaN crease.
    pub fn end_point(&self, mode: BspSweepMode) -> Option<Point3> {
        let last = self.iterations.last()?;
        match self.end.map(|e| e.1) {
            Some(SlideEnd::NotFinite) => None,
            Some(SlideEnd::MaxIterations) if mode == BspSweepMode::Article => {
                self.iterations.first().map(|it| it.start)
            }
            Some(SlideEnd::NoImpact) => Some(last.target()),
            Some(SlideEnd::StartSolid | SlideEnd::Still) => Some(last.start),
            _ => Some(last.stop()),
        }
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

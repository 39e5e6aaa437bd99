use super::{Stage, TraceEvent};

/// Receives the events of the algorithms. Implementations decide what to keep.
pub trait Probe {
    /// False when events are thrown away: lets an algorithm skip work that only feeds the
    /// trace (collecting geometry to draw, for instance).
    fn enabled(&self) -> bool;

    /// Takes one event, built lazily so that a disabled probe costs nothing.
    fn record(&mut self, make: impl FnOnce() -> TraceEvent);

    /// Says which stage the events recorded from now on belong to: the world calls it as it
    /// moves through its step, so an algorithm shared by several stages never names one.
    fn set_stage(&mut self, _stage: Stage) {}
}

/// Discards everything; every call inlines to nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProbe;

impl Probe for NoProbe {
    #[inline(always)]
    fn enabled(&self) -> bool {
        false
    }

    #[inline(always)]
    fn record(&mut self, _make: impl FnOnce() -> TraceEvent) {}
}

/// Keeps the events of a frame in order, up to a limit that the user sets: a 100,000-triangle
/// mesh can produce millions of node tests in one frame, and the history must stay within its
/// memory budget. The default, a million, keeps every event of the built-in scenes.
#[derive(Clone, Debug)]
pub struct TraceRecorder {
    pub events: Vec<TraceEvent>,
    pub limit: usize,
    /// Events past the limit, counted so the viewer can say the trace is partial.
    pub dropped: u64,
    /// The stage stamped on the events recorded now.
    pub stage: Stage,
}

impl TraceRecorder {
    pub const DEFAULT_LIMIT: usize = 1_000_000;

    pub fn new(limit: usize) -> Self {
        Self {
            events: Vec::new(),
            limit,
            dropped: 0,
            stage: Stage::default(),
        }
    }

    pub fn take(&mut self) -> (Vec<TraceEvent>, u64) {
        self.stage = Stage::default();
        let dropped = std::mem::take(&mut self.dropped);
        (std::mem::take(&mut self.events), dropped)
    }
}

impl Default for TraceRecorder {
    fn default() -> Self {
        Self::new(Self::DEFAULT_LIMIT)
    }
}

impl Probe for TraceRecorder {
    fn enabled(&self) -> bool {
        true
    }

    fn record(&mut self, make: impl FnOnce() -> TraceEvent) {
        if self.events.len() < self.limit {
            let mut event = make();
            event.stage = self.stage;
            self.events.push(event);
        } else {
            self.dropped += 1;
        }
    }

    fn set_stage(&mut self, stage: Stage) {
        self.stage = stage;
    }
}

impl<P: Probe + ?Sized> Probe for &mut P {
    #[inline(always)]
    fn enabled(&self) -> bool {
        (**self).enabled()
    }

    #[inline(always)]
    fn record(&mut self, make: impl FnOnce() -> TraceEvent) {
        (**self).record(make)
    }

    #[inline(always)]
    fn set_stage(&mut self, stage: Stage) {
        (**self).set_stage(stage)
    }
}

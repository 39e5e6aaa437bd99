use super::TraceEvent;

/// Receives the events of the algorithms. Implementations decide what to keep.
pub trait Probe {
    /// False when events are thrown away: lets an algorithm skip work that only feeds the
    /// trace (collecting geometry to draw, for instance).
    fn enabled(&self) -> bool;

    /// Takes one event, built lazily so that a disabled probe costs nothing.
    fn record(&mut self, make: impl FnOnce() -> TraceEvent);
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
}

impl TraceRecorder {
    pub const DEFAULT_LIMIT: usize = 1_000_000;

    pub fn new(limit: usize) -> Self {
        Self {
            events: Vec::new(),
            limit,
            dropped: 0,
        }
    }

    pub fn take(&mut self) -> (Vec<TraceEvent>, u64) {
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
            self.events.push(make());
        } else {
            self.dropped += 1;
        }
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
}

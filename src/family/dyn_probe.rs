use crate::trace::{Probe, Stage, TraceEvent};

/// A [`Probe`] behind a pointer: what a family's simulation receives, since a trait object
/// cannot take the generic probe of `World::step`. Events are still built only when the
/// probe is enabled, so a disabled probe costs one virtual call per report.
pub trait DynProbe {
    fn enabled(&self) -> bool;
    fn push(&mut self, event: TraceEvent);
    fn set_stage(&mut self, stage: Stage);
}

impl<P: Probe> DynProbe for P {
    #[inline]
    fn enabled(&self) -> bool {
        Probe::enabled(self)
    }

    #[inline]
    fn push(&mut self, event: TraceEvent) {
        Probe::record(self, || event)
    }

    #[inline]
    fn set_stage(&mut self, stage: Stage) {
        Probe::set_stage(self, stage)
    }
}

impl Probe for dyn DynProbe + '_ {
    #[inline]
    fn enabled(&self) -> bool {
        DynProbe::enabled(self)
    }

    #[inline]
    fn record(&mut self, make: impl FnOnce() -> TraceEvent) {
        if DynProbe::enabled(self) {
            self.push(make());
        }
    }

    #[inline]
    fn set_stage(&mut self, stage: Stage) {
        DynProbe::set_stage(self, stage)
    }
}

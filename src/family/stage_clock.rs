//! Where a family's step spends its time, stage by stage (`EngineFamily::STAGES`), for the
//! frame's stage times: the plots and the inspector show them beside the rigid pipeline's.

use crate::geom::Real;
use std::time::Instant;

/// Times one family's step. The family adds the time of each stage it measured; when the step
/// returns, the time it did not attribute counts to its last stage, so a family with one
/// stage reports nothing itself and its whole step is that stage.
#[derive(Clone, Debug)]
pub struct StageClock {
    seconds: Vec<Real>,
    started: Instant,
}

impl StageClock {
    /// A clock for a step of `stages` stages, started now.
    pub fn start(stages: usize) -> Self {
        Self {
            seconds: vec![0.0; stages],
            started: Instant::now(),
        }
    }

    /// Adds `seconds` to stage `stage` (an index into the family's `STAGES`; another index is
    /// ignored).
    pub fn add(&mut self, stage: usize, seconds: Real) {
        if let Some(s) = self.seconds.get_mut(stage) {
            *s += seconds;
        }
    }

    /// Runs `f` and adds its time to stage `stage`.
    pub fn time<R>(&mut self, stage: usize, f: impl FnOnce() -> R) -> R {
        let t = Instant::now();
        let out = f();
        self.add(stage, t.elapsed().as_secs_f64());
        out
    }

    /// The stage times of the step just ended: the time no stage was given counts to the last.
    /// Empty for a family with no stages.
    pub fn stop(mut self) -> Vec<Real> {
        let total = self.started.elapsed().as_secs_f64();
        let attributed: Real = self.seconds.iter().sum();
        if let Some(last) = self.seconds.last_mut() {
            *last += (total - attributed).max(0.0);
        }
        self.seconds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin(seconds: f64) {
        let t = Instant::now();
        while t.elapsed().as_secs_f64() < seconds {
            std::hint::spin_loop();
        }
    }

    #[test]
    fn one_stage_is_the_whole_step() {
        let clock = StageClock::start(1);
        spin(0.002);
        let s = clock.stop();
        assert_eq!(s.len(), 1);
        assert!(s[0] >= 0.002, "{s:?}");
    }

    #[test]
    fn measured_stages_keep_their_time_and_the_rest_goes_last() {
        let mut clock = StageClock::start(3);
        clock.time(0, || spin(0.002));
        let measured = Instant::now();
        spin(0.001);
        clock.add(1, measured.elapsed().as_secs_f64());
        // Not a stage of this family: ignored, so it does not eat the last stage's time.
        clock.add(7, 9.0);
        spin(0.001);
        let s = clock.stop();
        assert!(s[0] >= 0.002, "{s:?}");
        assert!(s[1] >= 0.001 && s[1] < 0.002, "{s:?}");
        assert!(s[2] >= 0.001, "{s:?}");
    }

    #[test]
    fn no_stages_report_nothing() {
        assert!(StageClock::start(0).stop().is_empty());
    }
}

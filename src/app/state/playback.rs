//! Play, pause, speed and loop: turns wall-clock time into a number of frames to advance.

pub const SPEEDS: [f32; 5] = [0.25, 0.5, 1.0, 2.0, 4.0];

/// Most frames one UI frame may advance: a stall (a slow frame, a dragged window) must not
/// make playback jump far ahead.
const MAX_FRAMES_PER_TICK: usize = 8;

#[derive(Clone, Debug, PartialEq)]
pub struct Playback {
    pub playing: bool,
    /// 0.25× to 4× simulated time per wall-clock time.
    pub speed: f32,
    /// At the end of a recording, start again from the first frame.
    pub looping: bool,
    accumulator_s: f64,
}

impl Default for Playback {
    fn default() -> Self {
        Self {
            playing: false,
            speed: 1.0,
            looping: false,
            accumulator_s: 0.0,
        }
    }
}

impl Playback {
    pub fn play(&mut self) {
        if !self.playing {
            self.playing = true;
            self.accumulator_s = 0.0;
        }
    }

    pub fn pause(&mut self) {
        self.playing = false;
        self.accumulator_s = 0.0;
    }

    pub fn set_speed(&mut self, speed: f32) {
        self.speed = speed.clamp(SPEEDS[0], SPEEDS[SPEEDS.len() - 1]);
    }

    /// Frames to advance after `elapsed_s` of wall-clock time, for frames `dt_s` apart.
    pub fn advance(&mut self, elapsed_s: f64, dt_s: f64) -> usize {
        if !self.playing || !(dt_s > 0.0) || !(elapsed_s >= 0.0) {
            return 0;
        }
        self.accumulator_s += elapsed_s * self.speed as f64;
        let n = (self.accumulator_s / dt_s).floor();
        self.accumulator_s -= n * dt_s;
        if n as usize > MAX_FRAMES_PER_TICK {
            self.accumulator_s = 0.0;
            return MAX_FRAMES_PER_TICK;
        }
        n as usize
    }

    /// Seconds until the next frame is due, to schedule the next repaint.
    pub fn until_next_s(&self, dt_s: f64) -> f64 {
        let per_frame = dt_s / self.speed.max(1e-3) as f64;
        (per_frame - self.accumulator_s / self.speed.max(1e-3) as f64).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advances_by_speed_and_carries_the_remainder() {
        let mut p = Playback::default();
        assert_eq!(p.advance(1.0, 0.1), 0, "paused");
        p.play();
        // Binary fractions, so the arithmetic is exact.
        assert_eq!(p.advance(0.3125, 0.125), 2);
        assert_eq!(p.advance(0.0625, 0.125), 1, "0.0625 carried + 0.0625");
        p.set_speed(0.25);
        assert_eq!(p.advance(0.25, 0.125), 0);
        assert_eq!(p.advance(0.25, 0.125), 1);
        p.set_speed(100.0);
        assert_eq!(p.speed, 4.0);
        assert_eq!(p.advance(10.0, 0.1), MAX_FRAMES_PER_TICK, "capped");
        assert_eq!(p.advance(0.0, 0.1), 0, "no backlog after a cap");
        assert_eq!(p.advance(1.0, 0.0), 0, "no division by a zero step");
    }
}

//! The plain timings the benches print their ratios from.

use std::time::Instant;

/// Seconds per pass of `f`, the best of five passes (the machine is shared).
pub fn best_of(mut f: impl FnMut()) -> f64 {
    (0..5)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

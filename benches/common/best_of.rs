//! The plain timings the benches print their ratios from.

use std::time::Instant;

/// How many passes each side is timed over.
const PASSES: usize = 5;

fn seconds(f: &mut impl FnMut()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64()
}

/// Seconds per pass of `f`, the best of five passes (the machine is shared).
#[allow(dead_code)]
pub fn best_of(mut f: impl FnMut()) -> f64 {
    (0..PASSES)
        .map(|_| seconds(&mut f))
        .fold(f64::INFINITY, f64::min)
}

/// The best of five passes of `ours` and of `theirs`, taking turns: this machine's speed
/// drifts over a second by as much as the ratios differ, and passes that alternate see
/// the same machine. Which side goes first alternates too.
#[allow(dead_code)]
pub fn best_of_paired(mut ours: impl FnMut(), mut theirs: impl FnMut()) -> (f64, f64) {
    let (mut a, mut b) = (f64::INFINITY, f64::INFINITY);
    for pass in 0..PASSES {
        if pass % 2 == 0 {
            a = a.min(seconds(&mut ours));
            b = b.min(seconds(&mut theirs));
        } else {
            b = b.min(seconds(&mut theirs));
            a = a.min(seconds(&mut ours));
        }
    }
    (a, b)
}

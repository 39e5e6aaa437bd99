//! Work split in two for this machine's two cores: the cloth's per-vertex and per-spring
//! passes, and the hierarchy build's large subtrees. Splits are by index and each half keeps
//! its order, so one thread or two give the same numbers bit for bit.

/// Below this many items a second thread costs more than it saves.
pub const PARALLEL_MIN: usize = 2048;

fn pool() -> Option<&'static rayon_core::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon_core::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon_core::ThreadPoolBuilder::new()
            .num_threads(2)
            .thread_name(|i| format!("collidoscope-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// Runs `f` on a pool of two threads, where [`join`] finds its second thread
/// waiting (a spawned thread costs 40 µs on this machine, a fifth of a small pass); on this
/// thread if the pool could not start.
pub fn run<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    match pool() {
        Some(pool) => pool.install(f),
        None => f(),
    }
}

/// Runs `a` and `b`, on two threads within [`run`]. A panic in either is passed on unchanged.
pub fn join<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    rayon_core::join(a, b)
}

/// Where `0..len` splits: the middle, or `len` (no second half) below [`PARALLEL_MIN`].
pub fn middle(len: usize) -> usize {
    if len >= PARALLEL_MIN { len / 2 } else { len }
}

/// `f(first, part)` fills each half of `out` in place, `first` being the half's first index.
pub fn fill_halves<T: Send>(out: &mut [T], f: impl Fn(usize, &mut [T]) + Sync) {
    let mid = middle(out.len());
    let (low, high) = out.split_at_mut(mid);
    if high.is_empty() {
        f(0, low);
    } else {
        join(|| f(mid, high), || f(0, low));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_cover_every_index_once_in_order() {
        for len in [0, 1, PARALLEL_MIN - 1, PARALLEL_MIN, 5001] {
            let mut filled = vec![usize::MAX; len];
            fill_halves(&mut filled, |first, part| {
                for (k, x) in part.iter_mut().enumerate() {
                    *x = first + k;
                }
            });
            assert_eq!(filled, (0..len).collect::<Vec<_>>(), "len {len}");
        }
    }
}

//! How many cases the property suites run: their base counts times `COLLIDOSCOPE_TEST_SCALE`
//! (default 1), so CI stays quick and a long run is one variable away.

pub fn scale() -> u32 {
    std::env::var("COLLIDOSCOPE_TEST_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// The structure-aware generators' cases: 64 × the scale, and no failure file (a failing
/// case is printed; the generators' inputs are not worth replaying from a file).
pub fn generated_cases() -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: 64 * scale(),
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

/// Runs one generated case and, when `COLLIDOSCOPE_CASE_TIMES` names a file, keeps there the
/// count and the slowest time of each kind of case (`scripts/fuzz.sh generated` reports
/// them). A report for long runs, never an assertion: tests do not time themselves.
pub fn timed_case<T>(kind: &str, run: impl FnOnce() -> T) -> T {
    timed_case_of(kind, "", run)
}

/// [`timed_case`] for a case with a text input: a case slower than `COLLIDOSCOPE_SLOW_CASE_MS`
/// (default 1000) leaves its input beside the times file (`<file>.slow-<kind>-<n>.txt`), so
/// a long campaign's slowest inputs can be replayed.
pub fn timed_case_of<T>(kind: &str, input: &str, run: impl FnOnce() -> T) -> T {
    use std::collections::BTreeMap;
    use std::sync::Mutex;
    use std::time::Instant;
    static FILE: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    static TALLY: Mutex<BTreeMap<String, (u64, f64)>> = Mutex::new(BTreeMap::new());
    let Some(file) = FILE.get_or_init(|| std::env::var("COLLIDOSCOPE_CASE_TIMES").ok()) else {
        return run();
    };
    let started = Instant::now();
    let out = run();
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let slow_ms = std::env::var("COLLIDOSCOPE_SLOW_CASE_MS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(1000.0);
    if ms > slow_ms && !input.is_empty() {
        static DUMPED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = DUMPED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = kind.replace(' ', "-");
        let _ = std::fs::write(
            format!("{file}.slow-{name}-{n}.txt"),
            format!("{ms:.1} ms\n{input}"),
        );
    }
    let mut tally = TALLY.lock().unwrap_or_else(|e| e.into_inner());
    let entry = tally.entry(kind.to_string()).or_insert((0, 0.0));
    entry.0 += 1;
    let slower = ms > entry.1;
    entry.1 = entry.1.max(ms);
    if slower || entry.0.is_power_of_two() || entry.0.is_multiple_of(10_000) {
        let text: String = tally
            .iter()
            .map(|(k, (n, max))| format!("{k}\t{n} cases\tslowest {max:.1} ms\n"))
            .collect();
        let tmp = format!("{file}.tmp");
        if std::fs::write(&tmp, text).is_ok() {
            let _ = std::fs::rename(&tmp, file);
        }
    }
    out
}

//! How many cases the property suites run: their base counts times `COLLIDOSCOPE_TEST_SCALE`
//! (default 1), so CI stays quick and a long run is one variable away.

pub fn scale() -> u32 {
    std::env::var("COLLIDOSCOPE_TEST_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1)
}

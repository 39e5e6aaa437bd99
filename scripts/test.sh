#!/usr/bin/env bash
# The whole test suite, as CI runs it: formatting, lints, the engine built without the GUI,
# then every test (unit, property, CLI, UI). COLLIDOSCOPE_TEST_SCALE=N multiplies the case
# counts of the property suites (default 1); PROPTEST_RNG_SEED=N draws other cases.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --headless
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
# The property suites draw their cases from one seed, so CI's verdict depends on the code
# alone; long random runs set their own (or run cargo test, which draws a fresh seed).
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-20261128}"
chmod 700 "$XDG_RUNTIME_DIR"
echo "test: cargo fmt --check"
cargo fmt --all -- --check
echo "test: ${SECONDS}s so far"
echo "test: cargo clippy --all-targets --features rapier -- -D warnings"
cargo clippy --all-targets --features rapier --quiet -- -D warnings
echo "test: ${SECONDS}s so far"
echo "test: cargo check --no-default-features (the engine never depends on the GUI)"
cargo check --no-default-features --quiet
echo "test: ${SECONDS}s so far"
echo "test: cargo test --features rapier (the Rapier adapter's tests need a real rapier3d)"
cargo test --features rapier --no-fail-fast 2>&1 | tee "${TMPDIR:-/tmp}/collidoscope-test.log"
status=${PIPESTATUS[0]}
passed=$(grep -Eo '^test result: [a-zA-Z]+\. [0-9]+ passed' "${TMPDIR:-/tmp}/collidoscope-test.log" | awk '{s += $4} END {print s + 0}')
failed=$(grep -Eo '; [0-9]+ failed' "${TMPDIR:-/tmp}/collidoscope-test.log" | awk '{s += $2} END {print s + 0}')
echo "$passed passed, $failed failed (${SECONDS}s in all)"
exit "$status"

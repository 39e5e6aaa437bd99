#!/usr/bin/env bash
# Shows that NoProbe is free: the step bench with the trace calls in the code (and a NoProbe
# passed), then with them compiled out (feature `untraced`). Criterion prints the change of
# the second run against the first; "No change in performance detected" is the expected verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --no-default-features --bench step -- 'step/no_probe$' --save-baseline with_trace_calls
cargo bench --no-default-features --features untraced --bench step -- 'step/no_probe$' --baseline with_trace_calls

#!/usr/bin/env bash
# Fuzzes the recording reader, the query parser and the capture stream parser with AFL++ through afl.rs, on the stable
# toolchain, and runs the structure-aware generators at scale. Not part of CI: a campaign
# takes hours on two cores.
#
#   scripts/fuzz.sh [reader|query|capture|all] [EXECUTIONS]    (default: all, 10000000 each)
#   scripts/fuzz.sh generated [CASES]     (the generators of tests/*_generated.rs, CASES per op
#                                          and per file kind, default 1000000)
#   FUZZ_SUITE_BIN=/tmp/suite FUZZ_ONLY=query_generated::generated_requests scripts/fuzz.sh generated
#                                         (a copied suite binary, one spec: a campaign that
#                                          outlives rebuilds of the checkout)
#   FUZZ_SECONDS=600 scripts/fuzz.sh reader               (stop after a time instead)
#   FUZZ_SEEDS=fuzz/out/old/default/queue scripts/fuzz.sh query   (start from an earlier queue)
#
# Needs Debian's afl++ (apt-get install afl++) and cargo-afl (cargo install cargo-afl; the
# script installs both when missing). Builds in fuzz/target (instrumented, separate from the
# main target/). Each campaign stops after EXECUTIONS executions; findings land in
# fuzz/out/<target>/default/{crashes,hangs}. Copy every crash into tests/fixtures/fuzz/<target>/
# so the regression tests (tests/record_format.rs) replay it on every run.
set -euo pipefail
cd "$(dirname "$0")/.."
which_targets=${1:-all}
execs=${2:-10000000}

# The structure-aware generators (issue 31): the suite's own property tests, built in the test
# profile (optimised: Cargo.toml's profile.dev), run with their case counts scaled so that
# every query op and every file kind gets CASES cases, under a 4 GiB address-space limit. Reports the cases, the slowest case of each kind
# (tests/test_scale.rs keeps them in case-times.tsv) and the peak memory of each run.
generated() {
    local cases=$1
    local out=fuzz/out/generated
    mkdir -p "$out"
    # FUZZ_SUITE_BIN: a copy of the suite's test binary to run instead of building one, so a
    # long campaign goes on while the checkout changes (and FUZZ_ONLY=<filter> runs one spec).
    local runner=(cargo test --features rapier --test suite --)
    if [[ -n ${FUZZ_SUITE_BIN:-} ]]; then
        runner=("$FUZZ_SUITE_BIN")
    else
        bash scripts/setup.sh --headless >/dev/null
        cargo test --features rapier --test suite --no-run
    fi
    # base cases per run of each test, and the kinds it spreads them over
    local specs=(
        "query_generated::generated_requests 512 15"
        "file_generated::generated_scenes 64 1"
        "file_generated::generated_maps 64 1"
        "file_generated::generated_objs 64 1"
        "file_generated::generated_surface 64 1"
        "file_generated::generated_nurbs_scenes 64 1"
        "recording_generated:: 64 1"
        "capture_generated:: 64 1"
    )
    local start=$SECONDS status=0
    for spec in "${specs[@]}"; do
        read -r filter base kinds <<<"$spec"
        if [[ -n ${FUZZ_ONLY:-} && $filter != "$FUZZ_ONLY" ]]; then
            continue
        fi
        # 10 % over: the kinds of one test are drawn at random, not in turn.
        local scale=$(( (cases * kinds * 11 / 10 + base - 1) / base ))
        local times="$out/case-times-${filter%%::*}-${filter##*::}.tsv"
        rm -f "$times"
        echo "== $filter: scale $scale"
        local t0=$SECONDS
        ( ulimit -v $((4 << 20)); COLLIDOSCOPE_TEST_SCALE=$scale COLLIDOSCOPE_CASE_TIMES=$times \
            /usr/bin/time -f "peak memory %M KiB" \
            "${runner[@]}" "$filter" --test-threads 2 ) \
            2>&1 | grep -E '^(test |peak memory|test result)|panicked|FAILED' || status=1
        echo "   $((SECONDS - t0)) s"
        cat "$times" 2>/dev/null | sed 's/^/   /'
    done
    echo "== generated: $((SECONDS - start)) s in all"
    return $status
}
if [[ $which_targets == generated ]]; then
    generated "${2:-1000000}"
    exit
fi

if ! command -v afl-fuzz >/dev/null; then
    apt-get install -y afl++
fi
if ! cargo afl --version >/dev/null 2>&1; then
    cargo install --locked cargo-afl
fi

# AFL++ refuses to start on a machine that sends core dumps to a helper or scales CPU
# frequency; these variables tell it to go on (results are the same, only slower).
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
# The reader target writes each input to a temporary file: keep that in memory.
export TMPDIR=${TMPDIR:-/dev/shm}

(cd fuzz && cargo afl build --release)

run() {
    local target=$1
    local seeds=${FUZZ_SEEDS:-fuzz/corpus/$target}
    local out=fuzz/out/$target
    mkdir -p "$out"
    local start=$SECONDS
    # -E stops after that many executions, -V after that many seconds; -t is a per-input
    # time limit in ms (past it, an input counts as a hang).
    local stop=(-E "$execs")
    if [[ -n ${FUZZ_SECONDS:-} ]]; then stop=(-V "$FUZZ_SECONDS"); fi
    cargo afl fuzz -i "$seeds" -o "$out" "${stop[@]}" -t 1000 \
        "fuzz/target/release/$target" || true
    local stats=$out/default/fuzzer_stats
    echo "== $target: $((SECONDS - start)) s"
    grep -E '^(execs_done|execs_per_sec|corpus_count|saved_crashes|saved_hangs|stability)' "$stats"
}

case $which_targets in
    reader) run reader ;;
    query) run query ;;
    capture) run capture ;;
    all | both) run reader; run query; run capture ;;
    *) echo "usage: $0 [reader|query|capture|all] [EXECUTIONS]" >&2; exit 2 ;;
esac

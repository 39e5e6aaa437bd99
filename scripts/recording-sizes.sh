#!/usr/bin/env bash
# Bytes per frame of 300-frame recordings (full trace) of the scenes issue 8 measures, with
# the compression ratio and the trace events held and dropped, as `collidoscope info` reads
# them back from each file.
#
#   scripts/recording-sizes.sh [FRAMES]            (default 300)
#   BIN=path/to/collidoscope scripts/recording-sizes.sh    (measure another build, e.g. an
#                                                           older commit's, for a before/after)
set -euo pipefail
cd "$(dirname "$0")/.."
frames=${1:-300}
if [[ -z ${BIN:-} ]]; then
    cargo build --release --no-default-features --bin collidoscope >&2
    BIN=target/release/collidoscope
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

printf '| scene | frames | file bytes | bytes/frame | ratio | events held | events dropped | record s |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
for scene in mixed-drop dense-mesh-on-terrain interlocked-tori convex-pile; do
    file=$dir/$scene.cdrec
    start=$(date +%s.%N)
    "$BIN" record --scene "$scene" --frames "$frames" -o "$file" >/dev/null
    end=$(date +%s.%N)
    "$BIN" info --json "$file" | python3 -c '
import json, sys
scene, seconds = sys.argv[1], float(sys.argv[2])
v = json.load(sys.stdin)
n, size = v["frames"], v["bytes"]
# Older builds print no compression figures: their frames were stored raw.
per = v.get("bytes_per_frame", size / n)
ratio = v.get("compression_ratio", 1.0)
count = lambda key: f"{v[key]:,}" if key in v else "?"
held, dropped = count("trace_events"), count("trace_events_dropped")
print(f"| {scene} | {n} | {size:,} | {per:,.0f} | {ratio:.1f} | {held} | {dropped} | {seconds:.1f} |")
' "$scene" "$(echo "$end - $start" | bc)"
done

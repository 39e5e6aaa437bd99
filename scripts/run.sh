#!/usr/bin/env bash
# Builds Collidoscope (release) and opens the viewer on the built-in default scene, or on the
# file or scene name given: scripts/run.sh [FILE|SCENE]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "run: building the viewer (release; the first build takes a few minutes)"
cargo build --release --quiet
exec ./target/release/collidoscope "$@"

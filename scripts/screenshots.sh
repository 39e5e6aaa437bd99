#!/usr/bin/env bash
# Renders the README's screenshots of the viewer under Xvfb into screenshots/.
#
# The app screenshots itself (COLLIDOSCOPE_SCREENSHOT, see src/app/screenshot.rs) and exits,
# so each shot is one run of the release binary. Needs xvfb-run (scripts/setup.sh --headless
# installs it); installs nothing itself.
#
# Usage: scripts/screenshots.sh [--setup] [NAME...]   (no NAME: every shot)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--setup" ]; then
  shift
  scripts/setup.sh --headless
fi
if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "screenshots: xvfb-run is missing; run scripts/setup.sh --headless (or pass --setup)" >&2
  exit 1
fi

cargo build --release --bin collidoscope
bin=target/release/collidoscope
out=screenshots
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR="$work/xdg"
mkdir -m 700 -p "$XDG_RUNTIME_DIR"

# Runs one shot: NAME, then VAR=value pairs for the screenshot mode.
shot() {
  local name=$1
  shift
  echo "screenshots: $name"
  env COLLIDOSCOPE_SCREENSHOT="$out/$name.png" COLLIDOSCOPE_SCREENSHOT_SIZE=1600x1000 "$@" \
    xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" >/dev/null
}

want() {
  [ ${#selected[@]} -eq 0 ] && return 0
  local s
  for s in "${selected[@]}"; do [ "$s" = "$1" ] && return 0; done
  return 1
}
selected=("$@")

if want main; then
  # The default scene mid-drop: contacts and normals, a selected body in the inspector,
  # markers on the timeline, the plots.
  shot main COLLIDOSCOPE_SCREENSHOT_FRAME=70 COLLIDOSCOPE_SCREENSHOT_SELECT=box-5 \
    COLLIDOSCOPE_SCREENSHOT_CAMERA=0.2,0.05,0.85
fi
if want event-step; then
  # Stepping inside a frame: the current narrow-phase test, its bodies in focus, the event's
  # fields in the inspector.
  shot event-step COLLIDOSCOPE_SCREENSHOT_FRAME=40 COLLIDOSCOPE_SCREENSHOT_EVENT=contact \
    COLLIDOSCOPE_SCREENSHOT_TRACE=upto COLLIDOSCOPE_SCREENSHOT_CAMERA=0.0,0.1,0.8
fi
if want wireframe-light; then
  shot wireframe-light COLLIDOSCOPE_SCREENSHOT_SCENE=box-stack COLLIDOSCOPE_SCREENSHOT_FRAME=120 \
    COLLIDOSCOPE_SCREENSHOT_THEME=light COLLIDOSCOPE_SCREENSHOT_SHADING=wire \
    COLLIDOSCOPE_SCREENSHOT_SELECT=box-7 COLLIDOSCOPE_SCREENSHOT_CAMERA=0.0,-0.15,0.7
fi
if want recording; then
  # A recording replayed: read in the background, markers and plots for the whole run.
  "$bin" record --scene tunnelling --frames 240 --output "$work/tunnelling.cdrec" >/dev/null
  shot recording COLLIDOSCOPE_SCREENSHOT_SCENE="$work/tunnelling.cdrec" COLLIDOSCOPE_SCREENSHOT_FRAME=21 \
    COLLIDOSCOPE_SCREENSHOT_SELECT=bullet COLLIDOSCOPE_SCREENSHOT_TRACE=frame
fi
if want fork; then
  shot fork COLLIDOSCOPE_SCREENSHOT_FRAME=90 COLLIDOSCOPE_SCREENSHOT_FORK=1
fi
ls -l "$out"

#!/usr/bin/env bash
# Installs what Collidoscope needs to build, run and be tested on a fresh Debian machine.
# It only installs what is missing and says what it does.
set -euo pipefail

runtime_pkgs=(libx11-6 libx11-xcb1 libxcursor1 libxrandr2 libxi6 libxkbcommon0 libxkbcommon-x11-0
  libgl1 libegl1 libgl1-mesa-dri libwayland-client0 libdbus-1-3
  # some test-only crates link wayland and xkbcommon at build time
  pkg-config libwayland-dev libxkbcommon-dev)
headless_pkgs=(xvfb xauth xdotool imagemagick mesa-vulkan-drivers libvulkan1)

want=("${runtime_pkgs[@]}")
if [ "${1:-}" = "--headless" ]; then want+=("${headless_pkgs[@]}"); fi

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing system packages: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: system packages already present"
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found; install the Rust toolchain (rustup) first" >&2
  exit 1
fi

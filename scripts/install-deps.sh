#!/usr/bin/env bash
# Installs what cfuzz needs from Debian's packages. Safe to run again: it installs only
# what is missing, and does nothing (not even apt-get update) when everything is there.
#
#   --browser   only Debian's Chromium, which the test of `cfuzz cover`'s page opens it in
#               (headless, with --disable-gpu, and its console read from its own log: no
#               chromium-driver and none of its recommends are needed)
set -euo pipefail

packages=(
  cmake ninja-build pkg-config git
  clang libclang-rt-14-dev llvm        # targets, SanitizerCoverage, llvm-symbolizer
  clang-format                         # the format check in the test suite
  g++                                  # the tool also builds with gcc
  libcli11-dev libspdlog-dev nlohmann-json3-dev libxxhash-dev
  googletest libgtest-dev
  golang-1.19                          # Go interoperability tests
  python3                              # test helpers that read XML reports
  python3-jsonschema                   # the SARIF schema check in the test suite
)

if [ "${1:-}" = "--browser" ]; then
  packages=(chromium)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"

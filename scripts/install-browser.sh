#!/usr/bin/env bash
# Installs Debian's Chromium, which test/e2e/cover_browser_test.sh opens `cfuzz cover`'s page
# in (headless; that test is skipped without it). Safe to run again: it installs only what is
# missing, and does nothing (not even apt-get update) when everything is there.
set -euo pipefail

# The console check reads Chromium's own log (--enable-logging=stderr), so no chromium-driver;
# and the test runs it headless with --disable-gpu, so none of its recommends (Mesa, printing,
# power management, the setuid sandbox).
packages=(chromium)

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
echo "install-browser: installing ${missing[*]}"
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# The standing benchmark: cfuzz against libFuzzer (and AFL++ when it installs) on the same
# targets, in one run, on this machine. Prints one line per figure with the cfuzz/libFuzzer
# ratio and writes a Markdown table (build/bench/results.md) for docs/benchmarks.md (the
# history of runs is in docs/benchmarks/history.md).
#
#   bash scripts/bench.sh --quick     # about 5 minutes, for routine use after an engine change
#   bash scripts/bench.sh             # the full run quoted in docs/benchmarks.md
#
# Run it on an otherwise idle machine: anything else running skews the figures.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
# The benchmark's own tools: python3 for the driver, zlib for the structure-aware target,
# AFL++ as a second peer (optional).
need=()
command -v python3 >/dev/null || need+=(python3)
dpkg-query -W -f='${Status}' zlib1g-dev 2>/dev/null | grep -q "install ok installed" || need+=(zlib1g-dev)
dpkg-query -W -f='${Status}' afl++ 2>/dev/null | grep -q "install ok installed" || need+=(afl++)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${need[@]}" ||
    echo "bench: could not install ${need[*]}; AFL++ columns will be empty" >&2
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)"
exec python3 scripts/bench/bench.py "$@"

#!/usr/bin/env bash
# Installs dependencies, builds, and runs the whole test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/build.sh -DCFUZZ_WERROR=ON
cd build
ctest --output-on-failure -j "$(nproc)" "$@"

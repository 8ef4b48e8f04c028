#!/usr/bin/env bash
# Installs dependencies, builds, and runs the whole test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/build.sh -DCFUZZ_WERROR=ON
# Chromium for the test of `cfuzz cover`'s page; without it that test is skipped.
bash scripts/install-deps.sh --browser || echo "test.sh: chromium could not be installed; the browser test will be skipped"
cd build
ctest --output-on-failure -j "$(nproc)" "$@"

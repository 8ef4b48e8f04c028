#!/usr/bin/env bash
# Configures and builds cfuzz into ./build (build/bin/cfuzz, the compiler wrappers and
# build/lib/libcfuzz_runtime.a). Extra arguments go to the CMake configure step.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build build -j "$(nproc)"

#!/usr/bin/env bash
# scripts/check_walls.sh passes on the tree as it is, and fails, naming the file, line and
# wall, on a copy with forbidden includes planted: runtime/ and cmd/ crossing the walls between
# libraries, the worker server including the libFuzzer front end (only the entry points may), and
# libfuzzdriver's utilities including the run (only the run puts the parts together); and a
# source left directly in libfuzzdriver/, outside its folders.
set -euo pipefail
src=$1
check="$src/scripts/check_walls.sh"
bash "$check" "$src"

copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
for lib in corpus_format core runtime libfuzzdriver cmd; do cp -r "$src/$lib" "$copy/$lib"; done
echo '#include "libfuzzdriver/worker/worker.h"' >> "$copy/runtime/engine/fuzz_engine.cc"
echo '#include "core/rpc.h"' >> "$copy/cmd/main.cc"
echo '#include "runtime/libfuzzer/libfuzzer_front_end.h"' >> "$copy/runtime/worker/worker_server.cc"
echo '#include "libfuzzdriver/run/coordinator.h"' >> "$copy/libfuzzdriver/util/file_io.cc"
touch "$copy/libfuzzdriver/stray.cc"
if out=$(bash "$check" "$copy"); then
  echo "FAIL: check_walls.sh passed a tree that crosses four walls" >&2
  exit 1
fi
grep -q "^runtime/engine/fuzz_engine.cc:[0-9]*: runtime must not include libfuzzdriver/" <<<"$out" ||
  { echo "FAIL: the runtime violation was not named: $out" >&2; exit 1; }
grep -q "^cmd/main.cc:[0-9]*: cmd must not include core/" <<<"$out" ||
  { echo "FAIL: the cmd violation was not named: $out" >&2; exit 1; }
grep -q "^runtime/worker/worker_server.cc:[0-9]*: runtime/worker must not include runtime/libfuzzer/" <<<"$out" ||
  { echo "FAIL: the worker server's include of the libFuzzer front end was not named: $out" >&2; exit 1; }
grep -q "^libfuzzdriver/util/file_io.cc:[0-9]*: libfuzzdriver/util must not include libfuzzdriver/run/" <<<"$out" ||
  { echo "FAIL: the utilities' include of the run was not named: $out" >&2; exit 1; }
grep -q "^libfuzzdriver/stray.cc: outside the folders of libfuzzdriver/" <<<"$out" ||
  { echo "FAIL: the source outside libfuzzdriver's folders was not named: $out" >&2; exit 1; }
echo "ok: $(wc -l <<<"$out") violations named"

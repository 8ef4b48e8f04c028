#!/usr/bin/env bash
# The main job, end to end: install what is missing, build cfuzz, build the example config
# parser's fuzz test with the compiler wrapper (AddressSanitizer and UBSan on), and fuzz it
# until cfuzz finds the parser's planted bug. Then show that the saved input reproduces the
# failure in a plain seed run, as `go test` would.
#
# Exits 0 when the bug was found, saved, and reproduced; non-zero otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

bash scripts/build.sh

work="$root/build/demo"
rm -rf "$work"
mkdir -p "$work"
cp -r examples/parser/. "$work/"
# Only the committed seeds: reproducers an earlier run wrote into examples/parser are named
# by their 16-hex-digit content hash (the committed seeds have names like empty_section).
find "$work/testdata/fuzz/FuzzParseConfig" -type f -regextype posix-extended -regex '.*/[0-9a-f]{16}' -delete
cd "$work"

echo
echo "== Building the example with cfuzz-clang++ (AddressSanitizer + UBSan)"
CFUZZ_SANITIZE=address,undefined "$root/build/bin/cfuzz-clang++" -std=c++20 -g -O1 config.cc fuzz_config.cc -o fuzz_config

echo
echo "== The seeds pass (./fuzz_config runs them like go test)"
./fuzz_config

# Runs a command that must exit 1 (a failure found); anything else ends the demo with `why`.
expect_failure() {
  local why="$1"
  shift
  local status=0
  "$@" || status=$?
  if [ $status -ne 1 ]; then
    echo "demo: $why (exit 1); it exited $status" >&2
    exit 1
  fi
}

echo
echo "== Fuzzing: cfuzz run ./fuzz_config --fuzztime 5m"
expect_failure "cfuzz was expected to find the planted bug" \
  "$root/build/bin/cfuzz" run ./fuzz_config --fuzztime 5m --cachedir "$work/cache"

echo
echo "== The failing input is saved; a plain seed run now fails on it"
ls testdata/fuzz/FuzzParseConfig/
expect_failure "the saved input should make the seed run fail" ./fuzz_config
echo
echo "demo: cfuzz found the planted bug, saved the input and it reproduces."

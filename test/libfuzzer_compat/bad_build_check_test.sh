#!/usr/bin/env bash
# OSS-Fuzz's bad-build check for a libFuzzer + AddressSanitizer build, reimplemented: the
# same commands, greps and thresholds as infra/base-images/base-runner/bad_build_check
# (check_engine, check_startup_crash, check_mixed_sanitizers, check_seed_corpus), so that a
# target that passes here passes there.
#
#   bad_build_check_test.sh TARGET
#
# Run for a cfuzz-built target and, as a control, for a plain -fsanitize=fuzzer build of
# the same harness: both must pass.
set -u
fuzzer=$1
name=$(basename "$fuzzer")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=0
bad() { echo "BAD BUILD: $fuzzer $*"; failed=1; }

# check_engine: four runs from a fixed seed; the instrumentation counted from the
# "INFO: Loaded N modules (N inline 8-bit counters): N" line, at least 100 edges.
"$fuzzer" -seed=1337 -runs=4 &>"$out/engine.log"
if grep -Eq "ERROR: no interesting inputs were found. Is the code instrumented" "$out/engine.log"; then
  bad "does not seem to have coverage instrumentation."
fi
edges=$(grep -Po "INFO: Loaded [[:digit:]]+ module.*\(.*(counters|guards)\):[[:space:]]+\K[[:digit:]]+" "$out/engine.log")
if [[ -z "$edges" ]]; then
  bad "printed no 'INFO: Loaded ... modules' line."
elif (( edges < 100 )); then
  bad "seems to have only partial coverage instrumentation ($edges edges)."
fi

# check_startup_crash: the same run must say it did the runs.
grep -Eq "Done 4 runs" "$out/engine.log" || bad "seems to have either startup crash or exit."

# check_mixed_sanitizers for SANITIZER=address on x86_64: calls into each sanitizer's
# runtime, counted in the disassembly.
call='callq?\s+[0-9a-f]+\s+<'
objdump -dC "$fuzzer" >"$out/disasm"
count() { grep -Ec "${call}$1" "$out/disasm"; }
asan=$(count __asan) dfsan=$(count __dfsan) msan=$(count __msan) ubsan=$(count __ubsan)
echo "$name: $edges edges; calls: asan $asan, dfsan $dfsan, msan $msan, ubsan $ubsan"
(( asan >= 1000 )) || bad "does not seem to be compiled with ASan."
(( dfsan <= 0 )) || bad "ASan build seems to be compiled with DFSan."
(( msan <= 3 )) || bad "ASan build seems to be compiled with MSan."
(( ubsan <= 200 )) || bad "ASan build seems to be compiled with UBSan."

# check_seed_corpus: the seed corpus runs (-runs=0) with run_fuzzer's default arguments and
# exits 0.
mkdir -p "$out/corpus"
printf 'a=1;n=42;s=x' >"$out/corpus/seed1"
printf '{"k": [1, 2, "v"]}' >"$out/corpus/seed2"
if ! "$fuzzer" -rss_limit_mb=2560 -timeout=25 -runs=0 "$out/corpus" &>"$out/seed.log"; then
  bad "has a crashing input in its seed corpus:"
  cat "$out/seed.log"
fi

if (( failed )); then
  echo "--- $name -seed=1337 -runs=4:"
  cat "$out/engine.log"
  exit 1
fi
echo "$name passes the bad-build check"

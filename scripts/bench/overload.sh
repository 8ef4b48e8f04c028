#!/usr/bin/env bash
# An overloaded machine: COORDINATORS cfuzz runs of WORKERS workers each at once, on a
# target whose every input takes INPUT_MS of CPU, all with --timeout 1s. On two cores the
# defaults make sixteen busy workers, so each input takes about 8x longer by the clock.
# Counts what must not happen: a false timeout, a false crash, a run that does not PASS.
#
#   bash scripts/bench/overload.sh [FUZZTIME] [COORDINATORS] [WORKERS] [INPUT_MS]
#
# Needs a build (bash scripts/build.sh). Exits 1 if any run reported a failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

fuzztime=${1:-3m}
coordinators=${2:-8}
workers=${3:-2}
input_ms=${4:-50}

cfuzz=$(pwd)/build/bin/cfuzz
out=$(mktemp -d /tmp/cfuzz-overload.XXXXXX)
build/bin/cfuzz-clang++ -std=c++20 -O1 -g test/targets/slow_inputs.cc -o "$out/slow_inputs"
echo "overload: $coordinators coordinators x $workers workers on $(nproc) cores, inputs of ${input_ms} ms CPU," \
  "--timeout 1s, --fuzztime $fuzztime; logs in $out"

pids=()
for i in $(seq 1 "$coordinators"); do
  mkdir -p "$out/run$i"
  (cd "$out/run$i" && CFUZZ_TEST_INPUT_MS=$input_ms exec "$cfuzz" \
    run "$out/slow_inputs" --cachedir "$out/run$i/cache" --parallel "$workers" --timeout 1s \
    --fuzztime "$fuzztime" >"$out/run$i/log" 2>&1) &
  pids+=($!)
done
failed=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then failed=$((failed + 1)); fi
done

passes=$( (grep -l '^PASS$' "$out"/run*/log || true) | wc -l)
timeouts=$(cat "$out"/run*/log | grep -c -- '(--timeout)' || true)
fails=$(cat "$out"/run*/log | grep -c -- '--- FAIL' || true)
execs=$(for f in "$out"/run*/log; do grep -o 'execs: [0-9]*' "$f" | tail -1 | grep -o '[0-9]*' || true; done |
  awk '{ n += $1 } END { print n + 0 }')
echo "overload: $passes of $coordinators runs passed, $failed exited non-zero, $fails failures reported" \
  "($timeouts timeouts), $execs executions in all"
[ "$failed" -eq 0 ] && [ "$fails" -eq 0 ]

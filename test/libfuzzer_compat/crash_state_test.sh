#!/bin/bash
# ClusterFuzz must see a crash of a cfuzz build as it sees the same crash of a libFuzzer
# build: the same crash type and crash state (cluster_fuzz_crash_state.py applies its
# rules), and the same user frames in DEDUP_TOKEN. One harness (test/targets/crash_depths.cc)
# built both ways, a bug in the harness itself, one and three functions below it, under
# AddressSanitizer, UndefinedBehaviorSanitizer and MemorySanitizer; the cfuzz build's crash
# as its libFuzzer front end reports it (`./target FILE`) and as a `cfuzz run` worker does.
# usage: crash_state_test.sh CHECKER CFUZZ TARGETS_DIR
set -u
checker=$1 cfuzz=$2 targets=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# As ClusterFuzz runs a target.
export ASAN_OPTIONS=dedup_token_length=3:symbolize=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:dedup_token_length=3:symbolize=1
export MSAN_OPTIONS=dedup_token_length=3:symbolize=1
failed=0

state_of() {  # LOG -> the checker's answer
  python3 "$checker" "$1"
}

for san in asan ubsan msan; do
  case $san in asan) letter=A ;; ubsan) letter=U ;; msan) letter=M ;; esac
  for depth in 0 1 3; do
    name="$letter$depth"
    printf '%s' "$name" > "$work/$name"
    "$targets/crash_depths_${san}_libfuzzer" "$work/$name" > "$work/$name.libfuzzer.log" 2>&1
    "$targets/crash_depths_$san" "$work/$name" > "$work/$name.front_end.log" 2>&1
    run="$work/run-$name"
    mkdir -p "$run/testdata/fuzz/LLVMFuzzerTestOneInput"
    printf 'go test fuzz v1\n[]byte("%s")\n' "$name" > "$run/testdata/fuzz/LLVMFuzzerTestOneInput/$name"
    (cd "$run" && "$cfuzz" run "$targets/crash_depths_$san" --cachedir "$run/cache" --fuzztime 1s) \
      > "$work/$name.worker.log" 2>&1
    want=$(state_of "$work/$name.libfuzzer.log")
    # The state starts at the bug (the harness's own frame is named after its file), so
    # the comparison below cannot pass on an empty or unparsed log.
    top=crash_depths.cc
    if [ "$depth" != 0 ]; then
      case $san in asan) top=overflow_heap ;; ubsan) top=overflow_int ;; msan) top=read_uninitialized ;; esac
    fi
    if [ "$(sed -n 2p <<< "$want")" != "$top" ]; then
      echo "FAIL $san $name: no state from the libFuzzer build:"; echo "$want"; failed=1; continue
    fi
    for how in front_end worker; do
      got=$(state_of "$work/$name.$how.log")
      if [ "$got" = "$want" ]; then
        echo "ok   $san $name $how: $(tr '\n' '|' <<< "$got")"
      else
        echo "FAIL $san $name $how: the cfuzz build's crash state differs from libFuzzer's"
        diff <(echo "$want") <(echo "$got") | sed 's/^/    /'
        failed=1
      fi
    done
  done
done
exit $failed

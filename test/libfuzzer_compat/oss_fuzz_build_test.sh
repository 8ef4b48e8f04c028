#!/usr/bin/env bash
# A fuzz target built the OSS-Fuzz way (docs/oss-fuzz.md): the project's own build with
# OSS-Fuzz's CC, CXX and CFLAGS for libFuzzer + AddressSanitizer, and cfuzz's runtime in
# $LIB_FUZZING_ENGINE instead of -fsanitize=fuzzer. It must pass the bad-build check, fuzz
# into a corpus directory, and find and reproduce the planted crash.
#
#   oss_fuzz_build_test.sh BIN_DIR HARNESS BAD_BUILD_CHECK CC CXX
set -euo pipefail
bin=$1 harness=$2 check=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# As OSS-Fuzz's compile step sets them for FUZZING_ENGINE=libfuzzer SANITIZER=address.
export CC=$4 CXX=$5
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE="$("$bin/cfuzz-clang" --lib-fuzzing-engine)"
echo "LIB_FUZZING_ENGINE=$LIB_FUZZING_ENGINE"

# A build.sh's usual two lines.
$CXX $CXXFLAGS -c "$harness" -o harness.o
$CXX $CXXFLAGS harness.o $LIB_FUZZING_ENGINE -o kinds_fuzzer

bash "$check" "$PWD/kinds_fuzzer"

mkdir corpus crashes
set +e
LIBFUZZER_KINDS_ARMED=CRSH ./kinds_fuzzer -timeout=25 -rss_limit_mb=2560 -artifact_prefix=crashes/ \
  -max_total_time=120 -print_final_stats=1 corpus >fuzz.log 2>&1
status=$?
set -e
if [ $status -eq 0 ] || ! grep -q "Test unit written to crashes/crash-" fuzz.log; then
  echo "FAIL: fuzzing exited $status without a crash artifact"
  cat fuzz.log
  exit 1
fi
unit=$(ls crashes/crash-*)
if ./kinds_fuzzer -runs=100 "$unit" >repro.log 2>&1; then
  echo "FAIL: $unit does not reproduce"
  cat repro.log
  exit 1
fi
grep -q "ERROR: AddressSanitizer: heap-buffer-overflow" repro.log
echo "the OSS-Fuzz-style build fuzzes, finds $unit and reproduces it"

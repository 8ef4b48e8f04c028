# The other examples build against the installed package and pass their seeds: typed (two
# fuzz tests, typed seed files) and libfuzzer (a C library, a plain libFuzzer harness, and
# the same harness built with libFuzzer itself).
# Usage: package_examples_test.sh <cmake> <ctest> <generator> <prefix> <examples dir>
source "$(dirname "$0")/lib.sh"
cmake=$1
ctest=$2
generator=$3
prefix=$4
examples=$5
need_file "$prefix/lib/cmake/cfuzz/cfuzzConfig.cmake" "the installed package"

build_example() {
  step "configure, build and ctest examples/$1"
  cp -r "$examples/$1" "$work/$1"
  expect 0 "$cmake" -S "$work/$1" -B "$work/$1-build" -G "$generator" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
  expect 0 "$cmake" --build "$work/$1-build"
  expect 0 "$ctest" --test-dir "$work/$1-build" --output-on-failure
}

build_example typed
money="$work/typed-build/fuzz_money"
has_baked_srcdir "$money"
(cd / && expect 0 "$money" --list)
contains "FuzzFormatParse" "$last"
contains "FuzzFromDouble" "$last"
(cd / && expect 0 "$money" -v --run FuzzFormatParse)
contains "--- PASS: FuzzFormatParse/int64_min" "$last"
contains "format(123456, 2) = \"1,234.56 EUR\"" "$last"
# With two fuzz tests, cfuzz run needs to be told which one.
expect 2 "$prefix/bin/cfuzz" run "$money" --fuzztime 100x --cachedir "$work/cache"
contains "FuzzFormatParse" "$last"

step "cfuzz run finds the typed bug and saves it in the source directory, not the current one"
# Found within a few thousand executions (well under a second); the budget is a safety net.
mkdir "$work/cwd"
(cd "$work/cwd" && expect 1 "$prefix/bin/cfuzz" run "$money" --fuzz FuzzFormatParse \
  --fuzztime 60s --cachedir "$work/cache")
cp "$last" "$work/typed-run.log"
contains "parse rejects what format wrote" "$work/typed-run.log"
[ -z "$(ls "$work/cwd")" ] || fail "cfuzz wrote into the current directory: $(ls -R "$work/cwd")"
saved="$(ls "$work/typed/testdata/fuzz/FuzzFormatParse" | grep -vx int64_min)" ||
  fail "no failing input in $work/typed/testdata/fuzz/FuzzFormatParse"
contains "To re-run:" "$work/typed-run.log"
contains "--run FuzzFormatParse/$saved" "$work/typed-run.log"
expect nonzero "$ctest" --test-dir "$work/typed-build" --output-on-failure
contains "--- FAIL: FuzzFormatParse/$saved" "$last"

build_example libfuzzer
simg="$work/libfuzzer-build/fuzz_simg"
has_baked_srcdir "$simg"
(cd / && expect 0 "$simg" -v)
contains "--- PASS: LLVMFuzzerTestOneInput/header_320x240" "$last"
# A short run: clean, or (if a stronger engine gets there in 2000 executions) the planted
# off-by-one in simg.c.
code=0
(cd "$work/cwd" && "$prefix/bin/cfuzz" run "$simg" --fuzztime 2000x --parallel 2 \
  --cachedir "$work/cache") >"$work/simg-run.log" 2>&1 || code=$?
case $code in
  0) contains "PASS" "$work/simg-run.log" ;;
  1) contains "heap-buffer-overflow" "$work/simg-run.log" && contains "simg.c" "$work/simg-run.log" ;;
  *) cat "$work/simg-run.log" >&2; fail "cfuzz run exited $code" ;;
esac

step "libFuzzer runs the same seeds"
mkdir "$work/raw"
expect 0 "$prefix/bin/cfuzz" corpus convert v12bin \
  "$examples/libfuzzer/testdata/fuzz/LLVMFuzzerTestOneInput/header_320x240" -o "$work/raw"
expect 0 "$work/libfuzzer-build/fuzz_simg_libfuzzer" -runs=0 "$work/raw"
contains "INITED" "$last"
echo PASS

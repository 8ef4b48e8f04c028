# The installed CMake package as a user meets it: examples/parser (a copy) configured out of
# tree with find_package(cfuzz) and clang, built, its seeds run by ctest, fuzzed by the
# installed cfuzz, and a failing seed file in its testdata making ctest fail.
# Usage: package_parser_test.sh <cmake> <ctest> <generator> <prefix> <examples/parser> <asan|none>
source "$(dirname "$0")/lib.sh"
cmake=$1
ctest=$2
generator=$3
prefix=$4
example=$5
sanitizers=$6
need_file "$prefix/lib/cmake/cfuzz/cfuzzConfig.cmake" "the installed package"

# A copy: the target bakes in its source directory, where cfuzz writes failing inputs.
cp -r "$example" "$work/parser"
src="$work/parser"
build="$work/build"
if [ "$sanitizers" = none ]; then
  sed -i 's/^cfuzz_add_fuzz_test(\(.*\))$/cfuzz_add_fuzz_test(\1 SANITIZE none)/' "$src/CMakeLists.txt"
  contains "SANITIZE none)" "$src/CMakeLists.txt"
fi

step "configure and build against $prefix ($sanitizers)"
expect 0 "$cmake" -S "$src" -B "$build" -G "$generator" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
expect 0 "$cmake" --build "$build"
target="$build/fuzz_config"
# The flags reach the user's sources: ASan and UBSan checks in the parser's object code.
object="$(find "$build" -name config.cc.o)"
need_file "$object" "config.cc's object file"
nm "$object" >"$work/config.nm"
contains "__sanitizer_cov_8bit_counters_init" "$work/config.nm"
if [ "$sanitizers" = none ]; then
  lacks "__asan_" "$work/config.nm"
  lacks "__ubsan_handle" "$work/config.nm"
else
  # cfuzz_add_fuzz_test's default: address,undefined.
  contains "__asan_report_load1" "$work/config.nm"
  contains "__ubsan_handle" "$work/config.nm"
fi

step "ctest runs the seeds, testdata files included, wherever it runs from"
has_baked_srcdir "$target"
expect 0 "$ctest" --test-dir "$build" --output-on-failure
contains "fuzz_config" "$last"
(cd / && expect 0 "$target" -v)
contains "--- PASS: FuzzParseConfig/seed#1" "$last"
contains "--- PASS: FuzzParseConfig/empty_section" "$last"

step "the installed cfuzz fuzzes it"
# The input that reads past its end: \u, two hex digits, and the end of the input.
overread='go test fuzz v1
string("k = \"\\u12")'
if [ "$sanitizers" = none ]; then
  # The parser's only bug is a one-byte over-read, which nothing notices without ASan;
  # the round-trip property holds: a clean run.
  expect 0 "$prefix/bin/cfuzz" run "$target" --fuzztime 2000x --parallel 2 --cachedir "$work/cache"
  contains "PASS" "$last"
  [ "$(ls "$src/testdata/fuzz/FuzzParseConfig")" = empty_section ] || fail "a clean run wrote to testdata"
  [ -n "$(ls "$work/cache/FuzzParseConfig")" ] || fail "the run cached no new corpus entry"

  step "without ASan the over-reading input passes"
  printf '%s\n' "$overread" >"$src/testdata/fuzz/FuzzParseConfig/overread"
  expect 0 "$ctest" --test-dir "$build" --output-on-failure
  (cd / && expect 0 "$target" -v)
  contains "--- PASS: FuzzParseConfig/overread" "$last"
else
  # 2000 executions rarely reach the bug (it takes 100000 and more); if they do, the report
  # must be the planted one, and its input saved in the source directory.
  code=0
  "$prefix/bin/cfuzz" run "$target" --fuzztime 2000x --parallel 2 --cachedir "$work/cache" \
    >"$work/run.log" 2>&1 || code=$?
  case $code in
    0)
      contains "PASS" "$work/run.log"
      [ -n "$(ls "$work/cache/FuzzParseConfig")" ] || fail "the run cached no new corpus entry"
      ;;
    1)
      contains "AddressSanitizer" "$work/run.log"
      contains "config.cc" "$work/run.log"
      contains "Failing input written to" "$work/run.log"
      found="$(ls "$src/testdata/fuzz/FuzzParseConfig" | grep -vx empty_section)" ||
        fail "cfuzz reported a failure but wrote no file to $src/testdata/fuzz/FuzzParseConfig"
      rm "$src/testdata/fuzz/FuzzParseConfig/$found"
      ;;
    *) cat "$work/run.log" >&2; fail "cfuzz run exited $code" ;;
  esac

  step "a failing seed file in the source directory's testdata makes ctest fail"
  printf '%s\n' "$overread" >"$src/testdata/fuzz/FuzzParseConfig/overread"
  expect nonzero "$ctest" --test-dir "$build" --output-on-failure
  contains "--- FAIL: FuzzParseConfig/overread" "$last"
  contains "AddressSanitizer" "$last"
  rm "$src/testdata/fuzz/FuzzParseConfig/overread"
  expect 0 "$ctest" --test-dir "$build"
fi
echo PASS

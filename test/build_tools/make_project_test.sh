# The compiler wrappers in a make-style build: CC=cfuzz-clang CXX=cfuzz-clang++ make builds
# a C static library, a C shared library and a C++ harness (make_project/); the harness runs
# its seeds, and `cfuzz run` finds the bug planted in the shared library.
# Usage: make_project_test.sh <cfuzz> <make_project source dir>
source "$(dirname "$0")/lib.sh"
cfuzz=$1
project=$2
bin="$(dirname "$cfuzz")"
need_file "$cfuzz" "cfuzz"
need_file "$bin/cfuzz-clang++" "the cfuzz-clang++ wrapper"

cp -r "$project" "$work/src"
cd "$work/src"

step "CC=cfuzz-clang CXX=cfuzz-clang++ make"
expect 0 env CC="$bin/cfuzz-clang" CXX="$bin/cfuzz-clang++" make
cp "$last" "$work/make.log"
contains "cfuzz-clang -g -O1 -fPIC -c record.c" "$work/make.log"
contains "cfuzz-clang -g -O1 -shared record.o -o librecord.so" "$work/make.log"

step "the C objects, archived and shared, are instrumented"
nm libchecksum.a >"$work/a.nm"
contains "U __sanitizer_cov_8bit_counters_init" "$work/a.nm"
nm -D librecord.so >"$work/so.nm"
contains "U __sanitizer_cov_8bit_counters_init" "$work/so.nm"

step "the shared library holds no runtime: no main, no cfuzz code, no callbacks"
nm -D --defined-only librecord.so >"$work/so-defined.nm"
contains "T record_weight" "$work/so-defined.nm"
for symbol in " main" "cfuzz" "__sanitizer_cov_8bit_counters_init" "LLVMFuzzer"; do
  lacks "$symbol" "$work/so-defined.nm"
done

step "the harness has the runtime and exports the callbacks the shared library binds to"
nm -D --defined-only fuzz_records >"$work/exe.nm"
contains "T __sanitizer_cov_8bit_counters_init" "$work/exe.nm"
contains "T __sanitizer_cov_pcs_init" "$work/exe.nm"

step "./fuzz_records runs its seeds (exit 0)"
mkdir "$work/elsewhere"
(cd "$work/elsewhere" && expect 0 "$work/src/fuzz_records" -v)
contains "--- PASS: FuzzRecords/seed#0" "$last"

step "cfuzz run --fuzztime 2000x finds the empty-key bug in librecord.so"
# The bug is a few mutations from the seed (it is found within about 50 executions), so
# 2000 is a wide margin; -v reports how many coverage counters the target has.
expect 1 "$cfuzz" run ./fuzz_records --fuzztime 2000x --parallel 2 --cachedir "$work/cache" -v
cp "$last" "$work/run.log"
contains "deadly signal SIGSEGV" "$work/run.log"
contains "librecord.so" "$work/run.log"
contains "Failing input written to testdata/fuzz/FuzzRecords/" "$work/run.log"
saved="$(only_file testdata/fuzz/FuzzRecords)"
# Minimized: the shortest input that reaches the bug is an empty key with an empty value.
[ "$(cat "$saved")" = "$(printf 'go test fuzz v1\nstring(":;")')" ] || {
  cat "$saved" >&2
  fail "unexpected minimized input in $saved"
}
contains "./fuzz_records --run FuzzRecords/$(basename "$saved")" "$work/run.log"

step "the coordinator counts the shared library's coverage counters"
# Each instrumented module has one 8-bit counter per edge in its __sancov_cntrs section.
counters() {
  local hex
  hex="$(objdump -h "$1" | awk '$2 == "__sancov_cntrs" { print $3 }')"
  [ -n "$hex" ] || fail "$1 has no __sancov_cntrs section"
  echo $((16#$hex))
}
exe_counters="$(counters fuzz_records)"
so_counters="$(counters librecord.so)"
stack_depth_steps=32 # the runtime's own (runtime/engine/stack_depth_feature.h)
contains " $((exe_counters + so_counters + stack_depth_steps)) counters" "$work/run.log"

step "the saved input fails the seed run, by itself and among the seeds"
expect_failure ./fuzz_records --run "FuzzRecords/$(basename "$saved")"
contains "FuzzRecords/$(basename "$saved")" "$last"
expect_failure ./fuzz_records
contains "--- FAIL: FuzzRecords/$(basename "$saved")" "$last"
echo PASS

# cfuzz-clang compiles C as C (no C++ flags) with SanitizerCoverage; cfuzz-clang++ answers
# --version like the compiler it wraps, keeps the compiler's default language standard, and
# adds no debug info of its own to a target.
# Usage: wrapper_basics_test.sh <bin dir holding cfuzz-clang and cfuzz-clang++>
source "$(dirname "$0")/lib.sh"
bin=$1
need_file "$bin/cfuzz-clang" "the cfuzz-clang wrapper"

step "cfuzz-clang++ --version"
expect 0 "$bin/cfuzz-clang++" --version
contains "clang version" "$last"

step "cfuzz-clang -c on C code that is not C++"
# `restrict` and an implicit conversion from void*: valid C, errors in C++.
cat >"$work/plain.c" <<'C'
#include <stdlib.h>
int sum(const int* restrict v, int n) {
  int* copy = malloc(sizeof(int) * (size_t)n);
  int s = 0;
  for (int i = 0; i < n; ++i) {
    copy[i] = v[i];
    if (copy[i] > 0) s += copy[i];
  }
  free(copy);
  return s;
}
C
expect 0 "$bin/cfuzz-clang" -O1 -c "$work/plain.c" -o "$work/plain.o"
nm "$work/plain.o" >"$work/plain.nm"
contains "U __sanitizer_cov_8bit_counters_init" "$work/plain.nm"
contains "U __sanitizer_cov_pcs_init" "$work/plain.nm"
# -O1 keeps the comparison with a constant: comparison tracing is on as well.
contains "__sanitizer_cov_trace_const_cmp4" "$work/plain.nm"

step "cfuzz-clang++ keeps the compiler's default C++ standard"
default_std=$(clang++ -x c++ -E -dM /dev/null | grep '#define __cplusplus ')
wrapped_std=$("$bin/cfuzz-clang++" -x c++ -E -dM /dev/null | grep '#define __cplusplus ')
[ "$default_std" = "$wrapped_std" ] || fail "clang++ has $default_std, cfuzz-clang++ $wrapped_std"

step "a CFUZZ_TEST file without -std=c++20 gets one line of advice"
printf '#include <cfuzz/cfuzz.h>\n' >"$work/needs20.cc"
expect nonzero "$bin/cfuzz-clang++" -std=c++17 -c "$work/needs20.cc" -o "$work/needs20.o"
contains "cfuzz.h needs C++20: compile fuzz tests with -std=c++20" "$last"

step "a fuzz parameter holding a pointer or a char is a compile-time error that says so"
cat >"$work/pointer_field.cc" <<'CC'
#include <cfuzz/cfuzz.h>
struct Node { int value; Node* next; };
CFUZZ_TEST(FuzzNode, f) { f.fuzz([](cfuzz::T&, const std::vector<Node>&) {}); }
CC
expect nonzero "$bin/cfuzz-clang++" -std=c++20 -c "$work/pointer_field.cc" -o "$work/pointer_field.o"
contains "cfuzz: a fuzz value cannot hold pointers or references; hold the value itself" "$last"
cat >"$work/char_element.cc" <<'CC'
#include <cfuzz/cfuzz.h>
CFUZZ_TEST(FuzzChars, f) { f.fuzz([](cfuzz::T&, const std::vector<char>&) {}); }
CC
expect nonzero "$bin/cfuzz-clang++" -std=c++20 -c "$work/char_element.cc" -o "$work/char_element.o"
contains "cfuzz: \`char\` has no fuzz type (its signedness varies); use std::uint8_t or std::int8_t" "$last"

step "a libFuzzer harness built without -g carries no debug info (none from the runtime)"
cat >"$work/harness.cc" <<'CC'
#include <cstddef>
#include <cstdint>
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return size > 2 && data[0] == 'x' ? 1 : 0;
}
CC
expect 0 "$bin/cfuzz-clang++" -O1 "$work/harness.cc" -o "$work/harness"
readelf -S "$work/harness" >"$work/harness.sections"
lacks ".debug_info" "$work/harness.sections"

echo PASS

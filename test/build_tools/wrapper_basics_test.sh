# cfuzz-clang compiles C as C (no C++ flags) with SanitizerCoverage, and cfuzz-clang++
# answers --version like the compiler it wraps.
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

echo PASS

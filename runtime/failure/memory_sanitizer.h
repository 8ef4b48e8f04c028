// MemorySanitizer in a target built with -fsanitize=memory. The runtime is not instrumented
// (runtime/CMakeLists.txt), so MSan never sees it initialize anything: to MSan every byte
// the runtime writes to the heap is still uninitialized. Two consequences, handled here as
// libFuzzer handles them for its own uninstrumented code (FuzzerLoop.cpp's
// ScopedEnableMsanInterceptorChecks, MSanUnpoison):
// - MSan's interceptors (fopen, write, memcmp...) would report the runtime's own calls. Their
//   checks are off in the runtime's threads and on only while the fuzz function runs, as
//   in the target's own code.
// - What the runtime hands to the target's code (the input's bytes, the argument views,
//   the call's parameters) is marked initialized just before the call.
// Each function does nothing in a target without MSan. The MSan entry points are reached
// through pointers, never called directly, so that an ASan build of the runtime has no
// calls to __msan_* in its code (OSS-Fuzz's bad-build check counts them).
#pragma once

#include <cstddef>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

// MSan's entry points, null without MSan. External linkage and not const: the compiler
// cannot fold these into direct calls (see above on why there must be none). Inline
// wrappers below, because they sit on every execution's path.
struct MsanFunctions {
  void (*unpoison)(const volatile void*, std::size_t);
  void (*unpoison_param)(std::size_t);
  void (*disable_checks)();
  void (*enable_checks)();
};
extern MsanFunctions g_msan_functions;

inline bool msan_linked() { return g_msan_functions.unpoison != nullptr; }

// Interceptor checks off in the calling thread: at the start of main and of each thread
// the runtime starts.
inline void msan_disable_interceptor_checks() {
  if (g_msan_functions.disable_checks != nullptr) g_msan_functions.disable_checks();
}

// Marks [p, p + n) initialized.
inline void msan_unpoison(const volatile void* p, std::size_t n) {
  if (g_msan_functions.unpoison != nullptr && n != 0) g_msan_functions.unpoison(p, n);
}

// Marks the first `n` parameters of the next call into instrumented code initialized (the
// runtime, not instrumented, never writes their shadow). Call it right before that call.
inline void msan_unpoison_params(std::size_t n) {
  if (g_msan_functions.unpoison_param != nullptr) g_msan_functions.unpoison_param(n);
}

// Interceptor checks on for the fuzz function's run, off again after it (also when it
// throws).
class MsanChecksWhileFuzzing {
 public:
  MsanChecksWhileFuzzing() {
    if (g_msan_functions.enable_checks != nullptr) g_msan_functions.enable_checks();
  }
  ~MsanChecksWhileFuzzing() { msan_disable_interceptor_checks(); }
  MsanChecksWhileFuzzing(const MsanChecksWhileFuzzing&) = delete;
  MsanChecksWhileFuzzing& operator=(const MsanChecksWhileFuzzing&) = delete;
};

}  // namespace fuzzer::cfuzz

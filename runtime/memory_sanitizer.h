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

#include "runtime/engine_namespace.h"

namespace fuzzer::cfuzz {

bool msan_linked();

// Interceptor checks off in the calling thread: at the start of main and of each thread
// the runtime starts.
void msan_disable_interceptor_checks();

// Marks [p, p + n) initialized.
void msan_unpoison(const volatile void* p, std::size_t n);

// Marks the first `n` parameters of the next call into instrumented code initialized (the
// runtime, not instrumented, never writes their shadow). Call it right before that call.
void msan_unpoison_params(std::size_t n);

// Interceptor checks on for the fuzz function's run, off again after it (also when it
// throws).
class MsanChecksWhileFuzzing {
 public:
  MsanChecksWhileFuzzing();
  ~MsanChecksWhileFuzzing();
  MsanChecksWhileFuzzing(const MsanChecksWhileFuzzing&) = delete;
  MsanChecksWhileFuzzing& operator=(const MsanChecksWhileFuzzing&) = delete;
};

}  // namespace fuzzer::cfuzz

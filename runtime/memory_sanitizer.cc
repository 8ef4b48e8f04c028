#include "runtime/memory_sanitizer.h"

extern "C" {
// MemorySanitizer's interface (sanitizer/msan_interface.h), weak: present only under MSan.
void __msan_unpoison(const volatile void* a, std::size_t size) __attribute__((weak));
void __msan_unpoison_param(std::size_t n) __attribute__((weak));
void __msan_scoped_disable_interceptor_checks() __attribute__((weak));
void __msan_scoped_enable_interceptor_checks() __attribute__((weak));
}

namespace fuzzer::cfuzz {

// External linkage and not const: the compiler cannot fold these into direct calls (see
// the header on why there must be none).
struct MsanFunctions {
  void (*unpoison)(const volatile void*, std::size_t);
  void (*unpoison_param)(std::size_t);
  void (*disable_checks)();
  void (*enable_checks)();
};
MsanFunctions g_msan_functions = {&__msan_unpoison, &__msan_unpoison_param, &__msan_scoped_disable_interceptor_checks,
                                  &__msan_scoped_enable_interceptor_checks};

bool msan_linked() { return g_msan_functions.unpoison != nullptr; }

void msan_disable_interceptor_checks() {
  if (g_msan_functions.disable_checks != nullptr) g_msan_functions.disable_checks();
}

void msan_unpoison(const volatile void* p, std::size_t n) {
  if (g_msan_functions.unpoison != nullptr && n != 0) g_msan_functions.unpoison(p, n);
}

void msan_unpoison_params(std::size_t n) {
  if (g_msan_functions.unpoison_param != nullptr) g_msan_functions.unpoison_param(n);
}

MsanChecksWhileFuzzing::MsanChecksWhileFuzzing() {
  if (g_msan_functions.enable_checks != nullptr) g_msan_functions.enable_checks();
}

MsanChecksWhileFuzzing::~MsanChecksWhileFuzzing() {
  if (g_msan_functions.disable_checks != nullptr) g_msan_functions.disable_checks();
}

}  // namespace fuzzer::cfuzz

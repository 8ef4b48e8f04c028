#include "runtime/failure/memory_sanitizer.h"

extern "C" {
// MemorySanitizer's interface (sanitizer/msan_interface.h), weak: present only under MSan.
void __msan_unpoison(const volatile void* a, std::size_t size) __attribute__((weak));
void __msan_unpoison_param(std::size_t n) __attribute__((weak));
void __msan_scoped_disable_interceptor_checks() __attribute__((weak));
void __msan_scoped_enable_interceptor_checks() __attribute__((weak));
}

namespace fuzzer::cfuzz {

MsanFunctions g_msan_functions = {&__msan_unpoison, &__msan_unpoison_param, &__msan_scoped_disable_interceptor_checks,
                                  &__msan_scoped_enable_interceptor_checks};

}  // namespace fuzzer::cfuzz

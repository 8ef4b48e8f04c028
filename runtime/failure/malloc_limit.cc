#include "runtime/failure/malloc_limit.h"

#include <cstddef>
#include <cstdio>

#include "core/shm_layout.h"
#include "runtime/failure/crash_handler.h"

extern "C" {
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*, std::size_t),
                                              void (*free_hook)(const volatile void*)) __attribute__((weak));
}

namespace fuzzer::cfuzz {

namespace {

std::size_t g_limit_bytes = 0;

void on_malloc(const volatile void*, std::size_t size) {
  if (size <= g_limit_bytes) return;
  if (execution_state().phase->load(std::memory_order_relaxed) != static_cast<std::uint32_t>(core::Phase::Executing)) {
    return;  // the runtime's own allocations are not the input's
  }
  char message[48];
  std::snprintf(message, sizeof message, "malloc(%zu)", size);
  fail_running_input(core::FailureKind::OutOfMemory, kMallocLimitDetail, message);
}

void on_free(const volatile void*) {}

}  // namespace

bool enable_malloc_limit(std::uint64_t limit_mb) {
  if (__sanitizer_install_malloc_and_free_hooks == nullptr || limit_mb == 0) return false;
  g_limit_bytes = static_cast<std::size_t>(limit_mb) << 20;
  return __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free) != 0;
}

}  // namespace fuzzer::cfuzz

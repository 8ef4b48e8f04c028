#include "runtime/failure/leak_check.h"

#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "core/failure_record.h"
#include "runtime/failure/crash_handler.h"

// Sanitizer interfaces, weak: present only when the target links a sanitizer runtime.
extern "C" {
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*, std::size_t),
                                              void (*free_hook)(const volatile void*)) __attribute__((weak));
int __lsan_do_recoverable_leak_check() __attribute__((weak));
}

namespace fuzzer::cfuzz {

namespace {

constexpr int kMaxFruitlessChecks = 1000;
// The stack cleared below a check: LeakSanitizer's frames there take under 1 KiB (clang 14,
// Linux); the rest is margin, still small next to any thread's stack.
constexpr std::size_t kClearedStackBytes = 32 * 1024;

bool g_enabled = false;
int g_fruitless_checks = 0;
std::atomic<bool> g_tracking{false};
std::atomic<std::size_t> g_mallocs{0}, g_frees{0};

void on_malloc(const volatile void*, std::size_t) {
  if (g_tracking.load(std::memory_order_relaxed)) g_mallocs.fetch_add(1, std::memory_order_relaxed);
}

void on_free(const volatile void* p) {
  if (p != nullptr && g_tracking.load(std::memory_order_relaxed)) g_frees.fetch_add(1, std::memory_order_relaxed);
}

// LeakSanitizer takes every word of a live stack for a possible pointer, its own frames'
// included. Those frames lie where the input's were, and a slot they do not write still holds
// what the input left there: often the address of the block just leaked, which memset's or
// malloc's frame saved from the register the input kept it in, so the block looked
// reachable. Cleared first, only live frames can keep a block. noinline: the check's frames
// take this one's place.
__attribute__((noinline)) void clear_stack_below_caller() {
  volatile std::uintptr_t words[kClearedStackBytes / sizeof(std::uintptr_t)];
  for (auto& w : words) w = 0;
}

}  // namespace

void enable_leak_detection() {
  if (g_enabled || __lsan_do_recoverable_leak_check == nullptr ||
      __sanitizer_install_malloc_and_free_hooks == nullptr) {
    return;
  }
  g_enabled = __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free) != 0;
}

void leak_tracking_begin() {
  if (!g_enabled) return;
  g_mallocs.store(0, std::memory_order_relaxed);
  g_frees.store(0, std::memory_order_relaxed);
  g_tracking.store(true, std::memory_order_relaxed);
}

void leak_tracking_end() { g_tracking.store(false, std::memory_order_relaxed); }

bool input_leaked() {
  if (!g_enabled) return false;
  if (g_mallocs.load(std::memory_order_relaxed) <= g_frees.load(std::memory_order_relaxed)) return false;
  clear_stack_below_caller();
  if (__lsan_do_recoverable_leak_check() != 0) return true;
  if (++g_fruitless_checks == kMaxFruitlessChecks) {
    g_enabled = false;
    std::fprintf(stderr,
                 "cfuzz: leak checks after each input stopped: %d inputs allocated more than they freed "
                 "without leaking (memory kept in global state?)\n",
                 kMaxFruitlessChecks);
  }
  return false;
}

void fail_input_for_leak() {
  fail_running_input(core::FailureKind::Sanitizer, "LeakSanitizer: detected memory leaks",
                     "the input leaked memory (LeakSanitizer's report, above, says where it was "
                     "allocated)");
}

}  // namespace fuzzer::cfuzz

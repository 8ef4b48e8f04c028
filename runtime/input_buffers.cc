#include "runtime/input_buffers.h"

#include <cstring>

#include "core/shm_layout.h"

extern "C" {
void __asan_poison_memory_region(void const volatile* addr, std::size_t size) __attribute__((weak));
void __asan_unpoison_memory_region(void const volatile* addr, std::size_t size) __attribute__((weak));
}

namespace cfuzz::runtime {

namespace {

bool asan_present() { return __asan_poison_memory_region != nullptr; }

}  // namespace

InputBuffers::InputBuffers() : buffers_(core::kMaxValues) {}

InputBuffers::~InputBuffers() {
  if (!asan_present()) return;
  for (Buffer& b : buffers_) {
    if (b.bytes != nullptr) __asan_unpoison_memory_region(b.bytes.get(), b.capacity);
  }
}

const std::uint8_t* InputBuffers::fill(std::size_t slot, const std::uint8_t* data, std::size_t n) {
  Buffer& b = buffers_[slot];
  if (n > b.capacity || b.bytes == nullptr) {
    if (b.bytes != nullptr && asan_present()) __asan_unpoison_memory_region(b.bytes.get(), b.capacity);
    std::size_t cap = n < 64 ? 64 : n + n / 2;
    b.bytes.reset(new std::uint8_t[cap]);
    b.capacity = cap;
    b.poisoned_from = cap;
  }
  if (asan_present() && n != b.poisoned_from) {
    // Unpoison what this input needs, poison everything after it.
    if (n > b.poisoned_from) __asan_unpoison_memory_region(b.bytes.get() + b.poisoned_from, n - b.poisoned_from);
    if (n < b.capacity) __asan_poison_memory_region(b.bytes.get() + n, b.capacity - n);
    b.poisoned_from = n;
  }
  if (n != 0) std::memcpy(b.bytes.get(), data, n);
  return b.bytes.get();
}

}  // namespace cfuzz::runtime

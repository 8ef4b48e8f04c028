#include "runtime/engine/input_buffers.h"

#include <cstring>

#include "core/shm_layout.h"

extern "C" {
void __asan_poison_memory_region(void const volatile* addr, std::size_t size) __attribute__((weak));
}

namespace fuzzer::cfuzz {

namespace {

// Under AddressSanitizer every value gets an allocation of exactly its size, as libFuzzer
// gives every input: reading one byte too far is then a heap-buffer-overflow in the report,
// which says what happened better than anything else could. (Only when the size changes:
// the same size reuses the allocation.) Without it, buffers grow and are reused.
bool exact_allocations() { return __asan_poison_memory_region != nullptr; }

}  // namespace

InputBuffers::InputBuffers() : buffers_(core::kMaxValues) {}

InputBuffers::~InputBuffers() = default;

const std::uint8_t* InputBuffers::fill(std::size_t slot, const std::uint8_t* data, std::size_t n) {
  Buffer& b = buffers_[slot];
  if (exact_allocations()) {
    if (b.bytes == nullptr || b.capacity != n) {
      b.bytes.reset(new std::uint8_t[n]);
      b.capacity = n;
    }
  } else if (b.bytes == nullptr || n > b.capacity) {
    std::size_t cap = n < 64 ? 64 : n + n / 2;
    b.bytes.reset(new std::uint8_t[cap]);
    b.capacity = cap;
  }
  if (n != 0) std::memcpy(b.bytes.get(), data, n);
  return b.bytes.get();
}

}  // namespace fuzzer::cfuzz

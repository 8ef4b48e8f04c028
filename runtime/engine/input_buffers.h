// The copies of an input's byte values that the fuzz function sees.
//
// The fuzz function never gets a pointer into shared memory (what it writes there would
// change the recorded input). Each byte value is copied into a buffer of its own, reused
// from input to input; under AddressSanitizer the buffer has exactly the value's size, so
// reading one byte too far is reported as a heap-buffer-overflow, as libFuzzer reports it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

class InputBuffers {
 public:
  InputBuffers();
  ~InputBuffers();
  InputBuffers(const InputBuffers&) = delete;
  InputBuffers& operator=(const InputBuffers&) = delete;

  // Copies `n` bytes into buffer `slot` and returns it.
  const std::uint8_t* fill(std::size_t slot, const std::uint8_t* data, std::size_t n);

 private:
  struct Buffer {
    std::unique_ptr<std::uint8_t[]> bytes;
    std::size_t capacity = 0;
  };
  std::vector<Buffer> buffers_;
};

}  // namespace fuzzer::cfuzz

// The custom-mutator path's own cost: the empty target with a custom mutator that only
// calls back into the engine's byte mutator (LLVMFuzzerMutate), as most custom mutators do
// after decoding. Compared with "empty", the difference is what the path itself costs.
#include <cstddef>
#include <cstdint>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int) {
  return LLVMFuzzerMutate(data, size, max_size);
}

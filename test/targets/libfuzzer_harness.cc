// An unmodified libFuzzer harness: builds with clang -fsanitize=fuzzer as well as with
// cfuzz-clang++. The bug: a length field that is trusted.
#include <cstddef>
#include <cstdint>
#include <cstring>

static int initialized = 0;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  initialized = 1;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!initialized) __builtin_trap();
  if (size < 4 || std::memcmp(data, "LEN:", 4) != 0) return 0;
  if (size >= 6 && data[4] == 'Z' && data[5] == '!') {
    char buf[8];
    std::memcpy(buf, data, size);  // overflows buf when the input is longer than 8 bytes
    return buf[0];
  }
  return 0;
}
